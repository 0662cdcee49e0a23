// Numbers as terraform 1.11.4 stores them (issue 31 item 11), on the same files in both
// syntaxes, through apply to the state, `output -json` and `show -json`: a float64-precision
// number (what pow returns) printed and stored with the fewest digits at 53 bits
// (pow(2, 64) is 18446744073709550000), negative zero ("-0" from tostring and jsonencode, 0
// once it has gone through the plan), 512-bit arithmetic on such numbers, and sets of objects
// ordered by go-cty's hash strings — in outputs and in the random provider's arguments
// (keepers, random_integer's bounds). Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expectSameRuns, initialisedPair, pairCliConfig, runPair, stableState, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const OUTPUTS: Record<string, string> = {
  pow: "pow(2, 64)",
  pows: "tostring(pow(2, 64))",
  negz: "tostring(-0)",
  negzn: "-0",
  json: "jsonencode([pow(2, 64), -0, 0.1, 1/3, pow(2, 53) + 1, pow(2, -30), pow(3, 40), pow(3, 40) + 0, 0 * -1])",
  sum: "pow(2, 64) + pow(2, 64)",
  exact: "pow(2, 64) * 1",
  lit: "18446744073709551616",
  zeros: "jsonencode(toset([0, -0]))",
  objs: 'toset([{a = 100}, {a = 1e20}, {a = 2}, {a = 0.00001}, {a = 12345678901}, {a = 1.5}, {a = -3}, {a = pow(2, 64)}, {a = 1.00000000002}, {a = 1.00000000001}])',
  strs: 'jsonencode(toset([{a = "é"}, {a = "\\t"}, {a = "z"}, {a = "A"}]))',
};
const KEEPERS: Record<string, string> = { p: "pow(2, 64)", z: "-0", t: "pow(2, 0.5)" };
// JSON text: sensitive, as magma's plan does not yet render JSON strings as terraform's
// `jsonencode(...)` (engine README); state and `output -json` show them.
const SENSITIVE = new Set(["json", "zeros", "strs"]);

const native = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_string" "k" {
  length  = 2
  special = false
  keepers = {
${Object.entries(KEEPERS)
  .map(([k, e]) => `    ${k} = ${e}`)
  .join("\n")}
  }
}
resource "random_integer" "i" {
  min = -0
  max = pow(2, 60)
}
${Object.entries(OUTPUTS)
  .map(([k, e]) => `output "${k}" {\n  value = ${e}\n${SENSITIVE.has(k) ? "  sensitive = true\n" : ""}}\n`)
  .join("")}output "kp" {
  value = random_string.k.keepers["p"]
}
output "kz" {
  value = random_string.k.keepers["z"]
}
output "max" {
  value = random_integer.i.max
}
`;

const json = JSON.stringify({
  terraform: { required_providers: { random: { source: "magma/random" } } },
  resource: {
    random_string: { k: { length: 2, special: false, keepers: Object.fromEntries(Object.entries(KEEPERS).map(([k, e]) => [k, `\${${e}}`])) } },
    random_integer: { i: { min: -0, max: "${pow(2, 60)}" } },
  },
  output: {
    ...Object.fromEntries(Object.entries(OUTPUTS).map(([k, e]) => [k, { value: `\${${e}}`, ...(SENSITIVE.has(k) ? { sensitive: true } : {}) }])),
    kp: { value: '${random_string.k.keepers["p"]}' },
    kz: { value: '${random_string.k.keepers["z"]}' },
    max: { value: "${random_integer.i.max}" },
  },
});

const COMMANDS = [["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]] as const;

/** A reading command (no `-input` flag) run in both directories: magma's run first. */
async function readBoth(pair: Pair, args: readonly string[]): Promise<[ToolRun, ToolRun]> {
  return Promise.all([runTool("magma", args, pair[0], {}), runTool("terraform", args, pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
}

(TERRAFORM !== undefined ? describe : describe.skip)("numbers as terraform stores them, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": native }],
    // The number token -0 (JSON.stringify writes 0).
    ["JSON syntax", { "main.tf.json": json.replace('"min":0,', '"min":-0,') }],
  ])("%s: apply, state, output -json, show -json", async (_name, files) => {
    const pair = await initialisedPair(files);
    const runs = await runPair(pair, COMMANDS);
    const blankResults = (s: string): string =>
      s
        .replace(/("result": )\d+/g, "$1N")
        .replace(/("(?:result|id)": )"[^"]*"/g, '$1"R"');
    expectSameRuns(
      runs.map(([o, t]) => [{ ...o, stdout: blankResults(o.stdout) }, { ...t, stdout: blankResults(t.stdout) }] as const),
      COMMANDS,
    );
    const state = JSON.stringify(stableState(pair[1]));
    expect(state).toContain('"value":18446744073709550000');
    expect(state).toContain('"negz":{"value":"-0"');
    expect(state).toContain('"p":"18446744073709550000"');
    expect(JSON.stringify(stableState(pair[0]))).toBe(state);
    // The state file's bytes (number texts and their layout), not only its parsed values.
    const text = (dir: string): string => blankResults(readFileSync(join(dir, "terraform.tfstate"), "utf8")).replace(/"(lineage|serial)": [^,]*,/g, "");
    expect(text(pair[0])).toBe(text(pair[1]));
    // output -json: the same text (number texts included), apart from the random results.
    const outputs = await readBoth(pair, ["output", "-json"]);
    expect(outputs[1].code).toBe(0);
    expect({ ...outputs[0], stdout: blankResults(outputs[0].stdout) }).toEqual({ ...outputs[1], stdout: blankResults(outputs[1].stdout) });
    expect(outputs[1].stdout).toContain('"value": 18446744073709550000');
    const show = await readBoth(pair, ["show", "-json"]);
    // Compared as text: the numbers' texts are the point (JSON.parse would round them alike).
    const shown = (s: string): string => s.replace(/("(?:result|id)":)(\d+|"[^"]*")/g, '$1"R"');
    expect(show[0].code).toBe(0);
    expect(shown(show[0].stdout)).toBe(shown(show[1].stdout));
    expect(show[1].stdout).toContain("18446744073709550000");
  }, 600_000);
});

// `magma output` against terraform 1.11.4 on states each tool applied from the same files,
// in native and JSON syntax: -raw of strings, numbers and bools, the refusals of -raw
// (a tuple, a list, an object, a map, a set: each named as go-cty's FriendlyName, "is tuple", "is list of string", …), an output not found, -raw with -json or
// without a name (with terraform's help prompt), and the "No outputs found" warning (on
// stdout, the text of terraform 1.11.4) for a state without outputs, by name and -raw too.
// Terraform's view prints these diagnostics wrapped at the stream's width with no blank
// line after them. Exit code, stdout and stderr byte for byte. Skipped without terraform.
import { initialisedPair, pairCliConfig } from "./support/lang-pair.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = `output "str" {
  value = "s"
}
output "num" {
  value = 1.5
}
output "yes" {
  value = true
}
output "tup" {
  value = ["a", 1]
}
output "lst" {
  value = tolist(["a"])
}
output "obj" {
  value = { a = 1 }
}
output "mp" {
  value = tomap({ a = 1 })
}
output "st" {
  value = toset([1])
}
`;

const JSON_SYNTAX = JSON.stringify({
  output: {
    str: { value: "s" },
    num: { value: 1.5 },
    yes: { value: true },
    tup: { value: ["a", 1] },
    lst: { value: '${tolist(["a"])}' },
    obj: { value: { a: 1 } },
    mp: { value: "${tomap({ a = 1 })}" },
    st: { value: "${toset([1])}" },
  },
});

const COMMANDS: readonly (readonly string[])[] = [
  ["output", "-no-color", "-raw", "str"],
  ["output", "-no-color", "-raw", "num"],
  ["output", "-no-color", "-raw", "yes"],
  ["output", "-no-color", "-raw", "tup"],
  ["output", "-no-color", "-raw", "lst"],
  ["output", "-no-color", "-raw", "obj"],
  ["output", "-no-color", "-raw", "mp"],
  ["output", "-no-color", "-raw", "st"],
  ["output", "-no-color", "nope"],
  ["output", "-no-color", "-raw", "nope"],
  ["output", "-no-color", "-json", "nope"],
  ["output", "-no-color", "-raw", "-json", "str"],
  ["output", "-no-color", "-raw"],
];

/** Runs `commands` in each directory of a pair (magma's first); the runs side by side. */
async function runBoth(pair: readonly [string, string], commands: readonly (readonly string[])[]): Promise<unknown[]> {
  const env = { TF_CLI_CONFIG_FILE: pairCliConfig() };
  const out: unknown[] = [];
  for (const c of commands) {
    const [m, t] = await Promise.all([runTool("magma", c, pair[0], {}), runTool("terraform", c, pair[1], env)]);
    out.push([{ command: c.join(" "), ...m }, { command: c.join(" "), ...t }]);
  }
  return out;
}

(TERRAFORM !== undefined ? describe : describe.skip)("output's values and diagnostics, against terraform's", () => {
  test.each([
    ["native", { "main.tf": NATIVE }],
    ["JSON", { "main.tf.json": JSON_SYNTAX }],
  ])("%s syntax", async (_syntax, files) => {
    const pair = await initialisedPair(files);
    const env = { TF_CLI_CONFIG_FILE: pairCliConfig() };
    const applied = await Promise.all([
      runTool("magma", ["apply", "-no-color", "-auto-approve"], pair[0], {}),
      runTool("terraform", ["apply", "-no-color", "-auto-approve"], pair[1], env),
    ]);
    expect(applied.map((r) => r.code)).toEqual([0, 0]);
    const runs = (await runBoth(pair, COMMANDS)) as [object, object][];
    for (const [ours, theirs] of runs) expect(ours).toEqual(theirs);
    // The values printed (not two runs that both refused everything).
    expect(runs[0]![0]).toMatchObject({ code: 0, stdout: "s" });
  }, 240_000);

  test("a state without outputs", async () => {
    const pair = await initialisedPair({ "main.tf": 'resource "terraform_data" "t" {}\n' });
    const env = { TF_CLI_CONFIG_FILE: pairCliConfig() };
    await Promise.all([runTool("magma", ["apply", "-no-color", "-auto-approve"], pair[0], {}), runTool("terraform", ["apply", "-no-color", "-auto-approve"], pair[1], env)]);
    const runs = (await runBoth(pair, [["output", "-no-color"], ["output", "-no-color", "x"], ["output", "-no-color", "-raw", "x"], ["output", "-no-color", "-json"]])) as [object, object][];
    for (const [ours, theirs] of runs) expect(ours).toEqual(theirs);
    expect(runs[0]![0]).toMatchObject({ code: 0, stdout: expect.stringContaining("Warning: No outputs found") as unknown });
  }, 240_000);
});

// An error about a function call itself (too many or too few arguments, an argument that does
// not convert, a failed call — of a built-in, through `core::`, with a variadic or an expanded
// argument, nested in another call) names the call as terraform 1.11.4 does (HCL's
// FunctionCallDiagExtra): a `│ while calling upper(str)` line under the snippet (a variadic
// parameter as `vals...`) and `snippet.function_call` in `-json` ({ called_as, signature:
// { name, params, variadic_param, return_type } }); an error in an argument's own expression
// (an undeclared reference) names no call. `validate` and `plan`, human and `-json`, native and
// JSON syntax, against terraform on the same files: human output byte for byte, `-json`
// diagnostics as a set (terraform's walk is concurrent: its order varies). Skipped without
// terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** Each local fails in its call; `g` in its argument's reference (validate only: plan stops at the reference). */
const CALLS = `locals {
  a = upper(1, 2)
  b = core::upper([])
  c = coalesce()
  d = max([]...)
  e = upper(upper(["x"]))
  f = format("%d", "a")
}
output "o" {
  value = [local.a, local.b, local.c, local.d, local.e, local.f]
}
`;
const WITH_REFERENCE = CALLS.replace(`  f = format("%d", "a")\n`, `  f = format("%d", "a")\n  g = upper(local.nope)\n`);

const COMMANDS = [
  ["validate", "-no-color"],
  ["validate", "-json"],
  ["plan", "-no-color", "-input=false"],
  ["plan", "-json", "-input=false"],
] as const;

/** `validate -json`'s document with its diagnostics sorted, or `plan -json`'s lines without timestamps, sorted. */
function comparable(r: ToolRun, command: readonly string[]): unknown {
  if (!command.includes("-json")) return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  if (command[0] === "validate") {
    const doc = JSON.parse(r.stdout) as { diagnostics: unknown[] };
    doc.diagnostics.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    return { code: r.code, doc, stderr: r.stderr };
  }
  const lines = r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/"@timestamp":"[^"]*"/, ""))
    .sort();
  return { code: r.code, lines, stderr: r.stderr };
}

const SYNTAXES = [
  ["native", (tf: string): Record<string, string> => ({ "main.tf": tf })],
  ["JSON", (tf: string): Record<string, string> => ({ "main.tf.json": tfToJson(tf) })],
] as const;

type Runs = Map<string, [ours: ToolRun, theirs: ToolRun]>;
const runs: Runs = new Map();

(TERRAFORM !== undefined ? describe : describe.skip)("diagnostics about a function call, against terraform's", () => {
  beforeAll(async () => {
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig() };
    await Promise.all(
      SYNTAXES.flatMap(([syntax, files]) =>
        COMMANDS.map(async (command) => {
          const tf = command[0] === "validate" ? WITH_REFERENCE : CALLS;
          const [ours, theirs] = [workdir(files(tf)), workdir(files(tf))];
          runs.set(`${syntax} ${command.join(" ")}`, await Promise.all([runTool("magma", command, ours, {}), runTool("terraform", command, theirs, env)]));
        }),
      ),
    );
  }, 300_000);

  test.each(SYNTAXES.flatMap(([syntax]) => COMMANDS.map((command) => [syntax, command] as const)))("%s syntax: %j", (syntax, command) => {
    const [ours, theirs] = runs.get(`${syntax} ${command.join(" ")}`)!;
    expect(comparable(ours, command)).toEqual(comparable(theirs, command));
    expect(ours.code).toBe(1);
    if (command[1] === "-no-color") {
      expect(ours.stderr).toContain("    │ while calling coalesce(vals...)\n");
      expect(ours.stderr).toContain("    │ while calling core::upper(str)\n");
    } else {
      expect(ours.stdout).toContain(`"function_call":`);
      expect(ours.stdout.replace(/\s/g, "")).toContain(`"function_call":{"called_as":"max","signature":{"name":"max","params":[],"variadic_param":{"name":"numbers","type":"number"},"return_type":"number"}}`);
    }
  });
});

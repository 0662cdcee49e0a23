// `plan`, `apply`, `destroy` and `refresh` run terraform 1.11.4's validate walk first (its local
// backend calls Context.Validate before every operation), so errors that do not depend on
// values fail them even with nothing to plan: with an empty state, an operator on a value of
// the wrong type in an output, an attribute a resource type does not have inside a `for` over
// an empty list (never evaluated by the plan), and — JSON syntax only, where a template is
// parsed when it is evaluated — an invalid expression in an output's string. Against terraform
// on the same files, native and JSON syntax: exit code, stdout and stderr byte for byte
// (`plan -json`: its lines without timestamps, as a set). Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `resource "terraform_data" "a" {
  input = "x"
}
output "sum" {
  value = 1 + true
}
output "attrs" {
  value = [for x in [] : terraform_data.a.nope]
}
`;

/** An output whose template does not parse: in JSON syntax, found only when it is evaluated. */
const INVALID_TEMPLATE = `{
  "output": {
    "bad": { "value": "\${1 +}" }
  }
}
`;

const COMMANDS = [
  ["plan", "-no-color", "-input=false"],
  ["plan", "-json", "-input=false"],
  ["apply", "-no-color", "-input=false", "-auto-approve"],
  ["destroy", "-no-color", "-input=false", "-auto-approve"],
  ["refresh", "-no-color", "-input=false"],
] as const;

const SYNTAXES = [
  ["native", { "main.tf": MAIN }],
  ["JSON", { "main.tf.json": tfToJson(MAIN), "bad.tf.json": INVALID_TEMPLATE }],
] as const;

/** What is compared: `-json` lines without their timestamps, sorted (terraform's walk is concurrent). */
function comparable(r: ToolRun, command: readonly string[]): unknown {
  if (!command.includes("-json")) return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  const lines = r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.replace(/"@timestamp":"[^"]*"/, ""))
    .sort();
  return { code: r.code, lines, stderr: r.stderr };
}

const runs = new Map<string, [ours: ToolRun, theirs: ToolRun][]>();

(TERRAFORM !== undefined ? describe : describe.skip)("the validate walk before an operation, against terraform's", () => {
  beforeAll(async () => {
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig() };
    await Promise.all(
      SYNTAXES.map(async ([syntax, files]) => {
        const [ours, theirs] = [workdir({ ...files }), workdir({ ...files })];
        const each = async (tool: "magma" | "terraform", dir: string): Promise<ToolRun[]> => {
          const out: ToolRun[] = [];
          for (const c of COMMANDS) out.push(await runTool(tool, c, dir, tool === "terraform" ? env : {}));
          return out;
        };
        const [m, t] = await Promise.all([each("magma", ours), each("terraform", theirs)]);
        runs.set(syntax, m.map((r, i) => [r, t[i]!]));
      }),
    );
  }, 300_000);

  test.each(SYNTAXES.flatMap(([syntax]) => COMMANDS.map((command, i) => [syntax, command.join(" "), i] as const)))("%s syntax: %s", (syntax, _name, i) => {
    const [ours, theirs] = runs.get(syntax)![i]!;
    const command: readonly string[] = COMMANDS[i]!;
    expect(comparable(ours, command)).toEqual(comparable(theirs, command));
    expect(ours.code).toBe(1);
    const printed = command.includes("-json") ? ours.stdout : ours.stderr;
    expect(printed).toContain("Invalid operand");
    expect(printed).toContain(`This object has no argument, nested block, or exported attribute named`);
    if (syntax === "JSON") expect(printed).toContain("Invalid expression");
  });
});

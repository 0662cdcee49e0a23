// A root module that does not load, against terraform 1.11.4 on the same files, in native and
// JSON syntax: plan, apply, destroy and refresh print terraform's diagnostics (human: sorted,
// no line after the last; -json: the version message, then one diagnostic message each, in
// the order found), output and show print them as its views do, its older commands (state,
// workspace, console, import, taint, providers) as its legacy Ui does (in colour inside one
// more red, a newline after each; taint and the state writers naming files by absolute path);
// `workspace show` reads no configuration; init reports a syntax error once and every other
// problem of the files twice (terraform loads the root module twice, its parser caching the
// files). Exit code, stdout and stderr byte for byte. Skipped without terraform.
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const SYNTAX_NATIVE = { "main.tf": 'resource "terraform_data" "a" {\n  input = \n}\n' };
const DECODE_NATIVE = { "main.tf": 'resource "terraform_data" "a" {}\nresource "terraform_data" "a" {}\nvariable "v" {\n  type = strin\n}\nresourc "x" "y" {\n}\n' };
const DECODE_JSON = {
  "main.tf.json": JSON.stringify({ resource: { terraform_data: { a: { input: 1 } } }, variable: { v: { type: "strin" } }, resourc: { x: { y: {} } } }, null, 2),
};
const SYNTAX_JSON = { "main.tf.json": '{"resource": {"terraform_data": {"a": {"input": 1}}}, "output": {"o": {"value": "${1 +}"}}}\n' };

const CHECK_NATIVE = { "main.tf": 'check "c" {\n  assert {\n    condition     = length([]) < 0\n    error_message = "x"\n  }\n}\n' };
const CHECK_JSON = { "main.tf.json": JSON.stringify({ check: { c: { assert: [{ condition: "${length([]) < 0}", error_message: "x" }] } } }, null, 2) };

/** Output with the working directory's path (each tool has its own) and the JSON UI's timestamps blanked. */
function comparable(r: ToolRun, dir: string): { code: number | null; stdout: string; stderr: string } {
  const blank = (s: string): string => s.split(dir).join("DIR").replace(/"@timestamp":"[^"]*"/g, '"@timestamp":"T"');
  return { code: r.code, stdout: blank(r.stdout), stderr: blank(r.stderr) };
}

async function sideBySide(files: Readonly<Record<string, string>>, args: readonly string[], colour = false): Promise<[ToolRun, ToolRun]> {
  const [ours, theirs] = [workdir({ ...files }), workdir({ ...files })];
  const [m, t] = await Promise.all([runTool("magma", args, ours, colour ? { FORCE_COLOR: "1" } : {}), runTool("terraform", args, theirs, { TF_CLI_CONFIG_FILE: mirrorCliConfig() })]);
  const a = comparable(m, ours);
  const b = comparable(t, theirs);
  expect({ args: args.join(" "), ...a }).toEqual({ args: args.join(" "), ...b });
  return [m, t];
}

(TERRAFORM !== undefined ? describe : describe.skip)("a configuration that does not load, against terraform's", () => {
  // A JSON string's expression is parsed when it is evaluated, not when the file loads: its
  // error comes from plan's evaluation (magma's destroy and refresh of an empty state do not
  // evaluate the output yet, where terraform's validate walk before every plan does: left out).
  test.each([
    ["native, a syntax error", SYNTAX_NATIVE, true],
    ["native, unexpected blocks, a duplicate resource, a bad type", DECODE_NATIVE, true],
    ["JSON, unexpected blocks and a bad type", DECODE_JSON, true],
    ["JSON, an expression that does not parse", SYNTAX_JSON, false],
    ["native, a check whose only assertion refers to nothing", CHECK_NATIVE, true],
    ["JSON, a check whose only assertion refers to nothing", CHECK_JSON, true],
  ])("%s: operations print terraform's diagnostics", async (_name, files, all) => {
    const more = all ? [["validate", "-no-color"], ["destroy", "-no-color", "-auto-approve"], ["refresh", "-no-color"]] : [];
    for (const args of [["plan", "-no-color"], ["plan", "-json"], ["apply", "-no-color", "-auto-approve"], ["apply", "-json", "-auto-approve"], ...more]) {
      const [ours] = await sideBySide(files, args);
      expect(ours.code).toBe(1);
      expect(ours.stderr + ours.stdout).not.toContain("the configuration is not valid");
    }
    // In colour (terraform colours a pipe unless -no-color; magma when FORCE_COLOR says so).
    await sideBySide(files, ["plan"], true);
  }, 300_000);

  test("output and show print as terraform's views; the older commands as its Ui; workspace show reads no configuration", async () => {
    for (const args of [["output"], ["output", "-json"], ["show"], ["show", "-json"], ["state", "list"], ["workspace", "list"], ["console"], ["import", "a.b", "x"], ["untaint", "a.b"], ["providers"]]) {
      await sideBySide(SYNTAX_NATIVE, args, true);
    }
    for (const args of [["taint", "a.b"], ["state", "pull"], ["state", "rm", "a.b"], ["state", "mv", "a.b", "a.c"]]) {
      const [ours] = await sideBySide(SYNTAX_NATIVE, args, true);
      expect(ours.stderr).toMatch(/ on \/\S+\/main\.tf line 2/);
    }
    const [ours] = await sideBySide(SYNTAX_NATIVE, ["workspace", "show"]);
    expect(ours.stdout).toBe("default\n");
  }, 300_000);

  test.each([
    ["native", DECODE_NATIVE],
    ["JSON", DECODE_JSON],
    ["native, a syntax error and an unexpected block", { "main.tf": 'resource "terraform_data" "a" {\n  input = \n}\nresourc "x" "y" {}\n' }],
  ])("init, %s: a syntax error once, every other problem twice", async (_name, files) => {
    const [ours] = await sideBySide(files, ["init", "-no-color"]);
    expect(ours.code).toBe(1);
    expect(ours.stderr.match(/Error: Unsupported block type|Error: Extraneous JSON object property/g)?.length).toBe(2);
  }, 300_000);
});

// Malformed .tf.json files reported as terraform 1.11.4 reports them: HCL's JSON parser
// recovers (a value that fails to parse is invalid and the objects around it go on, so a file
// can give several errors; an unclosed object is unclosed at every level), words and places
// each error as HCL does (string errors one byte past the bad one, tabs two columns, an
// end-of-file position widened to one byte), decodes what it recovered (a root array holding
// a number is reported once per pass terraform makes over the file), positions a diagnostic
// in a JSON string template in the decoded text (an escape counts as the character it stands
// for), takes no references from a template that does not parse, and says nothing more
// after a dot without a name; a variable type string that does not parse is an invalid type,
// and a description that failed to parse is an unknown, which is not a string.
// Native-syntax twins of the template cases run beside them. One shared beforeAll runs both tools over every case
// (`validate -json` for all; `validate`, `plan` and `plan -json` for the cases in FULL).
// Skipped without terraform.
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CASES: readonly (readonly [string, Readonly<Record<string, string>>])[] = [
  ["a trailing comma where resource type labels are", { "main.tf.json": '{"resource": {"a": 1,}}\n' }],
  ["a trailing comma in a block body", { "main.tf.json": '{"output": {"o": {"value": 1,}}}\n' }],
  ["an unclosed object", { "main.tf.json": '{"output": {"o": {"value": 1}}\n' }],
  ["a string left open across lines", { "main.tf.json": '{"output": {"o": {"value": "abc\n}}}\n' }],
  ["an unclosed tuple", { "main.tf.json": '{"output": {"o": {"value": [1, 2\n}}}\n' }],
  ["a heredoc in a JSON string", { "main.tf.json": '{"output": {"o": {"value": "<<EOT\nabc\nEOT"}}}\n' }],
  ["a number with two dots", { "main.tf.json": '{"output": {"o": {"value": 1.2.3}}}\n' }],
  ["a keyword in the wrong case and a JavaScript one", { "main.tf.json": '{"output": {"o": {"value": True}, "p": {"value": NaN}}}\n' }],
  ["bad escapes", { "main.tf.json": '{"output": {"o": {"value": "a\\xb"}, "p": {"value": "\\u12G4"}}}\n' }],
  ["an equals sign for a colon", { "main.tf.json": '{"output" = {}}\n' }],
  ["a quote that is not JSON's", { "main.tf.json": "{\"output\": {\"o\": {\"value\": 'x'}}}\n" }],
  ["a missing value", { "main.tf.json": '{"output": {"o": {"value": }}}\n' }],
  ["a root array holding a number", { "main.tf.json": "[1]\n" }],
  ['"//" where a label is', { "main.tf.json": '{"output": {"//": "c", "o": {"value": 1}}}\n' }],
  ["tab indentation and CRLF line ends", { "main.tf.json": '{\r\n\t"output": {\r\n\t\t"o": {"value": 1,}}}\r\n' }],
  ["a template error after escapes", { "main.tf.json": '{"output": {"o": {"value": "a\\"\\n${foo(}"}}}\n' }],
  ["the same in native syntax", { "main.tf": 'output "o" { value = "a\\"\\n${foo(}" }\n' }],
  ["an undeclared variable after escapes", { "main.tf.json": '{"output": {"o": {"value": "a\\"\\n${var.nope}"}}}\n' }],
  ["the same in native syntax", { "main.tf": 'output "o" { value = "a\\"\\n${var.nope}" }\n' }],
  ["a template that does not parse has no references", { "main.tf.json": '{"locals": {"b": "${local,.b}"}}\n' }],
  ["the same in native syntax", { "main.tf": 'locals {\n  b = "${local,.b}"\n}\n' }],
  ["nothing more after a dot without a name", { "main.tf.json": '{"output": {"p": {"value": "${local..b}"}}}\n' }],
  ["the same in native syntax", { "main.tf": 'output "p" { value = "${local..b}" }\n' }],
  ["a type string that does not parse", { "main.tf.json": '{"variable": {"v": {"type": "$list(string)}"}}}\n' }],
  ["the end of a file whose last line ends in a carriage return", { "main.tf.json": '{\r\n\t"output": {"o": {"value": 1},\r' }],
  ["the end of a file in a property name", { "main.tf.json": '{\n\t"output": {\n\t\t"o": {\n\t\t\t"va' }],
  ["a non-ASCII character outside a string", { "main.tf.json": '{"output": {"o": {"value": é}}}\n' }],
  ["a description that failed to parse", { "main.tf.json": '{"output": {"o": {"value": 1, "description": "d\n}}}\n' }],
];
const FULL = new Set([0, 2, 4, 12, 15, 16]);

/** Output with the working directory's path and the timestamps blanked. */
function comparable(r: ToolRun, dir: string): { code: number | null; stdout: string; stderr: string } {
  const blank = (s: string): string => s.split(dir).join("DIR").replace(/"@timestamp":"[^"]*"/g, '"@timestamp":"T"');
  return { code: r.code, stdout: blank(r.stdout), stderr: blank(r.stderr) };
}

type Seen = { args: readonly string[]; code: number | null; stdout: string; stderr: string };
const runs = new Map<number, { magma: Seen[]; terraform: Seen[] }>();

(TERRAFORM !== undefined ? describe : describe.skip)("malformed JSON syntax as HCL's JSON parser reports it, beside terraform", () => {
  beforeAll(async () => {
    const env = { TF_CLI_CONFIG_FILE: `${workdir({ "empty.tfrc": "" })}/empty.tfrc` };
    const one = async (i: number): Promise<void> => {
      const files = CASES[i]![1];
      const [ours, theirs] = [workdir({ ...files }), workdir({ ...files })];
      const seen = { magma: [] as Seen[], terraform: [] as Seen[] };
      const commands = FULL.has(i) ? [["validate", "-json"], ["validate", "-no-color"], ["plan", "-no-color"], ["plan", "-json"]] : [["validate", "-json"]];
      for (const args of commands) {
        const [m, t] = await Promise.all([runTool("magma", args, ours, env), runTool("terraform", args, theirs, env)]);
        seen.magma.push({ args, ...comparable(m, ours) });
        seen.terraform.push({ args, ...comparable(t, theirs) });
      }
      runs.set(i, seen);
    };
    // Two cases at a time: four processes on a loaded two-core machine.
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < CASES.length) await one(next++);
    };
    await Promise.all([worker(), worker()]);
  }, 900_000);

  test.each(CASES.map((c, i) => [c[0], i] as const))("%s", (_name, i) => {
    const seen = runs.get(i)!;
    expect(seen.magma).toEqual(seen.terraform);
    for (const t of seen.terraform) expect(t.code).toBe(1);
  });
});

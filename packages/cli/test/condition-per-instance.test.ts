// Failing preconditions and postconditions of a resource with several instances, against
// terraform 1.11.4 on the same files, in native and JSON syntax: one error per instance
// (count and for_each), each with its own error message (count.index, each.key, self) and
// the values of the condition's references under its snippet (`count.index is 0`,
// `self.input is "b"`). Terraform plans instances concurrently, so the order of the errors
// varies from run to run: stderr is compared with its diagnostics sorted, stdout and the
// exit code as they are. Skipped without terraform.
import { initialisedPair, runPair, comparableText } from "./support/lang-pair.js";
import { stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = `resource "terraform_data" "c" {
  count = 2
  input = count.index
  lifecycle {
    precondition {
      condition     = count.index > 5
      error_message = "pre \${count.index}"
    }
  }
}
resource "terraform_data" "e" {
  for_each = toset(["a", "b"])
  input    = each.key
  lifecycle {
    postcondition {
      condition     = self.input == "none"
      error_message = "post \${each.key}"
    }
  }
}
`;

const JSON_SYNTAX = JSON.stringify({
  resource: {
    terraform_data: {
      c: { count: 2, input: "${count.index}", lifecycle: [{ precondition: [{ condition: "${count.index > 5}", error_message: "pre ${count.index}" }] }] },
      e: {
        for_each: '${toset(["a", "b"])}',
        input: "${each.key}",
        lifecycle: [{ postcondition: [{ condition: '${self.input == "none"}', error_message: "post ${each.key}" }] }],
      },
    },
  },
});

/** A run's stderr with its diagnostics (each from a blank line and `Error:`) sorted. */
function sortedDiagnostics(r: ToolRun): string[] {
  return comparableText(r.stderr).split(/\n(?=\nError: )/).map((d) => d.trimEnd()).sort();
}

(TERRAFORM !== undefined ? describe : describe.skip)("conditions failing on several instances, against terraform's", () => {
  test.each([
    ["native", { "main.tf": NATIVE }],
    ["JSON", { "main.tf.json": JSON_SYNTAX }],
  ])("%s syntax: one error per instance", async (_syntax, files) => {
    const pair = await initialisedPair(files);
    const [ours, theirs] = (await runPair(pair, [["plan"]]))[0]!;
    expect({ code: ours.code, stdout: comparableText(ours.stdout), stderr: sortedDiagnostics(ours) }).toEqual({
      code: theirs.code,
      stdout: comparableText(theirs.stdout),
      stderr: sortedDiagnostics(theirs),
    });
    // Four errors, each instance's own.
    expect(ours.code).toBe(1);
    for (const text of ["pre 0", "pre 1", "post a", "post b", "count.index is 1", 'self.input is "b"']) expect(ours.stderr).toContain(text);
  }, 240_000);
});

// Small CLI behaviours beside terraform 1.11.4 on the same files, in native and JSON syntax:
// `state list -no-color` and `state pull -no-color` are accepted (terraform's Meta.process
// strips -no-color for every command); a CLI configuration holding a nested block on one line
// (`provider_installation { direct {} }`, which terraform's HCL 1 reads) initialises; the
// console-only type() exists only in the prompt's own expression, so a local calling it is
// "Call to unknown function" in the console as in terraform. Exit code, stdout and stderr
// compared. Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { runPair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `resource "terraform_data" "a" {
  input = 1
}
locals {
  t = type(1)
}
`;

(TERRAFORM !== undefined ? describe : describe.skip)("CLI leftovers beside terraform's", () => {
  describe.each([
    ["native syntax", { "main.tf": MAIN }],
    ["JSON syntax", { "main.tf.json": tfToJson(MAIN) }],
  ])("%s", (_name, files) => {
    test("console: type() in a local is an unknown function; at the prompt it is the console's", async () => {
      // No provider to install: neither tool needs init for the console.
      const pair = [workdir({ ...files }), workdir({ ...files })] as const;
      const env = { TF_CLI_CONFIG_FILE: join(workdir({ "empty.tfrc": "" }), "empty.tfrc") };
      const console = (input: string): Promise<[ToolRun, ToolRun]> =>
        Promise.all([runTool("magma", ["console", "-no-color"], pair[0], env, { stdin: input }), runTool("terraform", ["console", "-no-color"], pair[1], env, { stdin: input })]);
      // A local calling type(): terraform's error for it. (Terraform's console then goes on with
      // the local unknown after "Due to the problems above…"; magma's stops: left, see the README.)
      const [ours, theirs] = await console("local.t\n");
      expect(ours.stderr).toContain('Error: Call to unknown function\n\n  on main.tf');
      expect(ours.stderr).toContain('There is no function named "type".');
      expect(theirs.stderr).toContain(ours.stderr.trim());
      // At the prompt's top level, the console's own type() (terraform's output after its warning).
      const [o, t] = await console("type(1)\n");
      expect([o.code, t.code]).toEqual([0, 0]);
      expect(t.stdout.endsWith("\n\nnumber\n")).toBe(true);
      expect(o.stdout).toBe("number\n");
    }, 300_000);

    test("one-line provider_installation { direct {} } in the CLI configuration; state list and state pull with -no-color", async () => {
      const config = "main.tf" in files ? { "main.tf": 'resource "terraform_data" "a" {\n  input = 1\n}\n' } : { "main.tf.json": tfToJson('resource "terraform_data" "a" {\n  input = 1\n}\n') };
      const dirs = [workdir({ ...config }), workdir({ ...config })] as const;
      const rc = join(workdir(), "one-line.tfrc");
      writeFileSync(rc, "provider_installation { direct {} }\n");
      const env = { TF_CLI_CONFIG_FILE: rc };
      const [ours, theirs] = await Promise.all([runTool("magma", ["init", "-no-color"], dirs[0], env), runTool("terraform", ["init", "-no-color"], dirs[1], env)]);
      expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
      expect(theirs.code).toBe(0);
      const runs = await runPair(dirs, [["apply", "-auto-approve"]], rc);
      for (const [o, t] of runs) expect([o.code, t.code]).toEqual([0, 0]);
      for (const args of [["state", "list", "-no-color"], ["state", "pull", "-no-color"]]) {
        const [o, t] = await Promise.all([runTool("magma", args, dirs[0], env), runTool("terraform", args, dirs[1], env)]);
        const blank = (s: string): string => s.replace(/"(lineage|id)": "[^"]*"/g, '"$1": "X"');
        expect({ args, code: o.code, stdout: blank(o.stdout), stderr: o.stderr }).toEqual({ args, code: t.code, stdout: blank(t.stdout), stderr: t.stderr });
        expect(t.code).toBe(0);
      }
    }, 300_000);
  });
});

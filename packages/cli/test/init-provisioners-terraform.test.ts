/**
 * `init` of a configuration with `provisioner` and `connection` blocks, compared with terraform
 * 1.11.4 in both syntaxes. magma does not run provisioners (a gap kept on purpose), but its
 * `init` refused such a configuration where terraform's installs what it needs: with a provider
 * the machine lacks, terraform failed with "Failed to query available provider packages" and
 * magma with "Provisioners are not supported" (the real-world corpus: terraform-aws-lambda,
 * rds role-association-postgres, s3-bucket notification, eventbridge complete). Now init goes
 * on as terraform's and the commands that plan still refuse provisioners clearly.
 */
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const d = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `resource "null_resource" "a" {
  provisioner "local-exec" {
    command = "echo \${self.id}"
  }
  connection {
    host = "example.com"
  }
}
`;

/** The diagnostics' summary lines (the detail of "Failed to query available provider packages" is wrapped by terraform, not yet by magma). */
const summaries = (text: string): string[] => text.split("\n").filter((l) => /^(Error|Warning): /.test(l));

d("init with provisioners, against terraform", () => {
  test.each([["native"], ["JSON"]])("%s syntax: init fails as terraform's on the provider the mirror lacks, not on the provisioner; plan refuses it", async (syntax) => {
    const files = syntax === "native" ? { "main.tf": MAIN } : { "main.tf.json": tfToJson(MAIN, "main.tf") };
    const mirror = workdir();
    const env = { TF_CLI_CONFIG_FILE: join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n` }), "cli.tfrc") };
    const theirsDir = workdir(files);
    const oursDir = workdir(files);
    const [theirs, ours] = await Promise.all([runTool("terraform", ["init", "-no-color"], theirsDir, env), runTool("magma", ["init", "-no-color"], oursDir, env)]);
    expect(theirs.code).toBe(1);
    expect(summaries(theirs.stderr)).toEqual(["Error: Failed to query available provider packages"]);
    expect(ours.code).toBe(theirs.code);
    expect(ours.stdout).toBe(theirs.stdout);
    expect(summaries(ours.stderr)).toEqual(summaries(theirs.stderr));
    // with its provider at hand magma still refuses the provisioner, clearly, where it plans
    const plan = await runTool("magma", ["plan", "-no-color"], oursDir, env);
    expect(plan.code).toBe(1);
    expect(summaries(plan.stderr)).toContain("Error: Provisioners are not supported");
  }, 240_000);
});

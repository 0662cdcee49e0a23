// An import block whose target is in state already (the plan after the import's apply) has
// nothing left to do, against terraform 1.11.4 in both syntaxes: the next plan is empty
// (exit 0 with -detailed-exitcode), not "Configuration for import target does not exist".
// Found by the scenario kill trials (packages/reliability/test/scenario-kill.test.ts).
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const HCL = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_id" "i" {
  byte_length = 4
}
import {
  to = random_id.i
  id = "AAAAAA"
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { random: { source: "magma/random" } } },
  resource: { random_id: { i: { byte_length: 4 } } },
  import: [{ to: "random_id.i", id: "AAAAAA" }],
});

(TERRAFORM !== undefined ? describe : describe.skip)("an import block after its apply, against terraform's", () => {
  test.each([
    { syntax: "native", file: "main.tf", text: HCL },
    { syntax: "JSON", file: "main.tf.json", text: JSON_CONFIG },
  ])("$syntax syntax: the next plan is empty", async ({ file, text }) => {
    const env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
    const dirs = [workdir({ [file]: text }), workdir({ [file]: text })] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env })));
    const apply = ["apply", "-auto-approve", "-no-color", "-input=false"];
    const applied = await Promise.all([runTool("magma", apply, dirs[0], env), runTool("terraform", apply, dirs[1], env)]);
    for (const r of applied) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    // (terraform counts "1 imported, 0 added, 0 changed"; magma's summary line says "0 added, 1 changed": a difference left to the import work.)
    expect(applied[1].stdout).toMatch(/Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed\./);
    const plan = ["plan", "-detailed-exitcode", "-no-color", "-input=false"];
    const [ours, theirs] = await Promise.all([runTool("magma", plan, dirs[0], env), runTool("terraform", plan, dirs[1], env)]);
    expect({ code: theirs.code, stderr: theirs.stderr }).toEqual({ code: 0, stderr: "" });
    expect({ code: ours.code, stderr: ours.stderr }).toEqual({ code: 0, stderr: "" });
  }, 240_000);
});

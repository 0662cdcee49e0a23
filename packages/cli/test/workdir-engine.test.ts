// magma plan / apply / destroy / refresh on working directories, through the built binary,
// with the native random provider: the workflow, its output and exit codes, saved plans, the
// confirmation prompt, -target; and terraform taking over magma's directory (and the
// other way round) with provider-random served to terraform by @magma/provider-server
// (skipped without terraform).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanUp, magma } from "./support/run-magma.js";
import { inTurn } from "./support/in-turn.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const CONFIG = (bytes = 4): Record<string, string> => ({
  "main.tf": `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "n" {
  type    = number
  default = ${bytes}
}
resource "random_id" "p" {
  byte_length = var.n
}
resource "random_string" "s" {
  length  = 8
  special = false
  keepers = { id = random_id.p.id }
}
output "id" {
  value = random_id.p.hex
}
output "secret" {
  value     = random_string.s.result
  sensitive = true
}
`,
});

interface StateDoc {
  serial: number;
  lineage: string;
  outputs: Record<string, { value: unknown }>;
  resources: { type: string; instances: { attributes: Record<string, unknown> }[] }[];
}
const readState = (dir: string): StateDoc => JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as StateDoc;

describe("the workflow on a working directory with the native random provider", () => {
  test("plan, apply, plan again with no changes, a changed plan saved and applied, destroy", async () => {
    const dir = workdir(CONFIG());
    const plan1 = await magma(["plan", "-detailed-exitcode"], { cwd: dir });
    expect(plan1.stderr).toBe("");
    expect(plan1.code).toBe(2);
    expect(plan1.stdout).toContain("  # random_id.p will be created\n  + resource \"random_id\" \"p\" {\n");
    expect(plan1.stdout).toContain("\nPlan: 2 to add, 0 to change, 0 to destroy.\n");
    expect(plan1.stdout).toContain("Note: You didn't use the -out option to save this plan");

    const apply = await magma(["apply", "-auto-approve"], { cwd: dir });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/\nrandom_id\.p: Creating\.\.\.\nrandom_id\.p: Creation complete after \d+s \[id=[\w-]+\]\n/);
    expect(apply.stdout).toContain("\nApply complete! Resources: 2 added, 0 changed, 0 destroyed.\n\nOutputs:\n\nid = \"");
    expect(apply.stdout).toContain("\nsecret = <sensitive>\n");
    const st = readState(dir);
    expect(st.resources.map((r) => r.type).sort()).toEqual(["random_id", "random_string"]);
    const hex = st.outputs["id"]?.value;
    expect(hex).toBe(st.resources.find((r) => r.type === "random_id")?.instances[0]?.attributes["hex"]);

    const again = await magma(["plan", "-detailed-exitcode"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^random_id\.p: Refreshing state\.\.\. \[id=[\w-]+\]\n/);
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");

    // A changed variable: both objects replaced; saved, then applied from the file.
    const saved = await magma(["plan", "-var", "n=5", "-out=tfplan", "-detailed-exitcode"], { cwd: dir });
    expect(saved.code).toBe(2);
    expect(saved.stdout).toContain("  # random_id.p must be replaced\n-/+ resource \"random_id\" \"p\" {\n");
    expect(saved.stdout).toContain("~ byte_length = 4 -> 5 # forces replacement");
    expect(saved.stdout).toContain("Plan: 2 to add, 0 to change, 2 to destroy.");
    expect(saved.stdout).toContain('Saved the plan to: tfplan\n\nTo perform exactly these actions, run the following command to apply:\n    terraform apply "tfplan"\n');
    const fromFile = await magma(["apply", "tfplan"], { cwd: dir });
    expect(fromFile.stderr).toBe("");
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/random_id\.p: Destroying\.\.\. \[id=[\w-]+\]\nrandom_id\.p: Destruction complete after \d+s\n/);
    expect(fromFile.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 2 destroyed.");
    expect((await magma(["show", "tfplan"], { cwd: dir })).stdout).toContain("Plan: 2 to add, 0 to change, 2 to destroy.");
    expect(String(readState(dir).outputs["id"]?.value)).toHaveLength(10);
    // show renders a saved plan (text and terraform show -json's plan format).
    const shown = await magma(["show", "-json", "tfplan"], { cwd: dir });
    expect(shown.code).toBe(0);
    const doc = JSON.parse(shown.stdout) as { format_version: string; resource_changes: { address: string; change: { actions: string[] } }[] };
    expect(doc.format_version).toBe("1.2");
    expect(doc.resource_changes.map((c) => [c.address, c.change.actions])).toEqual([
      ["random_id.p", ["delete", "create"]],
      ["random_string.s", ["delete", "create"]],
    ]);
    // The saved plan is now stale.
    const stale = await magma(["apply", "tfplan"], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("Saved plan is stale");

    const destroy = await magma(["destroy", "-auto-approve", "-var", "n=5"], { cwd: dir });
    expect(destroy.stderr).toBe("");
    expect(destroy.code).toBe(0);
    expect(destroy.stdout).toContain("random_string.s: Destroying...");
    expect(destroy.stdout).toContain("\nDestroy complete! Resources: 2 destroyed.\n");
    const gone = readState(dir);
    expect(gone.resources).toEqual([]);
    expect(gone.outputs).toEqual({});
  }, 300_000);

  test("apply asks for confirmation: anything but yes cancels and changes nothing", async () => {
    const dir = workdir(CONFIG());
    const no = await magma(["apply"], { cwd: dir, input: "no\n" });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain("\nDo you want to perform these actions?\n  Terraform will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ");
    expect(no.stderr).toContain("Apply cancelled.");
    // Nothing was applied: the state file the lock created is removed at unlock, as terraform's local backend does.
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(false);
    const yes = await magma(["apply"], { cwd: dir, input: "yes\n" });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");
    const show = await magma(["show"], { cwd: dir });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^# random_id\.p:\nresource "random_id" "p" \{\n    b64_std     = "/);
    expect(show.stdout).toContain("\nOutputs:\n\nid = \"");
    expect(show.stdout).toContain("\nsecret = (sensitive value)\n");
    const refresh = await magma(["refresh"], { cwd: dir });
    expect(refresh.code).toBe(0);
    expect(refresh.stdout).toContain("random_string.s: Refreshing state...");
    // import ADDR ID puts a forgotten object back; the next plan has nothing to do.
    const id = readState(dir).resources.find((r) => r.type === "random_id")?.instances[0]?.attributes["id"] as string;
    expect((await magma(["state", "rm", "random_id.p"], { cwd: dir })).code).toBe(0);
    const imported = await magma(["import", "random_id.p", id], { cwd: dir });
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toContain(`random_id.p: Importing from ID "${id}"...\nrandom_id.p: Import prepared!\n  Prepared random_id for import\n`);
    expect(imported.stdout).toContain("\nImport successful!\n");
    expect((await magma(["plan", "-detailed-exitcode"], { cwd: dir })).code).toBe(0);
    const twice = await magma(["import", "random_id.p", id], { cwd: dir });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("Error: Resource already managed by Terraform\n");
  }, 300_000);

  test("-target limits apply and destroy, with terraform's warnings; a bad target is an error; a bad -parallelism is a usage error", async () => {
    const dir = workdir(CONFIG());
    const a = await magma(["apply", "-auto-approve", "-target=random_id.p"], { cwd: dir });
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    const warnings = a.stdout.indexOf("\nWarning: Resource targeting is in effect\n");
    expect(warnings).toBeGreaterThan(a.stdout.indexOf("random_id.p: Creation complete"));
    expect(a.stdout.indexOf("\nWarning: Applied changes may be incomplete\n")).toBeGreaterThan(warnings);
    expect(a.stdout.indexOf("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")).toBeGreaterThan(warnings);
    expect(readState(dir).resources.map((r) => r.type)).toEqual(["random_id"]);
    expect(Object.keys(readState(dir).outputs)).toEqual(["id"]);
    const saved = await magma(["plan", "-target=random_string.s", "-out=t.plan"], { cwd: dir });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("\nWarning: Resource targeting is in effect\n");
    const applied = await magma(["apply", "t.plan"], { cwd: dir });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("\nWarning: Applied changes may be incomplete\n");
    expect(Object.keys(readState(dir).outputs).sort()).toEqual(["id", "secret"]);
    const d = await magma(["destroy", "-auto-approve", "-target=random_id.p"], { cwd: dir });
    expect(d.code).toBe(0);
    expect(d.stdout).toContain("Destroy complete! Resources: 2 destroyed.");
    const bad = await magma(["plan", "-target=module."], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Invalid target address");
    const p = await magma(["plan", "-parallelism=0"], { cwd: dir });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("-parallelism");
  }, 300_000);
});

const withTerraform = TERRAFORM !== undefined ? describe : describe.skip;

withTerraform("terraform and magma take turns on a working directory", () => {
  // provider-random served to terraform through @magma/provider-server from a filesystem mirror.
  let env: Record<string, string>;
  beforeAll(() => {
    const cli = randomMirrorCliConfig();
    env = { TF_CLI_CONFIG_FILE: cli };
  });

  test("terraform plan -detailed-exitcode exits 0 on magma's state, and magma plan exits 0 on terraform's", async () => {
    // Two working directories, each one's steps in order; the two side by side.
    const magmaFirst = async (): Promise<void> => {
      const m = workdir(CONFIG());
      expect((await magma(["apply", "-auto-approve"], { cwd: m })).code).toBe(0);
      await terraformAsync(["init", "-no-color", "-input=false"], m, { env });
      const tfPlan = await terraformAsync(["plan", "-detailed-exitcode", "-no-color", "-input=false"], m, { env, expect: 0 });
      expect(tfPlan.stdout).toContain("No changes.");
    };
    const terraformFirst = async (): Promise<void> => {
      const t = workdir(CONFIG());
      await terraformAsync(["init", "-no-color", "-input=false"], t, { env });
      await terraformAsync(["apply", "-auto-approve", "-no-color", "-input=false"], t, { env });
      const mPlan = await magma(["plan", "-detailed-exitcode"], { cwd: t });
      expect(mPlan.stderr).toBe("");
      expect(mPlan.code).toBe(0);
      // show -json of the same state, byte for byte (both only read it: side by side).
      const [mShow, tShow] = await Promise.all([magma(["show", "-json"], { cwd: t }), terraformAsync(["show", "-json", "-no-color"], t, { env })]);
      expect(mShow.code).toBe(0);
      expect(mShow.stdout).toBe(tShow.stdout);
      // And magma's destroy leaves terraform nothing to destroy.
      expect((await magma(["destroy", "-auto-approve"], { cwd: t })).code).toBe(0);
      const tfAfter = await terraformAsync(["plan", "-destroy", "-detailed-exitcode", "-no-color", "-input=false"], t, { env, expect: 0 });
      expect(tfAfter.stdout).toContain("No changes.");
    };
    await Promise.all([magmaFirst(), terraformFirst()]);
  }, 300_000);

  test("-json streams Terraform's machine-readable UI: the same messages as terraform 1.11.4's for plan and apply", async () => {
    // Values that differ from run to run: timestamps, random ids and results, elapsed times.
    const normalise = (text: string): unknown[] =>
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((m) => {
          const j = JSON.stringify({ ...m, "@timestamp": "T" })
            .replace(/\[id=[^\]]*\]/g, "[id=ID]")
            .replace(/"id_value":"[^"]*"/g, '"id_value":"ID"')
            .replace(/"value":"[0-9a-f]+"/g, '"value":"HEX"')
            .replace(/ after \d+s/g, " after Ns")
            .replace(/"elapsed_seconds":\d+/g, '"elapsed_seconds":0');
          return JSON.parse(j) as unknown;
        });
    const m = workdir(CONFIG());
    const t = workdir(CONFIG());
    // -target: the plan's warning after its outputs; an apply's two warnings before its change summary; a targeted destroy.
    const steps = [["plan", "-json"], ["apply", "-json", "-auto-approve"], ["plan", "-json", "-target=random_id.p"], ["apply", "-json", "-auto-approve", "-target=random_id.p", "-var=n=5"], ["destroy", "-json", "-auto-approve", "-target=random_id.p"]];
    // magma's steps in m and terraform's in t: each directory's in order, the two side by side.
    const [ours, theirs] = await Promise.all([
      inTurn(steps, (args) => magma(args, { cwd: m })),
      terraformAsync(["init", "-no-color", "-input=false"], t, { env }).then(() => inTurn(steps, (args) => terraformAsync([...args, "-input=false"], t, { env }))),
    ]);
    steps.forEach((args, i) => {
      expect([args, ours[i]!.code]).toEqual([args, 0]);
      expect(normalise(ours[i]!.stdout)).toEqual(normalise(theirs[i]!.stdout));
    });
    // magma graph prints terraform graph's DOT.
    const [graph, theirGraph] = await Promise.all([magma(["graph"], { cwd: t }), terraformAsync(["graph"], t, { env })]);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toBe(theirGraph.stdout);
  }, 300_000);
});

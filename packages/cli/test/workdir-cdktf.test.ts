// The workflow on a `cdktf synth` output directory: a CDKTF app (test/testdata/cdktf-app.mjs,
// cdktf 0.21 with the prebuilt @cdktf/provider-random bindings) is synthesized into
// cdktf.out/stacks/hello/cdk.tf.json — JSON syntax, a `backend "local"` with an absolute
// path, `required_providers` pinning hashicorp/random 3.7.2 — and magma runs init, plan,
// apply and plan -detailed-exitcode (0) in that directory, then hands it to terraform, whose
// plan -detailed-exitcode exits 0 too. hashicorp/random is @magma/provider-random served by
// @magma/provider-server from a filesystem mirror, to both magma and terraform.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { hasTerraform, findTerraform, terraformEnv, writeTerraformCliConfig } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";

const app = join(dirname(fileURLToPath(import.meta.url)), "testdata", "cdktf-app.mjs");
let root: string;
let stack: string;
let mirror: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "magma-cdktf-"));
  // Synthesize in a child process whose working directory is the project (CDKTF puts the
  // local backend's state file there, by absolute path).
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `import { synth } from ${JSON.stringify(pathToFileURL(app).href)}; synth(${JSON.stringify(join(root, "cdktf.out"))});`], { cwd: root, encoding: "utf8", timeout: 240_000 });
  if (r.status !== 0) throw new Error(`cdktf synth failed (${r.status}):\n${r.stderr}`);
  stack = join(root, "cdktf.out", "stacks", "hello");
  mirror = join(root, "mirror");
  const doc = JSON.parse(readFileSync(join(stack, "cdk.tf.json"), "utf8")) as { terraform: { required_providers: { random: { version: string } } } };
  writeProviderLauncher({
    mirrorDir: mirror,
    hostname: "registry.terraform.io",
    namespace: "hashicorp",
    type: "random",
    version: doc.terraform.required_providers.random.version,
    module: createRequire(import.meta.url).resolve("@magma/provider-random"),
    exportName: "createRandomProvider",
  });
}, 300_000);

afterAll(() => {
  cleanUp();
  rmSync(root, { recursive: true, force: true });
});

describe("magma on a cdktf synth output directory", () => {
  test("init, plan, apply, plan -detailed-exitcode 0 in cdktf.out/stacks/hello; terraform takes it over", async () => {
    const init = await magma(["init", `-plugin-dir=${mirror}`], { cwd: stack, env: { TF_IN_AUTOMATION: "1" } });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Successfully configured the backend "local"!');
    expect(init.stdout).toContain('- Finding hashicorp/random versions matching "3.7.2"...');
    expect(existsSync(join(stack, ".terraform.lock.hcl"))).toBe(true);

    const plan = await magma(["plan", "-detailed-exitcode"], { cwd: stack });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain("  # random_string.name0 will be created\n");
    expect(plan.stdout).toContain("Plan: 4 to add, 0 to change, 0 to destroy.");

    const apply = await magma(["apply", "-auto-approve"], { cwd: stack });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 4 added, 0 changed, 0 destroyed.");
    expect(apply.stdout).toMatch(/\nOutputs:\n\nnames_out = \[\n  "[a-z0-9]{6}-[0-9a-f]{6}",\n  "[a-z0-9]{6}-[0-9a-f]{6}",\n\]\ntoken_out = <sensitive>\n/);
    // The state lives where the backend block's path says (CDKTF writes an absolute path), not in the stack directory.
    const backendPath = (JSON.parse(readFileSync(join(stack, "cdk.tf.json"), "utf8")) as { terraform: { backend: { local: { path: string } } } }).terraform.backend.local.path;
    expect(backendPath).toMatch(/terraform\.hello\.tfstate$/);
    expect(JSON.parse(readFileSync(backendPath, "utf8"))).toMatchObject({ version: 4, resources: expect.arrayContaining([expect.objectContaining({ type: "random_id" })]) });
    expect(existsSync(join(stack, "terraform.tfstate"))).toBe(false);

    const again = await magma(["plan", "-detailed-exitcode"], { cwd: stack });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");

    if (!hasTerraform()) return;
    // terraform on the directory as magma left it: no terraform init (magma init recorded the
    // backend and linked the provider as terraform does).
    const env = terraformEnv(writeTerraformCliConfig(root, { mirrors: [{ path: mirror }] }));
    const tf = spawnSync(findTerraform()!, ["plan", "-detailed-exitcode", "-no-color", "-input=false"], { cwd: stack, env, encoding: "utf8", timeout: 240_000 });
    expect(tf.stderr).toBe("");
    expect(tf.stdout).toContain("No changes. Your infrastructure matches the configuration.");
    expect(tf.status).toBe(0);
  }, 600_000);
});

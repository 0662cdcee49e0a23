/**
 * Real terraform 1.11.4 using the launcher's package directory as a `dev_overrides`
 * directory: no `terraform init` (Terraform says to skip it for overridden providers, and
 * init would ask the registry of the other providers), the "Provider development overrides
 * are in effect" warning naming the directory, the version constraint ignored, and plan,
 * apply, plan again (no changes), destroy through `terraform-provider-memory_v1.0.0`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectExit, fixtureLauncher, tempDir, terraform, terraformEnv } from "./support/harness.js";
import { hasTerraform, writeTerraformCliConfig } from "@magma/test-support";

const d = hasTerraform() ? describe : describe.skip;

// No version of the launcher matches "~> 9.0": dev overrides skip version selection.
const MAIN_TF = `
terraform {
  required_providers {
    memory = { source = "example.com/magma/memory", version = "~> 9.0" }
  }
}
provider "memory" {
  id_prefix = "dev-"
}
resource "memory_item" "a" {
  name  = "alpha"
  value = "hello"
  rule { port = 22 }
}
output "id" { value = memory_item.a.id }
`;

d("terraform with the launcher directory as a dev_overrides directory", () => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let overrideDir: string;
  let store: string;
  let env: Record<string, string | undefined>;

  beforeAll(() => {
    tmp = tempDir("tfdev-");
    const launcher = fixtureLauncher(tmp.dir);
    overrideDir = launcher.directory;
    work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    store = join(tmp.dir, "store.json");
    // The CLI configuration of the issue: the overridden provider from a local directory,
    // every other provider as usual (none here, so nothing is ever fetched).
    const cli = writeTerraformCliConfig(tmp.dir, { fileName: "dev.tfrc", devOverrides: { "example.com/magma/memory": overrideDir }, direct: true });
    env = { ...terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store }), TF_CLI_CONFIG_FILE: cli };
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);
  const stored = (): Record<string, unknown> => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, unknown> }).items : {});

  test("the override directory holds the executable terraform looks for, and nothing else named terraform-provider-*", () => {
    const names = readdirSync(overrideDir).filter((f) => f.startsWith("terraform-provider-"));
    expect(names).toEqual(["terraform-provider-memory_v1.0.0"]);
  });

  test("plan without init: the overrides warning names the directory, and the plan creates the item", async () => {
    const plan = await tf("plan", "-detailed-exitcode", "-no-color");
    expectExit(plan, 2, "plan", env);
    expect(plan.stdout).toContain("Provider development overrides are in effect");
    expect(plan.stdout).toContain(`- example.com/magma/memory in ${overrideDir}`);
    expect(plan.stdout).toContain('# memory_item.a will be created');
    expect(plan.stdout).toContain("+ size  = 5");
    expect(plan.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    // Nothing was installed or locked.
    expect(existsSync(join(work, ".terraform"))).toBe(false);
    expect(existsSync(join(work, ".terraform.lock.hcl"))).toBe(false);
  });

  test("apply creates through the launcher, then plan shows no changes", async () => {
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 0, "apply", env);
    expect(apply.stdout).toContain("Provider development overrides are in effect");
    const ids = Object.keys(stored());
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^dev-\d+-1$/);
    expect(apply.stdout).toContain(`id = "${ids[0]}"`);
    const state = JSON.parse(readFileSync(join(work, "terraform.tfstate"), "utf8")) as { resources: { provider: string }[] };
    expect(state.resources.map((r) => r.provider)).toEqual(['provider["example.com/magma/memory"]']);
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after apply", env);
  });

  test("destroy removes the item; no provider sockets are left", async () => {
    const destroy = await tf("destroy", "-auto-approve", "-no-color");
    expectExit(destroy, 0, "destroy", env);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
    expect(stored()).toEqual({});
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith("plugin"))).toEqual([]);
  });
});

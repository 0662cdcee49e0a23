/**
 * Real terraform 1.11.4 managing resources of a TypeScript provider end to end, over
 * protocol 6 and over protocol 5: `terraform init` installs the launcher from a
 * filesystem mirror; apply, plan again (no changes), import, a partial apply (tainted),
 * import of a missing object, destroy; `terraform providers schema -json` equals the native
 * schema. Plus terraform attached to a provider in debug mode.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { expectExit, fixtureLauncher, start, tempDir, terraform, terraformEnv, type Child } from "./support/harness.js";
import { hasTerraform } from "@magma/test-support";
import { terraformSchemaJson } from "./support/terraform-schema-json.js";

const d = hasTerraform() ? describe : describe.skip;

const MAIN_TF = `
terraform {
  required_providers {
    memory = { source = "example.com/magma/memory", version = "1.0.0" }
  }
}
provider "memory" {
  id_prefix = "tf-"
}
resource "memory_item" "a" {
  name  = "alpha"
  value = "hello"
  tags  = { env = "test" }
  rule { port = 80 }
  rule {
    port     = 443
    protocol = "https"
  }
}
data "memory_lookup" "a" {
  name       = memory_item.a.name
  depends_on = [memory_item.a]
}
output "id" { value = memory_item.a.id }
output "looked_up" { value = data.memory_lookup.a.value }
`;

d.each([6, 5] as const)("terraform with the served provider on protocol %d", (version) => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let env: Record<string, string | undefined>;
  let store: string;

  beforeAll(() => {
    tmp = tempDir(`tf${version}-`);
    fixtureLauncher(tmp.dir, [version]);
    work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    store = join(tmp.dir, "store.json");
    env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);
  const stored = (): Record<string, unknown> => (existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, unknown> }).items : {});

  test("init installs the launcher from the filesystem mirror", async () => {
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    expect(existsSync(join(work, ".terraform/providers/example.com/magma/memory/1.0.0/linux_amd64/terraform-provider-memory_v1.0.0"))).toBe(true);
    expect(readFileSync(join(work, ".terraform.lock.hcl"), "utf8")).toContain('provider "example.com/magma/memory"');
  });

  test("providers schema -json equals the native schema", async () => {
    const run = await tf("providers", "schema", "-json");
    expectExit(run, 0, "providers schema", env);
    const printed = JSON.parse(run.stdout) as { provider_schemas: Record<string, unknown> };
    expect(printed.provider_schemas["example.com/magma/memory"]).toEqual(terraformSchemaJson(await createMemoryProvider().getSchema()));
  });

  test("apply creates, plan again shows no changes", async () => {
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 0, "apply", env);
    const ids = Object.keys(stored());
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^tf-\d+-1$/);
    expect(apply.stdout).toContain(`id = "${ids[0]}"`);
    expect(apply.stdout).toContain('looked_up = "hello"');
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after apply", env);
  });

  test("an in-place update, then no changes", async () => {
    writeFileSync(join(work, "main.tf"), MAIN_TF.replace('value = "hello"', 'value = "updated"'));
    const plan = await tf("plan", "-detailed-exitcode", "-no-color");
    expectExit(plan, 2, "plan with a change", env);
    expect(plan.stdout).toContain("1 to change");
    expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply update", env);
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after update", env);
  });

  test("import: terraform import brings the object back; an import block for a missing id fails clearly", async () => {
    expectExit(await tf("state", "rm", "memory_item.a"), 0, "state rm", env);
    const imp = await tf("import", "-no-color", "memory_item.a", Object.keys(stored())[0]!);
    expectExit(imp, 0, "import", env);
    expect(imp.stdout).toContain("Import successful!");
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after import", env);

    writeFileSync(join(work, "import.tf"), 'import {\n  to = memory_item.missing\n  id = "no-such-id"\n}\nresource "memory_item" "missing" { name = "missing" }\n');
    const missing = await tf("plan", "-no-color");
    expectExit(missing, 1, "plan importing a missing object", env);
    expect(missing.stderr).toContain("Cannot import non-existent remote object");
    writeFileSync(join(work, "import.tf"), "");
  });

  test("a create that fails after creating is saved tainted", async () => {
    const before = Object.keys(stored());
    writeFileSync(join(work, "partial.tf"), 'resource "memory_item" "p" {\n  name  = "partial"\n  value = "fail-after-create"\n}\n');
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 1, "partial apply", env);
    expect(apply.stderr).toContain("memory_item failed after storing the object");
    const show = await tf("show", "-json");
    expectExit(show, 0, "show", env);
    const resources = (JSON.parse(show.stdout) as { values: { root_module: { resources: { address: string; tainted?: boolean; values: { id: string } }[] } } }).values.root_module.resources;
    const p = resources.find((r) => r.address === "memory_item.p");
    expect(p?.tainted).toBe(true);
    expect(Object.keys(stored())).toEqual(expect.arrayContaining([...before, p!.values.id]));
    expect(before).not.toContain(p!.values.id);
    writeFileSync(join(work, "partial.tf"), "");
  });

  test("destroy removes everything; no sockets are left behind", async () => {
    const destroy = await tf("destroy", "-auto-approve", "-no-color");
    expectExit(destroy, 0, "destroy", env);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 2 destroyed.");
    expect(stored()).toEqual({});
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith("plugin"))).toEqual([]);
  });
});

d("terraform attached to a provider in debug mode", () => {
  let tmp: { dir: string; cleanup(): void };
  let child: Child | undefined;

  beforeAll(() => {
    tmp = tempDir("tfdbg-");
  });
  afterAll(async () => {
    await child?.stop();
    tmp.cleanup();
  });

  test("TF_REATTACH_PROVIDERS: one process serves init, apply, plan and destroy", async () => {
    const { executable } = fixtureLauncher(tmp.dir);
    child = start(executable, ["--debug"], { ...process.env, TMPDIR: tmp.dir, MEMORY_PROVIDER_STORE: undefined });
    const line = await child.firstLine;
    const reattach = /^TF_REATTACH_PROVIDERS='(.*)'$/.exec(line)![1]!;
    const work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    const env = terraformEnv(tmp.dir, { TF_REATTACH_PROVIDERS: reattach });
    const tf = (...args: string[]) => terraform(args, work, env);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    expect(existsSync(join(work, ".terraform/providers/example.com"))).toBe(false); // reattached: not installed
    expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", env);
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan", env);
    expectExit(await tf("destroy", "-auto-approve", "-no-color"), 0, "destroy", env);
    expect(child.child.exitCode).toBeNull(); // still serving
    child.child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  });
});

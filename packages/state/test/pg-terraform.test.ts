/**
 * Terraform as the oracle: terraform 1.11 (its `pg` backend) and magma share one Postgres
 * database, read each other's state, and each one's lock blocks the other. The configuration
 * uses `terraform_data`, which needs no provider (so `terraform init` is offline). Skipped
 * where terraform is not on PATH.
 */
import { findTerraform, hasTerraform } from "@magma/test-support";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { isStateError, openPgBackend, type LockInfo, type PgBackend } from "../src/index.js";
import { spawnLineCommand, type LineChild } from "./support/line-child.js";
import { startPostgres, type TestPostgres } from "./support/postgres.js";

const SLOW = 300_000;

const terraform = hasTerraform() ? findTerraform() : undefined;
const describeWithTerraform = terraform !== undefined ? describe : describe.skip;
if (terraform === undefined) console.warn("pg-terraform.test.ts: terraform is not on PATH; these tests are skipped");

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describeWithTerraform("terraform and magma share one pg database", () => {
  let server: TestPostgres;
  let url: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let backend: PgBackend;
  const live: LineChild[] = [];

  function tf(args: readonly string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(terraform!, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }
  async function tfOk(args: readonly string[]): Promise<Run> {
    const r = await tf(args);
    if (r.code !== 0) throw new Error(`terraform ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase("shared");
    dir = mkdtempSync(join(tmpdir(), "magma-pg-tf-"));
    writeFileSync(join(dir, "cli.tfrc"), "");
    writeFileSync(
      join(dir, "main.tf"),
      `terraform {
  backend "pg" {
    conn_str = "${url}"
  }
}

variable "v" {
  type    = string
  default = "one"
}

resource "terraform_data" "a" {
  input = var.v
}

output "a" {
  value = terraform_data.a.output
}
`,
    );
    // None of the caller's TF_* settings (TF_LOG, TF_WORKSPACE, TF_CLI_ARGS, …): only ours.
    env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("TF_")));
    Object.assign(env, { TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc"), CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" });
    await tfOk(["init", "-input=false", "-no-color"]);
    await tfOk(["apply", "-input=false", "-auto-approve", "-no-color"]);
    backend = await openPgBackend({ connStr: url, env: {} });
  }, SLOW);

  afterEach(async () => {
    for (const c of live.splice(0)) await c.kill();
  });

  afterAll(async () => {
    await backend?.close().catch(() => undefined);
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  async function pulled(): Promise<{ lineage: string; serial: number }> {
    return JSON.parse((await tfOk(["state", "pull"])).stdout) as { lineage: string; serial: number };
  }

  test(
    "magma reads the state terraform wrote: the row's bytes, JSON with terraform's lineage and serial",
    async () => {
      const bytes = await backend.store("default").read();
      expect(bytes).toBeDefined();
      const state = JSON.parse(new TextDecoder().decode(bytes)) as { version: number; lineage: string; serial: number; resources: { type: string }[] };
      const tfView = await pulled();
      expect(state.version).toBe(4);
      expect(state.lineage).toBe(tfView.lineage);
      expect(state.serial).toBe(tfView.serial);
      expect(state.resources.map((r) => r.type)).toEqual(["terraform_data"]);
      // Byte for byte what terraform stored in the row.
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const [row] = (await c.query<{ data: string }>("SELECT data FROM terraform_remote_state.states WHERE name = 'default'")).rows;
        expect(Buffer.from(bytes!).equals(Buffer.from(row?.data ?? "", "utf8"))).toBe(true);
      } finally {
        await c.end();
      }
    },
    SLOW,
  );

  test(
    "magma writes the state back (serial + 1) under its lock; terraform then plans no changes and sees the new serial",
    async () => {
      const store = backend.store("default");
      const id = await store.lock({ operation: "OperationTypeApply" });
      try {
        const state = JSON.parse(new TextDecoder().decode(await store.read())) as { lineage: string; serial: number };
        const before = { lineage: state.lineage, serial: state.serial };
        state.serial += 1;
        await store.write(new TextEncoder().encode(`${JSON.stringify(state, null, 2)}\n`));
        await store.unlock(id);
        const plan = await tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"]);
        expect({ code: plan.code, stderr: plan.stderr }).toEqual({ code: 0, stderr: "" });
        expect(plan.stdout).toContain("No changes.");
        expect(await pulled()).toMatchObject({ lineage: before.lineage, serial: before.serial + 1 });
      } finally {
        await store.unlock(id).catch(() => undefined);
      }
    },
    SLOW,
  );

  test(
    "a lock held by magma blocks terraform plan, which reports the lock error",
    async () => {
      const store = backend.store("default");
      const id = await store.lock({ operation: "OperationTypeApply" });
      try {
        const plan = await tf(["plan", "-input=false", "-no-color", "-lock-timeout=0s"]);
        expect(plan.code).toBe(1);
        expect(plan.stderr).toContain("Error acquiring the state lock");
        expect(plan.stderr).toContain("Workspace is already locked: default");
      } finally {
        await store.unlock(id);
      }
      // Released: terraform plans again.
      expect((await tf(["plan", "-input=false", "-no-color", "-detailed-exitcode"])).code).toBe(0);
    },
    SLOW,
  );

  test(
    "a lock held by terraform (an apply waiting at its prompt) blocks magma, whose error names terraform's session",
    async () => {
      const apply = spawnLineCommand(terraform!, ["apply", "-input=true", "-no-color", "-var", "v=two"], env, dir);
      live.push(apply);
      let holder: LockInfo | undefined;
      for (let i = 0; i < 600 && !(holder !== undefined && apply.stdout().includes("Enter a value:")); i++) {
        holder = await backend.lockHolder("default");
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(apply.stdout()).toContain("Enter a value:");
      expect(holder).toBeDefined();
      let refused: unknown;
      try {
        const id = await backend.store("default").lock({ operation: "OperationTypePlan" });
        await backend.store("default").unlock(id);
      } catch (e) {
        refused = e;
      }
      expect(isStateError(refused)).toBe(true);
      if (!isStateError(refused)) return;
      expect(refused.code).toBe("locked");
      expect(refused.message).toContain("workspace is already locked");
      expect(refused.message).toContain("recorded no lock info (e.g. terraform)");
      expect(refused.detail).toMatchObject({ id: expect.stringMatching(/^pg-backend-pid-\d+$/), who: "postgres@127.0.0.1" });
      expect(refused.detail).toEqual(holder);
      // Answer "no": terraform cancels, exits and lets go of the lock.
      apply.send("no");
      expect(await apply.exited).toBe(1);
      expect(apply.stdout() + apply.stderr()).toContain("Apply cancelled");
      const id = await backend.store("default").lock({ operation: "OperationTypePlan" });
      await backend.store("default").unlock(id);
    },
    SLOW,
  );

  test(
    "workspaces: terraform's new workspace is listed by magma, and magma's by terraform",
    async () => {
      await tfOk(["workspace", "new", "-no-color", "from-terraform"]);
      await tfOk(["workspace", "select", "-no-color", "default"]);
      expect(await backend.listWorkspaces()).toEqual(["default", "from-terraform"]);
      // Terraform's workspace creation writes an empty state as a sentinel row.
      const sentinel = JSON.parse(new TextDecoder().decode(await backend.store("from-terraform").read())) as { version: number; serial: number };
      expect(sentinel).toMatchObject({ version: 4 });
      const empty = { version: 4, terraform_version: "1.11.4", serial: 1, lineage: "2a3ad2a7-0d5e-4d6c-9f3c-5d8e1e0c9b11", outputs: {}, resources: [], check_results: null };
      await backend.store("from-magma").write(new TextEncoder().encode(`${JSON.stringify(empty, null, 2)}\n`));
      const list = await tfOk(["workspace", "list", "-no-color"]);
      expect(list.stdout.split("\n").map((l) => l.replace(/^[* ] /, "").trim()).filter((l) => l !== "")).toEqual(["default", "from-magma", "from-terraform"]);
      await tfOk(["workspace", "select", "-no-color", "from-magma"]);
      expect(await pulled()).toMatchObject({ lineage: empty.lineage, serial: 1 });
      await tfOk(["workspace", "select", "-no-color", "default"]);
      await backend.deleteWorkspace("from-magma");
      expect((await tfOk(["workspace", "list", "-no-color"])).stdout).not.toContain("from-magma");
    },
    SLOW,
  );
});

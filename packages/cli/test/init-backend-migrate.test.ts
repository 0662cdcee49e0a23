// `init -backend-config` (file and key=value) and `-migrate-state`/`-force-copy`, against
// terraform 1.11.4 doing the same on the same kind of directory: local state moved into an
// http backend given partly on the command line (the record terraform writes, byte for
// byte but for the address; each tool then plans the other's result with no changes), and
// back from the http backend to local with -migrate-state. Skipped without terraform.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startHttpStateServer, type HttpStateServer } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

let server: HttpStateServer;
beforeAll(async () => {
  server = await startHttpStateServer();
});
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await server?.close();
});

const MAIN = `resource "terraform_data" "a" {\n  input = "x"\n}\n`;

/** A directory with local state written by `tool`, then given a partial http backend block. */
async function localThenHttp(tool: "terraform" | "magma", path: string): Promise<string> {
  const dir = workdir({ "main.tf": MAIN });
  if (tool === "terraform") await terraformAsync(["apply", "-auto-approve", "-input=false"], dir, { env });
  else expect((await magma(["apply", "-auto-approve", "-input=false"], { cwd: dir, env })).code).toBe(0);
  writeFileSync(join(dir, "backend.tf"), `terraform {\n  backend "http" {\n    retry_wait_min = 0\n  }\n}\n`);
  writeFileSync(join(dir, "http.hcl"), `address = "${server.url}${path}"\n`);
  return dir;
}

const initArgs = (path: string): string[] => ["init", "-input=false", "-backend-config=http.hcl", `-backend-config=lock_address=${server.url}${path}`, `-backend-config=unlock_address=${server.url}${path}`, "-force-copy"];

maybe("init's backend configuration and state migration, as terraform", () => {
  test("local state copied into an http backend given by -backend-config; the record is terraform's; each plans the other's with no changes", async () => {
    const t = await localThenHttp("terraform", "/t");
    const m = await localThenHttp("magma", "/m");
    await terraformAsync(initArgs("/t"), t, { env });
    const mi = await magma(initArgs("/m"), { cwd: m, env });
    expect(mi.code).toBe(0);
    expect(mi.stdout).toContain('Successfully configured the backend "http"!');
    expect(server.states.get("/m")?.toString()).toBe(readFileSync(join(m, "terraform.tfstate"), "utf8"));
    const record = (d: string, p: string): string => readFileSync(join(d, ".terraform", "terraform.tfstate"), "utf8").replaceAll(`${server.url}${p}`, "<url>");
    expect(record(m, "/m")).toBe(record(t, "/t"));
    // Later commands use the recorded settings (the block alone has no address).
    const mp = await magma(["plan", "-detailed-exitcode", "-input=false"], { cwd: t, env });
    expect(mp.stderr).toBe("");
    expect(mp.code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], m, { env });
    expect(server.locks.size).toBe(0);
  });

  test("from the http backend back to local with -migrate-state; without it a changed backend is refused", async () => {
    const m = await localThenHttp("magma", "/back");
    expect((await magma(initArgs("/back"), { cwd: m, env })).code).toBe(0);
    rmSync(join(m, "terraform.tfstate"));
    rmSync(join(m, "backend.tf"));
    const refused = await magma(["init", "-input=false"], { cwd: m, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Backend configuration changed");
    const r = await magma(["init", "-input=false", "-migrate-state", "-force-copy"], { cwd: m, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(m, "terraform.tfstate"), "utf8")).toBe(server.states.get("/back")?.toString());
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], m, { env });
  });
});

/**
 * Terraform is the oracle: terraform 1.11 applies a config (the native random provider,
 * served by @magma/provider-server), magma reads the state and writes it back byte for byte,
 * terraform then plans no changes; terraform and magma exclude each other through the local
 * lock; a truncated state is refused by both and left untouched.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLocalBackend, type LocalStateStore } from "../src/backends/local.js";
import { loadState, saveState } from "../src/persist-state.js";
import { readStateFile } from "../src/read-state-file.js";
import { newStateFile } from "../src/state-file.js";
import { writeStateFile } from "../src/write-state-file.js";
import { hasTerraform } from "@magma/test-support";
import { expectExit, findTerraform, terraformWorkspace, type TerraformWorkspace } from "./support/terraform.js";
import { rejection } from "./support/state-errors.js";

const d = hasTerraform() ? describe : describe.skip;

const MAIN_TF = `
terraform {
  required_providers {
    random = { source = "example.com/magma/random", version = "1.0.0" }
  }
}
provider "random" {
  alias = "west"
}
resource "random_id" "id" {
  byte_length = 8
  prefix      = "a<b>&"
}
resource "random_integer" "n" {
  count = 2
  min   = 1
  max   = 100000
  seed  = "s\${count.index}"
}
resource "random_string" "s" {
  for_each = toset(["x", "é"])
  length   = 10
  keepers  = { k = each.key, dep = random_id.id.hex }
  lifecycle {
    create_before_destroy = true
  }
}
resource "random_password" "pw" {
  provider = random.west
  length   = 16
}
module "m" {
  source = "./mod"
  count  = 2
}
check "c" {
  assert {
    condition     = random_integer.n[0].result > 0
    error_message = "positive"
  }
}
output "n" { value = random_integer.n[*].result }
output "pw" {
  value     = random_password.pw.result
  sensitive = true
}
output "big" { value = 12345678901234567890 }
output "obj" { value = { a = 1.5, b = [true], c = null } }
`;
const MOD_TF = `
terraform {
  required_providers {
    random = { source = "example.com/magma/random", version = "1.0.0" }
  }
}
resource "random_uuid" "u" {}
`;

d("terraform and magma on one local state", () => {
  let ws: TerraformWorkspace;
  let store: LocalStateStore;

  beforeAll(async () => {
    ws = terraformWorkspace("magma-tfstate-", MAIN_TF);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(ws.dir, "mod"));
    writeFileSync(join(ws.dir, "mod", "main.tf"), MOD_TF);
    expectExit(await ws.tf("init", "-no-color"), 0, "init");
    expectExit(await ws.tf("apply", "-auto-approve", "-no-color"), 0, "apply");
    expectExit(await ws.tf("taint", "-no-color", "module.m[1].random_uuid.u"), 0, "taint");
    store = createLocalBackend({ dir: ws.dir }).store("default");
  }, 300_000);
  afterAll(() => ws?.cleanup());

  test("magma reads terraform's state and writes it back byte for byte; terraform sees no change", async () => {
    const tfBytes = readFileSync(store.path);
    const before = await ws.tf("show", "-json");
    expectExit(before, 0, "show before");

    const file = (await loadState(store))!;
    expect(file.resources.map((r) => r.type)).toEqual(expect.arrayContaining(["random_id", "random_integer", "random_string", "random_password", "random_uuid"]));
    expect(Buffer.from(writeStateFile(file))).toEqual(tfBytes);
    // Saving unchanged content writes nothing.
    expect((await saveState(store, file)).serial).toBe(file.serial);
    expect(readFileSync(store.path)).toEqual(tfBytes);

    // A magma write (the next serial) of the same state: terraform plans no changes and shows the same state.
    await store.write(writeStateFile({ ...file, serial: file.serial + 1 }));
    expect(readStateFile(readFileSync(store.path))!.serial).toBe(file.serial + 1);
    const plan = await ws.tf("plan", "-detailed-exitcode", "-no-color", "-refresh=false", "-target=random_id.id", "-target=module.m[0]");
    expectExit(plan, 0, "plan after magma's write");
    const after = await ws.tf("show", "-json");
    expectExit(after, 0, "show after");
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
    // The previous version is the backup.
    expect(readFileSync(store.backupPath)).toEqual(tfBytes);
  }, 300_000);

  test("terraform plans no changes on the whole state magma wrote (untainted)", async () => {
    expectExit(await ws.tf("untaint", "-no-color", "module.m[1].random_uuid.u"), 0, "untaint");
    const file = (await loadState(store))!;
    await store.write(writeStateFile({ ...file, serial: file.serial + 1 }));
    expectExit(await ws.tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan");
  }, 300_000);

  test("terraform holding the lock blocks magma, and the error names terraform's lock", async () => {
    const tfBin = findTerraform()!;
    // terraform apply holds the lock while it waits for the approval on stdin.
    const child = spawn(tfBin, ["apply", "-no-color", "-replace=random_id.id"], { cwd: ws.dir, env: { ...ws.env, TF_INPUT: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    try {
      const deadline = Date.now() + 120_000;
      while (!out.includes("Enter a value") && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
      expect(out).toContain("Enter a value");
      const tfInfo = JSON.parse(readFileSync(store.lockInfoPath, "utf8")) as { ID: string };

      const e = await rejection(store.lock({ operation: "magma-test" }));
      expect(e.code).toBe("locked");
      expect(e.detail).toMatchObject({ id: tfInfo.ID, operation: "OperationTypeApply", version: "1.11.4", path: "terraform.tfstate" });
      expect(e.message).toContain(tfInfo.ID);
      const before = readFileSync(store.path);
      expect((await rejection(store.write(new Uint8Array([1, 2, 3])))).code).toBe("locked");
      expect(readFileSync(store.path)).toEqual(before);
    } finally {
      child.stdin.end("no\n");
      await exited;
    }
    const id = await store.lock({ operation: "magma-test" });
    await store.unlock(id);
  }, 300_000);

  test("magma holding the lock blocks terraform; a waiting terraform gets it after magma's write", async () => {
    const id = await store.lock({ operation: "magma-test", info: "held by the test" });
    let waiting: Promise<{ code: number | string; stdout: string; stderr: string }> | undefined;
    let magmaSerial = 0;
    try {
      const refused = await ws.tf("plan", "-no-color", "-lock-timeout=0s");
      expectExit(refused, 1, "plan while magma holds the lock");
      expect(refused.stderr).toContain("Error acquiring the state lock");
      expect(refused.stderr).toContain(id);
      expect(refused.stderr).toContain("magma-test");

      // terraform waits for the lock (retrying on the descriptor it opened); magma writes the
      // state in place and releases: terraform must then see magma's state, not a stale copy.
      waiting = ws.tf("apply", "-auto-approve", "-no-color", "-lock-timeout=300s", "-refresh=false");
      await new Promise((r) => setTimeout(r, 4000));
      // magma's write drops the output "big" and jumps the serial: a terraform that read a stale
      // copy would neither re-add the output over it nor continue from this serial.
      const file = (await loadState(store))!;
      const outputs = new Map(file.outputs);
      outputs.delete("big");
      magmaSerial = file.serial + 10;
      await store.write(writeStateFile({ ...file, outputs, serial: magmaSerial }));
    } finally {
      await store.unlock(id);
    }
    const applied = await waiting!;
    expectExit(applied, 0, "apply after waiting for magma's lock");
    expect(applied.stdout).toMatch(/\+ big\s+= 12345678901234567890/);
    expect(applied.stdout).toContain("Apply complete!");
    const after = (await loadState(store))!;
    // terraform continued from magma's serial (it may persist more than once during an apply).
    expect(after.serial).toBeGreaterThan(magmaSerial);
    expect(after.serial).toBeLessThan(magmaSerial + 10);
    expect(after.outputs.get("big")?.valueJson).toBe("12345678901234567890");
    expectExit(await ws.tf("plan", "-detailed-exitcode", "-no-color"), 0, "plan after all");
  }, 400_000);

  test("workspaces: terraform's are magma's and magma's are terraform's", async () => {
    const backend = createLocalBackend({ dir: ws.dir });
    expectExit(await ws.tf("workspace", "new", "-no-color", "dev"), 0, "workspace new");
    expect(await backend.listWorkspaces()).toEqual(["default", "dev"]);
    await saveState(backend.store("stage"), newStateFile());
    const list = await ws.tf("workspace", "list", "-no-color");
    expectExit(list, 0, "workspace list");
    expect(list.stdout).toMatch(/^\s+stage$/m);
    expectExit(await ws.tf("workspace", "select", "-no-color", "stage"), 0, "workspace select");
    const state = await ws.tf("state", "list", "-no-color");
    expectExit(state, 0, "state list in magma's workspace");
    expect(state.stdout.trim()).toBe("");
    expectExit(await ws.tf("workspace", "select", "-no-color", "default"), 0, "workspace select default");
    await backend.deleteWorkspace("stage");
    await backend.deleteWorkspace("dev");
    const after = await ws.tf("workspace", "list", "-no-color");
    expect(after.stdout).not.toMatch(/stage|dev/);
  }, 300_000);

  test("a truncated state is refused by magma (and by terraform) and left untouched", async () => {
    const good = readFileSync(store.path);
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    writeFileSync(store.path, truncated);
    try {
      const file = readStateFile(good)!;
      expect((await rejection(loadState(store))).code).toBe("corrupt");
      expect((await rejection(saveState(store, { ...file, serial: file.serial + 1 }))).code).toBe("corrupt");
      expect(readFileSync(store.path)).toEqual(truncated);
      expectExit(await ws.tf("plan", "-no-color"), 1, "terraform plan on a truncated state");
      expect(readFileSync(store.path)).toEqual(truncated);
    } finally {
      writeFileSync(store.path, good);
    }
  }, 300_000);
});

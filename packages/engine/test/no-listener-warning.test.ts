// A plan and apply of many instances at parallelism 10 under the caller's AbortSignal prints
// no MaxListenersExceededWarning on stderr: every provider call in flight listens to the signal
// it was given, and node warns past 10 listeners on one signal (see src/shared-signal.ts). Run
// in a child process: node's process warnings do not reach a test's sandboxed `process`.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const script = fileURLToPath(new URL("./testdata/many-calls-under-signal.mjs", import.meta.url));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "listener-warning-"));
  writeFileSync(
    join(dir, "main.tf"),
    `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
resource "memory_item" "many" {
  count = 30
  name  = "item-\${count.index}"
}
`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("plan, apply and plan again of 30 instances under a caller's signal: no MaxListenersExceededWarning", async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, dir], { encoding: "utf8" });
  expect(JSON.parse(stdout)).toEqual({ planned: 30, state: 1, again: 30 });
  expect(stderr).not.toContain("MaxListenersExceededWarning");
  expect(stderr).toBe("");
}, 120_000);

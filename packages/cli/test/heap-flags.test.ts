// The `magma` executable keeps V8's young generation at its initial size and runs without
// TurboFan (bin/heap-flags.ts sets --semi-space-growth-factor=1, --no-opt and
// --optimize-for-size before anything else loads), unless the user chose otherwise: checked
// from inside the process by a preloaded observer (testdata/heap-observer.mjs) that reports
// new_space's size at start and at exit and whether a function still gets optimised, on a
// plan over the native random provider.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanUp, magma } from "./support/run-magma.js";
import { removeWorkdirs, workdir } from "./support/workdir.js";

const observer = fileURLToPath(new URL("./testdata/heap-observer.mjs", import.meta.url));

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const CONFIG = {
  "main.tf": `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_id" "a" {
  count       = 40
  byte_length = 8
}
resource "random_string" "s" {
  count   = 40
  length  = 12
  special = false
}
`,
};

/** Runs `magma plan` in `dir` with the observer preloaded (plus `nodeOptions`); new_space's size at start and exit. */
async function planHeap(dir: string, nodeOptions: string): Promise<{ start: number; exit: number; turbofan: boolean }> {
  const out = join(dir, `heap-${Math.random().toString(36).slice(2)}.json`);
  const r = await magma(["plan", "-no-color"], { cwd: dir, env: { NODE_OPTIONS: `--import=${observer} ${nodeOptions}`.trim(), MAGMA_TEST_HEAP_OUT: out } });
  expect({ code: r.code, stdout: r.stdout.slice(-300) }).toEqual({ code: 0, stdout: expect.stringContaining("No changes.") });
  return JSON.parse(readFileSync(out, "utf8")) as { start: number; exit: number; turbofan: boolean };
}

test("magma keeps the young generation at its initial size unless the user sized it, and runs without TurboFan", async () => {
  const dir = workdir(CONFIG);
  expect((await magma(["init", "-no-color"], { cwd: dir })).code).toBe(0);
  const applied = await magma(["apply", "-auto-approve", "-no-color"], { cwd: dir });
  expect({ code: applied.code, stderr: applied.stderr.slice(-500) }).toEqual({ code: 0, stderr: expect.any(String) });

  // Default: two semispaces of the initial size at most (node 20 starts with one committed).
  const own = await planHeap(dir, "");
  expect(own.start).toBeGreaterThan(0);
  expect(own.exit).toBeLessThanOrEqual(2 * own.start);
  expect(own.turbofan).toBe(false);

  // The user's own choice is kept: with 16 MiB semispaces allowed, the same plan grows past them.
  const chosen = await planHeap(dir, "--max-semi-space-size=16");
  expect(chosen.exit).toBeGreaterThan(2 * chosen.start);
  expect(chosen.turbofan).toBe(false);

  // The observer is not vacuous: a node process without the bin's flags does optimise.
  const plain = join(dir, "plain-heap.json");
  execFileSync(process.execPath, ["--import", observer, "-e", ""], { env: { ...process.env, NODE_OPTIONS: undefined, MAGMA_TEST_HEAP_OUT: plain } });
  expect(JSON.parse(readFileSync(plain, "utf8"))).toMatchObject({ turbofan: true });
}, 240_000);

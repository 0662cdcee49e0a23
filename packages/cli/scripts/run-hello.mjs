#!/usr/bin/env node
// `pnpm hello` from a checkout: the Terraform workflow on examples/hello with the built
// `magma` — init, plan, apply, a changed plan, destroy — in a temporary copy of the
// directory (the local state file lives there), narrated. Each step's exit code is checked,
// so the run fails loudly.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "bin", "magma.js");
const example = join(here, "..", "..", "..", "examples", "hello");
const dir = mkdtempSync(join(tmpdir(), "magma-hello-"));
cpSync(example, dir, { recursive: true });

const steps = [
  ["Prepare the working directory: find the providers (random is native) and write the lock file.", ["init"], 0],
  ["Plan: three random objects and a list of names to create (-detailed-exitcode: 2 = changes).", ["plan", "-detailed-exitcode"], 2],
  ["Apply: live progress, the state written after every object, the outputs.", ["apply", "-auto-approve"], 0],
  ["Plan again: nothing to do.", ["plan", "-detailed-exitcode"], 0],
  ["A changed plan: one more name (-var pets=3).", ["plan", "-var", "pets=3", "-detailed-exitcode"], 2],
  ["Destroy everything, in reverse dependency order.", ["destroy", "-auto-approve"], 0],
];
let failed = false;
try {
  for (const [what, args, expected] of steps) {
    process.stdout.write(`\n\u001b[1m# ${what}\u001b[0m\n$ magma ${args.join(" ")}\n`);
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, stdio: "inherit" });
    if (r.status !== expected) {
      process.stderr.write(`\nmagma ${args.join(" ")} exited ${r.status}, expected ${expected}\n`);
      failed = true;
      break;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (!failed) process.stdout.write("\nDone: the same commands work with terraform on this directory. `pnpm demo` tours single provider operations.\n");
process.exit(failed ? 1 : 0);

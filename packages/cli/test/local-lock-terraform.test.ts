// A held lock of the local backend, side by side with terraform 1.11.4: while one tool's
// console holds the working directory's state lock (it keeps it while it reads stdin), magma
// and terraform are each refused by plan (an operation: no empty line after the diagnostic)
// and by `state rm` (an older command: one), and both print the same text — terraform's
// "resource temporarily unavailable", the holder's lock info with Go's time format.
// Skipped without terraform.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { MAGMA_BIN } from "./support/run-magma.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** The environment of both tools in `dir` (an empty CLI configuration of its own). */
const envOf = (dir: string): Record<string, string> => ({ TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc"), CHECKPOINT_DISABLE: "1" });

/** Starts a console of `tool` in `dir` and resolves once it holds the lock; end its stdin to release it. */
async function holdLock(tool: "terraform" | "magma", dir: string): Promise<ChildProcess> {
  const [cmd, args] = tool === "terraform" ? [TERRAFORM!, ["console"]] : [process.execPath, [MAGMA_BIN, "console"]];
  const child = spawn(cmd, args, { cwd: dir, env: { ...process.env, ...envOf(dir) }, stdio: ["pipe", "ignore", "ignore"] });
  const info = join(dir, ".terraform.tfstate.lock.info");
  for (let i = 0; !existsSync(info); i++) {
    if (i > 600) throw new Error(`${tool} console did not take the lock`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

async function release(child: ChildProcess): Promise<void> {
  const done = new Promise((r) => child.once("exit", r));
  child.stdin?.end();
  await done;
}

(TERRAFORM !== undefined ? describe : describe.skip)("the local backend's held lock beside terraform's", () => {
  test.each(["terraform", "magma"] as const)("held by %s's console: plan and state rm refused with the same text by both", async (holder) => {
    const dir = workdir({ "main.tf": 'resource "terraform_data" "a" {\n  input = 1\n}\n', "cli.tfrc": "" });
    const env = envOf(dir);
    await terraformAsync(["init", "-no-color"], dir, { env });
    await terraformAsync(["apply", "-auto-approve", "-no-color"], dir, { env });
    const child = await holdLock(holder, dir);
    try {
      for (const args of [["plan", "-no-color", "-input=false"], ["state", "rm", "-no-color", "terraform_data.a"]]) {
        const theirs = await runTool("terraform", args, dir, env);
        const ours = await runTool("magma", args, dir, env);
        expect(theirs.stderr).toContain("Error acquiring the state lock");
        expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
      }
    } finally {
      await release(child);
    }
  }, 300_000);
});

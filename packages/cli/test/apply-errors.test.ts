// A working-directory apply that fails part-way (a provider error) and one stopped by SIGINT,
// against terraform 1.11.4 on the same configuration: the "Error:" diagnostics on stderr (with
// the object's address and its block's snippet), plain and coloured, byte for byte; the
// interrupt notice on stdout; the exit code. The providers are provider-random variants served
// by @magma/provider-server (test/testdata/failing-provider.mjs, slow-provider.mjs) from a
// filesystem mirror, so terraform and magma run the same provider. Skipped without terraform.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { MAGMA_BIN } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "testdata");
const spawned = new Set<ChildProcess>();
const temp: string[] = [];

afterAll(() => {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of temp) rmSync(d, { recursive: true, force: true });
  removeWorkdirs();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs terraform or magma in `cwd`; with `interruptAfter`, sends one SIGINT a moment after
 * stdout first matches it (so that the provider call the line announces is under way).
 */
function run(tool: "terraform" | "magma", args: readonly string[], cwd: string, env: Record<string, string>, interruptAfter?: RegExp): Promise<Run> {
  const cache = mkdtempSync(join(tmpdir(), "magma-apply-errors-cache-"));
  temp.push(cache);
  const [cmd, argv] = tool === "terraform" ? [TERRAFORM!, [...args]] : [process.execPath, [MAGMA_BIN, ...args]];
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, XDG_CACHE_HOME: cache, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "", FORCE_COLOR: "", NO_COLOR: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  spawned.add(child);
  let stdout = "";
  let stderr = "";
  let signalled = false;
  child.stdout.on("data", (b: Buffer) => {
    stdout += b.toString("utf8");
    if (interruptAfter !== undefined && !signalled && interruptAfter.test(stdout)) {
      signalled = true;
      setTimeout(() => child.kill("SIGINT"), 1500);
    }
  });
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      spawned.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Random ids and durations differ from run to run. */
const stable = (s: string): string => s.replace(/\[id=[^\]]*\]/g, "[id=ID]").replace(/after \d+s/g, "after Ns");

const CONFIG = (provider: string): string => `
terraform {
  required_providers {
    ${provider} = { source = "magma/${provider}" }
  }
}
resource "random_id" "ok" {
  provider    = ${provider}
  byte_length = 4
}
resource "random_id" "bad" {
  provider    = ${provider}
  byte_length = 4
  keepers     = { fail = "yes", after = random_id.ok.hex }
}
`;

(TERRAFORM !== undefined ? describe : describe.skip)("a failed and an interrupted apply against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    const mirror = workdir();
    for (const [type, file] of [
      ["failing", "failing-provider.mjs"],
      ["slow", "slow-provider.mjs"],
    ] as const) {
      writeProviderLauncher({ mirrorDir: mirror, hostname: "registry.terraform.io", namespace: "magma", type, version: "1.0.0", module: join(testdata, file), exportName: "createProvider" });
    }
    cliConfig = join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n` }), "cli.tfrc");
  });

  /** Two directories initialised by terraform (one for each tool) on `config`. */
  const dirs = async (config: string): Promise<[string, string]> => {
    const pair = [workdir({ "main.tf": config }), workdir({ "main.tf": config })] as [string, string];
    await Promise.all(pair.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    return pair;
  };
  /** `check` plain and coloured, each in its own pair of directories: side by side. */
  const plainAndColoured = (config: string, check: (colour: boolean, m: string, t: string) => Promise<void>): Promise<unknown> =>
    Promise.all([false, true].map(async (colour) => check(colour, ...(await dirs(config)))));

  test("a provider error mid-apply: terraform's Error diagnostic with the address and the block's snippet on stderr, exit 1", async () => {
    await plainAndColoured(CONFIG("failing"), async (colour, m, t) => {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Each tool in its own directory: side by side.
      const [theirs, ours] = await Promise.all([run("terraform", args, t, { TF_CLI_CONFIG_FILE: cliConfig }), run("magma", args, m, colour ? { FORCE_COLOR: "1" } : {})]);
      expect({ colour, code: ours.code }).toEqual({ colour, code: theirs.code });
      expect(theirs.code).toBe(1);
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      expect({ colour, stdout: stable(ours.stdout) }).toEqual({ colour, stdout: stable(theirs.stdout) });
      if (!colour) {
        expect(ours.stderr).toBe(
          '\nError: creating random_id: operation error: AccessDenied\n\n  with random_id.bad,\n  on main.tf line 11, in resource "random_id" "bad":\n  11: resource "random_id" "bad" {\n\nThe caller is not allowed to create this object (a long detail that terraform\nwraps at its width, so that the wrapping of the detail text is part of what\nthe test compares).\n',
        );
      }
    });
  }, 600_000);

  test("SIGINT during a create: the interrupt notice on stdout, terraform's halted and canceled errors on stderr, exit 1", async () => {
    // The create takes 15 s unless the provider is stopped (provider-server cancels the call in flight, when it gets the stop in time).
    const env = { SLOW_PROVIDER_MS: "15000" };
    await plainAndColoured(CONFIG("slow").replace('fail = "yes", ', ""), async (colour, m, t) => {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Each tool in its own directory: side by side (the interrupt waits for each one's own "Creating...").
      const [theirs, ours] = await Promise.all([
        run("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, /random_id\.ok: Creating\.\.\./),
        run("magma", args, m, { ...env, ...(colour ? { FORCE_COLOR: "1" } : {}) }, /random_id\.ok: Creating\.\.\./),
      ]);
      expect({ colour, code: ours.code }).toEqual({ colour, code: theirs.code });
      expect(theirs.code).toBe(1);
      // Terraform prints "Stopping operation..." and the interrupt notice from two goroutines, in either order.
      const notice = (s: string): string => stable(s).replace("Stopping operation...\n", "").replace("Gracefully shutting down...\n\n", "Gracefully shutting down...\n\nStopping operation...\n");
      expect({ colour, stdout: notice(ours.stdout) }).toEqual({ colour, stdout: notice(theirs.stdout) });
      expect(ours.stdout).toContain("random_id.ok: Creating...");
      expect(ours.stdout).toContain("\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n");
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      // The create under way when the stop came: its stop hook's two errors, then (when the provider canceled the call rather than finishing it) the call's error.
      if (!colour) expect(ours.stderr).toMatch(/^\nError: execution halted\n\n\nError: execution halted\n\n(\nError: Operation canceled\n\n {2}with random_id\.ok,\n[^]*)?$/);
    });
  }, 600_000);
});

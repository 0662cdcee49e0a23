/**
 * Test support: terraform and the built `magma` run side by side on the same working
 * directory, with native test providers (test/testdata/*-provider.mjs) that terraform installs
 * from a filesystem mirror (served by @magma/provider-server, their launcher entries bundled
 * so that each provider process terraform starts loads one file).
 *
 * Call {@link stopToolRuns} in the test file's `afterAll` (beside `removeWorkdirs`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { MAGMA_BIN } from "./run-magma.js";
import { TERRAFORM, workdir } from "./workdir.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata");
const spawned = new Set<ChildProcess>();
const temp: string[] = [];

/** What a run of terraform or magma printed and how it ended. */
export interface ToolRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runTool}. */
export interface ToolRunOptions {
  /**
   * Sends one SIGINT a moment (1.5 s) after stdout first matches this, so that the provider
   * call the matched line announces is under way.
   */
  readonly interruptAfter?: RegExp;
  /** With `interruptAfter`: a second SIGINT 300 ms after the first. */
  readonly twice?: boolean;
  /** Calls `run` once, with stdout so far, as soon as stdout first matches `match` (e.g. to break the state's storage while an object is being applied). */
  readonly onOutput?: { readonly match: RegExp; readonly run: (stdout: string) => void };
  /** Text written to the run's stdin (closed after it); without it, stdin is closed at once. */
  readonly stdin?: string;
}

/**
 * Terraform's notes for a state lock taken or released slowly ("Acquiring state lock. This may
 * take a few moments...", printed when the lock call takes over 400 ms: clistate's
 * LockThreshold; with -json, a message saying the same), removed: on a loaded machine they
 * come and go from run to run.
 */
function withoutSlowLockNotes(text: string): string {
  return text
    .replace(/^(?:\x1b\[[0-9;]*m)*(?:Acquiring|Releasing) state lock\. This may take a few moments\.\.\.(?:\x1b\[[0-9;]*m)*\n/gm, "")
    .replace(/^\{[^\n]*"@message":"(?:Acquiring|Releasing) state lock\. This may take a few moments\.\.\."[^\n]*\}\n/gm, "");
}

/**
 * Runs terraform (from PATH or `MAGMA_TERRAFORM`) or the built `magma` in `cwd`, with a
 * cache directory of its own, no checkpoint calls and no colour unless `env` asks for it.
 * Killed after 240 s. Terraform's slow-lock notes are left out of what it printed.
 */
export function runTool(
  tool: "terraform" | "magma",
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  options: ToolRunOptions = {},
): Promise<ToolRun> {
  const cache = mkdtempSync(join(tmpdir(), "magma-side-by-side-cache-"));
  temp.push(cache);
  const [cmd, argv] = tool === "terraform" ? [TERRAFORM!, [...args]] : [process.execPath, [MAGMA_BIN, ...args]];
  const child = spawn(cmd, argv, {
    cwd,
    env: { ...process.env, XDG_CACHE_HOME: cache, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "", FORCE_COLOR: "", NO_COLOR: "", ...env },
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  spawned.add(child);
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let stdout = "";
  let stderr = "";
  let signalled = false;
  const { interruptAfter, twice = false, onOutput } = options;
  let ran = false;
  child.stdout!.on("data", (b: Buffer) => {
    stdout += b.toString("utf8");
    if (onOutput !== undefined && !ran && onOutput.match.test(stdout)) {
      ran = true;
      onOutput.run(stdout);
    }
    if (interruptAfter !== undefined && !signalled && interruptAfter.test(stdout)) {
      signalled = true;
      setTimeout(() => {
        child.kill("SIGINT");
        if (twice) setTimeout(() => child.kill("SIGINT"), 300);
      }, 1500);
    }
  });
  child.stderr!.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      spawned.delete(child);
      resolve(tool === "terraform" ? { code, stdout: withoutSlowLockNotes(stdout), stderr: withoutSlowLockNotes(stderr) } : { code, stdout, stderr });
    });
  });
}

/**
 * A terraform CLI configuration (its path) whose filesystem mirror serves each named test
 * provider, `type` → its file in test/testdata (exporting `createProvider`), as
 * `registry.terraform.io/magma/<type>` version 1.0.0.
 */
export function testProvidersCliConfig(providers: Readonly<Record<string, string>>): string {
  const mirror = workdir();
  for (const [type, file] of Object.entries(providers)) {
    bundleLauncherEntry(
      writeProviderLauncher({ mirrorDir: mirror, hostname: "registry.terraform.io", namespace: "magma", type, version: "1.0.0", module: join(testdata, file), exportName: "createProvider" }),
    );
  }
  return join(
    workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n` }),
    "cli.tfrc",
  );
}

/** Kills any run still going and removes the runs' cache directories. */
export function stopToolRuns(): void {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  spawned.clear();
  for (const d of temp.splice(0)) rmSync(d, { recursive: true, force: true });
}

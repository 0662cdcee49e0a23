/**
 * Test support: temp dirs, launchers for the fixture provider, child processes that are
 * always killed, and terraform runs with a private CLI configuration.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findTerraform, PLUGIN_MIRROR, terraformEnv as terraformEnvFor, writeTerraformCliConfig } from "@magma/test-support";
import { writeProviderLauncher, type ProviderLauncher, type ServedProtocolVersion } from "../../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The fixture provider module: the in-memory provider with a file-backed store. */
export const storedMemoryProvider = join(here, "../testdata/stored-memory-provider.mjs");

/** A fixture provider whose schema also describes an ephemeral resource type and a function. */
export const describedOnlyProvider = join(here, "../testdata/described-only-provider.mjs");
/** A native provider with provider-defined functions and nothing else. */
export const functionProvider = join(here, "../testdata/function-provider.mjs");
/** A memory provider with a provider_meta schema that reports, as a warning, the meta each read and plan got. */
export const providerMetaProvider = join(here, "../testdata/provider-meta-provider.mjs");

/** Terraform's magic cookie. */
export const MAGIC_COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** The terraform executable (test-support: `MAGMA_TERRAFORM` or PATH), or undefined. */
export { findTerraform } from "@magma/test-support";

/** A temp directory removed by `cleanup`. Short paths keep unix socket paths under the limit. */
export function tempDir(prefix: string): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes the fixture provider's launcher into `<dir>/mirror`. */
export function fixtureLauncher(dir: string, protocolVersions: readonly ServedProtocolVersion[] = [5, 6], module = storedMemoryProvider, exportName = "createProvider", type = "memory"): ProviderLauncher {
  return writeProviderLauncher({ mirrorDir: join(dir, "mirror"), hostname: "example.com", namespace: "magma", type, version: "1.0.0", module, exportName, protocolVersions });
}

/** A child process with its output collected; `stop` kills it and waits. */
export interface Child {
  readonly child: ChildProcess;
  /** Resolves to the first stdout line (without the newline). */
  readonly firstLine: Promise<string>;
  /** Resolves with the exit code (or the signal name). */
  readonly exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Spawns a command with stdout/stderr collected. */
export function start(command: string, args: readonly string[], env: Record<string, string | undefined>, cwd?: string): Child {
  const child = spawn(command, args, { env: env as NodeJS.ProcessEnv, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let resolveLine!: (l: string) => void;
  let rejectLine!: (e: Error) => void;
  const firstLine = new Promise<string>((res, rej) => {
    resolveLine = res;
    rejectLine = rej;
  });
  firstLine.catch(() => undefined);
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    const i = out.indexOf("\n");
    if (i >= 0) resolveLine(out.slice(0, i));
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((res) => {
    child.on("exit", (code, signal) => {
      rejectLine(new Error(`process exited (${code ?? signal}) before a stdout line; stderr: ${err}`));
      res(code ?? signal ?? -1);
    });
  });
  return {
    child,
    firstLine,
    exited,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}

/** The environment terraform runs with: a private CLI config that prefers the test mirror. */
export function terraformEnv(dir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const cli = writeTerraformCliConfig(dir, { mirrors: [{ path: join(dir, "mirror"), include: ["example.com/*/*"] }, { path: PLUGIN_MIRROR }] });
  return terraformEnvFor(cli, {
    TMPDIR: dir,
    // Provider logs (and what go-plugin reads from the provider's stderr) for failure reports.
    TF_LOG_PROVIDER: "debug",
    TF_LOG_PATH: join(dir, "terraform.log"),
    ...extra,
  });
}

/** The result of one terraform run. */
export interface TerraformRun {
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs terraform to completion (killed after `timeoutMs`). */
export async function terraform(args: readonly string[], cwd: string, env: Record<string, string | undefined>, timeoutMs = 180_000): Promise<TerraformRun> {
  const c = start(findTerraform() ?? "terraform", [...args], env, cwd);
  const timer = setTimeout(() => void c.stop(), timeoutMs);
  try {
    const code = await c.exited;
    // Let the pipes drain.
    await new Promise((r) => setImmediate(r));
    return { code, stdout: c.stdout(), stderr: c.stderr() };
  } finally {
    clearTimeout(timer);
    await c.stop();
  }
}

/** Fails with terraform's output when the run did not exit with `expected`. */
export function expectExit(run: TerraformRun, expected: number, what: string, env?: Record<string, string | undefined>): void {
  if (run.code === expected) return;
  const logPath = env?.["TF_LOG_PATH"];
  const text = logPath !== undefined && existsSync(logPath) ? readFileSync(logPath, "utf8") : "";
  // The provider's own failures show up as error lines (and unparsed stderr) in terraform's log.
  const errors = text.split("\n").filter((l) => /error|panic|exited|Error/.test(l)).slice(-40).join("\n");
  const log = `${errors}\n--- last lines\n${text.slice(-3000)}`;
  throw new Error(`${what}: terraform exited ${run.code}, expected ${expected}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- log tail\n${log}`);
}

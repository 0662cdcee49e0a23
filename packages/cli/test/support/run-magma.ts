/**
 * Test support: runs the built `magma` executable (dist/bin/magma.js) as a child process
 * with piped stdio and collects its output. The children of one test file share a schema
 * cache directory (XDG_CACHE_HOME) of their own, never ~/.cache: the cache is keyed by the
 * provider binary's identity, so a file's later runs read the schema its first run fetched
 * (hashicorp/aws's takes seconds of CPU to fetch) instead of launching the provider again.
 * A test about the cache itself asks for a fresh, empty one (`cache: "fresh"`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AWS_BINARY, PLUGIN_MIRROR, hasAwsProvider } from "@magma/test-support";

/** The built executable. */
export const MAGMA_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "bin", "magma.js");

// The filesystem mirror and the real AWS provider binary: @magma/test-support's (configurable by environment).
export { AWS_BINARY, PLUGIN_MIRROR };

/** Whether the AWS provider binary is present (a failure instead of a skip under `MAGMA_REQUIRE_BINARIES=1`). */
export const awsAvailable = hasAwsProvider();

/** What one run produced. */
export interface MagmaResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const children = new Set<ChildProcess>();
const dirs = new Set<string>();
/** This file's shared schema cache directory (made by the first run that uses it). */
let sharedCache: string | undefined;

function cacheHome(kind: "shared" | "fresh"): { dir: string; owned: boolean } {
  if (kind === "fresh") {
    const dir = mkdtempSync(join(tmpdir(), "magma-cli-cache-"));
    dirs.add(dir);
    return { dir, owned: true };
  }
  if (sharedCache === undefined) {
    sharedCache = mkdtempSync(join(tmpdir(), "magma-cli-cache-"));
    dirs.add(sharedCache);
  }
  return { dir: sharedCache, owned: false };
}

/**
 * Runs `magma <args>`; `input` is written to its stdin. Never rejects on a non-zero exit.
 * `cache`: the file's shared schema cache (default) or a fresh, empty one for this run only.
 */
export async function magma(
  args: readonly string[],
  options: { input?: string | Uint8Array; env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number; cache?: "shared" | "fresh" } = {},
): Promise<MagmaResult> {
  const cache = cacheHome(options.cache ?? "shared");
  // Colour is chosen by each test (jest's workers may run with FORCE_COLOR set).
  const env: Record<string, string | undefined> = { ...process.env, XDG_CACHE_HOME: cache.dir, MAGMA_PLUGIN_DIRS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined, ...options.env };
  const child = spawn(process.execPath, [MAGMA_BIN, ...args], { cwd: options.cwd ?? tmpdir(), env, stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (c) => resolve(c));
    });
    return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
  } finally {
    clearTimeout(timer);
    children.delete(child);
    if (cache.owned) {
      rmSync(cache.dir, { recursive: true, force: true });
      dirs.delete(cache.dir);
    }
  }
}

/** Runs magma and parses its stdout as JSON, failing with its stderr when it exits non-zero. */
export async function magmaJson(args: readonly string[], options: Parameters<typeof magma>[1] = {}): Promise<Record<string, unknown>> {
  const r = await magma(args, options);
  if (r.code !== 0) throw new Error(`magma ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** Kills whatever is still running and removes temporary directories (call in afterAll). */
export function cleanUp(): void {
  for (const c of children) c.kill("SIGKILL");
  children.clear();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
  sharedCache = undefined;
}

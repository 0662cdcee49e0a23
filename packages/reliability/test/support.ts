/** Test support: the fault provider's launcher, its event record, process checks. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFaultProviderLauncher } from "../src/write-fault-provider-launcher.js";

/** A temp dir with the fault provider's launcher, removed by `cleanup`. */
export function faultWorkspace(): { dir: string; binary: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "magma-rel-"));
  return { dir, binary: writeFaultProviderLauncher(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One event line of the fault provider's record file. */
export interface FaultEvent {
  readonly event: string;
  readonly pid: number;
  readonly env?: Record<string, string>;
}

/** The events recorded so far (none when the file does not exist). */
export function readRecord(file: string): FaultEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as FaultEvent);
}

/** Whether the process is gone (or a zombie). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls `check` every 25 ms until it holds or `ms` pass. */
export async function waitUntil(check: () => boolean, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/** Runs `fn`, expecting it to reject, and returns the error. */
export async function rejection(fn: () => Promise<unknown>): Promise<Error & { code?: string; detail?: Record<string, unknown>; rawMessage?: string }> {
  try {
    await fn();
  } catch (e) {
    return e as Error & { code?: string; detail?: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}

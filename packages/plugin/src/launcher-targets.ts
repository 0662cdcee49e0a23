import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { isAbsolute } from "node:path";

/**
 * The comment by which a script launcher declares a file it runs (such as the provider
 * module behind a `writeProviderLauncher` script), one per line:
 * `# magma-launcher-target: /absolute/path/to/provider.mjs`. Caches keyed to a provider
 * binary (the schema cache, the validation memory, a factory's schemas) then also key to
 * each declared file, so editing the module behind an unchanged launcher invalidates them.
 */
export const LAUNCHER_TARGET_MARK = "magma-launcher-target:";

/** How much of a launcher is searched for declarations. */
const HEAD_BYTES = 16 * 1024;
/** The most declarations honoured. */
const MAX_TARGETS = 16;

/**
 * The files a script launcher declares with {@link LAUNCHER_TARGET_MARK} comments in its
 * first 16 KiB (only when it starts with `#!`; absolute paths only; at most 16). Empty for
 * a compiled binary or an unreadable file.
 */
export async function launcherTargets(launcher: string): Promise<string[]> {
  let head: Buffer;
  try {
    const fd = await open(launcher, "r");
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await fd.read(buf, 0, HEAD_BYTES, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fd.close();
    }
  } catch {
    return [];
  }
  return parseTargets(head);
}

/** {@link launcherTargets}, synchronously. */
export function launcherTargetsSync(launcher: string): string[] {
  let head: Buffer;
  try {
    const fd = openSync(launcher, "r");
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      head = buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  return parseTargets(head);
}

function parseTargets(head: Buffer): string[] {
  if (head.length < 2 || head[0] !== 0x23 || head[1] !== 0x21) return []; // "#!"
  const out: string[] = [];
  for (const line of head.toString("utf8").split("\n")) {
    const m = /^\s*(?:#|\/\/)\s*magma-launcher-target:\s*(.+?)\s*$/.exec(line);
    if (m === null) continue;
    const path = m[1]!;
    if (isAbsolute(path) && !out.includes(path)) out.push(path);
    if (out.length >= MAX_TARGETS) break;
  }
  return out;
}

import type { WorkingDir } from "../workdir/working-dir.js";

/**
 * Where a state-changing command copies the state before it writes, as Terraform does for
 * the local backend: `-backup=PATH`, none for `-backup=-`, else `<state file>.<unix seconds>.backup`.
 */
export function backupPath(wd: WorkingDir, backup: string | undefined, now = new Date()): string | undefined {
  if (backup === "-") return undefined;
  if (backup !== undefined) return backup;
  const path = (wd.store() as { path?: unknown }).path;
  return typeof path === "string" ? `${path}.${Math.floor(now.getTime() / 1000)}.backup` : undefined;
}

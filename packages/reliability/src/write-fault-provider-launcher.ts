import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The compiled program of the fault provider (needs the package to be built). */
export const faultProviderMain = fileURLToPath(new URL("../dist/fault-provider-main.js", import.meta.url)); // from src/ (tests) and dist/ alike

/**
 * Writes `<dir>/terraform-provider-fault`, a `/bin/sh` launcher that execs this Node
 * (`process.execPath`, so no `PATH` is needed) on the compiled fault provider; the process
 * id magma sees is the provider's own. Returns the launcher's path.
 */
export function writeFaultProviderLauncher(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "terraform-provider-fault");
  writeFileSync(file, `#!/bin/sh\nexec '${process.execPath}' '${faultProviderMain}' "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

import { formatLockFile, isInstallError, LOCK_FILE_NAME, parseLockFile as parseInstallLockFile, type LockedProvider } from "@magma/install";
import { CliError, CliErrorCode } from "../cli-error.js";

// The dependency lock file is @magma/install's (which reads and writes it for `init`); the CLI
// keeps its own names for it, with its errors as CliErrors.
export { formatLockFile, LOCK_FILE_NAME };
export type { LockedProvider };

/**
 * Reads `.terraform.lock.hcl` text into its provider blocks by address (see
 * `@magma/install`'s `parseLockFile`).
 *
 * @throws CliError `bad_input` naming the problem and where.
 */
export function parseLockFile(text: string, filename = LOCK_FILE_NAME): Map<string, LockedProvider> {
  try {
    return parseInstallLockFile(text, filename);
  } catch (e) {
    if (isInstallError(e)) throw new CliError(CliErrorCode.BadInput, e.summary, { detail: e.detail });
    throw e;
  }
}

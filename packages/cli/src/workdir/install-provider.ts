import { lstatSync, mkdirSync, readlinkSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { versionSatisfies } from "@magma/config";
import { isProviderError, resolveProviderBinary, type ResolveProviderOptions } from "@magma/plugin";
import { CliError, CliErrorCode } from "../cli-error.js";
import { packageHashV1 } from "./package-hash.js";
import type { LockedProvider } from "./provider-lock-file.js";
import { providerForDisplay, type ProviderRequirement } from "./provider-requirements.js";
import { versionConstraintsString } from "./version-constraints-string.js";

import { platformName } from "./platform-name.js";

export { platformName };

/** What {@link installProvider} did for one provider. */
export interface InstalledProvider {
  /** The requirement it met. */
  readonly requirement: ProviderRequirement;
  /** The selected version. */
  readonly version: string;
  /** The unpacked package directory it came from (symlinks resolved). */
  readonly packageDir: string;
  /** The package's `h1:` hash. */
  readonly hash: string;
  /** The lock entry to record (the previous hashes plus this one). */
  readonly lock: LockedProvider;
  /** True when `.terraform/providers` already linked this package. */
  readonly reused: boolean;
}

/**
 * Installs one provider as `terraform init` does from a filesystem mirror: selects the
 * locked version (or the newest one matching the constraints when there is no lock entry or
 * `upgrade`), checks the unpacked package's `h1:` hash against the lock file's hashes, and
 * links `<dataDir>/providers/<host>/<ns>/<type>/<version>/<os_arch>` to it.
 *
 * @throws CliError `not_found` naming the directories searched and where to put the
 *   provider; `bad_input` for a hash mismatch or a locked version the constraints exclude.
 */
export async function installProvider(
  req: ProviderRequirement,
  locked: LockedProvider | undefined,
  options: { readonly dataDir: string; readonly resolve: ResolveProviderOptions; readonly upgrade: boolean },
): Promise<InstalledProvider> {
  const display = providerForDisplay(req.provider);
  const useLock = locked !== undefined && !options.upgrade;
  if (useLock && !versionSatisfies(locked.version, req.constraints)) {
    throw new CliError(CliErrorCode.BadInput, "Failed to query available provider packages", {
      detail: `Could not retrieve the list of available versions for provider ${display}: locked provider ${req.address} ${locked.version} does not match configured version constraint ${versionConstraintsString(req.constraints)}; must use terraform init -upgrade to allow selection of new versions`,
    });
  }
  const constraint = useLock ? `= ${locked.version}` : req.constraints.map((c) => c.text).join(", ") || undefined;
  let found;
  try {
    found = await resolveProviderBinary(req.address, { ...options.resolve, ...(constraint === undefined ? {} : { version: constraint }) });
  } catch (e) {
    if (!isProviderError(e) || e.code !== "provider_not_found") throw e;
    const searched = (e.detail as { searched?: readonly string[] }).searched ?? [];
    const want = useLock ? ` ${locked.version}` : "";
    throw new CliError(CliErrorCode.NotFound, "Failed to query available provider packages", {
      detail:
        `Could not retrieve the list of available versions for provider ${display}: provider ${req.address}${want} was not found in any of the search locations\n\n` +
        searched.map((d) => `  - ${d}\n`).join("") +
        `\nmagma installs nothing from the network: put the unpacked provider in one of these directories in Terraform's mirror layout,\n  <dir>/${req.address}/<version>/${platformName()}/terraform-provider-${req.provider.type}_v<version>\n(e.g. copy it from a machine where terraform init ran: .terraform/providers/${req.address}/...), or pass -plugin-dir=DIR, set MAGMA_PLUGIN_DIRS, or add a filesystem_mirror to the Terraform CLI configuration.`,
    });
  }
  const packageDir = realpathSync(dirname(found.binary));
  const hash = await packageHashV1(packageDir);
  if (useLock && locked.hashes.length > 0 && !locked.hashes.includes(hash)) {
    throw new CliError(CliErrorCode.BadInput, "Failed to install provider", {
      detail: `Error while installing ${display} v${found.version}: the local package for ${req.address} ${found.version} doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification`,
    });
  }
  const link = join(options.dataDir, "providers", req.address, found.version, platformName());
  let reused = false;
  try {
    reused = lstatSync(link).isSymbolicLink() && readlinkSync(link) === packageDir;
  } catch {
    reused = false;
  }
  if (!reused) {
    rmSync(link, { recursive: true, force: true });
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(packageDir, link);
  }
  const hashes = useLock ? [...new Set([...locked.hashes, hash])].sort() : [hash];
  return {
    requirement: req,
    version: found.version,
    packageDir,
    hash,
    reused,
    lock: { address: req.address, version: found.version, constraints: versionConstraintsString(req.constraints), hashes },
  };
}

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { versionSatisfies, type Config } from "@magma/config";
import type { Diagnostic } from "@magma/hcl";
import { nativeProviders } from "../native-providers.js";
import { LOCK_FILE_NAME, parseLockFile, type LockedProvider } from "./provider-lock-file.js";
import { providerRequirements, type ProviderRequirement } from "./provider-requirements.js";
import { versionConstraintsString } from "./version-constraints-string.js";

/** Whether magma serves the provider itself (`magma/random`): like terraform's overridden providers, it needs no lock entry. */
function isNative(req: ProviderRequirement): boolean {
  return Object.keys(nativeProviders).some((k) => req.address === `registry.terraform.io/${k}`);
}

/**
 * The working directory's dependency lock file, or undefined when there is none (magma then
 * runs with what it finds, where terraform would ask for `terraform init`).
 */
function readLocks(dir: string): Map<string, LockedProvider> | undefined {
  const file = join(dir, LOCK_FILE_NAME);
  return existsSync(file) ? parseLockFile(readFileSync(file, "utf8")) : undefined;
}

/**
 * The configuration's provider requirements the lock file does not satisfy, as terraform's
 * `Config.VerifyDependencySelections` words them, sorted: a provider with no entry ("required
 * by this configuration but no version is selected") or whose locked version its constraints
 * refuse. Providers magma serves itself are left out, and so is everything when the working
 * directory has no lock file.
 */
export function dependencySelectionErrors(config: Config, dir: string): string[] {
  const locks = readLocks(dir);
  if (locks === undefined) return [];
  const errors: string[] = [];
  for (const req of providerRequirements(config)) {
    if (isNative(req)) continue;
    const lock = locks.get(req.address);
    if (lock === undefined) {
      errors.push(`provider ${req.address}: required by this configuration but no version is selected`);
      continue;
    }
    if (versionSatisfies(lock.version, req.constraints)) continue;
    const current = versionConstraintsString(req.constraints);
    errors.push(
      current !== lock.constraints
        ? `provider ${req.address}: locked version selection ${lock.version} doesn't match the updated version constraints ${JSON.stringify(current)}`
        : `provider ${req.address}: version constraints ${JSON.stringify(current)} don't match the locked version selection ${lock.version}`,
    );
  }
  return errors.sort();
}

/**
 * Terraform's "Inconsistent dependency lock file" error of a plan, apply, destroy or refresh
 * (its local backend checks the selections before anything else), or undefined when the lock
 * file satisfies the configuration ({@link dependencySelectionErrors}).
 */
export function inconsistentLockFileDiagnostic(config: Config, dir: string): Diagnostic | undefined {
  const errors = dependencySelectionErrors(config, dir);
  if (errors.length === 0) return undefined;
  const empty = (readLocks(dir)?.size ?? 0) === 0;
  const suggestion = empty
    ? "To make the initial dependency selections that will initialize the dependency lock file, run:\n  terraform init"
    : "To update the locked dependency selections to match a changed configuration, run:\n  terraform init -upgrade";
  return {
    severity: "error",
    summary: "Inconsistent dependency lock file",
    detail: `The following dependency selections recorded in the lock file are inconsistent with the current configuration:${errors.map((e) => `\n  - ${e}`).join("")}\n\n${suggestion}`,
  };
}

/**
 * Terraform validate's "Missing required provider" errors (its `checkConfigDependencies`: a
 * provider the configuration requires that the lock file selects no version of is not
 * available to it), in the requirements' order. None when there is no lock file.
 */
export function missingRequiredProviderDiagnostics(config: Config, dir: string): Diagnostic[] {
  const locks = readLocks(dir);
  if (locks === undefined) return [];
  return providerRequirements(config)
    .filter((req) => !isNative(req) && !locks.has(req.address))
    .map((req) => ({
      severity: "error",
      summary: "Missing required provider",
      detail: `This configuration requires provider ${req.address}, but that provider isn't available. You may be able to install it automatically by running:\n  terraform init`,
    }));
}

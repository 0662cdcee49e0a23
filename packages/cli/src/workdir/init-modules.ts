import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, posix, resolve } from "node:path";
import { isLocalSource, loadModule, readModuleManifest, type InstalledModule } from "@magma/config";
import { CliError, CliErrorCode } from "../cli-error.js";

/** One module `magma init` recorded, for its `- KEY in DIR` lines. */
export interface InstalledModuleRecord extends InstalledModule {
  /** True when the manifest did not hold this module (with this source) before. */
  readonly isNew: boolean;
}

/** What {@link installModules} found. */
export interface ModuleInstallResult {
  /** Whether the root module calls any module (Terraform prints "Initializing modules..." only then). */
  readonly hasCalls: boolean;
  /** Every module, the root first, in the order Terraform installs them (depth first, calls by name). */
  readonly modules: readonly InstalledModuleRecord[];
}

/**
 * A local module source normalised as Terraform's `addrs.ParseModuleSource` does: backslashes
 * to slashes, the path cleaned, `./` kept in front of anything that does not start with `../`.
 */
export function normalizeLocalSource(source: string): string {
  const clean = posix.normalize(source.replaceAll("\\", "/")).replace(/\/+$/, "") || ".";
  return clean.startsWith("../") ? clean : `./${clean}`;
}

/** The `.terraform/modules/modules.json` text terraform writes: the records by key, compact, no trailing newline. */
export function formatModuleManifest(modules: readonly InstalledModule[]): string {
  const sorted = [...modules].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return JSON.stringify({ Modules: sorted.map((m) => ({ Key: m.key, Source: m.source, ...(m.version !== undefined ? { Version: m.version } : {}), Dir: m.dir })) });
}

/**
 * `terraform init`'s module installation for what magma can install: every module call with
 * a local path source (`./…`, `../…`) is recorded in `<dataDir>/modules/modules.json` with the
 * directory terraform would record (relative to the root module), so terraform finds the
 * modules installed. Modules from the registry or git are kept when `terraform init` already
 * installed them (same key and source); otherwise magma cannot install them and says so.
 * Nothing is written when the root module calls no module, as terraform writes nothing.
 *
 * @throws CliError `bad_input` naming the module call for a source magma cannot install, or
 *   a local directory that does not exist.
 */
export function installModules(rootDir: string, dataDir: string): ModuleInstallResult {
  const root = resolve(rootDir);
  const previous = new Map(readModuleManifest(root).modules.map((m) => [m.key, m]));
  const records: InstalledModuleRecord[] = [{ key: "", source: "", dir: ".", isNew: false }];
  const visit = (dirRel: string, path: readonly string[], depth: number): boolean => {
    const abs = isAbsolute(dirRel) ? dirRel : join(root, dirRel);
    const { module } = loadModule(abs, { displayDir: dirRel });
    const calls = [...module.moduleCalls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const call of calls) {
      const key = [...path, call.name].join(".");
      if (depth > 100) throw new CliError(CliErrorCode.BadInput, `Module ${key} is nested more than 100 levels deep: is there a module that calls itself?`);
      const where = `${call.sourceAddrRange.filename}:${call.sourceAddrRange.start.line}`;
      if (call.sourceAddr === "") continue; // reported by the configuration's own validation
      let record: InstalledModuleRecord;
      if (isLocalSource(call.sourceAddr)) {
        const source = normalizeLocalSource(call.sourceAddr);
        const dir = posix.join(dirRel.replaceAll("\\", "/"), source);
        const full = isAbsolute(dir) ? dir : join(root, dir);
        if (!existsSync(full) || !statSync(full).isDirectory()) {
          throw new CliError(CliErrorCode.BadInput, `Unreadable module directory: module ${JSON.stringify(key)} (${where}) has source ${JSON.stringify(call.sourceAddr)}, but the directory ${dir} does not exist`);
        }
        const before = previous.get(key);
        record = { key, source, dir, isNew: before === undefined || before.source !== source || before.dir !== dir };
      } else {
        const before = previous.get(key);
        const plain = (s: string): string => s.replace(/^registry\.terraform\.io\//, "");
        if (before === undefined || plain(before.source) !== plain(call.sourceAddr) || !existsSync(isAbsolute(before.dir) ? before.dir : join(root, before.dir))) {
          throw new CliError(CliErrorCode.Unsupported, `Module ${JSON.stringify(key)} cannot be installed by magma`, {
            detail: `The module call at ${where} has source ${JSON.stringify(call.sourceAddr)}. magma installs modules with local path sources ("./…" or "../…") only: it never downloads modules from a registry, git or other remote sources. Run "terraform init" to install this module; magma then uses the copy terraform installed under .terraform/modules.`,
          });
        }
        record = { ...before, isNew: false };
      }
      records.push(record);
      visit(record.dir, [...path, call.name], depth + 1);
    }
    return calls.length > 0;
  };
  const hasCalls = visit(".", [], 0);
  if (hasCalls) {
    const dir = join(dataDir, "modules");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "modules.json"), formatModuleManifest(records));
  }
  return { hasCalls, modules: records };
}

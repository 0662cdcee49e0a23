import { existsSync, lstatSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, posix, relative, resolve } from "node:path";
import { isLocalSource, loadModule, readModuleManifest, versionSatisfies, type InstalledModule, type ModuleCall } from "@magma/config";
import { fetchModulePackage, ModuleRegistryClient, parseModuleSource, readCliConfig, ServiceDiscovery, type HttpOptions } from "@magma/install";
import type { Diagnostic, SourceRange } from "@magma/hcl";
import { CliError, CliErrorCode } from "../cli-error.js";

/** A module call that could not be installed: terraform's diagnostic, about the call's block. */
export class ModuleCallError extends CliError {
  /** The diagnostic (its subject the `module` block's header, none for terraform's that have none). */
  readonly diagnostic: Diagnostic;
  /** terraform's `Downloading …` line, when it had printed it before the failure. */
  readonly download: string | undefined;

  /** An error about the call whose block is at `subject`. */
  constructor(summary: string, detail: string, subject: SourceRange | undefined, download?: string) {
    super(CliErrorCode.BadInput, summary, { detail });
    this.diagnostic = { severity: "error", summary, detail, ...(subject !== undefined ? { subject } : {}) };
    this.download = download;
  }
}

/**
 * A local module directory that does not exist, as terraform's `installLocalModule` reports it:
 * the call is still recorded (`- KEY in` with no directory, `Dir: ""` in modules.json) and the
 * walk goes on, with two diagnostics without a subject — filepath.EvalSymlinks' `lstat` error
 * and `The directory  could not be read for module …`.
 */
export class UnreadableModuleDirectoryError extends ModuleCallError {
  /** The record terraform writes for the call. */
  readonly record: InstalledModuleRecord;
  /** Both diagnostics, in terraform's order. */
  readonly errors: readonly ModuleCallError[];

  constructor(record: InstalledModuleRecord, missing: string, callName: string, callAt: string) {
    const symlink = `Unable to evaluate directory symlink: lstat ${missing}: no such file or directory`;
    super("Unreadable module directory", symlink, undefined);
    this.record = record;
    this.errors = [this, new ModuleCallError("Unreadable module directory", `The directory  could not be read for module ${JSON.stringify(callName)} at ${callAt}.`, undefined)];
  }
}

/**
 * The path filepath.EvalSymlinks names when it fails on `dir` (relative to `root`, or
 * absolute): its components up to the first that does not exist. `undefined` when it exists.
 */
function firstMissing(root: string, dir: string): string | undefined {
  const parts = dir.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    if (prefix === "" || prefix === "." || prefix === "..") continue;
    try {
      lstatSync(isAbsolute(prefix) ? prefix : join(root, prefix));
    } catch {
      return prefix;
    }
  }
  return undefined;
}

/** One module `magma init` recorded, for its `- KEY in DIR` lines. */
export interface InstalledModuleRecord extends InstalledModule {
  /** True when the manifest did not hold this module (with this source) before. */
  readonly isNew: boolean;
  /** terraform's `Downloading …` line for a module fetched this run. */
  readonly download?: string;
}

/** Options of {@link installModules} for remote sources. */
export interface InstallModulesOptions {
  /** The environment (the CLI configuration's `host` blocks and tokens, `SSL_CERT_FILE`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The HTTP settings. */
  readonly http: HttpOptions;
  /** Fetch every remote module again, the newest matching versions (`-upgrade`, `get -update`). */
  readonly upgrade?: boolean;
  /**
   * Called with each of terraform's lines about the modules (`Downloading … for KEY...`,
   * `- KEY in DIR`, each ending in a newline) as soon as the modules before in terraform's
   * order are done, in that order.
   */
  readonly onLine?: (line: string) => void;
}

/** How many module packages are fetched at once. */
const FETCHES_AT_ONCE = 4;

/** Runs at most `n` of the functions given to it at once. */
function limiter(n: number): <T>(run: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await run();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** A module call being installed: its record (or why not), then the calls of the module it installed. */
type Pending = Promise<{ readonly record: InstalledModuleRecord | ModuleCallError; readonly children: readonly Pending[] }>;

/** What {@link installModules} found. */
export interface ModuleInstallResult {
  /** Whether the root module calls any module (Terraform prints "Initializing modules..." only then). */
  readonly hasCalls: boolean;
  /** Every module installed, the root first, in the order Terraform installs them (depth first, calls by name). */
  readonly modules: readonly InstalledModuleRecord[];
  /** The calls that could not be installed, in that order (terraform goes on with the others and records them). */
  readonly errors: readonly ModuleCallError[];
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
  // Go's encoding/json escapes &, <, > and the JavaScript line separators
  return JSON.stringify({ Modules: sorted.map((m) => ({ Key: m.key, Source: m.source, ...(m.version !== undefined ? { Version: m.version } : {}), Dir: m.dir })) }).replace(
    /[&<>\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * `terraform init`'s module installation for what magma can install: every module call with
 * a local path source (`./…`, `../…`) is recorded in `<dataDir>/modules/modules.json` with the
 * directory terraform would record (relative to the root module), so terraform finds the
 * modules installed. Modules from the registry or git are kept when `terraform init` already
 * installed them (same key and source); otherwise magma cannot install them and says so.
 * Nothing is written when the root module calls no module, as terraform writes nothing.
 * Remote packages are fetched several at once (a module's calls as soon as it is installed);
 * the records, the lines and the errors are as terraform's one-at-a-time walk gives them: a
 * call that cannot be installed is an error in the result, the walk going on with the others
 * and the manifest recording what was installed, as terraform does.
 *
 * @throws CliError `bad_input` naming the module call for a source magma cannot install, or
 *   a local directory that does not exist.
 */
export async function installModules(rootDir: string, dataDir: string, options?: InstallModulesOptions): Promise<ModuleInstallResult> {
  const root = resolve(rootDir);
  const previous = new Map(readModuleManifest(root).modules.map((m) => [m.key, m]));
  const records: InstalledModuleRecord[] = [{ key: "", source: "", dir: ".", isNew: false }];
  const modsRel = posix.join(relative(root, resolve(dataDir)).replaceAll("\\", "/") || ".", "modules");
  let registry: ModuleRegistryClient | undefined;
  const fetching = limiter(FETCHES_AT_ONCE);
  let failed = false;
  const started = new Set<Promise<unknown>>();
  const callsOf = (dirRel: string): ModuleCall[] => {
    const abs = isAbsolute(dirRel) ? dirRel : join(root, dirRel);
    const { module } = loadModule(abs, { displayDir: dirRel });
    return [...module.moduleCalls.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  /** Starts installing the calls of the module in `dirRel` (each call's own module's calls once it is in place). */
  const visit = (calls: readonly ModuleCall[], dirRel: string, path: readonly string[], depth: number): Pending[] =>
    calls
      .filter((call) => call.sourceAddr !== "") // reported by the configuration's own validation
      .map((call) => {
        const p: Pending = (async () => {
          let record: InstalledModuleRecord;
          try {
            record = await installCall(call, dirRel, path, depth);
          } catch (e) {
            if (e instanceof ModuleCallError) return { record: e, children: [] };
            throw e;
          }
          return { record, children: failed ? [] : visit(callsOf(record.dir), record.dir, [...path, call.name], depth + 1) };
        })();
        started.add(p);
        p.then(
          () => started.delete(p),
          () => {
            failed = true;
            started.delete(p);
          },
        );
        return p;
      });
  const installCall = async (call: ModuleCall, dirRel: string, path: readonly string[], depth: number): Promise<InstalledModuleRecord> => {
    const key = [...path, call.name].join(".");
    if (depth > 100) throw new CliError(CliErrorCode.BadInput, `Module ${key} is nested more than 100 levels deep: is there a module that calls itself?`);
    const where = `${call.sourceAddrRange.filename}:${call.sourceAddrRange.start.line}`;
    let record: InstalledModuleRecord;
    if (isLocalSource(call.sourceAddr)) {
      const source = normalizeLocalSource(call.sourceAddr);
      const dir = posix.join(dirRel.replaceAll("\\", "/"), source);
      const full = isAbsolute(dir) ? dir : join(root, dir);
      const missing = firstMissing(root, posix.normalize(dir));
      if (missing !== undefined) {
        // terraform names the module block (its header line), not the source argument
        throw new UnreadableModuleDirectoryError({ key, source, dir: "", isNew: true }, missing, call.name, `${call.declRange.filename}:${call.declRange.start.line}`);
      }
      if (!existsSync(full) || !statSync(full).isDirectory()) {
        throw new CliError(CliErrorCode.BadInput, `Unreadable module directory: module ${JSON.stringify(key)} (${where}) has source ${JSON.stringify(call.sourceAddr)}, but the directory ${dir} does not exist`);
      }
      const before = previous.get(key);
      record = { key, source, dir, isNew: before === undefined || before.source !== source || before.dir !== dir };
    } else {
      const before = previous.get(key);
      const src = parseModuleSource(call.sourceAddr);
      const source = src.kind === "local" ? call.sourceAddr : src.display;
      const exists = before !== undefined && existsSync(isAbsolute(before.dir) ? before.dir : join(root, before.dir));
      const keep =
        options?.upgrade !== true &&
        before !== undefined &&
        exists &&
        before.source === source &&
        (call.versionConstraints.length === 0 || (before.version !== undefined && versionSatisfies(before.version, call.versionConstraints)));
      if (keep) record = { ...before, isNew: false };
      else if (options === undefined) {
        throw new CliError(CliErrorCode.Unsupported, `Module ${JSON.stringify(key)} is not installed`, { detail: `The module call at ${where} has source ${JSON.stringify(call.sourceAddr)}: run "magma init" to install it.` });
      } else {
        // terraform names the module block (its header line), not the source argument
        const callAt = `${call.declRange.filename}:${call.declRange.start.line}`;
        const instRel = posix.join(modsRel, key);
        const inst = join(root, instRel);
        rmSync(inst, { recursive: true, force: true });
        const cli = readCliConfig({ env: options.env });
        let downloading: string | undefined;
        const fail = (summary: string, detail: string): CliError => new ModuleCallError(summary, detail, call.declRange, downloading);
        if (src.kind === "registry") {
          const retries = Number(options.env["TF_REGISTRY_DISCOVERY_RETRY"] ?? "");
          registry ??= new ModuleRegistryClient(new ServiceDiscovery(cli.hosts, options.http), options.http, Number.isInteger(retries) && retries > 0 ? retries : 1);
          const regAddr = `${src.hostname === "registry.terraform.io" ? "" : `${src.hostname}/`}${src.namespace}/${src.name}/${src.provider}`;
          let versions: string[];
          try {
            versions = await registry.versions(src.hostname, src.namespace, src.name, src.provider);
          } catch (e) {
            if ((e as { code?: string }).code === "not_found") throw fail("Module not found", `Module ${JSON.stringify(call.name)} (from ${callAt}) cannot be found in the module registry at ${src.hostname}.`);
            throw fail("Error accessing remote module registry", `Failed to retrieve available versions for module ${JSON.stringify(call.name)} (${callAt}) from ${src.hostname}: ${(e as Error).message}.`);
          }
          const exact = call.versionConstraints.some((c) => c.op === "=" && c.prerelease !== "");
          const match = versions.find((v) => versionSatisfies(v, call.versionConstraints) && (!v.includes("-") || exact));
          if (match === undefined) {
            if (versions.length === 0) throw fail("No versions available", `Module ${JSON.stringify(regAddr)} (${callAt}) has no versions available on ${src.hostname}.`);
            throw fail("Unresolvable module version constraint", `There is no available version of module ${JSON.stringify(regAddr)} (${callAt}) which matches the given version constraint. The newest available version is ${versions[0]!}.`);
          }
          downloading = `Downloading ${regAddr} ${match} for ${key}...`;
          let loc: string;
          try {
            loc = await registry.location(src.hostname, src.namespace, src.name, src.provider, match);
          } catch (e) {
            throw fail("Error accessing remote module registry", `Failed to retrieve a download URL for ${regAddr} ${match} from ${src.hostname}: ${(e as Error).message}`);
          }
          try {
            await fetching(() => fetchModulePackage(loc, inst, options.http));
          } catch (e) {
            rmSync(inst, { recursive: true, force: true });
            throw fail("Failed to download module", `Could not download module ${JSON.stringify(call.name)} (${callAt}) source code from ${JSON.stringify(loc)}: ${(e as Error).message}.`);
          }
          const dir = src.subdir === "" ? instRel : posix.join(instRel, src.subdir);
          record = { key, source, version: match, dir, isNew: true, download: downloading };
        } else if (src.kind === "remote") {
          downloading = `Downloading ${src.packageAddr} for ${key}...`;
          if (call.versionConstraints.length > 0) throw fail("Invalid version constraint", `Cannot apply a version constraint to module ${JSON.stringify(call.name)} (at ${callAt}) because it doesn't come from a module registry.`);
          try {
            await fetching(() => fetchModulePackage(src.packageAddr, inst, options.http));
          } catch (e) {
            rmSync(inst, { recursive: true, force: true });
            throw fail("Failed to download module", `Could not download module ${JSON.stringify(call.name)} (${callAt}) source code from ${JSON.stringify(src.packageAddr)}: ${(e as Error).message}`);
          }
          const dir = src.subdir === "" ? instRel : posix.join(instRel, src.subdir);
          if (!existsSync(join(root, dir))) throw fail("Unreadable module subdirectory", `The directory ${dir} does not exist. The target submodule ${src.subdir} does not exist within the target module.`);
          record = { key, source, dir, isNew: true, download: downloading };
        } else throw fail("Invalid module source", `${where}: ${JSON.stringify(call.sourceAddr)}`);
      }
    }
    return record;
  };
  const rootCalls = callsOf(".");
  const hasCalls = rootCalls.length > 0;
  // the records in terraform's order (depth first, calls by name); another failure (not a
  // module call's) is thrown once everything under way has stopped
  const errors: ModuleCallError[] = [];
  const drain = async (pending: readonly Pending[]): Promise<void> => {
    for (const p of pending) {
      const { record, children } = await p;
      if (record.download !== undefined) options?.onLine?.(`${record.download}\n`);
      if (record instanceof UnreadableModuleDirectoryError) {
        records.push(record.record);
        options?.onLine?.(`- ${record.record.key} in\n`);
        errors.push(...record.errors);
      } else if (record instanceof ModuleCallError) errors.push(record);
      else {
        records.push(record);
        if (record.isNew) options?.onLine?.(`- ${record.key} in ${record.dir}\n`);
      }
      await drain(children);
    }
  };
  try {
    await drain(visit(rootCalls, ".", [], 0));
  } catch (e) {
    failed = true;
    while (started.size > 0) await Promise.allSettled([...started]);
    throw e;
  }
  if (hasCalls) {
    const dir = join(dataDir, "modules");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "modules.json"), formatModuleManifest(records));
  }
  // terraform shows them sorted as all diagnostics (tfdiags' Sort): by file (fewer path
  // segments first, then by name), then by position; stable
  const segments = (f: string): number => f.split(/[\\/]/).length;
  // (those without a subject first, as tfdiags' sort)
  errors.sort((x, y) => {
    const a = x.diagnostic.subject;
    const b = y.diagnostic.subject;
    if (a === undefined || b === undefined) return a === undefined ? (b === undefined ? 0 : -1) : 1;
    if (a.filename !== b.filename) return segments(a.filename) - segments(b.filename) || (a.filename < b.filename ? -1 : 1);
    return a.start.byte - b.start.byte || a.end.byte - b.end.byte;
  });
  return { hasCalls, modules: records, errors };
}

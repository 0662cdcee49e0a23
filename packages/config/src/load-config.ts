import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Diagnostic } from "@magma/hcl";
import { plausibleModuleSource } from "./decode-blocks.js";
import { errorDiag } from "./diagnostics.js";
import { loadModule, loadModuleFromFiles } from "./load-module.js";
import type { Config, ModuleCall } from "./model.js";

/** One entry of `.terraform/modules/modules.json`, as `terraform init` writes it. */
export interface InstalledModule {
  readonly key: string;
  readonly source: string;
  readonly version?: string;
  /** The directory, relative to the root module's directory. */
  readonly dir: string;
}

/** Reads `.terraform/modules/modules.json` under the root module; an empty list when absent. */
export function readModuleManifest(rootDir: string): { modules: InstalledModule[]; diags: Diagnostic[] } {
  const file = join(rootDir, ".terraform", "modules", "modules.json");
  if (!existsSync(file)) return { modules: [], diags: [] };
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { Modules?: { Key?: unknown; Source?: unknown; Version?: unknown; Dir?: unknown }[] };
    const modules: InstalledModule[] = [];
    for (const m of parsed.Modules ?? []) {
      if (typeof m.Key !== "string" || typeof m.Dir !== "string") continue;
      modules.push({ key: m.Key, source: typeof m.Source === "string" ? m.Source : "", ...(typeof m.Version === "string" ? { version: m.Version } : {}), dir: m.Dir });
    }
    return { modules, diags: [] };
  } catch (err) {
    return {
      modules: [],
      diags: [errorDiag("Failed to read module manifest", `The module manifest ${file} is not valid JSON: ${err instanceof Error ? err.message : String(err)}. Run "terraform init" again to rewrite it.`)],
    };
  }
}

/** Whether a module source is a local path (`./x`, `../x`). */
export function isLocalSource(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") || source.startsWith(".\\") || source.startsWith("..\\");
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * The directory file names in diagnostics are relative to (Terraform prints them
   * relative to the working directory); default the root module's directory.
   */
  readonly cwd?: string;
  /** Told each module's files as they are read: what {@link loadConfigWithSnapshot} keeps. */
  readonly onModuleFiles?: (module: ConfigSnapshotModule) => void;
}

/** One module of a {@link ConfigSnapshot}. */
export interface ConfigSnapshotModule {
  /** The module path (module call names from the root; empty for the root module). */
  readonly path: readonly string[];
  /** The module's directory when it was read (absolute): its `path.module`, and where its other files (templates) are. */
  readonly dir: string;
  /** Its configuration files, by the name diagnostics give them, with their text, in load order. */
  readonly files: readonly (readonly [string, string])[];
}

/**
 * The configuration files a configuration was loaded from (Terraform's configuration
 * snapshot, which a saved plan carries): {@link configFromSnapshot} loads the same
 * configuration from it again, whatever the files on disk hold since.
 */
export interface ConfigSnapshot {
  /** Every module loaded, the root first. */
  readonly modules: readonly ConfigSnapshotModule[];
}

/** {@link loadConfig}, with the snapshot of the files it read. */
export function loadConfigWithSnapshot(rootDir: string, options: Omit<LoadConfigOptions, "onModuleFiles"> = {}): { config: Config; diags: Diagnostic[]; snapshot: ConfigSnapshot } {
  const modules: ConfigSnapshotModule[] = [];
  const loaded = loadConfig(rootDir, { ...options, onModuleFiles: (m) => modules.push(m) });
  return { ...loaded, snapshot: { modules } };
}

/**
 * Loads a configuration from a {@link ConfigSnapshot}: each module from its files as they
 * were, the module calls wired by path as {@link loadConfig} wired them. No file is read.
 */
export function configFromSnapshot(snapshot: ConfigSnapshot): { config: Config; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const byPath = new Map(snapshot.modules.map((m) => [m.path.join("\0"), m]));
  const load = (m: ConfigSnapshotModule, call: ModuleCall | undefined): Config => {
    const { module, diags: d } = loadModuleFromFiles(m.dir, new Map(m.files));
    diags.push(...d);
    const children = new Map<string, Config>();
    for (const mc of module.moduleCalls.values()) {
      const child = byPath.get([...m.path, mc.name].join("\0"));
      if (child !== undefined) children.set(mc.name, load(child, mc));
    }
    return { module, path: m.path, children, ...(call !== undefined ? { call } : {}) };
  };
  const root = byPath.get("");
  if (root === undefined) throw new TypeError("a configuration snapshot without its root module");
  return { config: load(root, undefined), diags };
}

/**
 * Loads a root module and, recursively, every module it calls (Terraform's
 * `BuildConfig`): local sources from disk; registry and git sources from the modules
 * `terraform init` installed (`.terraform/modules/modules.json`), or else an error — magma
 * never downloads modules.
 */
export function loadConfig(rootDir: string, options: LoadConfigOptions = {}): { config: Config; diags: Diagnostic[] } {
  const root = resolve(rootDir);
  const cwd = resolve(options.cwd ?? root);
  const diags: Diagnostic[] = [];
  const manifest = readModuleManifest(root);
  diags.push(...manifest.diags);
  const installed = new Map(manifest.modules.map((m) => [m.key, m]));
  const display = (dir: string): string => {
    const r = relative(cwd, dir);
    return r === "" ? "." : r;
  };
  const load = (dir: string, path: readonly string[], call: ModuleCall | undefined, depth: number): Config => {
    const shown = display(dir);
    const onModuleFiles = options.onModuleFiles;
    const { module, diags: d } = loadModule(dir, { displayDir: shown, ...(onModuleFiles === undefined ? {} : { onFiles: (files: ReadonlyMap<string, string>) => onModuleFiles({ path, dir, files: [...files] }) }) });
    diags.push(...d);
    const children = new Map<string, Config>();
    for (const mc of module.moduleCalls.values()) {
      const childPath = [...path, mc.name];
      if (depth > 100) {
        diags.push(errorDiag("Module call depth exceeded", `Module ${childPath.join(".")} is nested more than 100 levels deep: is there a module that calls itself?`, mc.declRange));
        continue;
      }
      const childDir = moduleDir(dir, mc, childPath, installed, root, diags);
      if (childDir === undefined) continue;
      children.set(mc.name, load(childDir, childPath, mc, depth + 1));
    }
    return { module, path, children, ...(call !== undefined ? { call } : {}) };
  };
  const config = load(root, [], undefined, 0);
  return { config, diags };
}

function moduleDir(parentDir: string, mc: ModuleCall, path: readonly string[], installed: ReadonlyMap<string, InstalledModule>, root: string, diags: Diagnostic[]): string | undefined {
  // An unusable source address was reported when the call was decoded.
  if (mc.sourceAddr === "" || !plausibleModuleSource(mc.sourceAddr)) return undefined;
  const rec = installed.get(path.join("."));
  if (isLocalSource(mc.sourceAddr)) {
    const dir = rec !== undefined ? (isAbsolute(rec.dir) ? rec.dir : join(root, rec.dir)) : resolve(parentDir, mc.sourceAddr);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      diags.push(
        errorDiag(
          "Unreadable module directory",
          `The directory ${relative(root, resolve(parentDir, mc.sourceAddr)) || "."} does not exist or cannot be read.`,
          mc.sourceAddrRange,
        ),
      );
      return undefined;
    }
    return dir;
  }
  if (rec !== undefined && normalizeSource(rec.source) !== normalizeSource(mc.sourceAddr)) {
    diags.push(
      errorDiag(
        "Module source has changed",
        `The source address was changed since this module was installed. Run "terraform init" to install all modules required by this configuration.`,
        mc.sourceAddrRange,
      ),
    );
    return undefined;
  }
  if (rec === undefined) {
    diags.push(
      errorDiag(
        "Module not installed",
        `Module ${JSON.stringify(mc.name)} has source ${JSON.stringify(mc.sourceAddr)}, which is not a local directory, and no module installed by "terraform init" matches it in .terraform/modules/modules.json. magma never downloads modules: run "terraform init" to install it.`,
        mc.sourceAddrRange,
      ),
    );
    return undefined;
  }
  const dir = isAbsolute(rec.dir) ? rec.dir : join(root, rec.dir);
  if (!existsSync(dir)) {
    diags.push(errorDiag("Module not installed", `Module ${JSON.stringify(mc.name)} is recorded as installed in ${rec.dir}, which does not exist. Run "terraform init" to install it again.`, mc.sourceAddrRange));
    return undefined;
  }
  return dir;
}

/** Every module of a configuration, depth first (the root first). */
export function* walkConfig(config: Config): Generator<Config> {
  yield config;
  for (const c of config.children.values()) yield* walkConfig(c);
}

/** A registry source with and without the default host are the same module; a github.com/ or bitbucket.org/ shorthand is its git:: address. */
function normalizeSource(s: string): string {
  if (s.startsWith("registry.terraform.io/")) return s.slice("registry.terraform.io/".length);
  // the github.com/ and bitbucket.org/ shorthands as terraform's detectors expand them (and
  // modules.json records them): `//subdir` and `?query` kept in place
  const parts = /^((?:github\.com|bitbucket\.org)\/[^?]*?)(\/\/[^?]*)?(\?.*)?$/.exec(s);
  if (parts === null) return s;
  const [, pkg = "", subdir = "", query = ""] = parts;
  const gh = /^github\.com\/([^/]+)\/([^/]+)$/.exec(pkg);
  if (gh !== null) return `git::https://github.com/${gh[1]!}/${gh[2]!.replace(/\.git$/, "")}.git${subdir}${query}`;
  if (pkg.startsWith("bitbucket.org/")) return `git::https://${pkg}${pkg.endsWith(".git") ? "" : ".git"}${subdir}${query}`;
  return s;
}

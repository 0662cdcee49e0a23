import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { providerNotFoundError } from "@magma/provider-api";

/** Where to look for provider binaries; every field is optional. */
export interface ResolveProviderOptions {
  /**
   * Directories in Terraform's filesystem-mirror / plugin-cache layout
   * (`<dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/terraform-provider-<type>_v<version>…`),
   * searched first.
   */
  readonly pluginDirs?: readonly string[];
  /**
   * The Terraform CLI configuration file whose `plugin_cache_dir` and
   * `provider_installation { filesystem_mirror { path = … } }` are searched. Default:
   * `TF_CLI_CONFIG_FILE`, else `~/.terraformrc`.
   */
  readonly cliConfigFile?: string;
  /** Search Terraform's implied local mirror directories (default `true`). */
  readonly impliedMirrors?: boolean;
  /** The environment to read `TF_PLUGIN_CACHE_DIR`, `TF_CLI_CONFIG_FILE`, `HOME`, `XDG_*` from (default `process.env`). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The working directory for `terraform.d/plugins` (default `process.cwd()`). */
  readonly cwd?: string;
}

/** A provider source address, fully qualified. */
export interface ProviderAddress {
  readonly hostname: string;
  readonly namespace: string;
  readonly type: string;
}

/** What {@link resolveProviderBinary} found. */
export interface ResolvedProvider {
  readonly address: ProviderAddress;
  readonly version: string;
  readonly binary: string;
  /** The directory (of those searched) it was found in. */
  readonly foundIn: string;
}

const NAME = /^[0-9A-Za-z][0-9A-Za-z-]*$/;

/**
 * Parses a provider source address as Terraform does: `aws` → `registry.terraform.io/hashicorp/aws`,
 * `hashicorp/aws`, `registry.terraform.io/hashicorp/aws`, `example.com/ns/name`.
 *
 * @throws TypeError for a malformed address.
 */
export function parseProviderSource(source: string): ProviderAddress {
  const parts = source.trim().split("/");
  let hostname = "registry.terraform.io";
  let namespace = "hashicorp";
  let type: string;
  if (parts.length === 1) type = parts[0]!;
  else if (parts.length === 2) [namespace, type] = parts as [string, string];
  else if (parts.length === 3) [hostname, namespace, type] = parts as [string, string, string];
  else throw new TypeError(`invalid provider source address ${JSON.stringify(source)}: expected [hostname/]namespace/type`);
  for (const [what, v] of [
    ["namespace", namespace],
    ["type", type],
  ] as const) {
    if (!NAME.test(v)) throw new TypeError(`invalid provider source address ${JSON.stringify(source)}: bad ${what} ${JSON.stringify(v)}`);
  }
  if (hostname === "" || /[\s/]/.test(hostname)) throw new TypeError(`invalid provider source address ${JSON.stringify(source)}: bad hostname`);
  return { hostname: hostname.toLowerCase(), namespace: namespace.toLowerCase(), type: type.toLowerCase() };
}

interface Version {
  readonly nums: readonly [number, number, number];
  readonly pre: string;
  readonly text: string;
}

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (m === null) return undefined;
  return { nums: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] ?? "", text: text.trim() };
}

function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i]! - b.nums[i]!;
  if (a.pre === b.pre) return 0;
  if (a.pre === "") return 1; // a release sorts after its prereleases
  if (b.pre === "") return -1;
  return a.pre < b.pre ? -1 : 1;
}

/**
 * Tests a version against a Terraform version constraint (`5.100.0`, `= 5.1`, `!= 5.2`,
 * `>= 5.0, < 6.0`, `~> 5.1` meaning `>= 5.1, < 6.0`, `~> 5.1.2` meaning `>= 5.1.2, < 5.2.0`).
 * Prereleases match only an exact `=` constraint, as in Terraform.
 *
 * @throws TypeError for a malformed constraint.
 */
export function matchesVersionConstraint(version: string, constraint: string | undefined): boolean {
  const v = parseVersion(version);
  if (v === undefined) return false;
  if (constraint === undefined || constraint.trim() === "") return v.pre === "";
  let exactPrerelease = false;
  for (const raw of constraint.split(",")) {
    const m = /^\s*(=|!=|>=|<=|>|<|~>)?\s*(\S+)\s*$/.exec(raw);
    const c = m === null ? undefined : parseVersion(m[2]!);
    if (m === null || c === undefined) throw new TypeError(`invalid version constraint ${JSON.stringify(constraint)}`);
    const op = m[1] ?? "=";
    const cmp = compareVersions(v, c);
    switch (op) {
      case "=":
        if (cmp !== 0) return false;
        if (v.pre !== "") exactPrerelease = true;
        break;
      case "!=":
        if (cmp === 0) return false;
        break;
      case ">":
        if (cmp <= 0) return false;
        break;
      case ">=":
        if (cmp < 0) return false;
        break;
      case "<":
        if (cmp >= 0) return false;
        break;
      case "<=":
        if (cmp > 0) return false;
        break;
      case "~>": {
        if (cmp < 0) return false;
        const segments = m[2]!.replace(/^v/, "").split("-")[0]!.split(".").length;
        // ~> 5 and ~> 5.1 allow the last given segment's parent to stay fixed.
        const fixed = Math.max(1, segments - 1);
        for (let i = 0; i < fixed; i++) if (v.nums[i] !== c.nums[i]) return false;
        break;
      }
    }
  }
  return v.pre === "" || exactPrerelease;
}

/**
 * Tests a version against a Terraform version constraint.
 *
 * @deprecated Renamed {@link matchesVersionConstraint} (what it matches was not in the name);
 * this alias goes in the next minor release.
 */
export const versionMatches: (version: string, constraint: string | undefined) => boolean = matchesVersionConstraint;

/** The directories searched for providers, in order, given the options. */
export function providerSearchDirs(options: ResolveProviderOptions = {}): string[] {
  const env = options.environment ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const home = env["HOME"] ?? homedir();
  const dirs: string[] = [...(options.pluginDirs ?? [])];
  const cache = env["TF_PLUGIN_CACHE_DIR"];
  if (cache !== undefined && cache !== "") dirs.push(cache);
  const cliFile = options.cliConfigFile ?? env["TF_CLI_CONFIG_FILE"] ?? join(home, ".terraformrc");
  dirs.push(...cliConfigDirs(cliFile));
  if (options.impliedMirrors !== false) {
    dirs.push(join(cwd, "terraform.d", "plugins"), join(home, ".terraform.d", "plugins"));
    const dataHome = env["XDG_DATA_HOME"] || join(home, ".local", "share");
    dirs.push(join(dataHome, "terraform", "plugins"));
    const dataDirs = (env["XDG_DATA_DIRS"] || "/usr/local/share:/usr/share").split(":").filter((d) => d !== "");
    for (const d of dataDirs) dirs.push(join(d, "terraform", "plugins"));
  }
  return [...new Set(dirs.map((d) => resolve(cwd, d)))];
}

/** `plugin_cache_dir` and filesystem_mirror paths of a CLI configuration file (HCL), if it exists. */
function cliConfigDirs(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  // Drop comments, then pick out the two settings; the rest of the file does not matter here.
  text = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])(#|\/\/).*$/gm, "$1");
  const out: string[] = [];
  const cache = /plugin_cache_dir\s*=\s*"([^"]*)"/.exec(text);
  if (cache !== null) out.push(cache[1]!);
  for (const m of text.matchAll(/filesystem_mirror\s*\{([^}]*)\}/g)) {
    const p = /path\s*=\s*"([^"]*)"/.exec(m[1]!);
    if (p !== null) out.push(p[1]!);
  }
  return out.map((d) => d.replace(/^~(?=\/|$)/, homedir()));
}

function platformDir(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[process.arch] ?? process.arch;
  return `${os}_${arch}`;
}

/**
 * Finds a provider binary for a source address and version constraint in the plugin
 * directories (the newest matching version wins; earlier directories win ties).
 *
 * @throws ProviderError `provider_not_found` naming every directory searched when none has it.
 */
export async function resolveProviderBinary(
  source: string,
  options: ResolveProviderOptions & { readonly version?: string } = {},
): Promise<ResolvedProvider> {
  const address = parseProviderSource(source);
  const dirs = providerSearchDirs(options);
  const platform = platformDir();
  let best: { v: Version; binary: string; dir: string } | undefined;
  const seen: string[] = [];
  for (const dir of dirs) {
    const base = join(dir, address.hostname, address.namespace, address.type);
    if (!existsSync(base)) continue;
    for (const entry of safeReaddir(base)) {
      const v = parseVersion(entry);
      if (v === undefined) continue;
      seen.push(`${v.text} in ${dir}`);
      if (!matchesVersionConstraint(v.text, options.version)) continue;
      const pdir = join(base, entry, platform);
      const exe = safeReaddir(pdir).find((f) => f === `terraform-provider-${address.type}` || f.startsWith(`terraform-provider-${address.type}_`));
      if (exe === undefined) continue;
      const binary = join(pdir, exe);
      if (!isExecutableFile(binary)) continue;
      if (best === undefined || compareVersions(v, best.v) > 0) best = { v, binary, dir };
    }
  }
  if (best === undefined) {
    const name = `${address.hostname}/${address.namespace}/${address.type}`;
    const want = options.version === undefined ? "" : ` matching ${JSON.stringify(options.version)}`;
    const found = seen.length > 0 ? ` Versions found: ${seen.join("; ")}.` : "";
    throw providerNotFoundError(`no provider ${name}${want} for ${platform} in any plugin directory.${found} Searched: ${dirs.join(", ")}`, {
      searched: dirs,
    });
  }
  return { address, version: best.v.text, binary: best.binary, foundIn: best.dir };
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isExecutableFile(path: string): boolean {
  try {
    const s = statSync(path);
    return s.isFile() && (process.platform === "win32" || (s.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

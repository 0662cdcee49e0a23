import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { evaluate, parseJsonConfig, parseNativeConfig, type Body, type Diagnostic } from "@magma/hcl";
import { cliConfigLocations, configDirFiles } from "./cli-config-files.js";
import { InstallError, InstallErrorCode } from "./install-error.js";

/** One installation method of a `provider_installation` block, in the order written. */
export type InstallationMethod =
  | { readonly kind: "direct"; readonly include: readonly string[]; readonly exclude: readonly string[] }
  | { readonly kind: "filesystem_mirror"; readonly path: string; readonly include: readonly string[]; readonly exclude: readonly string[] }
  | { readonly kind: "network_mirror"; readonly url: string; readonly include: readonly string[]; readonly exclude: readonly string[] };

/** What provider installation reads from Terraform's CLI configuration and environment. */
export interface CliConfig {
  /**
   * The `provider_installation` methods, or `undefined` when the files have none (terraform's
   * implied methods apply). Of several blocks, the first one's (as terraform, which reports
   * the others as a problem and ignores them).
   */
  readonly providerInstallation: readonly InstallationMethod[] | undefined;
  /** `plugin_cache_dir` (or `TF_PLUGIN_CACHE_DIR`), absolute. */
  readonly pluginCacheDir: string | undefined;
  /** `plugin_cache_may_break_dependency_lock_file` (or its `TF_` variable). */
  readonly pluginCacheMayBreakLockFile: boolean;
  /**
   * `host` blocks: hostname → service id → its definition (a URL, or an object such as
   * `login.v1`'s), used instead of `/.well-known/terraform.json`.
   */
  readonly hosts: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** `credentials` blocks and `TF_TOKEN_*` variables: hostname → token (the variables win). */
  readonly credentials: ReadonlyMap<string, string>;
  /** The `credentials_helper` block (the first one, after merging): the helper's name and `args`. */
  readonly credentialsHelper?: { readonly name: string; readonly args: readonly string[] };
  /**
   * The problems terraform reports before any command and then goes on without (its
   * `LoadConfig` diagnostics, each an error summary, in terraform's order and words): a file
   * that cannot be read or parsed (`Error parsing <file>: …`, the file then ignored), more
   * than one `credentials_helper` block, more than one `provider_installation` block (the
   * first one used). Empty when there are none.
   */
  readonly problems: readonly string[];
}

/** Options of {@link readCliConfig}. */
export interface ReadCliConfigOptions {
  /** The environment (default `process.env`): `TF_CLI_CONFIG_FILE`, `TF_PLUGIN_CACHE_DIR`, `TF_TOKEN_*`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The file to read instead of `TF_CLI_CONFIG_FILE` / `~/.terraformrc`. */
  readonly file?: string;
}

function configError(file: string, d: Diagnostic | string): InstallError {
  if (typeof d === "string") return new InstallError(InstallErrorCode.BadConfig, "Invalid CLI configuration", `${file}: ${d}`);
  const where = d.subject === undefined ? file : `${d.subject.filename}:${d.subject.start.line}`;
  return new InstallError(InstallErrorCode.BadConfig, "Invalid CLI configuration", `${where}: ${d.summary}${d.detail === "" ? "" : `: ${d.detail}`}`);
}

type Plain = string | boolean | number | null | readonly Plain[] | { readonly [k: string]: Plain };

function plainValue(v: ReturnType<typeof evaluate>["value"]): Plain {
  if (!v.isKnown() || v.isNull()) return null;
  const k = v.type.kind;
  if (k === "string") return v.asString();
  if (k === "bool") return v.asBool();
  if (k === "number") return Number(v.asNumber().toString());
  if (k === "list" || k === "set" || k === "tuple") return v.elements().map(plainValue);
  if (k === "map") return Object.fromEntries([...v.entries()].map(([n, e]) => [n, plainValue(e)]));
  if (k === "object") return Object.fromEntries(Object.entries(v.attributes()).map(([n, e]) => [n, plainValue(e)]));
  return null;
}

function attrs(file: string, body: Body): Map<string, Plain> {
  const { attributes, diags } = body.justAttributes();
  const bad = diags.find((d) => d.severity === "error");
  if (bad !== undefined) throw configError(file, bad);
  const out = new Map<string, Plain>();
  for (const [name, a] of attributes) {
    const r = evaluate(a.expr, { variables: {} });
    const e = r.diags.find((d) => d.severity === "error");
    if (e !== undefined) throw configError(file, e);
    out.set(name, plainValue(r.value));
  }
  return out;
}

function strings(file: string, what: string, v: Plain | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw configError(file, `${what} must be a list of strings`);
  return v as string[];
}

function methods(file: string, body: Body): InstallationMethod[] {
  const { content, diags } = body.content({ blocks: [{ type: "direct" }, { type: "filesystem_mirror" }, { type: "network_mirror" }, { type: "dev_overrides" }] });
  const bad = diags.find((d) => d.severity === "error");
  if (bad !== undefined) throw configError(file, bad);
  const out: InstallationMethod[] = [];
  for (const b of content.blocks) {
    if (b.type === "dev_overrides") continue;
    const a = attrs(file, b.body);
    const include = strings(file, `${b.type}.include`, a.get("include"));
    const exclude = strings(file, `${b.type}.exclude`, a.get("exclude"));
    if (b.type === "direct") out.push({ kind: "direct", include, exclude });
    else if (b.type === "filesystem_mirror") {
      const path = a.get("path");
      if (typeof path !== "string" || path === "") throw configError(file, "filesystem_mirror needs a path");
      out.push({ kind: "filesystem_mirror", path, include, exclude });
    } else {
      const url = a.get("url");
      if (typeof url !== "string" || !/^https:\/\//.test(url)) throw configError(file, `network_mirror needs an https url, got ${JSON.stringify(url)}`);
      out.push({ kind: "network_mirror", url: url.endsWith("/") ? url : `${url}/`, include, exclude });
    }
  }
  return out;
}

/** The hostname a `TF_TOKEN_…` variable names: `_` for `.`, `__` for `-`, as terraform decodes it. */
function tokenHost(suffix: string): string {
  return suffix.replaceAll("__", "\u0000").replaceAll("_", ".").replaceAll("\u0000", "-").toLowerCase();
}

/** What one CLI configuration file sets (terraform's `Config` of one file, before merging). */
interface FileSettings {
  /** Each `provider_installation` block's methods, in the order written. */
  installationBlocks: InstallationMethod[][];
  pluginCacheDir: string | undefined;
  mayBreak: boolean;
  hosts: Map<string, Record<string, unknown>>;
  credentials: Map<string, string>;
  /** By name, in the order written. */
  helpers: Map<string, { name: string; args: string[] }>;
}

const emptySettings = (): FileSettings => ({ installationBlocks: [], pluginCacheDir: undefined, mayBreak: false, hosts: new Map(), credentials: new Map(), helpers: new Map() });

/**
 * Whether HCL 1 reads `text` as JSON (its `lexMode`): the first character that is not white
 * space is `{`, whatever the file's name.
 */
function isJsonText(text: string): boolean {
  return /^\s*\{/u.test(text);
}

/**
 * Reads one CLI configuration file (JSON when its text starts with `{`, else native syntax,
 * as HCL 1 decides). A file that cannot be read or parsed is terraform's `Error reading`/
 * `Error parsing` problem, and an empty configuration.
 */
function readConfigFile(file: string): FileSettings | { problem: string } {
  const out = emptySettings();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    // Go's words for the common case (a directory named *.tfrc); node's message otherwise
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: `Error reading ${file}: ${code === "EISDIR" ? `read ${file}: is a directory` : (e as Error).message}` };
  }
  // Terraform reads it with HCL 1, which allows a nested block on one line (`provider_installation { direct {} }`).
  const { body, diags } = isJsonText(text) ? parseJsonConfig(text, file) : parseNativeConfig(text, file, { nestedSingleLineBlocks: true });
  const bad = diags.find((d) => d.severity === "error");
  // HCL 1's messages (`At 4:1: object expected closing RBRACE got: EOF`) are its parser's own: the position as it gives it, HCL's words after it
  if (bad !== undefined) return { problem: `Error parsing ${file}: ${bad.subject === undefined ? "" : `At ${bad.subject.start.line}:${bad.subject.start.column}: `}${bad.summary}${bad.detail === "" ? "" : `: ${bad.detail}`}` };
  const { content, remain, diags: d2 } = body.partialContent({
    blocks: [{ type: "provider_installation" }, { type: "host", labelNames: ["name"] }, { type: "credentials", labelNames: ["host"] }, { type: "credentials_helper", labelNames: ["name"] }],
  });
  const bad2 = d2.find((d) => d.severity === "error");
  if (bad2 !== undefined) throw configError(file, bad2);
  const top = attrs(file, remain);
  const cache = top.get("plugin_cache_dir");
  if (typeof cache === "string" && cache !== "") out.pluginCacheDir = cache;
  out.mayBreak = top.get("plugin_cache_may_break_dependency_lock_file") === true;
  for (const b of content.blocks) {
    if (b.type === "provider_installation") out.installationBlocks.push(methods(file, b.body));
    else if (b.type === "host") {
      const services = attrs(file, b.body).get("services");
      if (services === null || services === undefined || typeof services !== "object" || Array.isArray(services)) throw configError(file, `host ${JSON.stringify(b.labels[0])} needs a services map`);
      const map: Record<string, unknown> = {};
      for (const [id, def] of Object.entries(services as Record<string, Plain>)) if (typeof def === "string" || (def !== null && typeof def === "object" && !Array.isArray(def))) map[id] = def;
      out.hosts.set(b.labels[0]!.toLowerCase(), map);
    } else if (b.type === "credentials") {
      const token = attrs(file, b.body).get("token");
      if (typeof token === "string") out.credentials.set(b.labels[0]!.toLowerCase(), token);
    } else if (b.type === "credentials_helper" && !out.helpers.has(b.labels[0]!)) {
      out.helpers.set(b.labels[0]!, { name: b.labels[0]!, args: strings(file, "credentials_helper.args", attrs(file, b.body).get("args")) });
    }
  }
  return out;
}

/**
 * terraform's `Config.Merge` of `a` then `b`: the first `plugin_cache_dir` set wins, the lock
 * file setting once on stays on, `b`'s hosts, credentials and credentials helpers replace
 * `a`'s of the same name, the `provider_installation` blocks are both files'.
 */
function mergeSettings(a: FileSettings, b: FileSettings): FileSettings {
  return {
    installationBlocks: [...a.installationBlocks, ...b.installationBlocks],
    pluginCacheDir: a.pluginCacheDir ?? b.pluginCacheDir,
    mayBreak: a.mayBreak || b.mayBreak,
    hosts: new Map([...a.hosts, ...b.hosts]),
    credentials: new Map([...a.credentials, ...b.credentials]),
    helpers: new Map([...a.helpers, ...b.helpers]),
  };
}

/**
 * Reads Terraform's CLI configuration as `terraform init` does for installation (cliconfig's
 * `LoadConfig`): the file named by `TF_CLI_CONFIG_FILE` (else `~/.terraformrc`; a missing
 * file is an empty configuration); unless that variable names the file, the `*.tfrc` and
 * `*.tfrc.json` files of the CLI configuration directory (`~/.terraform.d`, in name order)
 * merged after it as terraform merges them (`credentials_helper` and `credentials` blocks,
 * `credentials.tfrc.json`'s tokens, hosts…); then the environment (`TF_PLUGIN_CACHE_DIR`,
 * `TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE`, `TF_TOKEN_<host>`).
 *
 * A file that cannot be read or parsed, and more than one `credentials_helper` or `provider_installation` block, are
 * terraform's problems (`CliConfig.problems`), which it reports and goes on without.
 *
 * @throws InstallError `bad_config` naming the file and line of a malformed setting.
 */
export function readCliConfig(options: ReadCliConfigOptions = {}): CliConfig {
  const env = options.env ?? process.env;
  const { file, configDir } = cliConfigLocations(env, options.file);
  const problems: string[] = [];
  const read = (path: string): FileSettings => {
    const r = readConfigFile(path);
    if (!("problem" in r)) return r;
    problems.push(r.problem);
    return emptySettings();
  };
  let settings = emptySettings();
  if (file !== "" && existsSync(file)) settings = read(file);
  const dirFiles = configDirFiles(configDir);
  if (dirFiles !== undefined) {
    let dirSettings = emptySettings();
    for (const path of dirFiles) dirSettings = mergeSettings(dirSettings, read(path));
    settings = mergeSettings(settings, dirSettings);
  }
  // terraform's Config.Validate, after merging
  if (settings.helpers.size > 1) problems.push("No more than one credentials_helper block may be specified");
  if (settings.installationBlocks.length > 1) problems.push("No more than one provider_installation block may be specified");
  // terraform's providerSource: the first block (the others are the problem above)
  const providerInstallation = settings.installationBlocks[0];
  let pluginCacheDir = settings.pluginCacheDir;
  let mayBreak = settings.mayBreak;
  const hosts = settings.hosts;
  const credentials = settings.credentials;
  const credentialsHelper = settings.helpers.values().next().value;
  const envCache = env["TF_PLUGIN_CACHE_DIR"];
  if (envCache !== undefined && envCache !== "") pluginCacheDir = envCache;
  const envBreak = env["TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"];
  if (envBreak !== undefined && envBreak !== "") mayBreak = true;
  for (const [k, v] of Object.entries(env)) if (k.startsWith("TF_TOKEN_") && v !== undefined && v !== "") credentials.set(tokenHost(k.slice(9)), v);
  return {
    providerInstallation,
    pluginCacheDir: pluginCacheDir === undefined ? undefined : isAbsolute(pluginCacheDir) ? pluginCacheDir : resolve(pluginCacheDir),
    pluginCacheMayBreakLockFile: mayBreak,
    hosts,
    credentials,
    ...(credentialsHelper !== undefined ? { credentialsHelper } : {}),
    problems,
  };
}

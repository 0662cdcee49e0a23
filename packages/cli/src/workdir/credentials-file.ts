import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// Terraform's CLI credentials as `login` and `logout` manage them: the tokens terraform
// writes to `credentials.tfrc.json` in its configuration directory, and the `credentials`
// blocks of CLI configuration files, which those commands refuse to touch.

/** The name of the file `login` writes tokens to, in {@link cliConfigDir}. */
export const CREDENTIALS_FILE = "credentials.tfrc.json";

/** Terraform's CLI configuration directory: `~/.terraform.d`. */
export function cliConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(env["HOME"] ?? homedir(), ".terraform.d");
}

/**
 * Why `given` is not a hostname, in the words of svchost's `ForComparison` for ASCII input
 * (`idna: disallowed rune U+005F`); undefined when it is one.
 */
export function invalidHostnameReason(given: string): string | undefined {
  const m = /^([^:]*)(?::(.*))?$/.exec(given);
  const name = m?.[1] ?? given;
  const bad = [...name].find((c) => !/[A-Za-z0-9.-]/.test(c));
  if (bad !== undefined) return `idna: disallowed rune U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return comparableHostname(given) === undefined ? "invalid hostname" : undefined;
}

/** A hostname as svchost's `ForComparison` gives it (lower case, the default port 443 dropped); undefined when it is not one. */
export function comparableHostname(given: string): string | undefined {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d+))?$/.exec(given);
  if (m === null || m[1]!.includes("..")) return undefined;
  const host = m[1]!.toLowerCase();
  return m[2] === undefined || m[2] === "443" ? host : `${host}:${m[2]}`;
}

/** The hosts a CLI configuration file's `credentials "HOST"` blocks configure. */
function credentialsBlocks(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return [...text.matchAll(/^\s*credentials\s+"([^"]+)"\s*\{/gm)].map((m) => m[1]!);
}

/** The hosts `credentials.tfrc.json` (or another such file) holds tokens for, as written. */
export function credentialsFileHosts(file: string): string[] {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { credentials?: Record<string, unknown> };
    return Object.keys(doc.credentials ?? {});
  } catch {
    return [];
  }
}

/**
 * The hosts with credentials in the CLI configuration as terraform merges it: the main file
 * (`TF_CLI_CONFIG_FILE`, else `~/.terraformrc`) and, unless that variable overrides the
 * location, the configuration directory's files (`credentials.tfrc.json` included).
 */
export function configuredHosts(env: Readonly<Record<string, string | undefined>>, configDir: string): Set<string> {
  const override = env["TF_CLI_CONFIG_FILE"] || env["TERRAFORM_CONFIG"] || "";
  const home = env["HOME"] ?? homedir();
  const hosts = credentialsBlocks(override !== "" ? override : join(home, ".terraformrc"));
  if (override === "" && existsSync(configDir)) {
    for (const name of readdirSync(configDir).sort()) {
      if (name === CREDENTIALS_FILE) hosts.push(...credentialsFileHosts(join(configDir, name)));
      else if (name.endsWith(".tfrc")) hosts.push(...credentialsBlocks(join(configDir, name)));
    }
  }
  return new Set(hosts.map(comparableHostname).filter((h): h is string => h !== undefined));
}

/**
 * The hosts whose credentials a CLI configuration file configures by hand (not through
 * `credentials.tfrc.json`): terraform's `login` and `logout` refuse them.
 */
export function manuallyConfigured(env: Readonly<Record<string, string | undefined>>, configDir: string, host: string): boolean {
  const writable = new Set(credentialsFileHosts(join(configDir, CREDENTIALS_FILE)).map(comparableHostname));
  return configuredHosts(env, configDir).has(host) && !writable.has(host);
}

/** The document of a credentials file: `{}` when it is missing or empty. @throws Error when it is not JSON. */
export function readCredentialsFile(file: string): { credentials?: Record<string, unknown> } & Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8");
  return text.length === 0 ? {} : (JSON.parse(text) as { credentials?: Record<string, unknown> } & Record<string, unknown>);
}

/**
 * Writes a credentials file as terraform does: Go's `json.MarshalIndent` of a map (keys
 * sorted, two-space indent, no final newline), mode 0600, through a temporary file renamed
 * into place.
 */
export function writeCredentialsFile(file: string, doc: Record<string, unknown>): void {
  const sortDeep = (v: unknown): unknown =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]))
      : v;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(sortDeep(doc), null, 2), { mode: 0o600 });
  renameSync(tmp, file);
}

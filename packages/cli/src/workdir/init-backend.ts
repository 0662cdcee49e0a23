import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { TERRAFORM_VERSION } from "@magma/config";
import { CtyNumber } from "@magma/cty";
import { backendConfigSchema, type BackendAttributeKind, type BackendConfigValue } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { BackendSettings } from "./backend-settings.js";

/** The file under the data directory where `terraform init` records the backend it configured. */
export const BACKEND_STATE_FILE = "terraform.tfstate";

/** A backend attribute's value as Terraform records it (unset attributes are null). */
export type BackendAttributeValue = string | boolean | number | null | readonly string[] | { readonly [name: string]: BackendAttributeValue };

/** The backend record of `.terraform/terraform.tfstate` (version 3). */
export interface BackendRecord {
  /** The backend type, `local`, `pg`, `http` or `s3`. */
  readonly type: string;
  /** Every attribute of the backend's schema, in name order, null where unset. */
  readonly config: Readonly<Record<string, BackendAttributeValue>>;
  /** Terraform's hash of the type and the configuration (`configs.Backend.Hash`). */
  readonly hash: number;
}

/** What {@link recordBackend} did, for `init`'s messages. */
export type BackendRecordOutcome = "configured" | "unchanged" | "unset" | "none";

/** The backend's configuration as Terraform decodes it against the backend's schema: every attribute, null where unset. */
export function backendConfigObject(settings: BackendSettings): Record<string, BackendAttributeValue> {
  return recordObject(backendConfigSchema(settings.type) ?? {}, settings.values);
}

/** An object setting as Terraform records it: every attribute of its type, null where unset, names sorted. */
function recordObject(schema: Readonly<Record<string, BackendAttributeKind>>, values: Readonly<Record<string, BackendConfigValue>>): Record<string, BackendAttributeValue> {
  const out: Record<string, BackendAttributeValue> = {};
  for (const name of Object.keys(schema).sort()) {
    const kind = schema[name]!;
    const v = values[name];
    if (v === undefined) out[name] = null;
    else if (typeof kind === "object") out[name] = recordObject(kind.object, v as Readonly<Record<string, BackendConfigValue>>);
    else if (kind === "set(string)") out[name] = [...(v as readonly string[])].sort();
    else if (kind === "map(string)") out[name] = Object.fromEntries(Object.entries(v as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    else out[name] = v as string | number | boolean;
  }
  return out;
}

/** Go's `%q` for a string: `"` quoted, with Go's escapes for quotes, backslashes and control characters. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c === 7) out += "\\a";
    else if (c === 8) out += "\\b";
    else if (c === 12) out += "\\f";
    else if (c === 11) out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Terraform's backend configuration hash: go-cty's `Value.Hash()` (CRC-32 of the set-hash
 * bytes) of the tuple `[type, config object]`, as `configs.Backend.Hash` computes it. The
 * object's attributes are strings, bools, numbers or null.
 */
export function backendConfigHash(type: string, config: Readonly<Record<string, BackendAttributeValue>>): number {
  // go-cty's appendSetHashBytes: null "~", bools T/F, numbers as text, strings %q, lists/sets "[e;…]", maps "{k:v;…}", objects "<a;…>".
  const attr = (v: BackendAttributeValue): string => {
    if (v === null) return "~";
    if (typeof v === "boolean") return v ? "T" : "F";
    if (typeof v === "number") return CtyNumber.from(v).toString();
    if (typeof v === "string") return goQuote(v);
    if (Array.isArray(v)) return `[${(v as readonly string[]).map((e) => `${goQuote(e)};`).join("")}]`;
    const o = v as { readonly [name: string]: BackendAttributeValue };
    return `<${Object.keys(o).sort().map((k) => `${attr(o[k]!)};`).join("")}>`;
  };
  const names = Object.keys(config).sort();
  const bytes = `<${goQuote(type)};<${names.map((n) => `${attr(config[n]!)};`).join("")}>;>`;
  return crc32(Buffer.from(bytes, "utf8"));
}

/**
 * The backend record for settings: their configuration, and the hash of `block` (the backend
 * block alone, without `-backend-config` overrides, as terraform hashes it; default `settings`).
 */
export function backendRecord(settings: BackendSettings, block: BackendSettings = settings): BackendRecord {
  const config = backendConfigObject(settings);
  return { type: settings.type, config, hash: backendConfigHash(block.type, backendConfigObject(block)) };
}

/** Settings from a recorded configuration (nulls are unset). */
export function settingsFromRecord(type: string, config: Readonly<Record<string, unknown>>): BackendSettings {
  const strip = (o: Readonly<Record<string, unknown>>): Record<string, BackendConfigValue> => {
    const out: Record<string, BackendConfigValue> = {};
    for (const [k, v] of Object.entries(o)) {
      if (v === null || v === undefined) continue;
      out[k] = typeof v === "object" && !Array.isArray(v) ? strip(v as Record<string, unknown>) : (v as BackendConfigValue);
    }
    return out;
  };
  return { type, values: strip(config) };
}

/** The text of `.terraform/terraform.tfstate` as terraform 1.11 writes it (two-space indent, no trailing newline). */
export function formatBackendState(record: BackendRecord): string {
  return JSON.stringify({ version: 3, terraform_version: TERRAFORM_VERSION, backend: { type: record.type, config: record.config, hash: record.hash } }, null, 2);
}

/** Reads the recorded backend's type, hash and configuration, or undefined when nothing is recorded. */
export function readBackendRecord(dataDir: string): { type: string; hash: number; config: Readonly<Record<string, unknown>> } | undefined {
  const file = join(dataDir, BACKEND_STATE_FILE);
  if (!existsSync(file)) return undefined;
  let doc: { backend?: { type?: unknown; hash?: unknown; config?: unknown } | null };
  try {
    doc = JSON.parse(readFileSync(file, "utf8")) as typeof doc;
  } catch (e) {
    throw new CliError(CliErrorCode.BadInput, `cannot read the recorded backend in ${file}: ${(e as Error).message}`, { hint: 'remove the file and run "magma init" again' });
  }
  const b = doc.backend;
  if (b === undefined || b === null || typeof b.type !== "string" || b.type === "") return undefined;
  const config = typeof b.config === "object" && b.config !== null && !Array.isArray(b.config) ? (b.config as Record<string, unknown>) : {};
  return { type: b.type, hash: typeof b.hash === "number" ? b.hash : -1, config };
}

/**
 * Records the configuration's backend in `<dataDir>/terraform.tfstate` as `terraform init`
 * does, so that terraform finds the directory initialised: written when the configuration
 * has a `backend` block (`configured` when it is new, `unchanged` when the same hash is
 * recorded), nothing without one (`none`). A changed or removed backend needs
 * `reconfigure` (Terraform's `-reconfigure`: the new one is recorded, no state is migrated);
 * `unset` when a recorded backend was removed that way.
 *
 * @throws CliError `bad_input` ("Backend configuration changed") for a changed backend
 *   without `reconfigure`.
 */
export function recordBackend(dataDir: string, settings: BackendSettings | undefined, reconfigure: boolean, block?: BackendSettings): BackendRecordOutcome {
  const file = join(dataDir, BACKEND_STATE_FILE);
  const previous = readBackendRecord(dataDir);
  const next = settings === undefined ? undefined : backendRecord(settings, block);
  if (next === undefined && previous === undefined) return "none";
  if (next !== undefined && previous !== undefined && previous.type === next.type && previous.hash === next.hash && JSON.stringify(previous.config) === JSON.stringify(next.config)) return "unchanged";
  if (previous !== undefined && !reconfigure) {
    throw new CliError(CliErrorCode.BadInput, "Backend configuration changed", {
      detail: `A change in the backend configuration has been detected (${JSON.stringify(previous.type)} was recorded in ${file}${next === undefined ? ", and the configuration no longer has a backend block" : `, the configuration has ${JSON.stringify(next.type)}`}), which may require migrating existing state. If you wish to attempt automatic migration of the state, use "magma init -migrate-state". If you wish to store the current configuration with no changes to the state, use "magma init -reconfigure".`,
    });
  }
  if (next === undefined) {
    rmSync(file, { force: true });
    return "unset";
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, formatBackendState(next));
  return "configured";
}

import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { readRegularFile } from "./internal/read-regular-file.js";
import { schemaCacheFile, type BinaryIdentity } from "./schema-cache.js";

/**
 * Remembers provider configurations that one exact provider binary validated with no
 * diagnostics at all, so that a later process can skip a validation whose answer is known.
 *
 * Validation (`PrepareProviderConfig` / `ValidateProviderConfig`) is a function of the
 * binary, the configuration and the provider's environment (SDKv2 defaults read
 * environment variables). The key covers all three: the binary's identity (the schema
 * cache's key), the configuration's msgpack bytes, and a digest of the environment the
 * provider was started with, minus go-plugin's per-launch variables. A configuration that
 * produced any diagnostic, warnings included, is never remembered, so warnings and errors
 * are always reported.
 *
 * @internal
 */
export interface ValidationMemory {
  /** Whether this configuration is known to validate cleanly. Never rejects. */
  isKnownValid(config: Uint8Array): Promise<boolean>;
  /** Records a clean validation of this configuration (best effort, off the caller's path). */
  rememberValid(config: Uint8Array): Promise<void>;
}

const FORMAT = 1;
const LIMIT = 64;
/** The largest memory file read (64 keys take ~4.3 KB); only a regular file is read, without blocking. */
const MAX_FILE_BYTES = 64 * 1024;
/** Variables that go-plugin sets for each launch; they do not reach a provider's validation. */
const PER_LAUNCH = new Set(["PLUGIN_CLIENT_CERT", "PLUGIN_UNIX_SOCKET_DIR", "PLUGIN_PROTOCOL_VERSIONS", "PLUGIN_MIN_PORT", "PLUGIN_MAX_PORT"]);

interface MemoryFile {
  readonly format: number;
  readonly keys: readonly string[];
}

/** A digest of the environment a provider starts with, ignoring go-plugin's per-launch variables. */
export function environmentDigest(env: Readonly<Record<string, string | undefined>>): string {
  const h = createHash("sha256");
  for (const k of Object.keys(env).sort()) {
    const v = env[k];
    if (v === undefined || PER_LAUNCH.has(k)) continue;
    h.update(k).update("\0").update(v).update("\0");
  }
  return h.digest("hex");
}

/**
 * A {@link ValidationMemory} kept beside the binary's schema cache file
 * (`<schema cache file>.validated.json`, mode 0600, written atomically, at most 64 keys).
 *
 * @internal
 */
export function fileValidationMemory(
  dir: string,
  identity: Promise<BinaryIdentity | undefined>,
  protocolVersion: number,
  envDigest: string,
): ValidationMemory {
  const fileOf = async (): Promise<string | undefined> => {
    const id = await identity;
    return id === undefined ? undefined : schemaCacheFile(dir, id).replace(/\.bin$/, ".validated.json");
  };
  const keyOf = (config: Uint8Array): string =>
    createHash("sha256").update(`${protocolVersion}\0${envDigest}\0`).update(config).digest("hex");
  const read = async (file: string): Promise<string[]> => {
    try {
      const text = (await readRegularFile(file, { maxBytes: MAX_FILE_BYTES })).toString("utf8");
      const parsed = JSON.parse(text) as Partial<MemoryFile>;
      if (parsed.format !== FORMAT || !Array.isArray(parsed.keys)) return [];
      return parsed.keys.filter((k): k is string => typeof k === "string" && /^[0-9a-f]{64}$/.test(k));
    } catch {
      return [];
    }
  };
  return {
    async isKnownValid(config) {
      try {
        const file = await fileOf();
        return file !== undefined && (await read(file)).includes(keyOf(config));
      } catch {
        return false;
      }
    },
    async rememberValid(config) {
      const file = await fileOf();
      if (file === undefined) return;
      const key = keyOf(config);
      const keys = (await read(file)).filter((k) => k !== key);
      keys.push(key);
      const body: MemoryFile = { format: FORMAT, keys: keys.slice(-LIMIT) };
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
        await rename(temp, file);
      } catch (e) {
        await rm(temp, { force: true });
        throw e;
      }
    },
  };
}

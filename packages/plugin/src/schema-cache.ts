import { createHash, randomBytes } from "node:crypto";
import { open, mkdir, rename, rm, writeFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { readRegularFile } from "./internal/read-regular-file.js";
import { launcherTargets } from "./launcher-targets.js";

/**
 * What identifies one provider binary's exact contents cheaply: its real path, size,
 * modification and change times, device and inode, and SHA-256 digests of its first and
 * last MiB. Replacing, rebuilding, copying over or touching the file changes at least one
 * of them.
 */
export interface BinaryIdentity {
  /** The real path (symbolic links resolved). */
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
  /** Modification time (ms since the epoch, fractional). */
  readonly mtimeMs: number;
  /** Status change time (ms since the epoch, fractional); changes on any rewrite or rename. */
  readonly ctimeMs: number;
  /** Inode number. */
  readonly ino: number;
  /** Device number. */
  readonly dev: number;
  /** Hex SHA-256 of the first MiB. */
  readonly head: string;
  /** Hex SHA-256 of the last MiB. */
  readonly tail: string;
  /**
   * For a script launcher that declares the files it runs (see `LAUNCHER_TARGET_MARK`),
   * their identities, so that editing the provider module behind an unchanged launcher
   * gives another identity. Absent for a compiled binary.
   */
  readonly targets?: readonly BinaryIdentity[];
}

/** One schema reply as kept in the cache. */
export interface CachedSchemaReply {
  /** The protocol version the reply was read with (5 or 6). */
  readonly protocolVersion: 5 | 6;
  /** The GetSchema / GetProviderSchema reply, in its wire form. */
  readonly reply: Uint8Array;
}

const MAGIC = "MAGMA-SCHEMA-CACHE\n";
const FORMAT = 1;
const MIB = 1024 * 1024;
/** A header longer than this is not ours. */
const MAX_HEADER = 64 * 1024;
/**
 * The largest cache file read (hashicorp/aws 5.100.0's is 4.9 MB); a larger one is ignored,
 * so a file replaced by something huge (or a link to `/dev/zero`) cannot exhaust memory.
 */
export const MAX_SCHEMA_CACHE_BYTES = 128 * MIB;

/**
 * The default schema cache directory: `$XDG_CACHE_HOME/magma/schemas`, else
 * `~/.cache/magma/schemas` (the XDG base directory default).
 */
export function defaultSchemaCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env["XDG_CACHE_HOME"];
  const base = xdg !== undefined && xdg !== "" && xdg.startsWith("/") ? xdg : join(homedir(), ".cache");
  return join(base, "magma", "schemas");
}

async function digestRange(fd: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<string> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return createHash("sha256").update(buf.subarray(0, done)).digest("hex");
}

/**
 * Reads the {@link BinaryIdentity} of a file (two 1 MiB reads, two stats), with those of
 * the files it declares when it is a script launcher (see `LAUNCHER_TARGET_MARK`).
 *
 * @throws the file system's error (ENOENT, EACCES) when the file or a declared file cannot be read.
 */
export async function binaryIdentity(binary: string): Promise<BinaryIdentity> {
  const own = await fileIdentity(binary);
  const declared = await launcherTargets(own.path);
  if (declared.length === 0) return own;
  return { ...own, targets: await Promise.all(declared.map((t) => fileIdentity(t))) };
}

async function fileIdentity(file: string): Promise<BinaryIdentity> {
  const path = await realpath(file);
  const fd = await open(path, "r");
  try {
    const before = await fd.stat();
    const head = await digestRange(fd, 0, Math.min(MIB, before.size));
    const tailStart = Math.max(0, before.size - MIB);
    const tail = await digestRange(fd, tailStart, before.size - tailStart);
    const after = await fd.stat();
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs || after.ctimeMs !== before.ctimeMs) {
      throw new Error(`${path} changed while it was being read`);
    }
    // The path must still name the same file (not replaced by a rename meanwhile).
    const named = await stat(path);
    if (named.ino !== after.ino || named.dev !== after.dev) throw new Error(`${path} was replaced while it was being read`);
    return { path, size: after.size, mtimeMs: after.mtimeMs, ctimeMs: after.ctimeMs, ino: after.ino, dev: after.dev, head, tail };
  } finally {
    await fd.close();
  }
}

function identityKey(id: BinaryIdentity): string {
  // Fixed key order, so the same identity always gives the same text (and a binary without
  // declared targets keeps the key it had before targets existed).
  const own = [id.path, id.size, id.mtimeMs, id.ctimeMs, id.ino, id.dev, id.head, id.tail];
  return JSON.stringify(id.targets === undefined || id.targets.length === 0 ? own : [...own, id.targets.map(identityKey)]);
}

/**
 * The cache file of one binary: `<sha256 of the identity>.bin` in the cache directory.
 */
export function schemaCacheFile(dir: string, id: BinaryIdentity): string {
  return join(dir, `${createHash("sha256").update(identityKey(id)).digest("hex")}.bin`);
}

interface CacheHeader {
  readonly format: number;
  readonly identity: string;
  readonly protocolVersion: number;
  readonly length: number;
  readonly sha256: string;
}

/**
 * Reads the cached schema reply of a binary. Returns `undefined` when there is none, or
 * when the file is not exactly what {@link writeSchemaCache} writes for this identity
 * (wrong magic, format, identity, length or checksum): such a file is ignored (and will be
 * replaced by the next write). Only a regular file (not a symbolic link, FIFO or device) of
 * at most {@link MAX_SCHEMA_CACHE_BYTES} is read, without blocking, and the read stops
 * (giving `undefined`) when `signal` aborts.
 */
export async function readSchemaCache(dir: string, id: BinaryIdentity, options: { readonly signal?: AbortSignal | undefined } = {}): Promise<CachedSchemaReply | undefined> {
  let data: Buffer;
  try {
    data = await readRegularFile(schemaCacheFile(dir, id), { maxBytes: MAX_SCHEMA_CACHE_BYTES, signal: options.signal });
  } catch {
    return undefined;
  }
  return parseSchemaCache(data, id);
}

/**
 * Parses cache file contents; `undefined` when they are corrupt or belong to another binary.
 *
 * @internal
 */
export function parseSchemaCache(data: Uint8Array, id: BinaryIdentity): CachedSchemaReply | undefined {
  const magic = Buffer.from(MAGIC, "latin1");
  if (data.length < magic.length + 4 || !Buffer.from(data.buffer, data.byteOffset, magic.length).equals(magic)) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const headerLength = view.getUint32(magic.length, true);
  const bodyStart = magic.length + 4 + headerLength;
  if (headerLength > MAX_HEADER || bodyStart > data.length) return undefined;
  let header: CacheHeader;
  try {
    header = JSON.parse(Buffer.from(data.buffer, data.byteOffset + magic.length + 4, headerLength).toString("utf8")) as CacheHeader;
  } catch {
    return undefined;
  }
  if (typeof header !== "object" || header === null) return undefined;
  if (header.format !== FORMAT || header.identity !== identityKey(id)) return undefined;
  if (header.protocolVersion !== 5 && header.protocolVersion !== 6) return undefined;
  if (header.length !== data.length - bodyStart) return undefined;
  const reply = data.subarray(bodyStart);
  if (createHash("sha256").update(reply).digest("hex") !== header.sha256) return undefined;
  return { protocolVersion: header.protocolVersion, reply };
}

/**
 * Writes (or replaces) the cached schema reply of a binary atomically: a private temporary
 * file in the cache directory, then a rename over the final name, so readers see the old
 * file or the new one, never a part. Creates the directory (mode 0700) when missing.
 *
 * @throws the file system's error when the directory cannot be created or written.
 */
export async function writeSchemaCache(dir: string, id: BinaryIdentity, entry: CachedSchemaReply): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const header: CacheHeader = {
    format: FORMAT,
    identity: identityKey(id),
    protocolVersion: entry.protocolVersion,
    length: entry.reply.length,
    sha256: createHash("sha256").update(entry.reply).digest("hex"),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length, 0);
  const file = schemaCacheFile(dir, id);
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temp, [Buffer.from(MAGIC, "latin1"), length, headerBytes, entry.reply], { mode: 0o600 });
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

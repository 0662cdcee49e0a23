import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { crc32, createInflateRaw, inflateRawSync } from "node:zlib";
import { InstallErrorCode, StepError } from "./install-error.js";

/** One entry of a zip archive. */
export interface ZipEntry {
  /** The slash-separated name as stored. */
  readonly name: string;
  /** The unix mode from the external attributes (0 when the archive has none). */
  readonly mode: number;
  /** Whether it is a directory entry. */
  readonly isDirectory: boolean;
  /** Whether it is a symbolic link (its data is the target). */
  readonly isSymlink: boolean;
  /** The uncompressed data (checked against the stored CRC-32). */
  readonly data: () => Buffer;
  /** The stored (compressed) bytes, their method (0 stored, 8 deflated), and the uncompressed size and CRC-32 they must give. */
  readonly raw: () => { readonly bytes: Buffer; readonly method: number; readonly size: number; readonly crc: number };
}

function bad(message: string): StepError {
  return new StepError(InstallErrorCode.BadArchive, message);
}

/**
 * Reads a zip archive's entries from its central directory (stored and deflated entries,
 * as provider packages use).
 *
 * @throws StepError `bad_archive` for anything that is not a well-formed zip archive.
 */
export function readZip(buf: Buffer): ZipEntry[] {
  const min = Math.max(0, buf.length - 65_557);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad("zip: not a valid zip file");
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw bad("zip: not a valid zip file");
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const usize = buf.readUInt32LE(p + 24);
    const nlen = buf.readUInt16LE(p + 28);
    const elen = buf.readUInt16LE(p + 30);
    const clen = buf.readUInt16LE(p + 32);
    const made = buf.readUInt16LE(p + 4) >> 8;
    const ext = buf.readUInt32LE(p + 38);
    const off = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nlen).toString("utf8");
    p += 46 + nlen + elen + clen;
    const mode = made === 3 ? ext >>> 16 : 0;
    const isDirectory = name.endsWith("/") || (mode & 0o170000) === 0o040000;
    const isSymlink = (mode & 0o170000) === 0o120000;
    const stored = (): Buffer => {
      if (off + 30 > buf.length || buf.readUInt32LE(off) !== 0x04034b50) throw bad(`zip: not a valid zip file (entry ${name})`);
      const start = off + 30 + buf.readUInt16LE(off + 26) + buf.readUInt16LE(off + 28);
      const raw = buf.subarray(start, start + csize);
      if (raw.length < csize) throw bad(`zip: unexpected EOF in ${name}`);
      if (method !== 0 && method !== 8) throw bad(`zip: unsupported compression algorithm ${String(method)} in ${name}`);
      return raw;
    };
    out.push({
      name,
      mode,
      isDirectory,
      isSymlink,
      raw: () => ({ bytes: stored(), method, size: usize, crc }),
      data: () => {
        const raw = stored();
        let data: Buffer;
        if (method === 0) data = Buffer.from(raw);
        else if (method === 8) {
          try {
            data = inflateRawSync(raw);
          } catch {
            throw bad(`zip: ${name}: flate: corrupt input`);
          }
        } else throw bad(`zip: unsupported compression algorithm ${String(method)} in ${name}`);
        if (data.length !== usize || crc32(data) !== crc) throw bad("zip: checksum error");
        return data;
      },
    });
  }
  return out;
}

/** Whether a slash path has a `..` element (go-getter's `containsDotDot`). */
function containsDotDot(name: string): boolean {
  return name.split(/[\\/]/).includes("..");
}

/** An entry to write, checked: its place under the root. */
interface PlannedEntry {
  readonly path: string;
  readonly entry: ZipEntry;
}

/**
 * Checks every entry before anything is written (go-getter's rules, stricter): no `..`
 * element, no absolute name, no symbolic link whose target leaves the root.
 */
function planUnpack(entries: readonly ZipEntry[], root: string): PlannedEntry[] {
  const files: PlannedEntry[] = [];
  for (const e of entries) {
    if (containsDotDot(e.name)) throw bad(`entry contains '..': ${e.name}`);
    if (isAbsolute(e.name) || e.name.startsWith("/") || /^[A-Za-z]:/.test(e.name)) throw bad(`entry has an absolute path: ${e.name}`);
    const path = join(root, e.name);
    if (e.isDirectory) continue;
    if (e.isSymlink) {
      const target = e.data().toString("utf8");
      const to = resolve(dirname(path), target);
      const rel = relative(root, to);
      if (isAbsolute(target) || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw bad(`symlink ${e.name} points outside the package directory (to ${target})`);
    }
    files.push({ path, entry: e });
  }
  return files;
}

/** Terraform's `h1:` summary of files by name: `<sha256 hex>  <name>\n` lines in name order, hashed. */
function summaryHash(hashes: readonly { readonly name: string; readonly hex: string }[]): string {
  const summary = createHash("sha256");
  for (const f of [...hashes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) summary.update(`${f.hex}  ${f.name}\n`);
  return `h1:${summary.digest("base64")}`;
}

function permOf(entry: ZipEntry): number {
  const perm = entry.mode & 0o777;
  return perm === 0 ? 0o644 : perm;
}

/**
 * Unpacks a zip archive into `dir` (created) as go-getter does for provider packages, but
 * refusing anything that would write outside `dir`: a `..` element or an absolute name, and
 * a symbolic link whose target leaves `dir`. Every entry is checked before anything is
 * written, so a refused archive writes nothing.
 *
 * @returns the `h1:` hash of what it wrote (the files' data, as {@link zipPackageHashV1}).
 * @throws StepError `bad_archive` naming the entry.
 */
export function unpackZip(buf: Buffer, dir: string): string {
  const entries = readZip(buf);
  const root = resolve(dir);
  const files = planUnpack(entries, root).map((f) => ({ ...f, data: f.entry.data() }));
  mkdirSync(root, { recursive: true });
  for (const e of entries) if (e.isDirectory) mkdirSync(join(root, e.name), { recursive: true });
  const hashes = files.map((f) => ({ name: f.entry.name, hex: createHash("sha256").update(f.data).digest("hex") }));
  for (const { path, entry, data } of files) {
    mkdirSync(dirname(path), { recursive: true });
    if (entry.isSymlink) symlinkSync(data.toString("utf8"), path);
    else {
      writeFileSync(path, data, { mode: permOf(entry) });
      chmodSync(path, permOf(entry)); // the mode exactly, whatever the umask
    }
  }
  return summaryHash(hashes);
}

/** Inflates one entry into `path` in 1 MiB pieces (zlib on node's thread pool), hashing and checking its CRC-32 and size as it goes. */
async function writeEntry(entry: ZipEntry, path: string): Promise<string> {
  const { bytes, method, size, crc } = entry.raw();
  const hash = createHash("sha256");
  let sum = 0;
  let n = 0;
  const fh = await open(path, "w", permOf(entry));
  try {
    const take = async (chunk: Buffer): Promise<void> => {
      n += chunk.length;
      if (n > size) throw bad("zip: checksum error");
      sum = crc32(chunk, sum);
      hash.update(chunk);
      await fh.write(chunk);
    };
    if (method === 0) await take(bytes);
    else {
      const inflater = createInflateRaw({ chunkSize: 1 << 20 });
      inflater.end(bytes);
      try {
        for await (const chunk of inflater) await take(chunk as Buffer);
      } catch (e) {
        inflater.destroy();
        if (e instanceof StepError) throw e;
        throw bad(`zip: ${entry.name}: flate: corrupt input`);
      }
    }
    if (n !== size || sum >>> 0 !== crc >>> 0) throw bad("zip: checksum error");
    await fh.chmod(permOf(entry)); // the mode exactly, whatever the umask
  } finally {
    await fh.close();
  }
  return hash.digest("hex");
}

/**
 * {@link unpackZip} without holding the whole package inflated in memory or the main thread
 * inflating it: the entries are inflated in 1 MiB pieces on node's thread pool and written as
 * they come, several at once; each piece is hashed for the `h1:` hash and checked against
 * the entry's CRC-32 and size (a mismatch fails the whole unpacking). The same checks before
 * anything is written; on failure `dir` may hold part of the package (the caller unpacks
 * into a staging directory and removes it).
 *
 * @returns the `h1:` hash of what it wrote.
 * @throws StepError `bad_archive` naming the entry.
 */
export async function unpackZipAsync(buf: Buffer, dir: string): Promise<string> {
  const entries = readZip(buf);
  const root = resolve(dir);
  const files = planUnpack(entries, root);
  mkdirSync(root, { recursive: true });
  for (const e of entries) if (e.isDirectory) mkdirSync(join(root, e.name), { recursive: true });
  for (const f of files) mkdirSync(dirname(f.path), { recursive: true });
  // every entry settles before this returns (a failed one leaves nothing still writing)
  const settled = await Promise.allSettled(
    files.map(async ({ path, entry }) => {
      if (entry.isSymlink) {
        const data = entry.data();
        symlinkSync(data.toString("utf8"), path);
        return { name: entry.name, hex: createHash("sha256").update(data).digest("hex") };
      }
      return { name: entry.name, hex: await writeEntry(entry, path) };
    }),
  );
  const failed = settled.find((r) => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return summaryHash(settled.map((r) => (r as PromiseFulfilledResult<{ name: string; hex: string }>).value));
}

/**
 * Terraform's `h1:` hash of a zip package without unpacking it: the files (not directory
 * entries) by name in sorted order, `<sha256 hex>  <name>\n` each, SHA-256 of those lines in
 * base64 — the hash of the directory the archive unpacks to.
 *
 * @throws StepError `bad_archive`.
 */
export function zipPackageHashV1(buf: Buffer): string {
  const entries = readZip(buf)
    .filter((e) => !e.isDirectory)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const summary = createHash("sha256");
  for (const e of entries) summary.update(`${createHash("sha256").update(e.data()).digest("hex")}  ${e.name}\n`);
  return `h1:${summary.digest("base64")}`;
}

/** Terraform's `zh:` hash of a package archive: the hex SHA-256 of the zip file. */
export function zipHash(buf: Buffer): string {
  return `zh:${createHash("sha256").update(buf).digest("hex")}`;
}

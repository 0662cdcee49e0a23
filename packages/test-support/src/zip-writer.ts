import { crc32, deflateRawSync } from "node:zlib";

/** One entry of {@link writeZip}. */
export interface ZipWriterEntry {
  /** The name stored (slash-separated; anything, `../` included, for hostile archives). */
  readonly name: string;
  /** The contents (for a symlink: its target). */
  readonly data: string | Uint8Array;
  /** The unix permission bits (default 0o644; 0o755 for executables). */
  readonly mode?: number;
  /** Store it as a symbolic link to `data`. */
  readonly symlink?: boolean;
}

/**
 * A zip archive (deflated entries, unix modes in the external attributes) as provider
 * release archives are made: for tests that serve provider packages.
 */
export function writeZip(entries: readonly ZipWriterEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data);
    const packed = deflateRawSync(data);
    const name = Buffer.from(e.name, "utf8");
    const crc = crc32(data);
    const mode = (e.symlink === true ? 0o120000 : 0o100000) | (e.mode ?? (e.symlink === true ? 0o777 : 0o644));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

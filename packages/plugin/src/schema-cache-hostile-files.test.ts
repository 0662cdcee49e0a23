/**
 * Issue 14, defect 8: the cache reader must not hang on a FIFO, must not read an endless
 * file (a symbolic link to /dev/zero grew the host to 23.8 GB), and must stop when the
 * dial's signal aborts. Each case gives "no cached reply" (the schema is fetched instead).
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryIdentity, MAX_SCHEMA_CACHE_BYTES, readSchemaCache, schemaCacheFile, writeSchemaCache, type BinaryIdentity } from "./schema-cache.js";
import { fileValidationMemory } from "./validation-memory.js";

/** Settles within `ms`, or rejects naming what hung. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms).unref())]);
}

describe("hostile schema cache files", () => {
  let dir: string;
  let id: BinaryIdentity;
  let file: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "magma-hostile-cache-"));
    const bin = join(dir, "provider");
    writeFileSync(bin, Buffer.alloc(4096, 1));
    id = await binaryIdentity(bin);
    mkdirSync(join(dir, "c"));
    file = schemaCacheFile(join(dir, "c"), id);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("a FIFO in place of the cache file: no reply, at once (no writer ever comes)", async () => {
    execFileSync("mkfifo", [file]);
    await expect(within(readSchemaCache(join(dir, "c"), id), 10_000, "reading a FIFO")).resolves.toBeUndefined();
  }, 30_000);

  test("a symbolic link to /dev/zero: no reply, and nothing read", async () => {
    symlinkSync("/dev/zero", file);
    const before = process.memoryUsage().rss;
    await expect(within(readSchemaCache(join(dir, "c"), id), 10_000, "reading /dev/zero")).resolves.toBeUndefined();
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  }, 30_000);

  test("a symbolic link to a valid cache file is not followed", async () => {
    await writeSchemaCache(join(dir, "real"), id, { protocolVersion: 5, reply: new Uint8Array([1, 2, 3]) });
    symlinkSync(schemaCacheFile(join(dir, "real"), id), file);
    expect(await readSchemaCache(join(dir, "real"), id)).toBeDefined();
    expect(await readSchemaCache(join(dir, "c"), id)).toBeUndefined();
  });

  test(`a regular file over ${MAX_SCHEMA_CACHE_BYTES / 2 ** 20} MiB (sparse) is not read`, async () => {
    const fd = openSync(file, "w");
    ftruncateSync(fd, MAX_SCHEMA_CACHE_BYTES + 1);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    expect(await readSchemaCache(join(dir, "c"), id)).toBeUndefined();
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  test("an aborted signal stops the read", async () => {
    await writeSchemaCache(join(dir, "c"), id, { protocolVersion: 5, reply: new Uint8Array(3 * 1024 * 1024) });
    expect(await readSchemaCache(join(dir, "c"), id)).toBeDefined();
    const controller = new AbortController();
    controller.abort();
    expect(await readSchemaCache(join(dir, "c"), id, { signal: controller.signal })).toBeUndefined();
  });

  test("the validation memory file as a FIFO or a link to /dev/zero: nothing known, no hang", async () => {
    const memoryFile = file.replace(/\.bin$/, ".validated.json");
    const memory = fileValidationMemory(join(dir, "c"), Promise.resolve(id), 5, "env");
    execFileSync("mkfifo", [memoryFile]);
    await expect(within(memory.isKnownValid(new Uint8Array([0x80])), 10_000, "reading a FIFO")).resolves.toBe(false);
    rmSync(memoryFile);
    symlinkSync("/dev/zero", memoryFile);
    await expect(within(memory.isKnownValid(new Uint8Array([0x80])), 10_000, "reading /dev/zero")).resolves.toBe(false);
  }, 30_000);
});

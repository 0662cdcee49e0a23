import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { typeToJson } from "@magma/cty";
import { dialProvider } from "./dial-provider.js";
import type { PluginLogEntry } from "./plugin-logger.js";
import {
  binaryIdentity,
  defaultSchemaCacheDir,
  parseSchemaCache,
  readSchemaCache,
  schemaCacheFile,
  writeSchemaCache,
} from "./schema-cache.js";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";


describe("schema cache files", () => {
  let dir: string;
  let bin: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-schema-cache-"));
    bin = join(dir, "provider");
    writeFileSync(bin, Buffer.alloc(3 * 1024 * 1024, 7));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("default directory follows XDG_CACHE_HOME, else ~/.cache", () => {
    expect(defaultSchemaCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/magma/schemas");
    expect(defaultSchemaCacheDir({ XDG_CACHE_HOME: "relative" })).toMatch(/\/\.cache\/magma\/schemas$/);
    expect(defaultSchemaCacheDir({})).toMatch(/\/\.cache\/magma\/schemas$/);
  });

  test("a written reply reads back for the same binary, atomically, with no temporary file left", async () => {
    const id = await binaryIdentity(bin);
    const reply = new Uint8Array([1, 2, 3, 250]);
    await writeSchemaCache(join(dir, "c"), id, { protocolVersion: 6, reply });
    expect(readdirSync(join(dir, "c"))).toEqual([schemaCacheFile(join(dir, "c"), id).split("/").pop()]);
    const back = await readSchemaCache(join(dir, "c"), id);
    expect(back?.protocolVersion).toBe(6);
    expect(Buffer.from(back!.reply)).toEqual(Buffer.from(reply));
  });

  test("the identity changes when the binary is touched, rewritten in place, or replaced", async () => {
    const a = await binaryIdentity(bin);
    utimesSync(bin, new Date(), new Date(Date.now() + 5000));
    const touched = await binaryIdentity(bin);
    expect(touched.mtimeMs).not.toBe(a.mtimeMs);
    const last = Buffer.alloc(3 * 1024 * 1024, 7);
    last[last.length - 1] = 8;
    writeFileSync(bin, last);
    utimesSync(bin, new Date(a.mtimeMs), new Date(a.mtimeMs)); // same mtime, different contents
    const rewritten = await binaryIdentity(bin);
    expect(rewritten.tail).not.toBe(a.tail);
    copyFileSync(bin, join(dir, "other"));
    expect((await binaryIdentity(join(dir, "other"))).path).not.toBe(a.path);
    // A file written for one identity is not read for another.
    await writeSchemaCache(dir, a, { protocolVersion: 5, reply: new Uint8Array([9]) });
    const data = readFileSync(schemaCacheFile(dir, a));
    expect(parseSchemaCache(data, a)).toBeDefined();
    expect(parseSchemaCache(data, rewritten)).toBeUndefined();
  });

  test("corrupt, truncated or foreign files are ignored", async () => {
    const id = await binaryIdentity(bin);
    await writeSchemaCache(dir, id, { protocolVersion: 5, reply: new Uint8Array(1000).fill(3) });
    const good = readFileSync(schemaCacheFile(dir, id));
    expect(parseSchemaCache(good, id)).toBeDefined();
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = flipped[flipped.length - 10]! ^ 1;
    expect(parseSchemaCache(flipped, id)).toBeUndefined();
    expect(parseSchemaCache(good.subarray(0, good.length - 1), id)).toBeUndefined();
    expect(parseSchemaCache(Buffer.from("not a cache file at all"), id)).toBeUndefined();
    expect(parseSchemaCache(new Uint8Array(0), id)).toBeUndefined();
    const badHeader = Buffer.from(good);
    badHeader.writeUInt32LE(0xffffff, "MAGMA-SCHEMA-CACHE\n".length);
    expect(parseSchemaCache(badHeader, id)).toBeUndefined();
    writeFileSync(schemaCacheFile(dir, id), flipped);
    expect(await readSchemaCache(dir, id)).toBeUndefined();
  });
});

const d = hasAwsProvider() ? describe : describe.skip;
d("the schema cache with the real AWS provider", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-schema-cache-aws-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Dials, waits for the cache write when one is due, and returns the cache events. */
  async function dialOnce(): Promise<{ events: string[]; resources: number; vpcType: string; ephemeral: string[]; arnParse: string }> {
    const events: string[] = [];
    let stored: () => void = () => {};
    const storedP = new Promise<void>((r) => (stored = r));
    const live = await dialProvider({
      binary: AWS_BINARY,
      schemaCacheDir: dir,
      logger: {
        log(e: PluginLogEntry) {
          const m = /^schema cache (\w+)/.exec(e.message);
          if (m === null) return;
          events.push(m[1]!);
          if (m[1] === "stored" || m[1] === "store_failed") stored();
        },
      },
    });
    try {
      if (events.includes("miss") || events.includes("stale")) await storedP;
      const arnParse = live.schema.functions?.get("arn_parse");
      return {
        events,
        resources: live.schema.resources.size,
        vpcType: typeToJson(live.schema.resources.get("aws_vpc")!.type),
        ephemeral: [...(live.schema.ephemeralResources?.keys() ?? [])].sort(),
        arnParse: arnParse === undefined ? "" : `${arnParse.parameters.map((p) => `${p.name}:${typeToJson(p.type)}`).join(",")}->${typeToJson(arnParse.returnType)}`,
      };
    } finally {
      await live.close();
    }
  }

  test("first launch stores the reply; the next uses it after GetMetadata; a corrupt file is ignored and rewritten", async () => {
    const first = await dialOnce();
    expect(first.events).toEqual(["miss", "stored"]);
    expect(readdirSync(dir)).toHaveLength(1);
    const second = await dialOnce();
    expect(second.events).toEqual(["hit"]);
    expect(second.resources).toBe(first.resources);
    expect(second.vpcType).toBe(first.vpcType);
    // The stored reply is the whole reply: ephemeral resources and functions come back too.
    expect(first.ephemeral).toHaveLength(7);
    expect(second.ephemeral).toEqual(first.ephemeral);
    expect(first.arnParse).toBe('arn:"string"->["object",{"account_id":"string","partition":"string","region":"string","resource":"string","service":"string"}]');
    expect(second.arnParse).toBe(first.arnParse);

    const file = join(dir, readdirSync(dir)[0]!);
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
    writeFileSync(file, bytes);
    const third = await dialOnce();
    expect(third.events).toEqual(["miss", "stored"]);
    expect(third.resources).toBe(first.resources);
    expect((await dialOnce()).events).toEqual(["hit"]);
  }, 240_000);
});

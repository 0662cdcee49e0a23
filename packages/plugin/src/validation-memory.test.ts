import { mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { environmentDigest, fileValidationMemory } from "./validation-memory.js";
import type { BinaryIdentity } from "./schema-cache.js";

const id = { realpath: "/bin/x", size: 1, mtimeMs: 1, ctimeMs: 1, dev: 1, ino: 1, headSha256: "a", tailSha256: "b" } as unknown as BinaryIdentity;

test("the environment digest ignores go-plugin's per-launch variables and nothing else", () => {
  const a = environmentDigest({ HOME: "/h", AWS_REGION: "us-east-1" });
  expect(environmentDigest({ AWS_REGION: "us-east-1", HOME: "/h", PLUGIN_CLIENT_CERT: "pem", PLUGIN_UNIX_SOCKET_DIR: "/tmp/x" })).toBe(a);
  expect(environmentDigest({ HOME: "/h", AWS_REGION: "eu-west-1" })).not.toBe(a);
  expect(environmentDigest({ HOME: "/h" })).not.toBe(a);
});

test("remembers per configuration, protocol and environment; a corrupt file means nothing is known", async () => {
  const dir = mkdtempSync(join(tmpdir(), "magma-vm-"));
  try {
    const m = fileValidationMemory(dir, Promise.resolve(id), 5, environmentDigest({ A: "1" }));
    const cfg = new Uint8Array([0x80]);
    expect(await m.isKnownValid(cfg)).toBe(false);
    await m.rememberValid(cfg);
    expect(await m.isKnownValid(cfg)).toBe(true);
    expect(await m.isKnownValid(new Uint8Array([0x81, 0xa1, 0x61, 0x01]))).toBe(false);
    expect(await fileValidationMemory(dir, Promise.resolve(id), 6, environmentDigest({ A: "1" })).isKnownValid(cfg)).toBe(false);
    expect(await fileValidationMemory(dir, Promise.resolve(id), 5, environmentDigest({ A: "2" })).isKnownValid(cfg)).toBe(false);
    const file = readdirSync(dir).find((f) => f.endsWith(".validated.json"))!;
    writeFileSync(join(dir, file), "{not json");
    expect(await m.isKnownValid(cfg)).toBe(false);
    await m.rememberValid(cfg); // rewrites a corrupt file
    expect(await m.isKnownValid(cfg)).toBe(true);
    expect(await fileValidationMemory(dir, Promise.resolve(undefined), 5, "x").isKnownValid(cfg)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

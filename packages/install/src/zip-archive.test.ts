import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeZip } from "@magma/test-support";
import { isInstallError } from "./install-error.js";
import { randomBytes } from "node:crypto";
import { readZip, unpackZip, unpackZipAsync, zipHash, zipPackageHashV1 } from "./zip-archive.js";

const dirs: string[] = [];
const fresh = (): string => {
  const d = mkdtempSync(join(tmpdir(), "magma-zip-test-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("unpackZip", () => {
  test("writes the files with their modes and returns the h1: of what it wrote", () => {
    const zip = writeZip([
      { name: "terraform-provider-x_v1.0.0", data: "#!/bin/sh\n", mode: 0o755 },
      { name: "docs/README", data: "hello" },
      { name: "link", data: "docs/README", symlink: true },
    ]);
    const d = join(fresh(), "pkg");
    const h1 = unpackZip(zip, d);
    expect(statSync(join(d, "terraform-provider-x_v1.0.0")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(d, "docs", "README"), "utf8")).toBe("hello");
    expect(readlinkSync(join(d, "link"))).toBe("docs/README");
    expect(h1).toBe(zipPackageHashV1(zip));
    expect(zipHash(zip)).toMatch(/^zh:[0-9a-f]{64}$/);
  });

  test.each([
    ["a ../ entry", [{ name: "ok", data: "x" }, { name: "../evil", data: "x" }], "entry contains '..': ../evil"],
    ["an absolute entry", [{ name: "/etc/evil", data: "x" }], "entry has an absolute path: /etc/evil"],
    ["a symlink leaving the package", [{ name: "ok", data: "x" }, { name: "l", data: "../../outside", symlink: true }], "symlink l points outside the package directory"],
    ["an absolute symlink", [{ name: "l", data: "/etc/passwd", symlink: true }], "symlink l points outside the package directory"],
  ])("refuses %s and writes nothing", (_what, entries, message) => {
    const d = join(fresh(), "pkg");
    let caught: unknown;
    try {
      unpackZip(writeZip(entries), d);
    } catch (e) {
      caught = e;
    }
    expect((caught as Error).message).toContain(message);
    expect(existsSync(d)).toBe(false);
  });

  test("a damaged archive is a bad_archive error, not a crash", () => {
    const zip = writeZip([{ name: "f", data: "some data that is long enough to deflate".repeat(20) }]);
    expect(() => readZip(Buffer.from("not a zip"))).toThrow("zip: not a valid zip file");
    const broken = Buffer.from(zip);
    broken[40] = broken[40]! ^ 0xff; // inside the deflated data
    expect(() => unpackZip(broken, join(fresh(), "pkg"))).toThrow(/zip: (checksum error|.*flate: corrupt input)/);
    expect(isInstallError(new Error("x"))).toBe(false);
  });
});

describe("unpackZipAsync", () => {
  test("writes what unpackZip writes, with the same h1:, for entries larger than its 1 MiB pieces", async () => {
    const entries = [
      { name: "terraform-provider-x_v1.0.0", data: "#!/bin/sh\n", mode: 0o755 },
      { name: "docs/README", data: "hello" },
      { name: "big.bin", data: randomBytes(3 * 1024 * 1024 + 17) },
      { name: "empty", data: "" },
      { name: "link", data: "docs/README", symlink: true },
    ];
    const zip = writeZip(entries);
    const a = join(fresh(), "pkg");
    const b = join(fresh(), "pkg");
    const h1 = await unpackZipAsync(zip, a);
    expect(h1).toBe(unpackZip(zip, b));
    expect(h1).toBe(zipPackageHashV1(zip));
    for (const name of ["terraform-provider-x_v1.0.0", "docs/README", "big.bin", "empty"]) {
      expect(readFileSync(join(a, name)).equals(readFileSync(join(b, name)))).toBe(true);
      expect(statSync(join(a, name)).mode & 0o777).toBe(statSync(join(b, name)).mode & 0o777);
    }
    expect(statSync(join(a, "terraform-provider-x_v1.0.0")).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(a, "link"))).toBe("docs/README");
  });

  test("refuses a ../ entry and writes nothing", async () => {
    const d = join(fresh(), "pkg");
    await expect(unpackZipAsync(writeZip([{ name: "ok", data: "x" }, { name: "../evil", data: "x" }]), d)).rejects.toThrow("entry contains '..': ../evil");
    expect(existsSync(d)).toBe(false);
  });

  test("damaged data and a wrong CRC-32 are bad_archive errors", async () => {
    const zip = writeZip([{ name: "f", data: "some data that is long enough to deflate".repeat(20) }]);
    const broken = Buffer.from(zip);
    broken[40] = broken[40]! ^ 0xff; // inside the deflated data
    await expect(unpackZipAsync(broken, join(fresh(), "pkg"))).rejects.toThrow(/zip: (checksum error|.*flate: corrupt input)/);
    const badCrc = Buffer.from(zip);
    badCrc[14] = badCrc[14]! ^ 0xff; // the local header's CRC is not read; the central directory's is
    const central = badCrc.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    badCrc[central + 16] = badCrc[central + 16]! ^ 0xff;
    const caught = await unpackZipAsync(badCrc, join(fresh(), "pkg")).catch((e: unknown) => e);
    expect((caught as Error).message).toBe("zip: checksum error");
    expect((caught as { code?: string }).code).toBe("bad_archive");
  });
});

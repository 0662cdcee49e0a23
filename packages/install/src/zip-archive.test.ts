import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeZip } from "@magma/test-support";
import { isInstallError } from "./install-error.js";
import { readZip, unpackZip, zipHash, zipPackageHashV1 } from "./zip-archive.js";

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

// Expected values from terraform 1.11.4 (see testdata/corpus/filesystem.json); files in
// testdata/corpus/files.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Mark, stringVal } from "@magma/cty";
import { callFunction } from "../call-function.js";
import { fn } from "./test-support/call.js";

const s = stringVal;
const baseDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "testdata", "corpus");
const call = (name: string, ...args: ReturnType<typeof s>[]) => callFunction(fn(name, { baseDir }), args);
const fail = (name: string, ...args: ReturnType<typeof s>[]) => {
  try {
    call(name, ...args);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("no error");
};

describe("filesystem functions", () => {
  it("reads files relative to the module directory", () => {
    expect(call("file", s("./files/hello.txt")).asString()).toBe("Hello World\n");
    expect(call("filebase64", s("./files/binary.bin")).asString()).toBe("//4AAQ==");
    expect(call("filemd5", s("./files/hello.txt")).asString()).toBe("e59ff97941044f85df5297e1c302d260");
    expect(call("fileexists", s("./files/nope.txt")).asBool()).toBe(false);
  });

  it("explains missing and unreadable files as terraform does", () => {
    expect(fail("file", s("./files/missing.txt"))).toMatch(/^no file exists at "\.\/files\/missing\.txt"; this function works only with files/);
    expect(fail("file", s("./files/binary.bin"))).toMatch(/^contents of "\.\/files\/binary\.bin" are not valid UTF-8;/);
    expect(fail("filesha256", s("./files/nope"))).toBe("open files/nope: no such file or directory");
    expect(fail("fileexists", s("./files"))).toBe('"files" is a directory, not a file');
  });

  it("redacts a sensitive path in its errors and keeps the mark on the result (terraform 1.11.4's texts)", () => {
    const secret = (p: string) => s(p).mark(Mark.Sensitive);
    const dir = mkdtempSync(join(tmpdir(), "hcl-fs-"));
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const tail = "; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource";
    const messages = [
      fail("file", secret("./nope/secret-path.txt")),
      fail("filebase64", secret("./nope/secret-path.txt")),
      fail("file", secret("./files/binary.bin")),
      fail("fileexists", secret("./files")),
      fail("fileexists", secret(fifo)),
      fail("fileset", s("."), secret("[secret-path")),
      fail("fileset", secret("secret-path"), s("[abc")),
      fail("file", secret("./files")),
      fail("filemd5", secret("./nope/secret-path.txt")),
      fail("filesha256", secret("./files")),
    ];
    expect(messages).toEqual([
      `no file exists at (sensitive value)${tail}`,
      `no file exists at (sensitive value)${tail}`,
      "contents of (sensitive value) are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
      "(sensitive value) is a directory, not a file",
      "(sensitive value) is a named pipe, not a regular file",
      "failed to glob pattern (sensitive value): syntax error in pattern",
      "failed to glob pattern (sensitive value): syntax error in pattern",
      // Terraform 1.11.4 names the path in these three ("read files: is a directory",
      // "open nope/secret-path.txt: …"); magma redacts it.
      "failed to read file: read (sensitive value): is a directory",
      "open (sensitive value): no such file or directory",
      "read (sensitive value): is a directory",
    ]);
    expect(messages.join("\n")).not.toMatch(/secret-path|\.\/files|binary\.bin|\/pipe/);
    // Not sensitive: named as terraform names them.
    expect(fail("fileset", s("."), s("[abc"))).toBe('failed to glob pattern "[abc": syntax error in pattern');
    expect(fail("fileexists", s(fifo))).toBe(`${JSON.stringify(fifo)} is a named pipe, not a regular file`);
    expect(fail("file", s("./files"))).toBe("failed to read file: read files: is a directory");
    // Results keep the path's marks.
    for (const name of ["file", "filebase64", "filemd5", "fileexists"]) expect(call(name, secret("./files/hello.txt")).marks.has(Mark.Sensitive)).toBe(true);
    expect(call("fileexists", secret("./files/nope.txt")).marks.has(Mark.Sensitive)).toBe(true);
    expect(call("fileset", s("./files"), secret("*.txt")).marks.has(Mark.Sensitive)).toBe(true);
  });

  it("globs with doublestar patterns", () => {
    const names = (v: ReturnType<typeof call>) => v.elements().map((e) => e.asString());
    expect(names(call("fileset", s("./files"), s("**"))).filter((n) => !n.startsWith("tf-"))).toEqual(["binary.bin", "ciphertext.b64", "data.json", "hello.txt", "key.pem", "sub/a.txt", "sub/b.md"]);
    expect(names(call("fileset", s("./files"), s("*.tftpl")))).toEqual(["tf-bad-syntax.tftpl", "tf-hello.tftpl", "tf-if.tftpl", "tf-list.tftpl", "tf-passthrough.tftpl", "tf-unknown-var.tftpl"]);
    expect(names(call("fileset", s("./files"), s("sub/{a,b}.*")))).toEqual(["sub/a.txt", "sub/b.md"]);
    expect(names(call("fileset", s("."), s("files/*.txt")))).toEqual(["files/hello.txt"]);
  });

  it("globs a tree as terraform 1.11.4 does, visiting only what the pattern can match", () => {
    const root = mkdtempSync(join(tmpdir(), "magma-fileset-"));
    for (const d of ["a/b/c", "x/b", ".h"]) mkdirSync(join(root, d), { recursive: true });
    for (const f of ["f.txt", "a/g.txt", "a/b/h.tf", "a/b/c/i.tf", "x/b/j.tf", ".h/k", "a/.dot"]) writeFileSync(join(root, f), "");
    const glob = (path: string, pattern: string): string[] => callFunction(fn("fileset", { baseDir: root }), [s(path), s(pattern)]).elements().map((e) => e.asString());
    // The results terraform 1.11.4's console gives on the same tree.
    expect(glob(".", "*")).toEqual(["f.txt"]);
    expect(glob(".", "**")).toEqual([".h/k", "a/.dot", "a/b/c/i.tf", "a/b/h.tf", "a/g.txt", "f.txt", "x/b/j.tf"]);
    expect(glob(".", "*/b/*")).toEqual(["a/b/h.tf", "x/b/j.tf"]);
    expect(glob(".", "**/*.tf")).toEqual(["a/b/c/i.tf", "a/b/h.tf", "x/b/j.tf"]);
    expect(glob(".", "a/**/*.tf")).toEqual(["a/b/c/i.tf", "a/b/h.tf"]);
    expect(glob(".", "**/b/**")).toEqual(["a/b/c/i.tf", "a/b/h.tf", "x/b/j.tf"]);
    expect(glob(".", "a/*")).toEqual(["a/.dot", "a/g.txt"]);
    expect(glob(".", "?/g.txt")).toEqual(["a/g.txt"]);
    expect(glob(".", "[ax]/b/*.tf")).toEqual(["a/b/h.tf", "x/b/j.tf"]);
    expect(glob(".", "{a,x}/b/*.tf")).toEqual(["a/b/h.tf", "x/b/j.tf"]);
    expect(glob(".", "./a/../f.txt")).toEqual(["f.txt"]);
    expect(glob("a", "**/*")).toEqual([".dot", "b/c/i.tf", "b/h.tf", "g.txt"]);
    expect(glob(".", "**/**/i.tf")).toEqual(["a/b/c/i.tf"]);
    expect(glob(".", "*/*/*/*")).toEqual(["a/b/c/i.tf"]);
    // A named pipe is not a regular file: a wildcard lists it, fileset never returns it.
    execFileSync("mkfifo", [join(root, "x", "pipe")]);
    expect(glob(".", "a/b/*.tf")).toEqual(["a/b/h.tf"]);
    expect(glob(".", "x/*")).toEqual([]);
  });

  it("refuses named pipes and devices instead of reading them forever", () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-fifo-"));
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const at = (name: string, p: string): string => {
      try {
        callFunction(fn(name, { baseDir: dir }), [s(p)]);
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(at("file", "pipe")).toBe('failed to read file: "pipe" is a named pipe, not a regular file');
    expect(at("filemd5", "pipe")).toBe('"pipe" is a named pipe, not a regular file');
    expect(at("file", "/dev/zero")).toBe('failed to read file: "/dev/zero" is a device node, not a regular file');
    expect(at("filesha256", "/dev/zero")).toBe('"/dev/zero" is a device node, not a regular file');
    expect(at("filebase64", "/dev/zero")).toBe('failed to read file: "/dev/zero" is a device node, not a regular file');
  });

  it("takes paths apart as Go's filepath does", () => {
    expect(call("dirname", s("/foo/bar/")).asString()).toBe("/foo/bar");
    expect(call("dirname", s("a//b/../c")).asString()).toBe("a");
    expect(call("basename", s("/foo/bar/")).asString()).toBe("bar");
    expect(call("basename", s("")).asString()).toBe(".");
  });
});

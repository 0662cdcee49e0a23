// Expected values from terraform 1.11.4 (see testdata/corpus/filesystem.json); files in
// testdata/corpus/files.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringVal } from "@magma/cty";
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

  it("globs with doublestar patterns", () => {
    const names = (v: ReturnType<typeof call>) => v.elements().map((e) => e.asString());
    expect(names(call("fileset", s("./files"), s("**"))).filter((n) => !n.startsWith("tf-"))).toEqual(["binary.bin", "ciphertext.b64", "data.json", "hello.txt", "key.pem", "sub/a.txt", "sub/b.md"]);
    expect(names(call("fileset", s("./files"), s("*.tftpl")))).toEqual(["tf-bad-syntax.tftpl", "tf-hello.tftpl", "tf-if.tftpl", "tf-list.tftpl", "tf-passthrough.tftpl", "tf-unknown-var.tftpl"]);
    expect(names(call("fileset", s("./files"), s("sub/{a,b}.*")))).toEqual(["sub/a.txt", "sub/b.md"]);
    expect(names(call("fileset", s("."), s("files/*.txt")))).toEqual(["files/hello.txt"]);
  });

  it("takes paths apart as Go's filepath does", () => {
    expect(call("dirname", s("/foo/bar/")).asString()).toBe("/foo/bar");
    expect(call("dirname", s("a//b/../c")).asString()).toBe("a");
    expect(call("basename", s("/foo/bar/")).asString()).toBe("bar");
    expect(call("basename", s("")).asString()).toBe(".");
  });
});

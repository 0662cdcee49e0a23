/**
 * Filesystem functions: Terraform's `funcs/filesystem.go`. Relative paths resolve against
 * the module directory the caller gives (`baseDir`); messages show paths as Terraform
 * does for a root module (relative to the working directory it runs in).
 *
 * @internal
 * @packageDocumentation
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, readdirSync, statSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { posix, resolve } from "node:path";
import { boolType, boolVal, Mark, setType, setVal, setValEmpty, stringType, stringVal, type Value } from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { fixedFunction, fromUtf8, isValidUtf8, notNull, param } from "./helpers.js";
import { goQuote } from "./numeric.js";

/** Go's `filepath.Clean` (POSIX). */
export function goClean(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(part);
  }
  const s = out.join("/");
  if (rooted) return "/" + s;
  return s === "" ? "." : s;
}

/** Go's `filepath.Dir`. */
function goDir(p: string): string {
  const i = p.lastIndexOf("/");
  return goClean(p.slice(0, i + 1));
}

/** Go's `filepath.Base`. */
function goBase(p: string): string {
  if (p === "") return ".";
  let s = p.replace(/\/+$/, "");
  if (s === "") return "/";
  const i = s.lastIndexOf("/");
  if (i >= 0) s = s.slice(i + 1);
  return s;
}

/** `~` expansion as go-homedir does it. */
function expandHome(p: string): string {
  if (!p.startsWith("~")) return p;
  if (p.length > 1 && p[1] !== "/") throw new FunctionError("failed to expand ~: cannot expand user-specific home dir");
  return homedir() + p.slice(1);
}

interface Resolved {
  /** Where to read. */
  readonly real: string;
  /** How Terraform names it in messages. */
  readonly shown: string;
}

function resolvePath(baseDir: string, p: string): Resolved {
  const expanded = expandHome(p);
  if (expanded.startsWith("/")) return { real: goClean(expanded), shown: goClean(expanded) };
  return { real: resolve(baseDir, expanded), shown: goClean(expanded) };
}

/** What Terraform prints for a sensitive path (`redactIfSensitive` in its `funcs/redact.go`). */
const REDACTED = "(sensitive value)";

/** Whether an argument carries the `sensitive` mark. */
function isSensitive(v: Value): boolean {
  return v.marks.has(Mark.Sensitive);
}

/** A path as an error message shows it: Go-quoted, or `(sensitive value)` (Terraform's `redactIfSensitive`). */
function shownPath(p: string, sensitive: boolean): string {
  return sensitive ? REDACTED : goQuote(p);
}

/** A path inside a Go error text (`open PATH: …`, unquoted): the path, or `(sensitive value)`. */
function bare(p: string, sensitive: boolean): string {
  return sensitive ? REDACTED : p;
}

/** Go's text for a failed open or read of a file. */
function goReason(e: unknown): { code: string | undefined; reason: string } {
  const code = (e as { code?: string }).code;
  const reason = code === "ENOENT" ? "no such file or directory" : code === "EISDIR" ? "is a directory" : code === "ENOTDIR" ? "not a directory" : code === "EACCES" ? "permission denied" : (e as Error).message;
  return { code, reason };
}

/** What kind of file a non-regular one is, in the words of `fileexists`'s errors. */
function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isBlockDevice() || st.isCharacterDevice()) return "a device node";
  if (st.isFIFO()) return "a named pipe";
  if (st.isSocket()) return "a unix domain socket";
  return "not a regular file";
}

/** Thrown by {@link readRegularFile} for a file that is not a regular file (code `ENOTREG`). */
class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
}

/**
 * The bytes of a regular file. A named pipe, device (`/dev/zero`, `/dev/stdin`) or socket is
 * refused rather than read: reading one may never end (terraform's functions block on a
 * FIFO and read `/dev/zero` until memory runs out). The file is opened without blocking
 * (a FIFO with no writer would block the open itself) and checked before it is read.
 */
function readRegularFile(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!st.isFile()) throw new NotRegularFileError(fileKind(st));
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Go-like text of a failed read: "is a directory", or magma's refusal of a non-regular file. */
function readFailure(e: unknown, shown: string, sensitive: boolean): string {
  if (e instanceof NotRegularFileError) return `${shownPath(shown, sensitive)} is ${e.message === "not a regular file" ? "not a regular file" : `${e.message}, not a regular file`}`;
  const { code, reason } = goReason(e);
  return `${code === "EISDIR" ? "read" : "open"} ${bare(shown, sensitive)}: ${reason}`;
}

/**
 * Reads a file as `file`, `filebase64` and `templatefile` do (Terraform's `readFileBytes`):
 * a missing file explained in Terraform's words, with the path redacted when it is sensitive.
 * Other failures are Go's `failed to read file: read|open PATH: reason`; Terraform prints the
 * path there even when it is sensitive, magma redacts it. @internal
 */
export function readFileArgument(baseDir: string, p: string, sensitive: boolean): Uint8Array {
  const r = resolvePath(baseDir, p);
  try {
    return readRegularFile(r.real);
  } catch (e) {
    const { code } = goReason(e);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new FunctionArgError(
        0,
        `no file exists at ${shownPath(p, sensitive)}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`,
      );
    }
    throw new FunctionArgError(0, `failed to read file: ${readFailure(e, r.shown, sensitive)}`);
  }
}

/**
 * Reads a file for the hash functions (`filemd5`, …), which pass Go's error through:
 * `open PATH: reason`. Terraform prints a sensitive path there (its hash functions do not
 * look at marks); magma redacts it.
 */
function readForHash(baseDir: string, p: string, sensitive: boolean): Uint8Array {
  const r = resolvePath(baseDir, p);
  try {
    return readRegularFile(r.real);
  } catch (e) {
    throw new FunctionError(readFailure(e, r.shown, sensitive));
  }
}

/** The UTF-8 text of a file read by `file` or `templatefile`, else Terraform's error. @internal */
export function fileArgumentText(bytes: Uint8Array, p: string, sensitive: boolean): string {
  if (!isValidUtf8(bytes)) {
    throw new FunctionError(
      `contents of ${shownPath(p, sensitive)} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead`,
    );
  }
  return fromUtf8(bytes);
}

/** `v` with the marks of `from` (a function that handles marks itself puts them back on its result). */
function withMarksOf(v: Value, ...from: Value[]): Value {
  const marks = from.flatMap((f) => [...f.marks]);
  return marks.length > 0 ? v.mark(...marks) : v;
}

function globRegex(pattern: string): RegExp {
  let re = "";
  let i = 0;
  let inAlt = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atStart = i === 0 || pattern[i - 1] === "/";
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === "/";
        if (atStart && atEnd) {
          if (pattern[i + 2] === "/") {
            re += "(?:[^/]*/)*";
            i += 3;
          } else {
            re += ".*";
            i += 2;
          }
          continue;
        }
      }
      re += "[^/]*";
      i++;
    } else if (c === "?") {
      re += "[^/]";
      i++;
    } else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) throw new Error("syntax error in pattern");
      let cls = pattern.slice(i + 1, end);
      if (cls.startsWith("!") || cls.startsWith("^")) cls = "^" + cls.slice(1);
      re += `[${cls.replace(/\\/g, "\\\\")}]`;
      i = end + 1;
    } else if (c === "{") {
      re += "(?:";
      inAlt++;
      i++;
    } else if (c === "}" && inAlt > 0) {
      re += ")";
      inAlt--;
      i++;
    } else if (c === "," && inAlt > 0) {
      re += "|";
      i++;
    } else if (c === "\\" && i + 1 < pattern.length) {
      re += pattern[i + 1]!.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      i += 2;
    } else {
      re += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      i++;
    }
  }
  if (inAlt > 0) throw new Error("syntax error in pattern");
  return new RegExp(`^${re}$`, "u");
}

function walk(dir: string, prefix: string, out: string[], depth: number): void {
  if (depth > 64) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names.sort()) {
    const full = posix.join(dir, n);
    const rel = prefix === "" ? n : `${prefix}/${n}`;
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(full, rel, out, depth + 1);
    else if (st.isFile()) out.push(rel);
  }
}

/**
 * The regular files under `root` whose paths (relative to it) match `pattern`, visiting only
 * the directories the pattern can match (as doublestar's Glob, which terraform's `fileset`
 * uses): a literal segment is looked up, not listed; a wildcard segment lists one directory;
 * only `**` descends through a subtree. A pattern of a star, a slash and `bin` under `/usr`
 * reads `/usr` and each `/usr/X/bin`, not the whole tree. Patterns with `{a,b}` alternatives (which may span
 * segments) are matched against a walk of the whole tree.
 */
function globFiles(root: string, pattern: string, re: RegExp): string[] {
  const found = new Set<string>();
  if (pattern.includes("{")) {
    const all: string[] = [];
    walk(root, "", all, 0);
    return all.filter((f) => re.test(f));
  }
  const segs = pattern.split("/").filter((seg, i) => seg !== "" || i === 0);
  if (segs[0] === "") return []; // an absolute pattern matches nothing under root
  const visit = (dir: string, rel: string, i: number, depth: number): void => {
    if (depth > 64) return;
    const seg = segs[i]!;
    const last = i === segs.length - 1;
    const join = (n: string): [string, string] => [posix.join(dir, n), rel === "" ? n : `${rel}/${n}`];
    if (seg === "**") {
      if (last) {
        const all: string[] = [];
        walk(dir, rel, all, depth);
        for (const f of all) if (re.test(f)) found.add(f);
        return;
      }
      visit(dir, rel, i + 1, depth);
      for (const n of listDir(dir)) {
        const [full, r] = join(n);
        if (statOf(full)?.isDirectory() === true) visit(full, r, i, depth + 1);
      }
      return;
    }
    const literal = !/[*?[\\]/.test(seg);
    const names = literal ? [seg] : listDir(dir).filter((n) => segmentRegex(seg).test(n));
    for (const n of names) {
      const [full, r] = join(n);
      const st = statOf(full);
      if (st === undefined) continue;
      if (last) {
        if (st.isFile() && re.test(r)) found.add(r);
      } else if (st.isDirectory()) visit(full, r, i + 1, depth + 1);
    }
  };
  visit(root, "", 0, 0);
  return [...found].sort();
}

const segmentRegexes = new Map<string, RegExp>();
function segmentRegex(seg: string): RegExp {
  let r = segmentRegexes.get(seg);
  if (r === undefined) {
    r = globRegex(seg);
    if (segmentRegexes.size < 256) segmentRegexes.set(seg, r);
  }
  return r;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function fileHash(description: string, algo: string, enc: "hex" | "base64", baseDir: string): HclFunction {
  return fixedFunction({
    description,
    params: [param("path", stringType, { allowMarked: true })],
    returns: stringType,
    refineResult: notNull,
    impl: (a) => withMarksOf(stringVal(createHash(algo).update(readForHash(baseDir, a[0]!.unmark().asString(), isSensitive(a[0]!))).digest(enc)), a[0]!),
  });
}

/** The filesystem functions, by name, rooted at `baseDir`. */
export function filesystemFunctions(baseDir: string): Record<string, HclFunction> {
  const pathParam = [param("path", stringType)];
  // The functions that read a file handle a sensitive path themselves: it is redacted in their errors.
  const markedPathParam = [param("path", stringType, { allowMarked: true })];
  return {
    file: fixedFunction({
      description: "Reads the contents of a file at the given path and returns them as a string.",
      params: markedPathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const p = a[0]!.unmark().asString();
        const sensitive = isSensitive(a[0]!);
        return withMarksOf(stringVal(fileArgumentText(readFileArgument(baseDir, p, sensitive), p, sensitive)), a[0]!);
      },
    }),
    filebase64: fixedFunction({
      description: "Reads the contents of a file at the given path and returns them as a base64-encoded string.",
      params: markedPathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => withMarksOf(stringVal(Buffer.from(readFileArgument(baseDir, a[0]!.unmark().asString(), isSensitive(a[0]!))).toString("base64")), a[0]!),
    }),
    fileexists: fixedFunction({
      description: "Determines whether a file exists at the given path.",
      params: markedPathParam,
      returns: boolType,
      refineResult: notNull,
      impl: (a) => {
        const r = resolvePath(baseDir, a[0]!.unmark().asString());
        const sensitive = isSensitive(a[0]!);
        let st;
        try {
          st = statSync(r.real);
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code === "ENOENT" || code === "ENOTDIR") return withMarksOf(boolVal(false), a[0]!);
          throw new FunctionError(`failed to stat ${shownPath(r.shown, sensitive)}`);
        }
        if (st.isFile()) return withMarksOf(boolVal(true), a[0]!);
        // Terraform's error names the kind of file (and, like Terraform's, carries no marks).
        const name = shownPath(r.shown, sensitive);
        if (st.isDirectory()) throw new FunctionError(`${name} is a directory, not a file`);
        if (st.isBlockDevice() || st.isCharacterDevice()) throw new FunctionError(`${name} is a device node, not a regular file`);
        if (st.isFIFO()) throw new FunctionError(`${name} is a named pipe, not a regular file`);
        if (st.isSocket()) throw new FunctionError(`${name} is a unix domain socket, not a regular file`);
        throw new FunctionError(`${name} is not a regular file`);
      },
    }),
    fileset: fixedFunction({
      description: "Enumerates a set of regular file names given a path and pattern.",
      params: [param("path", stringType, { allowMarked: true }), param("pattern", stringType, { allowMarked: true })],
      returns: setType(stringType),
      refineResult: notNull,
      impl: (a) => {
        const p = a[0]!.unmark().asString();
        const pattern = a[1]!.unmark().asString();
        const root = p.startsWith("/") ? goClean(p) : resolve(baseDir, p);
        let re: RegExp;
        try {
          re = globRegex(goClean(pattern));
        } catch (e) {
          const joined = goClean(posix.join(p, pattern));
          throw new FunctionError(`failed to glob pattern ${shownPath(joined, isSensitive(a[0]!) || isSensitive(a[1]!))}: ${(e as Error).message}`);
        }
        const hits = globFiles(root, goClean(pattern), re);
        return withMarksOf(hits.length === 0 ? setValEmpty(stringType) : setVal(hits.map(stringVal)), a[0]!, a[1]!);
      },
    }),
    filemd5: fileHash("Computes the MD5 hash of the contents of a given file.", "md5", "hex", baseDir),
    filesha1: fileHash("Computes the SHA1 hash of the contents of a given file.", "sha1", "hex", baseDir),
    filesha256: fileHash("Computes the SHA256 hash of the contents of a given file.", "sha256", "hex", baseDir),
    filesha512: fileHash("Computes the SHA512 hash of the contents of a given file.", "sha512", "hex", baseDir),
    filebase64sha256: fileHash("Computes the SHA256 hash of the contents of a given file and encodes it with Base64.", "sha256", "base64", baseDir),
    filebase64sha512: fileHash("Computes the SHA512 hash of the contents of a given file and encodes it with Base64.", "sha512", "base64", baseDir),
    abspath: fixedFunction({
      description: "Converts a filesystem path to an absolute path.",
      params: pathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const p = a[0]!.asString();
        return stringVal(p.startsWith("/") ? goClean(p) : goClean(resolve(baseDir, p)));
      },
    }),
    dirname: fixedFunction({
      description: "Removes the last portion from a filesystem path.",
      params: pathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(goDir(a[0]!.asString())),
    }),
    basename: fixedFunction({
      description: "Removes all except the last portion from a filesystem path.",
      params: pathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(goBase(a[0]!.asString())),
    }),
    pathexpand: fixedFunction({
      description: "Expands a filesystem path that begins with ~ to the current user's home directory.",
      params: pathParam,
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(expandHome(a[0]!.asString())),
    }),
  };
}

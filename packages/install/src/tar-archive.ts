import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import { InstallErrorCode, StepError } from "./install-error.js";

function bad(message: string): StepError {
  return new StepError(InstallErrorCode.BadArchive, message);
}

/**
 * Unpacks a tar archive (gzip-compressed when `compression` says so) into `dir` as go-getter does for module
 * packages: regular files, directories and symlinks; a `..` element, an absolute name or a
 * symlink leaving `dir` is refused before anything is written.
 *
 * @throws StepError `bad_archive`.
 */
export function unpackTar(archive: Buffer, dir: string, compression: "gzip" | "none"): void {
  let buf: Buffer;
  try {
    buf = compression === "gzip" ? gunzipSync(archive) : archive;
  } catch (e) {
    throw bad(`gzip: invalid header: ${(e as Error).message}`);
  }
  const root = resolve(dir);
  const items: { path: string; type: "file" | "dir" | "symlink"; data: Buffer; mode: number; target: string }[] = [];
  let p = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (p + 512 <= buf.length) {
    const h = buf.subarray(p, p + 512);
    if (h.every((b) => b === 0)) break;
    const str = (o: number, n: number): string => h.subarray(o, o + n).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(str(124, 12).trim() || "0", 8);
    const type = String.fromCharCode(h[156]!);
    const prefix = str(345, 155);
    let name = longName ?? paxPath ?? (prefix !== "" ? `${prefix}/${str(0, 100)}` : str(0, 100));
    const data = buf.subarray(p + 512, p + 512 + size);
    if (data.length < size) throw bad("archive/tar: unexpected EOF");
    p += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = data.toString("utf8").replace(/\0.*$/s, "");
      continue;
    }
    if (type === "x") {
      const m = /\d+ path=([^\n]*)\n/.exec(data.toString("utf8"));
      paxPath = m?.[1];
      continue;
    }
    if (type === "g") continue;
    longName = undefined;
    paxPath = undefined;
    name = name.replace(/^\.\//, "");
    if (name === "" || name === ".") continue;
    if (name.split(/[\\/]/).includes("..")) throw bad(`entry contains '..': ${name}`);
    if (isAbsolute(name)) throw bad(`entry has an absolute path: ${name}`);
    const path = join(root, name);
    const mode = parseInt(str(100, 8).trim() || "644", 8) & 0o777;
    if (type === "5") items.push({ path, type: "dir", data, mode, target: "" });
    else if (type === "2") {
      const target = str(157, 100);
      const rel = relative(root, resolve(dirname(path), target));
      if (isAbsolute(target) || rel === ".." || rel.startsWith(`..${sep}`)) throw bad(`symlink ${name} points outside the package directory (to ${target})`);
      items.push({ path, type: "symlink", data, mode, target });
    } else if (type === "0" || type === "\0" || type === "7") items.push({ path, type: "file", data, mode, target: "" });
  }
  mkdirSync(root, { recursive: true });
  for (const it of items) {
    if (it.type === "dir") mkdirSync(it.path, { recursive: true });
    else {
      mkdirSync(dirname(it.path), { recursive: true });
      if (it.type === "symlink") symlinkSync(it.target, it.path);
      else writeFileSync(it.path, it.data, { mode: it.mode === 0 ? 0o644 : it.mode });
    }
  }
}

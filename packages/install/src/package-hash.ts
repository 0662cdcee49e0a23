import { createHash } from "node:crypto";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { InstallErrorCode, StepError } from "./install-error.js";

function filesUnder(root: string, rel: string, out: string[]): void {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    const isDir = e.isDirectory() || (e.isSymbolicLink() && statSync(join(root, r)).isDirectory());
    if (isDir) filesUnder(root, r, out);
    else out.push(r);
  }
}

/** The read size: large enough that a package's file takes a few reads, small enough to reuse. */
const CHUNK = 4 << 20;

/** A file's SHA-256 (hex), read in 4 MiB pieces on node's thread pool into one reused buffer. */
async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, size)));
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      h.update(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return h.digest("hex");
}

/**
 * Terraform's `h1:` hash of an unpacked provider package directory (`PackageHashV1`, Go's
 * `dirhash.Hash1`): every file under it (symlinks followed) by its slash-separated relative
 * path in sorted order, a line `<sha256 hex>  <path>\n` each, and the base64 SHA-256 of
 * those lines. The files are read in pieces, several at once.
 *
 * @throws StepError `bad_archive` for a file name with a newline (which Hash1 cannot express).
 */
export async function packageHashV1(dir: string): Promise<string> {
  const root = realpathSync(dir);
  const files: string[] = [];
  filesUnder(root, "", files);
  files.sort();
  for (const f of files) if (f.includes("\n")) throw new StepError(InstallErrorCode.BadArchive, `cannot hash ${dir}: the file name ${JSON.stringify(f)} contains a newline`);
  const hexes = await Promise.all(files.map((f) => sha256File(join(root, f))));
  const summary = createHash("sha256");
  files.forEach((f, i) => summary.update(`${hexes[i]!}  ${f}\n`));
  return `h1:${summary.digest("base64")}`;
}

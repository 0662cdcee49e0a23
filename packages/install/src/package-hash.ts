import { createHash } from "node:crypto";
import { createReadStream, readdirSync, realpathSync, statSync } from "node:fs";
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

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/**
 * Terraform's `h1:` hash of an unpacked provider package directory (`PackageHashV1`, Go's
 * `dirhash.Hash1`): every file under it (symlinks followed) by its slash-separated relative
 * path in sorted order, a line `<sha256 hex>  <path>\n` each, and the base64 SHA-256 of
 * those lines.
 *
 * @throws StepError `bad_archive` for a file name with a newline (which Hash1 cannot express).
 */
export async function packageHashV1(dir: string): Promise<string> {
  const root = realpathSync(dir);
  const files: string[] = [];
  filesUnder(root, "", files);
  files.sort();
  const summary = createHash("sha256");
  for (const f of files) {
    if (f.includes("\n")) throw new StepError(InstallErrorCode.BadArchive, `cannot hash ${dir}: the file name ${JSON.stringify(f)} contains a newline`);
    summary.update(`${await sha256File(join(root, f))}  ${f}\n`);
  }
  return `h1:${summary.digest("base64")}`;
}

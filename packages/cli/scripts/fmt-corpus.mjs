#!/usr/bin/env node
// Compares `magma fmt` with `terraform fmt` on every .tf, .tfvars and .tftest.hcl file under
// a directory (real-world modules kept outside the repository): copies the tree, lets
// terraform format the copy in place, formats each original with magma, and reports the
// files whose results differ. Usage: node scripts/fmt-corpus.mjs DIR [--perturb]
// --perturb first rewrites every file's layout (indentation removed, spaces around `=`
// doubled) so that every file needs formatting; --chaos adds spaces after brackets and before
// commas, unquotes resource labels, quotes references as "${...}" and writes CRLF line ends.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { formatTerraformSource } from "../dist/fmt/format-source.js";
import { parseNativeConfig } from "@magma/hcl";

const [dir, ...flags] = process.argv.slice(2);
if (dir === undefined) throw new Error("usage: fmt-corpus.mjs DIR [--perturb]");
const perturb = flags.includes("--perturb");
const chaos = flags.includes("--chaos");
const exts = [".tf", ".tfvars", ".tftest.hcl"];
const files = [];
(function walk(d) {
  for (const name of readdirSync(d).sort()) {
    if (name.startsWith(".")) continue;
    const p = join(d, name);
    const st = lstatSync(p);
    if (st.isDirectory()) walk(p);
    else if (st.isFile() && exts.some((e) => name.endsWith(e))) files.push(p);
  }
})(dir);

const work = mkdtempSync(join(tmpdir(), "fmt-corpus-"));
const inputs = new Map();
for (const f of files) {
  let text = readFileSync(f, "utf8");
  if (perturb) text = text.replace(/^[ \t]+/gm, "").replace(/ = /g, "  =  ");
  if (chaos) {
    text = text
      .replace(/\(/g, "( ")
      .replace(/\[/g, "[\t")
      .replace(/,/g, " ,")
      .replace(/^(\s*\w+\s*=\s*)(var|local|module|data)\.([\w.]+)[ \t]*$/gm, '$1"${$2.$3}"')
      .replace(/^(resource|data) "([\w-]+)" "([\w-]+)"/gm, "$1 $2 $3")
      .replace(/\n/g, "\r\n");
  }
  const rel = relative(dir, f);
  inputs.set(rel, text);
  const out = join(work, rel);
  cpSync(f, out);
  writeFileSync(out, text);
}
try {
  execFileSync("terraform", ["fmt", "-recursive", "-list=false", work], { stdio: ["ignore", "ignore", "ignore"], env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null" } });
} catch {
  // exit 2: some files do not parse; they are left unformatted and skipped below
}
let same = 0;
let skipped = 0;
const differ = [];
for (const [rel, text] of inputs) {
  if (parseNativeConfig(text, rel).diags.some((d) => d.severity === "error")) {
    skipped++;
    continue;
  }
  const want = readFileSync(join(work, rel), "utf8");
  const got = formatTerraformSource(text);
  if (got === want.replace(/^\uFEFF/, "")) same++;
  else differ.push(rel);
}
rmSync(work, { recursive: true, force: true });
for (const d of differ) console.log(`differs: ${d}`);
console.log(`${files.length} files: ${same} identical, ${differ.length} different, ${skipped} not parsed`);
process.exitCode = differ.length === 0 ? 0 : 1;

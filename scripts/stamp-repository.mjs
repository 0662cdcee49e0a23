#!/usr/bin/env node
// One place for where magma lives: the root package.json's `repository`, `homepage` and
// `bugs`. This script stamps them into every packages/*/package.json (with the package's
// `repository.directory`), so that they cannot drift apart.
//
//   node scripts/stamp-repository.mjs          rewrite the packages' fields
//   node scripts/stamp-repository.mjs --check  fail (exit 1) if any package differs
//
// The URLs are still placeholders under `example.invalid` (a reserved name that never
// resolves): this repository has no remote yet. Set the real ones in the root package.json,
// run this script, and commit. The script warns while they are placeholders.
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const repo = rootPkg.repository;
if (
  typeof repo?.url !== "string" ||
  typeof rootPkg.homepage !== "string" ||
  typeof rootPkg.bugs?.url !== "string"
) {
  console.error(
    "stamp-repository: the root package.json needs repository.url, homepage and bugs.url",
  );
  process.exit(2);
}

/** The fields a package gets, in the order they are written after `license`. */
function fieldsFor(dir) {
  const folder = `packages/${dir}`;
  return {
    repository: { type: repo.type ?? "git", url: repo.url, directory: folder },
    homepage: rootPkg.homepage,
    bugs: { url: rootPkg.bugs.url },
  };
}

/** `pkg` with `fields` set: existing keys keep their place, new ones follow `repository` (or `license`). */
function stamped(pkg, fields) {
  const out = {};
  const pending = new Map(Object.entries(fields));
  const anchor = "repository" in pkg ? "repository" : "license";
  for (const [k, v] of Object.entries(pkg)) {
    if (pending.has(k)) {
      out[k] = pending.get(k);
      pending.delete(k);
    } else {
      out[k] = v;
    }
    if (k === anchor) {
      for (const [nk, nv] of pending) if (!(nk in pkg)) ((out[nk] = nv), pending.delete(nk));
    }
  }
  for (const [nk, nv] of pending) out[nk] = nv;
  return out;
}

const differing = [];
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const file = join(root, "packages", dir, "package.json");
  if (!existsSync(file)) continue;
  const text = readFileSync(file, "utf8");
  const next = `${JSON.stringify(stamped(JSON.parse(text), fieldsFor(dir)), null, 2)}\n`;
  if (next === text) continue;
  differing.push(`packages/${dir}/package.json`);
  if (!check) writeFileSync(file, next);
}

if (/\bexample\.invalid\b/.test(`${repo.url} ${rootPkg.homepage} ${rootPkg.bugs.url}`))
  console.warn(
    "stamp-repository: warning: the repository URLs are placeholders (example.invalid); set the real ones in the root package.json",
  );
if (check && differing.length > 0) {
  console.error(
    `stamp-repository: not stamped from the root package.json: ${differing.join(", ")} (run node scripts/stamp-repository.mjs)`,
  );
  process.exit(1);
}
console.log(
  check
    ? "stamp-repository: every package matches the root package.json"
    : `stamp-repository: ${differing.length} package.json file(s) updated`,
);

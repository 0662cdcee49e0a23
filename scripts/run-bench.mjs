#!/usr/bin/env node
// `pnpm bench`: builds, runs every package's benchmark (each writes bench/results.json in its
// package), then gathers all figures into bench/results.json at the top level and prints them.
// Exits non-zero when any ratio misses its target.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");
const packages = readdirSync(packagesDir).filter((d) => existsSync(join(packagesDir, d, "package.json")));
for (const p of packages) rmSync(join(packagesDir, p, "bench", "results.json"), { force: true });

const run = spawnSync("pnpm", ["exec", "turbo", "run", "bench", "--continue", "--concurrency=1"], {
  cwd: root,
  stdio: "inherit",
});

const all = [];
for (const p of packages) {
  const file = join(packagesDir, p, "bench", "results.json");
  if (!existsSync(file)) continue;
  for (const r of JSON.parse(readFileSync(file, "utf8"))) all.push({ package: p, ...r });
}
mkdirSync(join(root, "bench"), { recursive: true });
writeFileSync(join(root, "bench", "results.json"), JSON.stringify(all, null, 2) + "\n");
let missed = 0;
console.log("\nbenchmark summary (ratio = magma / baseline, lower is better):");
for (const r of all) {
  const ok = r.target === undefined || r.target === null || r.ratio <= r.target;
  if (!ok) missed++;
  console.log(
    `  ${ok ? "ok  " : "MISS"} ${r.package}: ${r.name}: ${r.value} ${r.unit} vs baseline ${r.baseline} -> ratio ${Number(r.ratio).toFixed(3)}` +
      (r.target != null ? ` (target <= ${r.target})` : ""),
  );
}
console.log(`${all.length} figures, ${missed} missed their target`);
process.exit(run.status === 0 && missed === 0 ? 0 : 1);

#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, and
// inclusive time of the heaviest functions. `node profile-summary.mjs <file> [top]`.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: profile-summary.mjs <file.cpuprofile> [top]");
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++)
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const key = (n) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/packages\//, "").replace(/^file:\/\//, "")}:${n.callFrame.lineNumber + 1}`;
// The bundled `magma` bin (packages/cli/dist/bin/*.js, see packages/cli/scripts/bundle-bin.mjs)
// holds every package in a few files: esbuild starts each original module with a comment naming
// its file (`// ../engine/dist/…`, `// ../../node_modules/.pnpm/…`, `// src/…` for the CLI's
// own), so a frame there is counted for the module whose comment comes last before its line.
const bundleMarks = new Map();
const bundled = (u, line) => {
  if (!/\/packages\/cli\/dist\/bin\/[^/]+\.js$/.test(u)) return undefined;
  let marks = bundleMarks.get(u);
  if (marks === undefined) {
    marks = [];
    try {
      const lines = readFileSync(new URL(u), "utf8").split("\n");
      for (let i = 0; i < lines.length; i++) {
        const c = /^\/\/ (\S+)$/.exec(lines[i]);
        if (c === null) continue;
        const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(@[^/]+\/[^/]+|[^/]+)\//.exec(c[1]) ?? /^\.\.\/([^/]+)\//.exec(c[1]);
        marks.push([i, m === null ? "cli" : m[1]]);
      }
    } catch {
      // The bundle was rebuilt or removed since the profile: counted as cli.
    }
    bundleMarks.set(u, marks);
  }
  let found = "cli";
  for (const [i, p] of marks) {
    if (i > line) break;
    found = p;
  }
  return found;
};
const pkg = (n) => {
  const u = n.callFrame.url;
  const b = bundled(u, n.callFrame.lineNumber);
  if (b !== undefined) return b;
  const m = /packages\/([^/]+)\//.exec(u) ?? /node_modules\/(@[^/]+\/[^/]+|[^/]+)\//.exec(u);
  return m
    ? m[1]
    : u.startsWith("node:")
      ? "node"
      : n.callFrame.functionName.startsWith("(")
        ? n.callFrame.functionName
        : "other";
};
const selfBy = new Map();
const pkgBy = new Map();
const incl = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  selfBy.set(key(n), (selfBy.get(key(n)) ?? 0) + t);
  pkgBy.set(pkg(n), (pkgBy.get(pkg(n)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + t);
  }
}
const show = (title, m, n) => {
  console.log(`${title}:`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(
      `  ${(t / 1000).toFixed(0).padStart(7)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`,
    );
};
console.log(`total sampled ${(total / 1000).toFixed(0)} ms`);
show("self time by package", pkgBy, 15);
show("self time by function", selfBy, top);
show("inclusive time by function", incl, top);

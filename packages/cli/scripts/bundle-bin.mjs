#!/usr/bin/env node
// Bundles the `magma` executable (src/bin/magma.ts) with esbuild into dist/bin/: one ES module,
// magma.js, and the chunks it imports on demand (the commands, the provider launcher, pg, …) in
// the same directory, with linked source maps. Run by the package's build script after tsc, which
// builds the library (dist/*.js, unbundled) and leaves src/bin out.
//
// Why: a fresh `magma` process spent about half of its start-up in node's ES module loader —
// resolving, stat-ing, reading and compiling ~440 files for `magma plan` (`magma --version`
// ~480) — before any work. The bundle is a few dozen files.
//
// What a bundle changes, and how it is kept as it was:
//  - `import.meta.url` would be the chunk's URL. Every module that uses it gets the URL it has
//    unbundled instead: this package's own files their place in dist/ (the chunks are in
//    dist/bin/, so relative to the chunk), another package's files the place they have in that
//    package, found at run time through `import.meta.resolve` of the package (so
//    `createRequire(import.meta.url)` in @magma/hcl and @magma/state still finds their own
//    dependencies: yaml, re2js, koffi). Such a package must be a dependency of @magma/cli, and a
//    third-party module using `import.meta` fails the build (none does).
//  - CommonJS dependencies (commander, pg) call `require` for node's own modules: each chunk
//    defines `require` with `createRequire(import.meta.url)`.
//  - Peer dependencies (@magma/fake-aws, optional) stay external: resolved at run time from this
//    package, as before, so a missing one is still reported as missing.
//  - Stack traces name the bundled file (unminified: the original function names, and a comment
//    naming each original module); `node --enable-source-maps` maps them to the TypeScript
//    sources through the linked maps.
import { readFile, rm } from "node:fs/promises";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const outdir = join(root, "dist", "bin");
const posix = (p) => p.split(sep).join("/");

/** The nearest package.json above a file: its directory and manifest. */
function owningPackage(file) {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pj = join(dir, "package.json");
    if (existsSync(pj)) return { dir, manifest: JSON.parse(readFileSync(pj, "utf8")) };
    if (dirname(dir) === dir) throw new Error(`no package.json above ${file}`);
  }
}

/** The file a package's "." export points at for `import` (relative to the package). */
function mainEntry(pkg) {
  let e = pkg.manifest.exports?.["."] ?? pkg.manifest.exports;
  while (e !== null && typeof e === "object") e = e.import ?? e.node ?? e.default;
  if (typeof e !== "string") throw new Error(`${pkg.manifest.name} has no "." export to resolve at run time`);
  return e;
}

/** Replaces `import.meta.url` in each module with the URL it has unbundled (see above). */
const originalImportMetaUrl = {
  name: "original-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const loader = /\.[cm]?ts$/.test(args.path) ? "ts" : "js";
      const pkg = owningPackage(args.path);
      const name = pkg.manifest.name;
      const others = text.replaceAll("import.meta.url", "");
      if (others.includes("import.meta"))
        throw new Error(`${args.path} uses import.meta other than import.meta.url: teach scripts/bundle-bin.mjs about it`);
      let url;
      if (name === manifest.name) {
        // src/x/y.ts is dist/x/y.js unbundled; the chunks are in dist/bin/.
        const rel = posix(relative(join(root, "src"), args.path)).replace(/\.[cm]?ts$/, ".js");
        url = `new URL(${JSON.stringify(posix(relative("dist/bin", join("dist", rel))))}, import.meta.url).href`;
      } else {
        if (manifest.dependencies?.[name] === undefined)
          throw new Error(`${args.path} (${name}) uses import.meta.url but ${name} is not a dependency of ${manifest.name}, so it cannot be found at run time`);
        const entry = join(pkg.dir, mainEntry(pkg));
        const rel = posix(relative(dirname(entry), args.path));
        url = `new URL(${JSON.stringify(rel)}, import.meta.resolve(${JSON.stringify(name)})).href`;
      }
      return { contents: text.replaceAll("import.meta.url", `(${url})`), loader, resolveDir: dirname(args.path) };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { magma: "src/bin/magma.ts" },
  outdir,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  // Positions are what a stack trace needs; the sources themselves would triple the size.
  sourcesContent: false,
  external: Object.keys(manifest.peerDependencies ?? {}),
  banner: { js: 'import { createRequire as __magmaCreateRequire } from "node:module";\nconst require = __magmaCreateRequire(import.meta.url);' },
  plugins: [originalImportMetaUrl],
  metafile: true,
  logLevel: "warning",
});
// MAGMA_BUNDLE_METAFILE=<file>: esbuild's metafile, to see which chunks a command loads and why (`esbuild --analyze` reads it)
if (process.env.MAGMA_BUNDLE_METAFILE) writeFileSync(process.env.MAGMA_BUNDLE_METAFILE, JSON.stringify(result.metafile));
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith(".js"));
const inputs = Object.keys(result.metafile.inputs).length;
console.log(`bundle-bin: ${inputs} modules into ${outputs.length} files in ${posix(relative(root, outdir))}/`);

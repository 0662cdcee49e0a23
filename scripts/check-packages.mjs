#!/usr/bin/env node
// The packaging check (`pnpm check:packages`, run by .ci/run): what a user gets from npm.
//
//  1. builds the public packages once, then packs each (`pnpm pack`, which rewrites
//     `workspace:` ranges the way a publish does);
//  2. runs publint (strict) and arethetypeswrong with the `esm-only` profile on every tarball
//     (their libraries, in this process: the CLIs would load TypeScript once per tarball);
//  3. checks that every relative link in a packed README names a file in the tarball;
//  4. installs the tarballs into a scratch project in the OS temp dir (outside the workspace),
//     with every `@magma/*` name pinned to its tarball so nothing comes from the registry;
//  5. fails if a public `.d.ts` (one reachable from an `exports` entry) still declares
//     `@internal` items (see STRIP_INTERNAL_PENDING), or imports generated code (`*_pb`,
//     `@magma/tfplugin`) or `@connectrpc/*`. `@magma/tfplugin` itself (the internal wire layer)
//     and sibling-only `./internal` entries are exempt: they exist to carry those types;
//  6. type-checks a consumer that imports every public entry point, with `skipLibCheck: false`,
//     under `moduleResolution: nodenext` and under `bundler`;
//  7. (first) checks every package's repository/homepage/bugs against the root package.json
//     (scripts/stamp-repository.mjs --check).
//
// Options: --keep (leave the scratch directory and print its path).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");

/** attw's `--profile esm-only`: CommonJS resolutions are not checked. */
const ESM_ONLY_IGNORED_RESOLUTIONS = ["node10", "node16-cjs"];

/** Packages exempt from the leak check, and export subpaths that are sibling-only. */
const WIRE_PACKAGES = new Set(["@magma/tfplugin"]);
const SIBLING_ONLY_SUBPATH = /^\.\/internal(\/|$)/;
const FORBIDDEN_IMPORT = [
  { test: (s) => s.startsWith("@connectrpc/"), why: "a connect type (@connectrpc/*)" },
  {
    test: (s) => s === "@magma/tfplugin" || s.startsWith("@magma/tfplugin/"),
    why: "the wire layer (@magma/tfplugin, generated code)",
  },
  {
    test: (s) => /_pb(\.d)?(\.[cm]?js)?$/.test(s) || /\/gen\//.test(s),
    why: "generated protobuf code (*_pb)",
  },
];

/**
 * Packages whose builds do not strip `@internal` declarations yet (their owners were editing
 * them when this check was added): a leftover `@internal` in their public .d.ts is reported
 * but does not fail the check. Remove a name once its tsconfig.build.json sets stripInternal.
 * Empty since every public package strips them; kept for a package added before its audit.
 */
const STRIP_INTERNAL_PENDING = new Set([]);

const failures = [];
const fail = (msg) => {
  failures.push(msg);
  console.log(`  FAIL ${msg}`);
};

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) throw r.error;
  return r;
}

const started = Date.now();
function step(title) {
  console.log(`\n== ${title} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

// ---- public packages -------------------------------------------------------------------
const packages = readdirSync(join(root, "packages"))
  .map((d) => join(root, "packages", d))
  .filter((d) => existsSync(join(d, "package.json")))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
  .filter((p) => p.manifest.private !== true);
const names = packages.map((p) => p.manifest.name);
console.log(`public packages: ${names.join(", ")}`);

// Every package's repository/homepage/bugs are the root package.json's (stamped by
// scripts/stamp-repository.mjs, which also warns while they are placeholders).
{
  const r = run(process.execPath, [join(root, "scripts", "stamp-repository.mjs"), "--check"], { cwd: root });
  process.stdout.write(r.stdout + r.stderr);
  if (r.status !== 0) fail("repository/homepage/bugs differ from the root package.json: run node scripts/stamp-repository.mjs");
}

const scratch = mkdtempSync(join(tmpdir(), "magma-check-packages-"));
const tarballs = join(scratch, "tarballs");
mkdirSync(tarballs);

try {
  step("build and pack");
  const filters = names.flatMap((n) => ["--filter", n]);
  let r = run("pnpm", ["exec", "turbo", "run", "build", ...filters, "--output-logs=errors-only"], {
    cwd: root,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error("build failed");
  // The build ran above; skip each package's prepack (it would run turbo once per package).
  r = run(
    "pnpm",
    ["-r", ...filters, "--config.ignore-scripts=true", "pack", "--pack-destination", tarballs],
    { cwd: root },
  );
  if (r.status !== 0) throw new Error(`pnpm pack failed:\n${r.stdout}\n${r.stderr}`);
  const tarballOf = new Map();
  for (const p of packages) {
    const file = `${p.manifest.name.replace(/^@/, "").replace("/", "-")}-${p.manifest.version}.tgz`;
    if (!existsSync(join(tarballs, file)))
      throw new Error(`no tarball ${file} for ${p.manifest.name}`);
    tarballOf.set(p.manifest.name, join(tarballs, file));
  }

  step("publint and attw --profile esm-only");
  // In this process (one TypeScript load, not one per tarball), as the CLIs do it.
  for (const name of names) {
    const data = readFileSync(tarballOf.get(name));
    const lint = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
      level: "suggestion",
    });
    for (const m of lint.messages)
      fail(`publint ${name}: ${m.type}: ${formatMessage(m, lint.pkg) ?? m.code}`);
    const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
    if (!analysis.types) fail(`attw ${name}: the package has no types`);
    else {
      for (const problem of analysis.problems) {
        if (
          "resolutionKind" in problem &&
          ESM_ONLY_IGNORED_RESOLUTIONS.includes(problem.resolutionKind)
        )
          continue;
        fail(`attw ${name}: ${problem.kind} ${JSON.stringify(problem)}`);
      }
    }
    console.log(`  checked ${name}`);
  }

  step("install the tarballs into a scratch project");
  const consumer = join(scratch, "consumer");
  mkdirSync(consumer);
  const pins = Object.fromEntries(names.map((n) => [n, `file:${tarballOf.get(n)}`]));
  const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify(
      {
        name: "magma-consumer",
        private: true,
        type: "module",
        dependencies: pins,
        devDependencies: {
          typescript: rootManifest.devDependencies.typescript,
          "@types/node": rootManifest.devDependencies["@types/node"],
        },
        pnpm: { overrides: pins },
      },
      null,
      2,
    ),
  );
  // Scripts are not needed to type-check (and koffi's would build native code).
  r = run(
    "pnpm",
    [
      "install",
      "--prefer-offline",
      "--ignore-scripts",
      "--config.auto-install-peers=true",
      "--config.strict-peer-dependencies=false",
    ],
    {
      cwd: consumer,
      env: { ...process.env, npm_config_ignore_workspace: "true" },
    },
  );
  if (r.status !== 0) throw new Error(`install failed:\n${r.stdout}\n${r.stderr}`);

  step("run the installed magma bin");
  // The bin is a bundle (packages/cli/scripts/bundle-bin.mjs): run from the install, it must
  // find what its modules load at run time from their own packages (koffi for the state
  // lock, re2js and yaml for hcl's regex and yamldecode), not from its own directory.
  {
    const cliManifest = JSON.parse(readFileSync(join(root, "packages", "cli", "package.json"), "utf8"));
    const bin = join(consumer, "node_modules", "@magma", "cli", cliManifest.bin.magma);
    const workdir = join(scratch, "workdir");
    mkdirSync(workdir);
    writeFileSync(
      join(workdir, "main.tf"),
      'output "re" {\n  value = regex("[a-z]+", "123abc456")\n}\noutput "y" {\n  value = yamldecode("a: 1")\n}\n',
    );
    const runs = [
      { args: ["--version"], expect: `${cliManifest.version}\n` },
      { args: ["plan", "-input=false", "-no-color"], expect: 're = "abc"' },
    ];
    for (const { args, expect } of runs) {
      r = run(process.execPath, [bin, ...args], { cwd: workdir, env: { ...process.env, TF_CLI_ARGS: "" } });
      if (r.status !== 0 || !r.stdout.includes(expect))
        fail(`magma ${args.join(" ")} from the install: exit ${r.status}, expected ${JSON.stringify(expect)} in its output:\n${r.stdout}${r.stderr}`);
      else console.log(`  ok magma ${args.join(" ")}`);
    }
  }

  step("README links and public .d.ts imports");
  const entries = [];
  const wireEntries = [];
  for (const name of names) {
    const pkgDir = join(consumer, "node_modules", ...name.split("/"));
    const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    checkReadmeLinks(name, pkgDir);
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath === "./package.json" || typeof target !== "object") continue;
      const spec = subpath === "." ? name : `${name}/${subpath.slice(2)}`;
      if (SIBLING_ONLY_SUBPATH.test(subpath)) continue;
      if (WIRE_PACKAGES.has(name)) wireEntries.push(spec);
      else {
        entries.push(spec);
        checkDeclarationImports(name, spec, pkgDir, target.types);
      }
    }
  }

  step("type-check a consumer under nodenext and bundler");
  // The user API is checked with Node's globals only. The wire layer's entries pull in connect's
  // declarations, which name fetch types (HeadersInit) from lib "DOM": checked with it.
  const consumers = [
    { file: "consumer.ts", specs: entries, lib: ["ES2022"] },
    { file: "wire-consumer.ts", specs: wireEntries, lib: ["ES2022", "DOM"] },
  ];
  for (const c of consumers) {
    const lines = c.specs.map((spec, i) => `import * as m${i} from "${spec}";`);
    lines.push(
      `export const entries: readonly unknown[] = [${c.specs.map((_, i) => `m${i}`).join(", ")}];`,
    );
    writeFileSync(join(consumer, c.file), `${lines.join("\n")}\n`);
    for (const resolution of ["nodenext", "bundler"]) {
      const compilerOptions = {
        target: "ES2022",
        lib: c.lib,
        module: resolution === "nodenext" ? "nodenext" : "esnext",
        moduleResolution: resolution,
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: false,
        types: ["node"],
      };
      const config = `tsconfig.${c.file.replace(/\.ts$/, "")}.${resolution}.json`;
      writeFileSync(
        join(consumer, config),
        JSON.stringify({ compilerOptions, files: [c.file] }, null, 2),
      );
      const tc = run(join(consumer, "node_modules", ".bin", "tsc"), ["-p", config], {
        cwd: consumer,
      });
      if (tc.status !== 0) fail(`tsc ${c.file} (${resolution}):\n${tc.stdout}${tc.stderr}`);
      else console.log(`  ok ${c.file} (${resolution}): ${c.specs.length} entry points`);
    }
  }
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
} finally {
  if (keep) console.log(`\nscratch directory kept: ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
}

step("done");
console.log(failures.length === 0 ? "\npackages: ok" : `\npackages: ${failures.length} problem(s)`);
process.exit(failures.length === 0 ? 0 : 1);

/** Relative links of a packed README must name files that are in the package. */
function checkReadmeLinks(name, pkgDir) {
  const readme = join(pkgDir, "README.md");
  if (!existsSync(readme)) return fail(`${name}: no README.md in the tarball`);
  const text = readFileSync(readme, "utf8").replace(/```[\s\S]*?```/g, "");
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|^\[[^\]]+\]:\s*(\S+)/gm)) {
    const href = m[1] ?? m[2];
    if (/^([a-z][a-z0-9+.-]*:|#)/i.test(href)) continue;
    const file = href.split("#")[0];
    if (file === "") continue;
    const target = resolve(pkgDir, decodeURIComponent(file));
    if (!target.startsWith(pkgDir) || !existsSync(target))
      fail(`${name}: README links to ${href}, which is not in the package`);
  }
}

/** Walks the .d.ts graph from an exports entry; fails on forbidden imports and on @internal leftovers. */
function checkDeclarationImports(name, spec, pkgDir, typesPath) {
  if (typeof typesPath !== "string") return fail(`${spec}: exports entry has no "types"`);
  const seen = new Set();
  const queue = [resolve(pkgDir, typesPath)];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) {
      fail(
        `${spec}: ${relative(pkgDir, file)} is imported by a declaration but not in the package`,
      );
      continue;
    }
    const text = readFileSync(file, "utf8");
    if (/@internal\b/.test(text)) {
      const msg = `${spec}: ${relative(pkgDir, file)} still declares @internal items (build without stripInternal)`;
      if (STRIP_INTERNAL_PENDING.has(name)) console.log(`  note ${msg}`);
      else fail(msg);
    }
    const specs = [
      ...text.matchAll(/\bfrom\s+["']([^"']+)["']/g),
      ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
      ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
      ...text.matchAll(/\/\/\/\s*<reference\s+(?:types|path)=["']([^"']+)["']/g),
    ].map((m) => m[1]);
    for (const s of specs) {
      for (const rule of FORBIDDEN_IMPORT) {
        if (rule.test(s))
          fail(`${spec}: ${posix.normalize(relative(pkgDir, file))} imports ${s}: ${rule.why}`);
      }
      if (s.startsWith(".")) queue.push(resolve(dirname(file), s.replace(/\.js$/, ".d.ts")));
    }
  }
}

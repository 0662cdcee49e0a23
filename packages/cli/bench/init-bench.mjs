#!/usr/bin/env node
// `pnpm bench` row for provider installation: `magma init` against `terraform init` on the same
// local HTTPS provider registry (test-support's startLocalRegistry: a CA and an OpenPGP key made
// for the run, a `host` block mapping the provider hostname to 127.0.0.1).
//   1. cold: a fresh directory, no lock file, no plugin cache: three providers (each a native
//      provider's launcher plus 16 MiB of incompressible data, a realistic package size)
//      discovered, downloaded, verified (SHA256SUMS + signature), unpacked, locked
//   2. warm plugin cache: the lock file present, .terraform removed, TF_PLUGIN_CACHE_DIR
//      holding the packages: linked from the cache after their h1: hashes are checked
//   3. floors (rows without a target): node's start-up; a node process that only downloads the
//      three archives and SHA-256s them (cold); one that only reads and SHA-256s the cached
//      packages (warm): the least any node program doing terraform's verification spends
// Wall time of the whole command, median of MAGMA_BENCH_RUNS (default 3); MAGMA_BENCH_PROFILE=<dir>:
// magma's runs write --cpu-prof profiles there. Writes
// bench/results.json (name, value, unit, baseline, ratio, target). Needs terraform on PATH
// (skipped with a note otherwise).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry, findTerraform, hasTerraform, startLocalRegistry } from "@magma/test-support";

const here = dirname(fileURLToPath(import.meta.url));
const MAGMA = join(here, "..", "dist", "bin", "magma.js");
const RUNS = Number(process.env.MAGMA_BENCH_RUNS ?? 3);
const TYPES = ["alpha", "beta", "gamma"];
const results = [];

if (!hasTerraform()) {
  console.log("init bench: terraform is not on PATH, skipped");
  process.exit(0);
}
const terraform = findTerraform();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const work = mkdtempSync(join(tmpdir(), "magma-init-bench-"));
const reg = await startLocalRegistry();
try {
  const require = createRequire(import.meta.url);
  const archives = [];
  for (const type of TYPES) {
    const l = bundleLauncherEntry(
      writeProviderLauncher({ mirrorDir: join(work, "launchers"), hostname: reg.hostname, namespace: "bench", type, version: "1.0.0", module: require.resolve("@magma/provider-random"), exportName: "createRandomProvider" }),
    );
    const published = await reg.publish({
      namespace: "bench",
      type,
      version: "1.0.0",
      files: [
        { name: `terraform-provider-${type}_v1.0.0`, data: readFileSync(l.executable), mode: 0o755 },
        { name: "magma-entry.mjs", data: readFileSync(l.entry) },
        { name: "payload.bin", data: randomBytes(16 * 1024 * 1024) },
      ],
    });
    archives.push(`${reg.url}${published.path}`);
  }
  const cliFile = join(work, "cli.tfrc");
  writeFileSync(cliFile, reg.cliConfig());
  const mainTf = `terraform {\n  required_providers {\n${TYPES.map((t) => `    ${t} = {\n      source  = "${reg.hostname}/bench/${t}"\n      version = "~> 1.0"\n    }\n`).join("")}  }\n}\n`;
  const env = { ...process.env, ...reg.env, TF_CLI_CONFIG_FILE: cliFile, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
  delete env.TF_PLUGIN_CACHE_DIR;
  // (asynchronous: the registry answers from this process)
  const run = (tool, dir, extraEnv = {}) => {
    const prof = process.env.MAGMA_BENCH_PROFILE;
    const nodeArgs = prof === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${prof}`];
    const [cmd, args] = tool === "magma" ? [process.execPath, [...nodeArgs, MAGMA, "init", "-no-color"]] : [terraform, ["init", "-no-color"]];
    return timed(`${tool} init`, cmd, args, dir, extraEnv);
  };
  const timed = (what, cmd, args, dir, extraEnv = {}) =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const child = spawn(cmd, args, { cwd: dir, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (b) => (out += b));
      child.stderr.on("data", (b) => (out += b));
      child.once("error", reject);
      child.once("close", (code) => {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (code !== 0) reject(new Error(`${what} failed in ${dir}:\n${out}`));
        else resolve(ms);
      });
    });
  const fresh = (name) => {
    const d = join(work, `${name}-${Math.random().toString(36).slice(2)}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "main.tf"), mainTf);
    return d;
  };
  const figure = async (tool) => {
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push(await tool(i));
    return median(times);
  };
  // 1. cold
  const cold = (toolName) => figure(() => run(toolName, fresh(`cold-${toolName}`)));
  const coldT = await cold("terraform");
  const coldM = await cold("magma");
  results.push({ name: "init, cold: 3 providers (16 MiB each) from a local registry, verified and locked", value: Math.round(coldM), unit: "ms", baseline: Math.round(coldT), ratio: coldM / coldT, target: 0.5 });
  // 2. warm plugin cache (a lock file, no .terraform)
  const warm = async (toolName) => {
    const cache = join(work, `cache-${toolName}`);
    mkdirSync(cache, { recursive: true });
    const dir = fresh(`warm-${toolName}`);
    await run(toolName, dir, { TF_PLUGIN_CACHE_DIR: cache });
    return figure(() => {
      rmSync(join(dir, ".terraform"), { recursive: true, force: true });
      return run(toolName, dir, { TF_PLUGIN_CACHE_DIR: cache });
    });
  };
  const warmT = await warm("terraform");
  const warmM = await warm("magma");
  results.push({ name: "init, warm plugin cache: the same 3 providers linked after their hashes are checked", value: Math.round(warmM), unit: "ms", baseline: Math.round(warmT), ratio: warmM / warmT, target: 0.5 });
  // 3. floors: what any node program doing the same verified work cannot go below (no target:
  //    they show whether 0.5x is within reach; see packages/install/README.md, "Performance")
  //    - node's own start-up (node -e "")
  //    - cold: a node process that only downloads the three archives over TLS at once and
  //      SHA-256s them (their zh: hashes), nothing else: no discovery, signature, unpacking
  //    - warm: a node process that only reads and SHA-256s every file of the three cached
  //      packages (what their h1: hashes need), nothing else
  const floor = (what, script, arg) => figure(() => timed(what, process.execPath, ["-e", script, ...(arg === undefined ? [] : [arg])], work));
  const startM = await floor("node start", "");
  const downloadM = await floor(
    "download floor",
    `const https = require("node:https"), { createHash } = require("node:crypto"); const urls = JSON.parse(process.argv[1]); let left = urls.length;
     for (const u of urls) https.get(u, (r) => { const h = createHash("sha256"); r.on("data", (c) => h.update(c)); r.on("end", () => { h.digest(); if (--left === 0) process.exit(0); }); });`,
    JSON.stringify(archives),
  );
  const hashM = await floor(
    "hash floor",
    `const fs = require("node:fs"), path = require("node:path"), { createHash } = require("node:crypto");
     const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const f = path.join(d, e.name); if (e.isDirectory()) walk(f); else createHash("sha256").update(fs.readFileSync(f)).digest(); } };
     walk(process.argv[1]);`,
    join(work, "cache-terraform"),
  );
  const floors = [
    { name: "floor: node's start-up (node -e '')", value: Math.round(startM), unit: "ms", baseline: Math.round(warmT), ratio: startM / warmT },
    { name: "floor, cold: node downloading the 3 archives over TLS and hashing them (SHA-256), nothing else", value: Math.round(downloadM), unit: "ms", baseline: Math.round(coldT), ratio: downloadM / coldT },
    { name: "floor, warm: node reading and hashing the 3 cached packages (SHA-256), nothing else", value: Math.round(hashM), unit: "ms", baseline: Math.round(warmT), ratio: hashM / warmT },
  ];
  results.push(...floors);
} finally {
  await reg.close();
  rmSync(work, { recursive: true, force: true });
}
for (const r of results) console.log(`${r.name}: ${r.name.startsWith("floor") ? "node" : "magma"} ${r.value} ms, terraform ${r.baseline} ms, ratio ${r.ratio.toFixed(3)}${r.target === undefined ? "" : ` (target <= ${r.target})`}`);
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");
process.exit(results.every((r) => r.target === undefined || r.ratio <= r.target) ? 0 : 1);

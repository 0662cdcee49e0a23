#!/usr/bin/env node
// node packages/difftest/dist/bin/real-world.js [options] PATH...
// Each PATH is a checked-out module repository (all its example roots: directories under
// examples/ holding .tf files) or one example root inside one. Every root goes through
// `init` + `plan -refresh=false -out` + `show -json` with terraform and with magma at once,
// each in its own copy of the repository, and the two are compared (see real-world-root.ts).
// The checkouts stay outside the magma repository.
//
// Options: --modules DIR (checkouts of module repositories by name, e.g. DIR/terraform-aws-vpc,
// for the registry module calls of the examples), --timeout S (per command, default 300),
// --json FILE (every result), --commits FILE (lines "repository commit", for the table),
// --keep (keep the copies and scratch directory, with each command's output beside the root).
// Stopped by SIGINT, SIGTERM or SIGHUP, it kills the process groups of the commands running
// (terraform, magma and their providers) and removes its scratch directory.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { startFakeAws } from "@magma/fake-aws";
import { writeProviderLauncher } from "@magma/provider-server";
import { PLUGIN_MIRROR, bundleLauncherEntry, findTerraform } from "@magma/test-support";
import { snapshotMagma } from "../magma-snapshot.js";
import { killGroupsOnExit, liveProcessGroups } from "../process-groups.js";
import { exampleRoots, runRealWorldRoot, type RealWorldResult } from "../real-world-root.js";
import { renderRealWorldTable } from "../real-world-summary.js";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const modules = option("--modules");
const timeoutS = Number(option("--timeout") ?? "300");
const jsonOut = option("--json");
const commitsFile = option("--commits");
const keepAt = args.indexOf("--keep");
const keep = keepAt >= 0;
if (keep) args.splice(keepAt, 1);
if (args.length === 0 || !Number.isFinite(timeoutS) || timeoutS <= 0) {
  console.error("real-world: give one or more repositories or example directories ([--modules DIR] [--timeout S] [--json FILE] [--commits FILE])");
  process.exit(2);
}
const tf = findTerraform();
if (tf === undefined) {
  console.error("real-world: terraform not found");
  process.exit(2);
}

const targets: { top: string; root: string }[] = [];
for (const p of args.map((a) => resolve(a))) {
  const at = p.lastIndexOf("/examples/");
  if (at >= 0) targets.push({ top: p.slice(0, at), root: p });
  else for (const root of exampleRoots(p)) targets.push({ top: p, root });
}
const commits = new Map<string, string>();
if (commitsFile !== undefined) {
  for (const line of readFileSync(commitsFile, "utf8").split("\n")) {
    const [name, commit] = line.trim().split(/\s+/);
    if (name !== undefined && commit !== undefined) commits.set(name, commit);
  }
}

const fake = await startFakeAws();
const work = mkdtempSync(join(tmpdir(), "magma-real-world-"));
// Stopped (Ctrl-C, kill) or ending: the tools' process groups (terraform, magma, their providers) go too.
killGroupsOnExit(liveProcessGroups, { onSignal: () => (keep ? undefined : rmSync(work, { recursive: true, force: true })) });
// One filesystem mirror: hashicorp/aws from the plugin mirror, and hashicorp/random served by
// @magma/provider-random (hashicorp/random's schemas and semantics) through provider-server.
const mirror = join(work, "mirror");
// Terraform does not follow a symlinked directory in a mirror, so the files are linked one by one.
const awsFrom = join(PLUGIN_MIRROR, "registry.terraform.io", "hashicorp", "aws");
for (const version of readdirSync(awsFrom)) {
  for (const platform of readdirSync(join(awsFrom, version))) {
    const to = join(mirror, "registry.terraform.io", "hashicorp", "aws", version, platform);
    mkdirSync(to, { recursive: true });
    for (const f of readdirSync(join(awsFrom, version, platform))) symlinkSync(join(awsFrom, version, platform, f), join(to, f));
  }
}
const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");
bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, namespace: "hashicorp", type: "random", version: "3.7.2", module: randomModule, exportName: "createRandomProvider" }));
const cli = join(work, "cli.tfrc");
writeFileSync(cli, `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`);
mkdirSync(join(work, "cache"), { recursive: true });
// Every AWS service of every provider configuration (aliases too) goes to fake-aws.
const env = {
  TF_CLI_CONFIG_FILE: cli,
  CHECKPOINT_DISABLE: "1",
  TF_IN_AUTOMATION: "1",
  TF_INPUT: "0",
  XDG_CACHE_HOME: join(work, "cache"),
  NO_COLOR: "1",
  AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE0000",
  AWS_SECRET_ACCESS_KEY: "fake",
  AWS_REGION: "us-east-1",
  AWS_ENDPOINT_URL: fake.url,
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_MAX_ATTEMPTS: "1",
};
// One copy of the built magma for the whole run: a rebuild meanwhile does not change what is compared.
const magma = snapshotMagma(join(work, "magma")).command;
const setup = {
  tools: { terraform: { executable: tf, preArgs: [] }, magma },
  env,
  work,
  ...(modules !== undefined ? { modules: resolve(modules) } : {}),
  timeoutMs: timeoutS * 1000,
  keep,
};
const results: RealWorldResult[] = [];
try {
  for (const { top, root } of targets) {
    const r = await runRealWorldRoot(top, root, setup);
    results.push(r);
    const label = `${r.repository}/${r.root}`;
    const why = r.failure !== undefined ? ` at ${r.failure.step}: ${r.failure.diagnostic}` : "";
    console.log(`real-world: ${label}: ${r.outcome}${why} (${r.seconds}s)`);
    for (const d of r.differences.slice(0, 8)) console.log(`  ${d.path}\n    terraform: ${d.terraform}\n    magma:     ${d.magma}`);
    if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
  }
} finally {
  await fake.close();
  if (!keep) rmSync(work, { recursive: true, force: true });
}
console.log("");
console.log(renderRealWorldTable(results, (repo) => commits.get(repo) ?? (existsSync(repo) ? basename(repo) : undefined)));
process.exitCode = results.some((r) => r.outcome === "differ" || r.outcome === "timeout") ? 1 : 0;

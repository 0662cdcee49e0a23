#!/usr/bin/env node
// node packages/difftest/dist/bin/real-world.js EXAMPLE_DIR...
// Runs each example root (a directory inside a checked-out module repository, e.g. under
// /work/ext) through `init` + `plan -out` + `show -json` with terraform and with magma, each in
// its own copy of the repository, hashicorp/aws from the plugin mirror pointed at a local
// fake-aws (an override file `zz_difftest_override.tf` replaces the example's provider
// configuration), and compares the plans as the differential test does. Prints one line per
// root and the totals. The checkouts stay outside the magma repository.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { startFakeAws } from "@magma/fake-aws";
import { PLUGIN_MIRROR, findTerraform } from "@magma/test-support";
import { diffValues, normalisePlanJson, observeCommand, type Difference } from "../compare-observations.js";
import { magmaBin } from "../difftest-setup.js";
import { runToolCommand, type ToolCommand } from "../tool-run.js";

const roots = process.argv.slice(2).map((p) => resolve(p));
if (roots.length === 0) {
  console.error("real-world: give one or more example directories");
  process.exit(2);
}
const tf = findTerraform();
if (tf === undefined) {
  console.error("real-world: terraform not found");
  process.exit(2);
}
const tools: Record<"terraform" | "magma", ToolCommand> = { terraform: { executable: tf, preArgs: [] }, magma: { executable: process.execPath, preArgs: [magmaBin()] } };
const fake = await startFakeAws();
const work = mkdtempSync(join(tmpdir(), "magma-real-world-"));
const cli = join(work, "cli.tfrc");
writeFileSync(cli, `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(PLUGIN_MIRROR)}\n  }\n}\n`);
const override = `provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
  max_retries                 = 1
  endpoints {
${["ssm", "logs", "ec2", "sts", "iam"].map((k) => `    ${k} = "${fake.url}"`).join("\n")}
  }
}
`;
const env = { TF_CLI_CONFIG_FILE: cli, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0", XDG_CACHE_HOME: join(work, "cache"), NO_COLOR: "1" };
let identical = 0;
let bothFailed = 0;
const differing: string[] = [];
try {
  for (const root of roots) {
    const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: root, encoding: "utf8" }).trim();
    const rel = relative(top, root);
    const seen: Record<string, unknown> = {};
    for (const tool of ["terraform", "magma"] as const) {
      const copy = join(work, `${basename(top)}-${tool}`);
      rmSync(copy, { recursive: true, force: true });
      cpSync(top, copy, { recursive: true, filter: (p) => !p.includes(`${join(top, ".git")}`) });
      const dir = join(copy, rel);
      writeFileSync(join(dir, "zz_difftest_override.tf"), override);
      const run = (args: string[]) => runToolCommand(tools[tool], args, dir, env, 600_000);
      const init = await run(["init", "-no-color", "-input=false"]);
      const obs: Record<string, unknown> = { init: observeCommand(init.code, init.stdout, init.stderr).code };
      if (init.code === 0) {
        const p = await run(["plan", "-no-color", "-input=false", "-out=tfplan"]);
        obs["plan"] = observeCommand(p.code, p.stdout, p.stderr);
        if (p.code === 0) {
          const shown = await run(["show", "-json", "tfplan"]);
          try {
            obs["planJson"] = normalisePlanJson(JSON.parse(shown.stdout) as Record<string, unknown>);
          } catch {
            obs["planJson"] = `not JSON: ${shown.stdout.slice(0, 200)}`;
          }
        }
      } else {
        obs["initDiagnostics"] = observeCommand(init.code, init.stdout, init.stderr).diagnostics;
      }
      seen[tool] = obs;
      rmSync(copy, { recursive: true, force: true });
    }
    const ds: Difference[] = diffValues(0, "", seen["terraform"], seen["magma"]);
    const t = seen["terraform"] as { init: number; plan?: { code: number } };
    const label = `${basename(top)}/${rel}`;
    if (ds.length === 0 && (t.init !== 0 || t.plan?.code !== 0)) {
      bothFailed++;
      console.log(`real-world: ${label}: both failed alike (${JSON.stringify(seen["terraform"]).slice(0, 300)})`);
    } else if (ds.length === 0) {
      identical++;
      console.log(`real-world: ${label}: identical plans`);
    } else {
      differing.push(label);
      console.log(`real-world: ${label}: ${ds.length} differences`);
      for (const d of ds.slice(0, 8)) console.log(`  ${d.path}\n    terraform: ${d.terraform}\n    magma:     ${d.magma}`);
    }
  }
} finally {
  await fake.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(`real-world: ${roots.length} roots, ${identical} identical plans, ${bothFailed} failed alike in both, ${differing.length} differing`);
process.exitCode = differing.length === 0 ? 0 : 1;

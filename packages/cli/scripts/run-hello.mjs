#!/usr/bin/env node
// `pnpm hello` from a checkout: the Terraform workflow on examples/hello with the built
// `magma` — init, plan, apply, plan again, a changed plan, the hand-over to terraform, destroy
// — in a temporary copy of the directory (the local state file lives there), narrated. Each
// step's exit code is checked, so the run fails loudly.
//
// The AWS part (aws.tf and the ssm module: SSM parameters through the real hashicorp/aws
// 5.100.0) runs against @magma/fake-aws, started here on a free port and stopped at the end;
// the endpoint reaches the configuration as TF_VAR_aws_endpoint. Where the provider binary is
// not found (MAGMA_TF_PLUGIN_MIRROR, default /opt/tf-plugins, MAGMA_PLUGIN_DIRS, Terraform's
// usual directories), the AWS part is left out, saying so, and the native random part runs.
// The hand-over runs `terraform init` and `terraform plan -detailed-exitcode` on the
// directory magma applied (expecting "No changes", exit 0) when terraform is found
// (MAGMA_TERRAFORM, else PATH), with magma's random provider served to terraform by
// @magma/provider-server.
import { spawn } from "node:child_process";
import { accessSync, constants, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "bin", "magma.js");
const example = join(here, "..", "..", "..", "examples", "hello");
const AWS_VERSION = "5.100.0";
const bold = (s) => (process.stdout.isTTY ? `\u001b[1m${s}\u001b[0m` : s);
const say = (text) => process.stdout.write(`\n${bold(`# ${text}`)}\n`);

/** Runs a command with the terminal's stdio; resolves to its exit code. Asynchronous, so the fake endpoint in this process keeps answering. */
function run(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: "inherit" });
    child.once("error", reject);
    child.once("close", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findTerraform() {
  const set = process.env.MAGMA_TERRAFORM;
  if (set !== undefined && set !== "") return executable(set) ? set : undefined;
  for (const d of (process.env.PATH ?? "").split(delimiter)) if (d !== "" && executable(join(d, "terraform"))) return join(d, "terraform");
  return undefined;
}

// Where hashicorp/aws may be: the dev image's filesystem mirror, MAGMA_PLUGIN_DIRS, then
// Terraform's usual directories (searched by @magma/plugin's resolution, as magma does).
const mirror = process.env.MAGMA_TF_PLUGIN_MIRROR || "/opt/tf-plugins";
const pluginDirs = [...(existsSync(mirror) ? [mirror] : []), ...(process.env.MAGMA_PLUGIN_DIRS ?? "").split(delimiter).filter((d) => d !== "")];
const { resolveProviderBinary } = await import("@magma/plugin");
let aws;
let awsMissing = "";
try {
  aws = await resolveProviderBinary("hashicorp/aws", { pluginDirs, version: AWS_VERSION });
} catch (e) {
  awsMissing = String(e?.message ?? e).split("\n")[0];
}

const dir = mkdtempSync(join(tmpdir(), "magma-hello-"));
const env = { ...process.env, MAGMA_PLUGIN_DIRS: pluginDirs.join(delimiter) };
let fake;
let failed = false;
try {
  if (aws !== undefined) {
    cpSync(example, dir, { recursive: true });
    const { startFakeAws } = await import("@magma/fake-aws");
    fake = await startFakeAws();
    env.TF_VAR_aws_endpoint = fake.url;
    say(`examples/hello copied to ${dir}; hashicorp/aws ${aws.version} found at ${aws.binary}.`);
    process.stdout.write(`# A fake AWS endpoint (@magma/fake-aws) is listening at ${fake.url}; the configuration gets it as\n# TF_VAR_aws_endpoint=${fake.url} (no real AWS is ever called).\n`);
  } else {
    cpSync(example, dir, { recursive: true, filter: (src) => src !== join(example, "aws.tf") && src !== join(example, "ssm") });
    say(`examples/hello copied to ${dir} WITHOUT its AWS part (aws.tf, ssm/).`);
    process.stdout.write(
      `# The hashicorp/aws ${AWS_VERSION} provider binary was not found (${awsMissing}).\n` +
        `# Put it in a filesystem mirror and set MAGMA_TF_PLUGIN_MIRROR (or MAGMA_PLUGIN_DIRS) to run the SSM parameters\n` +
        `# against the fake AWS endpoint too. Running the native random part alone.\n`,
    );
  }
  const n = aws !== undefined ? 7 : 4;
  const steps = [
    [`Prepare the working directory: find the providers (random is native${aws !== undefined ? ", hashicorp/aws from the mirror" : ""})${aws !== undefined ? ", install the local ssm module" : ""} and write the lock file.`, ["init"], 0],
    [`Plan: ${n} objects to create (-detailed-exitcode: 2 = changes).`, ["plan", "-detailed-exitcode"], 2],
    ["Apply: live progress, the state file written after every object, the outputs.", ["apply", "-auto-approve"], 0],
    ["Plan again: nothing to do (-detailed-exitcode: 0 = no changes).", ["plan", "-detailed-exitcode"], 0],
    [`A changed plan: one more name${aws !== undefined ? " and its SSM parameter" : ""} (-var pets=3).`, ["plan", "-var", "pets=3", "-detailed-exitcode"], 2],
    ["handover"],
    ["Destroy everything, in reverse dependency order.", ["destroy", "-auto-approve"], 0],
  ];
  for (const [what, args, expected] of steps) {
    if (what === "handover") {
      failed = !(await handOver(dir, env, aws !== undefined));
      if (failed) break;
      continue;
    }
    say(what);
    process.stdout.write(`$ magma ${args.join(" ")}\n`);
    const status = await run(process.execPath, [bin, ...args], { cwd: dir, env });
    if (status !== expected) {
      process.stderr.write(`\nmagma ${args.join(" ")} exited ${status}, expected ${expected}\n`);
      failed = true;
      break;
    }
  }
  if (!failed && fake !== undefined) {
    const left = fake.state().ssmParameters.length;
    process.stdout.write(`\n# The fake AWS endpoint holds ${left} SSM parameters after the destroy.\n`);
    if (left !== 0) failed = true;
  }
} finally {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
}

/** terraform takes over the directory magma applied: init, then a plan that must find nothing to do. */
async function handOver(workdir, env, withAws) {
  const terraform = findTerraform();
  say("Hand the directory to terraform: it must plan no changes on magma's state.");
  if (terraform === undefined) {
    process.stdout.write("# terraform is not on PATH (or at MAGMA_TERRAFORM): skipping the hand-over.\n");
    return true;
  }
  // Terraform gets magma's random provider from a filesystem mirror, served by
  // @magma/provider-server; hashicorp/aws from the same directories magma used.
  const require = createRequire(import.meta.url);
  const { writeProviderLauncher } = require("@magma/provider-server");
  const launchers = join(workdir, ".hello-providers");
  writeProviderLauncher({
    mirrorDir: launchers,
    hostname: "registry.terraform.io",
    namespace: "magma",
    type: "random",
    version: "1.0.0",
    module: require.resolve("@magma/provider-random"),
    exportName: "createRandomProvider",
  });
  const mirrors = [`  filesystem_mirror {\n    path    = ${JSON.stringify(launchers)}\n    include = ["registry.terraform.io/magma/*"]\n  }`];
  if (withAws) mirrors.push(`  filesystem_mirror {\n    path    = ${JSON.stringify(aws.foundIn)}\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }`);
  const cliConfig = join(workdir, ".hello-terraformrc");
  writeFileSync(cliConfig, `provider_installation {\n${mirrors.join("\n")}\n}\n`);
  const tfEnv = { ...env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", TF_INPUT: "0" };
  const color = process.stdout.isTTY ? [] : ["-no-color"];
  for (const [args, expected] of [
    [["init", "-input=false", ...color], 0],
    [["plan", "-detailed-exitcode", "-input=false", ...color], 0],
  ]) {
    process.stdout.write(`$ terraform ${args.join(" ")}\n`);
    const status = await run(terraform, args, { cwd: workdir, env: tfEnv });
    if (status !== expected) {
      process.stderr.write(`\nterraform ${args.join(" ")} exited ${status}, expected ${expected}\n`);
      return false;
    }
  }
  return true;
}

if (!failed) process.stdout.write("\nDone: terraform's workflow with magma in place of terraform. `pnpm demo` tours single provider operations.\n");
process.exit(failed ? 1 : 0);

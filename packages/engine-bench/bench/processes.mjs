// Timed child processes: terraform in a working directory with its own CLI configuration, and
// magma's worker script. Wall time is measured here, from spawn to exit.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const WORKER = join(here, "magma-worker.mjs");
export const MAGMA_CLI = join(here, "../../cli/dist/bin/magma.js");
/** The filesystem mirror holding hashicorp/aws (terraform's CLI config, magma's --plugin-dir). */
export const PLUGIN_MIRROR = "/opt/tf-plugins";
export const AWS_BINARY =
  "/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";

export const terraformOnPath = () =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .some((d) => d !== "" && existsSync(join(d, "terraform")));

/** VmHWM (peak resident set) or VmRSS (current) of a process in KiB, from /proc; undefined once it is gone. */
function vm(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    );
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** The pids of a process's descendants, from /proc/<pid>/task/<tid>/children. */
function descendants(pid) {
  const out = [];
  const visit = (p) => {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const t of tasks) {
      let kids = "";
      try {
        kids = readFileSync(`/proc/${p}/task/${t}/children`, "utf8");
      } catch {
        continue;
      }
      for (const k of kids.trim().split(/\s+/).filter(Boolean)) {
        out.push(Number(k));
        visit(Number(k));
      }
    }
  };
  visit(pid);
  return out;
}

/**
 * Runs a command; resolves {ms, code, stdout, stderr, maxRssKiB, treeRssKiB}. With `rss`:
 * `maxRssKiB` is the process's own peak (VmHWM, sampled every 100 ms from /proc until it
 * exits) and `treeRssKiB` the highest sum of the resident sets of it and its descendants
 * (e.g. terraform's provider plugins) seen in those samples.
 */
export function timed(
  command,
  args,
  { cwd, env = process.env, rss = false, timeoutMs = 900_000 } = {},
) {
  const [cmd, argv] = [command, args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    let own = 0;
    let tree = 0;
    const sample = () => {
      own = Math.max(own, vm(child.pid, "VmHWM") ?? 0);
      let sum = 0;
      for (const pid of [child.pid, ...descendants(child.pid)]) sum += vm(pid, "VmRSS") ?? 0;
      tree = Math.max(tree, sum, own);
    };
    const sampler = rss ? setInterval(sample, 100) : undefined;
    if (rss) child.on("spawn", sample);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      const ms = performance.now() - t0;
      clearTimeout(timer);
      if (sampler !== undefined) clearInterval(sampler);
      const maxRssKiB = rss && own > 0 ? own : undefined;
      const treeRssKiB = rss && tree > 0 ? tree : undefined;
      resolve({ ms, code, stdout, stderr, maxRssKiB, treeRssKiB });
    });
  });
}

/** Throws with the command's output unless it exited with one of `codes`. */
export function expectCode(run, what, codes = [0]) {
  if (!codes.includes(run.code))
    throw new Error(`${what} exited ${run.code}:\n${(run.stdout + run.stderr).slice(-3000)}`);
  return run;
}

/** The environment terraform runs with: a CLI configuration of its own with the given filesystem mirrors. */
export function terraformEnv(dir, mirrors = ["/opt/tf-plugins"]) {
  const cli = join(dir, ".bench-cli.tfrc");
  writeFileSync(
    cli,
    `provider_installation {\n${mirrors.map((m) => `  filesystem_mirror {\n    path = ${JSON.stringify(m)}\n  }\n`).join("")}}\n`,
  );
  const env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cli,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    TF_INPUT: "0",
  };
  delete env.TF_LOG;
  delete env.TF_LOG_PATH;
  delete env.TF_REATTACH_PROVIDERS;
  return env;
}

/** Runs `terraform <args>` in `dir` (timed; with peak RSS when asked). */
export function terraform(dir, env, args, options = {}) {
  return timed("terraform", [...args, "-no-color"], { cwd: dir, env, ...options });
}

/** Runs magma's worker (`magma-worker.mjs <op> <dir> [runs]`) in a fresh node process; adds its JSON report as `report`. */
export async function worker(op, dir, { runs, env = process.env, nodeArgs = [] } = {}) {
  const run = await timed(
    process.execPath,
    [...nodeArgs, WORKER, op, dir, ...(runs !== undefined ? [String(runs)] : [])],
    { env },
  );
  expectCode(run, `magma worker ${op} ${dir}`);
  const line = run.stdout.trim().split("\n").pop();
  return { ...run, report: JSON.parse(line) };
}

/**
 * Whether the `magma` CLI can apply a configuration (`magma apply -auto-approve`): its help
 * must exist and mention -auto-approve. Returns undefined when it can, else why not.
 */
export async function magmaCliApply() {
  if (!existsSync(MAGMA_CLI)) return `skipped: ${MAGMA_CLI} is not built`;
  const help = await timed(process.execPath, [MAGMA_CLI, "apply", "--help"], {});
  if (!/auto-approve/.test(help.stdout + help.stderr))
    return "skipped: magma apply not available (packages/cli/dist/bin/magma.js has no configuration apply with -auto-approve)";
  return undefined;
}

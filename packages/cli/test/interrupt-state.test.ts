// The state a failed or interrupted apply leaves, against terraform 1.11.4 on the same
// configuration: terraform writes the state at the end of every apply and once more when a
// second Ctrl-C ends one, so a working directory without a state gets an empty one (serial 1)
// even when no object was applied, and one with applied objects keeps them. The providers are
// test/testdata's failing and slow provider-random variants, served by @magma/provider-server
// from a filesystem mirror (terraform and magma run the same providers). Skipped without
// terraform.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { MAGMA_BIN } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "testdata");
const spawned = new Set<ChildProcess>();
const temp: string[] = [];

afterAll(() => {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of temp) rmSync(d, { recursive: true, force: true });
  removeWorkdirs();
});

/**
 * Runs terraform or magma in `cwd`; with `interruptAfter`, sends SIGINT a moment after stdout
 * first matches it (so that the create the line announces is under way) and, with `twice`, a
 * second one 300 ms later. Resolves to the exit code.
 */
function run(tool: "terraform" | "magma", args: readonly string[], cwd: string, env: Record<string, string>, interruptAfter?: RegExp, twice = false): Promise<number | null> {
  const cache = mkdtempSync(join(tmpdir(), "magma-interrupt-state-cache-"));
  temp.push(cache);
  const [cmd, argv] = tool === "terraform" ? [TERRAFORM!, [...args]] : [process.execPath, [MAGMA_BIN, ...args]];
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, XDG_CACHE_HOME: cache, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "", FORCE_COLOR: "", NO_COLOR: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  spawned.add(child);
  let stdout = "";
  let signalled = false;
  child.stdout.on("data", (b: Buffer) => {
    stdout += b.toString("utf8");
    if (interruptAfter !== undefined && !signalled && interruptAfter.test(stdout)) {
      signalled = true;
      setTimeout(() => {
        child.kill("SIGINT");
        if (twice) setTimeout(() => child.kill("SIGINT"), 300);
      }, 1500);
    }
  });
  child.stderr.resume();
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      spawned.delete(child);
      resolve(code);
    });
  });
}

/** A terraform CLI configuration whose filesystem mirror serves test/testdata's failing and slow providers as `registry.terraform.io/magma/failing` and `…/slow`. */
function testProvidersCliConfig(): string {
  const mirror = workdir();
  for (const [type, file] of [
    ["failing", "failing-provider.mjs"],
    ["slow", "slow-provider.mjs"],
  ] as const) {
    writeProviderLauncher({ mirrorDir: mirror, hostname: "registry.terraform.io", namespace: "magma", type, version: "1.0.0", module: join(testdata, file), exportName: "createProvider" });
  }
  return join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n` }), "cli.tfrc");
}

const PROVIDERS = `terraform {
  required_providers {
    failing = { source = "magma/failing" }
    slow    = { source = "magma/slow" }
  }
}
`;

/** One object that takes long to create. */
const SLOW_ONLY = `${PROVIDERS}resource "random_id" "slow" {
  provider    = slow
  byte_length = 4
}
`;

/** One object created at once, then one that takes long to create (it depends on the first). */
const FAST_THEN_SLOW = `${PROVIDERS}resource "random_id" "fast" {
  provider    = failing
  byte_length = 4
}
resource "random_id" "slow" {
  provider    = slow
  byte_length = 4
  keepers     = { after = random_id.fast.hex }
}
`;

/** One object whose create fails. */
const CREATE_FAILS = `${PROVIDERS}resource "random_id" "bad" {
  provider    = failing
  byte_length = 4
  keepers     = { fail = "yes" }
}
`;

/** What a working directory's state file holds, less what differs from run to run (lineage, values): missing, empty, or its header and objects. */
function stateSummary(dir: string): unknown {
  const file = join(dir, "terraform.tfstate");
  if (!existsSync(file)) return "missing";
  const text = readFileSync(file, "utf8");
  if (text === "") return "empty file";
  const s = JSON.parse(text) as { version: number; terraform_version: string; serial: number; outputs: object; resources: { mode: string; type: string; name: string; instances: unknown[] }[]; check_results: unknown };
  return { version: s.version, terraform_version: s.terraform_version, serial: s.serial, outputs: s.outputs, resources: s.resources.map((r) => `${r.mode} ${r.type}.${r.name} (${r.instances.length})`), check_results: s.check_results };
}

(TERRAFORM !== undefined ? describe : describe.skip)("the state a failed or interrupted apply leaves, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig();
  });

  /** Two directories initialised by terraform on `config`: [magma's, terraform's]. */
  const pair = async (config: string): Promise<[string, string]> => {
    const dirs = [workdir({ "main.tf": config }), workdir({ "main.tf": config })] as [string, string];
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    return dirs;
  };
  const args = ["apply", "-auto-approve", "-input=false", "-no-color"];

  test("two SIGINTs before any object was applied: an empty state (serial 1), not an empty file", async () => {
    const [m, t] = await pair(SLOW_ONLY);
    // The create takes 60 s: the second interrupt always comes while it is under way.
    const env = { SLOW_PROVIDER_MS: "60000" };
    const [ours, theirs] = await Promise.all([run("magma", args, m, env, /random_id\.slow: Creating\.\.\./, true), run("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, /random_id\.slow: Creating\.\.\./, true)]);
    expect({ ours, theirs }).toEqual({ ours: 1, theirs: 1 });
    expect(stateSummary(m)).toEqual(stateSummary(t));
    expect(stateSummary(m)).toEqual({ version: 4, terraform_version: "1.11.4", serial: 1, outputs: {}, resources: [], check_results: null });
  }, 600_000);

  test("two SIGINTs after one object was applied: the state holds it", async () => {
    const [m, t] = await pair(FAST_THEN_SLOW);
    const env = { SLOW_PROVIDER_MS: "60000" };
    const [ours, theirs] = await Promise.all([run("magma", args, m, env, /random_id\.slow: Creating\.\.\./, true), run("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, /random_id\.slow: Creating\.\.\./, true)]);
    expect({ ours, theirs }).toEqual({ ours: 1, theirs: 1 });
    expect(stateSummary(m)).toEqual(stateSummary(t));
    expect(stateSummary(m)).toMatchObject({ resources: ["managed random_id.fast (1)"] });
  }, 600_000);

  test("one SIGINT before any object was applied, and a failed create of the only object: an empty state (serial 1)", async () => {
    const [[m1, t1], [m2, t2]] = await Promise.all([pair(SLOW_ONLY), pair(CREATE_FAILS)]);
    const env = { SLOW_PROVIDER_MS: "15000" };
    const codes = await Promise.all([
      run("magma", args, m1, env, /random_id\.slow: Creating\.\.\./),
      run("terraform", args, t1, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, /random_id\.slow: Creating\.\.\./),
      run("magma", args, m2, {}),
      run("terraform", args, t2, { TF_CLI_CONFIG_FILE: cliConfig }),
    ]);
    expect(codes).toEqual([1, 1, 1, 1]);
    for (const [m, t] of [
      [m1, t1],
      [m2, t2],
    ] as const) {
      expect(stateSummary(m)).toEqual(stateSummary(t));
      expect(stateSummary(m)).toEqual({ version: 4, terraform_version: "1.11.4", serial: 1, outputs: {}, resources: [], check_results: null });
    }
  }, 600_000);
});

// The state a failed or interrupted apply leaves, against terraform 1.11.4 on the same
// configuration: terraform writes the state at the end of every apply and once more when a
// second Ctrl-C ends one, so a working directory without a state gets an empty one (serial 1)
// even when no object was applied, and one with applied objects keeps them. The providers are
// test/testdata's failing and slow provider-random variants, served by @magma/provider-server
// from a filesystem mirror (terraform and magma run the same providers). Skipped without
// terraform.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

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

/** Runs terraform or magma and resolves to its exit code. */
const code = async (...a: Parameters<typeof runTool>): Promise<number | null> => (await runTool(...a)).code;

(TERRAFORM !== undefined ? describe : describe.skip)("the state a failed or interrupted apply leaves, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", slow: "slow-provider.mjs" });
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
    const [ours, theirs] = await Promise.all([code("magma", args, m, env, { interruptAfter: /random_id\.slow: Creating\.\.\./, twice: true }), code("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.slow: Creating\.\.\./, twice: true })]);
    expect({ ours, theirs }).toEqual({ ours: 1, theirs: 1 });
    expect(stateSummary(m)).toEqual(stateSummary(t));
    expect(stateSummary(m)).toEqual({ version: 4, terraform_version: "1.11.4", serial: 1, outputs: {}, resources: [], check_results: null });
  }, 600_000);

  test("two SIGINTs after one object was applied: the state holds it", async () => {
    const [m, t] = await pair(FAST_THEN_SLOW);
    const env = { SLOW_PROVIDER_MS: "60000" };
    const [ours, theirs] = await Promise.all([code("magma", args, m, env, { interruptAfter: /random_id\.slow: Creating\.\.\./, twice: true }), code("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.slow: Creating\.\.\./, twice: true })]);
    expect({ ours, theirs }).toEqual({ ours: 1, theirs: 1 });
    expect(stateSummary(m)).toEqual(stateSummary(t));
    expect(stateSummary(m)).toMatchObject({ resources: ["managed random_id.fast (1)"] });
  }, 600_000);

  test("one SIGINT before any object was applied, and a failed create of the only object: an empty state (serial 1)", async () => {
    const [[m1, t1], [m2, t2]] = await Promise.all([pair(SLOW_ONLY), pair(CREATE_FAILS)]);
    const env = { SLOW_PROVIDER_MS: "15000" };
    const codes = await Promise.all([
      code("magma", args, m1, env, { interruptAfter: /random_id\.slow: Creating\.\.\./ }),
      code("terraform", args, t1, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.slow: Creating\.\.\./ }),
      code("magma", args, m2, {}),
      code("terraform", args, t2, { TF_CLI_CONFIG_FILE: cliConfig }),
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

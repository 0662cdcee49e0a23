// A working-directory apply that fails part-way (a provider error) and one stopped by SIGINT,
// against terraform 1.11.4 on the same configuration: the "Error:" diagnostics on stderr (with
// the object's address and its block's snippet), plain and coloured, byte for byte; the
// interrupt notice on stdout; the exit code. The providers are provider-random variants served
// by @magma/provider-server (test/testdata/failing-provider.mjs, slow-provider.mjs) from a
// filesystem mirror, so terraform and magma run the same provider. Skipped without terraform.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, testProvidersCliConfig } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** Random ids and durations differ from run to run. */
const stable = (s: string): string => s.replace(/\[id=[^\]]*\]/g, "[id=ID]").replace(/after \d+s/g, "after Ns");

const CONFIG = (provider: string): string => `
terraform {
  required_providers {
    ${provider} = { source = "magma/${provider}" }
  }
}
resource "random_id" "ok" {
  provider    = ${provider}
  byte_length = 4
}
resource "random_id" "bad" {
  provider    = ${provider}
  byte_length = 4
  keepers     = { fail = "yes", after = random_id.ok.hex }
}
`;

/** Two directories initialised by terraform (one for each tool) on `config` (native syntax, or converted to JSON by tfToJson). */
async function initialisedPair(config: string, cliConfig: string, syntax: "native" | "JSON" = "native"): Promise<[string, string]> {
  const files = syntax === "native" ? { "main.tf": config } : { "main.tf.json": tfToJson(config) };
  const pair = [workdir(files), workdir(files)] as [string, string];
  await Promise.all(pair.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
  return pair;
}

(TERRAFORM !== undefined ? describe : describe.skip)("a failed and an interrupted apply against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", slow: "slow-provider.mjs" });
  });

  const dirs = (config: string): Promise<[string, string]> => initialisedPair(config, cliConfig);
  /** `check` plain and coloured, each in its own pair of directories: side by side. */
  const plainAndColoured = (config: string, check: (colour: boolean, m: string, t: string) => Promise<void>): Promise<unknown> =>
    Promise.all([false, true].map(async (colour) => check(colour, ...(await dirs(config)))));

  test("a provider error mid-apply: terraform's Error diagnostic with the address and the block's snippet on stderr, exit 1", async () => {
    await plainAndColoured(CONFIG("failing"), async (colour, m, t) => {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Each tool in its own directory: side by side.
      const [theirs, ours] = await Promise.all([runTool("terraform", args, t, { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", args, m, colour ? { FORCE_COLOR: "1" } : {})]);
      expect({ colour, code: ours.code }).toEqual({ colour, code: theirs.code });
      expect(theirs.code).toBe(1);
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      expect({ colour, stdout: stable(ours.stdout) }).toEqual({ colour, stdout: stable(theirs.stdout) });
      if (!colour) {
        expect(ours.stderr).toBe(
          '\nError: creating random_id: operation error: AccessDenied\n\n  with random_id.bad,\n  on main.tf line 11, in resource "random_id" "bad":\n  11: resource "random_id" "bad" {\n\nThe caller is not allowed to create this object (a long detail that terraform\nwraps at its width, so that the wrapping of the detail text is part of what\nthe test compares).\n',
        );
      }
    });
  }, 600_000);

  test("a provider error mid-apply in JSON syntax: the error placed in the .tf.json file as terraform places it, exit 1", async () => {
    const [m, t] = await initialisedPair(CONFIG("failing"), cliConfig, "JSON");
    const args = ["apply", "-auto-approve", "-input=false", "-no-color"];
    const [theirs, ours] = await Promise.all([runTool("terraform", args, t, { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", args, m, {})]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    expect(theirs.stderr).toContain("main.tf.json");
    expect(ours.stderr).toBe(theirs.stderr);
    expect(stable(ours.stdout)).toBe(stable(theirs.stdout));
  }, 600_000);

  test("SIGINT during a create: the interrupt notice on stdout, terraform's halted and canceled errors on stderr, exit 1", async () => {
    // The create takes 15 s unless the provider is stopped (provider-server cancels the call in flight, when it gets the stop in time).
    const env = { SLOW_PROVIDER_MS: "15000" };
    await plainAndColoured(CONFIG("slow").replace('fail = "yes", ', ""), async (colour, m, t) => {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Each tool in its own directory: side by side (the interrupt waits for each one's own "Creating...").
      const [theirs, ours] = await Promise.all([
        runTool("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.ok: Creating\.\.\./ }),
        runTool("magma", args, m, { ...env, ...(colour ? { FORCE_COLOR: "1" } : {}) }, { interruptAfter: /random_id\.ok: Creating\.\.\./ }),
      ]);
      expect({ colour, code: ours.code }).toEqual({ colour, code: theirs.code });
      expect(theirs.code).toBe(1);
      // Terraform prints "Stopping operation..." and the interrupt notice from two goroutines, in either order.
      const notice = (s: string): string => stable(s).replace("Stopping operation...\n", "").replace("Gracefully shutting down...\n\n", "Gracefully shutting down...\n\nStopping operation...\n");
      expect({ colour, stdout: notice(ours.stdout) }).toEqual({ colour, stdout: notice(theirs.stdout) });
      expect(ours.stdout).toContain("random_id.ok: Creating...");
      expect(ours.stdout).toContain("\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n");
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      // The create under way when the stop came: its stop hook's two errors, then (when the provider canceled the call rather than finishing it) the call's error.
      if (!colour) expect(ours.stderr).toMatch(/^\nError: execution halted\n\n\nError: execution halted\n\n(\nError: Operation canceled\n\n {2}with random_id\.ok,\n[^]*)?$/);
    });
  }, 600_000);
});

/**
 * A -json stream made comparable: run-to-run values (timestamps, ids, elapsed times) replaced,
 * the progress messages dropped (their number depends on the machine's speed).
 */
function jsonMessages(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m["type"] !== "apply_progress")
    .map((m) => {
      const j = JSON.stringify({ ...m, "@timestamp": "T" })
        .replace(/\[id=[^\]]*\]/g, "[id=ID]")
        .replace(/"id_value":"[^"]*"/g, '"id_value":"ID"')
        .replace(/ after \d+s/g, " after Ns")
        .replace(/"elapsed_seconds":\d+/g, '"elapsed_seconds":0');
      return JSON.parse(j) as Record<string, unknown>;
    });
}

const sortedJson = (ms: readonly Record<string, unknown>[]): string[] => ms.map((m) => JSON.stringify(m)).sort();

(TERRAFORM !== undefined ? describe : describe.skip)("a failed and an interrupted apply -json against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", slow: "slow-provider.mjs" });
  });

  const dirs = (config: string): Promise<[string, string]> => initialisedPair(config, cliConfig);

  test("a provider error mid-apply: apply_errored at info level, the error once (address, range, snippet) after the walk, no change summary, exit 1", async () => {
    const [m, t] = await dirs(CONFIG("failing"));
    const args = ["apply", "-auto-approve", "-input=false", "-json"];
    // Each tool in its own directory: side by side.
    const [theirs, ours] = await Promise.all([runTool("terraform", args, t, { TF_CLI_CONFIG_FILE: cliConfig }), runTool("magma", args, m, {})]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    const [tm, mm] = [jsonMessages(theirs.stdout), jsonMessages(ours.stdout)];
    // The objects are applied in parallel: their hook messages may come in either order.
    expect(sortedJson(mm)).toEqual(sortedJson(tm));
    const diagnostics = (ms: Record<string, unknown>[]): unknown[] => ms.filter((x) => x["type"] === "diagnostic");
    expect(diagnostics(mm)).toEqual(diagnostics(tm));
    expect(diagnostics(tm)).toEqual([expect.objectContaining({ diagnostic: expect.objectContaining({ address: "random_id.bad", range: expect.anything(), snippet: expect.anything() }) })]);
    expect(mm.at(-1)).toEqual(tm.at(-1));
    expect(mm.some((x) => x["type"] === "change_summary" && (x["changes"] as { operation: string }).operation === "apply")).toBe(false);
  }, 600_000);

  test("SIGINT during a create: the interrupt notice as log messages, the canceled object's error, the stop hook's two errors, no change summary, exit 1", async () => {
    const [m, t] = await dirs(CONFIG("slow").replace('fail = "yes", ', ""));
    const env = { SLOW_PROVIDER_MS: "15000" };
    const args = ["apply", "-auto-approve", "-input=false", "-json"];
    // Each tool in its own directory: side by side (the interrupt waits for each one's own "Creating...").
    const [theirs, ours] = await Promise.all([
      runTool("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.ok: Creating\.\.\./ }),
      runTool("magma", args, m, env, { interruptAfter: /random_id\.ok: Creating\.\.\./ }),
    ]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    const [tm, mm] = [jsonMessages(theirs.stdout), jsonMessages(ours.stdout)];
    // terraform logs "Stopping operation..." and the notice from two goroutines, in either order.
    expect(sortedJson(mm)).toEqual(sortedJson(tm));
    const logs = (ms: Record<string, unknown>[]): unknown[] => ms.filter((x) => x["type"] === "log").map((x) => x["@message"]);
    expect(logs(mm).sort()).toEqual(["\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n", "Stopping operation..."].sort());
    const tail = (ms: Record<string, unknown>[]): unknown[] => ms.slice(ms.findIndex((x) => x["type"] === "diagnostic"));
    expect(tail(mm)).toEqual(tail(tm));
    expect(mm.filter((x) => x["type"] === "diagnostic").map((x) => (x["diagnostic"] as { summary: string }).summary)).toEqual(["Operation canceled", "execution halted", "execution halted"]);
  }, 600_000);
});

(TERRAFORM !== undefined ? describe : describe.skip)("two SIGINTs during an apply, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", slow: "slow-provider.mjs" });
  });

  const pair = (): Promise<[string, string]> => initialisedPair(CONFIG("slow").replace('fail = "yes", ', ""), cliConfig);
  // The create takes 60 s: the second interrupt always comes while it is under way.
  const env = { SLOW_PROVIDER_MS: "60000" };
  const lockFile = (d: string): boolean => existsSync(join(d, ".terraform.tfstate.lock.info"));

  test("the words wrapped on stderr and an operation canceled error, exit 1, the state lock released", async () => {
    const [m, t] = await pair();
    const args = ["apply", "-auto-approve", "-input=false", "-no-color"];
    // Each tool in its own directory: side by side (the interrupts wait for each one's own "Creating...").
    const [theirs, ours] = await Promise.all([
      runTool("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.ok: Creating\.\.\./, twice: true }),
      runTool("magma", args, m, env, { interruptAfter: /random_id\.ok: Creating\.\.\./, twice: true }),
    ]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    expect(ours.stderr).toBe(theirs.stderr);
    expect(ours.stderr).toBe("\nTwo interrupts received. Exiting immediately. Note that data loss may have\noccurred.\n\n\nError: operation canceled\n\n");
    // Terraform prints "Stopping operation..." and the interrupt notice from two goroutines, in either order.
    const notice = (s: string): string => stable(s).replace("Stopping operation...\n", "").replace("Gracefully shutting down...\n\n", "Gracefully shutting down...\n\nStopping operation...\n");
    expect(notice(ours.stdout)).toBe(notice(theirs.stdout));
    expect({ magma: lockFile(m), terraform: lockFile(t) }).toEqual({ magma: false, terraform: false });
  }, 600_000);

  test("-json: the words as a log message and the error as a diagnostic, exit 1", async () => {
    const [m, t] = await pair();
    const args = ["apply", "-auto-approve", "-input=false", "-json"];
    // Each tool in its own directory: side by side (the interrupts wait for each one's own "Creating...").
    const [theirs, ours] = await Promise.all([
      runTool("terraform", args, t, { ...env, TF_CLI_CONFIG_FILE: cliConfig }, { interruptAfter: /random_id\.ok: Creating\.\.\./, twice: true }),
      runTool("magma", args, m, env, { interruptAfter: /random_id\.ok: Creating\.\.\./, twice: true }),
    ]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    // terraform may still log the canceled object's apply_errored in the moment it waits for the operation.
    const comparable = (text: string): string[] => sortedJson(jsonMessages(text).filter((x) => x["type"] !== "apply_errored"));
    expect(comparable(ours.stdout)).toEqual(comparable(theirs.stdout));
    const last = jsonMessages(ours.stdout).slice(-2);
    expect(last.map((x) => x["@message"])).toEqual(["\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n", "Error: operation canceled"]);
    expect({ magma: lockFile(m), terraform: lockFile(t) }).toEqual({ magma: false, terraform: false });
  }, 600_000);
});

(TERRAFORM !== undefined ? describe : describe.skip)("a provider's plan error (PlanResourceChange) against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", slow: "slow-provider.mjs" });
  });

  test("plan and apply: the provider's error with `with ADDR,` and the block's snippet on stderr, plain and coloured, exit 1", async () => {
    const config = CONFIG("failing").replace('fail = "yes", after = random_id.ok.hex', 'fail = "plan"');
    const [m, t] = await initialisedPair(config, cliConfig);
    for (const command of [["plan"], ["apply", "-auto-approve"]]) {
      for (const colour of [false, true]) {
        const args = [...command, "-input=false", ...(colour ? [] : ["-no-color"])];
        // Each tool in its own directory: side by side (each one's commands in order).
        const [theirs, ours] = await Promise.all([runTool("terraform", args, t, { TF_CLI_CONFIG_FILE: cliConfig, ...(colour ? { FORCE_COLOR: "1" } : {}) }), runTool("magma", args, m, colour ? { FORCE_COLOR: "1" } : {})]);
        expect({ args, code: theirs.code }).toEqual({ args, code: 1 });
        expect({ args, code: ours.code }).toEqual({ args, code: 1 });
        expect({ args, stderr: ours.stderr }).toEqual({ args, stderr: theirs.stderr });
        if (!colour) {
          expect(ours.stderr).toBe(
            '\nError: planning random_id: the plan is refused\n\n  with random_id.bad,\n  on main.tf line 11, in resource "random_id" "bad":\n  11: resource "random_id" "bad" {\n\nThis provider refuses to plan an object whose keepers say fail = plan.\n',
          );
        }
      }
    }
  }, 600_000);
});

// Where an apply error about a path into the configuration is placed, against terraform
// 1.11.4: a map's key (the value), a list's element, an attribute of a single nested block, of
// the second of a list of blocks, of a block nested in a block, and of a map block by its label.
// The providers are test/testdata's failing-provider.mjs and blocks-provider.mjs (served by
// @magma/provider-server from a filesystem mirror, so terraform and magma run the same
// providers); the stderr is compared plain and coloured (where the highlight shows the range),
// and -json's ranges. Skipped without terraform.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs terraform or magma in `cwd` (colour by `-no-color` and, for magma, FORCE_COLOR). */
function run(tool: "terraform" | "magma", args: readonly string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const cache = mkdtempSync(join(tmpdir(), "magma-apply-error-location-cache-"));
  temp.push(cache);
  const [cmd, argv] = tool === "terraform" ? [TERRAFORM!, [...args]] : [process.execPath, [MAGMA_BIN, ...args]];
  const child = spawn(cmd, argv, { cwd, env: { ...process.env, XDG_CACHE_HOME: cache, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "", FORCE_COLOR: "", NO_COLOR: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  spawned.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      spawned.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A terraform CLI configuration whose filesystem mirror serves test/testdata's failing and blocks providers as `registry.terraform.io/magma/failing` and `…/blocks`. */
function testProvidersCliConfig(): string {
  const mirror = workdir();
  for (const [type, file] of [
    ["failing", "failing-provider.mjs"],
    ["blocks", "blocks-provider.mjs"],
  ] as const) {
    writeProviderLauncher({ mirrorDir: mirror, hostname: "registry.terraform.io", namespace: "magma", type, version: "1.0.0", module: join(testdata, file), exportName: "createProvider" });
  }
  return join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/magma/*"]\n  }\n}\n` }), "cli.tfrc");
}

/** Each object's create fails with an error about one path (see the fixtures). */
const CONFIG = `terraform {
  required_providers {
    failing = { source = "magma/failing" }
    blocks  = { source = "magma/blocks" }
  }
}
resource "random_id" "key" {
  provider    = failing
  byte_length = 4
  keepers = {
    a    = "x"
    fail = "element"
  }
}
resource "random_shuffle" "idx" {
  provider = failing
  input    = ["a", "fail", "c"]
}
resource "blocks_thing" "one" {
  name = "fail-one"
  one {
    a = "x"
  }
}
resource "blocks_thing" "step" {
  name = "fail-step"
  step {
    cmd = "first"
  }
  step {
    cmd = "second"
  }
}
resource "blocks_thing" "arg" {
  name = "fail-arg"
  step {
    cmd = "first"
    arg {
      value = "v0"
    }
    arg {
      value = "v1"
    }
  }
}
resource "blocks_thing" "rule" {
  name = "fail-rule"
  rule "http" {
    port = "80"
  }
  rule "https" {
    port = "443"
  }
}
resource "blocks_thing" "label" {
  name   = "fail-label"
  labels = { team = "core", env = "dev" }
}
`;

/** The -json diagnostics' addresses and ranges, as a set (the objects are applied in parallel). */
function ranges(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; diagnostic?: { address?: string; range?: unknown } })
    .filter((m) => m.type === "diagnostic")
    .map((m) => JSON.stringify({ address: m.diagnostic?.address, range: m.diagnostic?.range }))
    .sort();
}

(TERRAFORM !== undefined ? describe : describe.skip)("an apply error about a path into the configuration, against terraform's", () => {
  let cliConfig: string;
  let dirs: [string, string];
  beforeAll(async () => {
    cliConfig = testProvidersCliConfig();
    dirs = [workdir({ "main.tf": CONFIG }), workdir({ "main.tf": CONFIG })];
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
  }, 600_000);

  test("the place terraform follows the path to: the errors on stderr, plain and coloured, byte for byte", async () => {
    for (const colour of [false, true]) {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Nothing is created (every create fails): each tool's runs start from an empty state.
      const [ours, theirs] = await Promise.all([run("magma", args, dirs[0], colour ? { FORCE_COLOR: "1" } : {}), run("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);
      expect({ colour, code: theirs.code }).toEqual({ colour, code: 1 });
      expect({ colour, code: ours.code }).toEqual({ colour, code: 1 });
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      if (!colour) {
        expect(ours.stderr).toContain('\n  with random_id.key,\n  on main.tf line 12, in resource "random_id" "key":\n  12:     fail = "element"\n');
        expect(ours.stderr).toContain('\n  with random_shuffle.idx,\n  on main.tf line 17, in resource "random_shuffle" "idx":\n');
        expect(ours.stderr).toContain('\n  with blocks_thing.step,\n  on main.tf line 31, in resource "blocks_thing" "step":\n  31:     cmd = "second"\n');
        expect(ours.stderr).toContain('\n  with blocks_thing.arg,\n  on main.tf line 42, in resource "blocks_thing" "arg":\n  42:       value = "v1"\n');
        expect(ours.stderr).toContain('\n  with blocks_thing.rule,\n  on main.tf line 52, in resource "blocks_thing" "rule":\n  52:     port = "443"\n');
      }
    }
  }, 600_000);

  test("-json: the same ranges", async () => {
    const args = ["apply", "-auto-approve", "-input=false", "-json"];
    const [ours, theirs] = await Promise.all([run("magma", args, dirs[0], {}), run("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    expect(ranges(ours.stdout)).toEqual(ranges(theirs.stdout));
    expect(ranges(ours.stdout)).toHaveLength(7);
    // The list's element: "fail", the second of input = ["a", "fail", "c"] (line 17).
    expect(ranges(ours.stdout)).toContain(JSON.stringify({ address: "random_shuffle.idx", range: { filename: "main.tf", start: { line: 17, column: 20, byte: 327 }, end: { line: 17, column: 26, byte: 333 } } }));
  }, 600_000);
});

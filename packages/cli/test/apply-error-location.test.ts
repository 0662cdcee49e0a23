// Where an apply error about a path into the configuration is placed, against terraform
// 1.11.4: a map's key (the value), a list's element, an attribute of a single nested block, of
// the second of a list of blocks, of a block nested in a block, and of a map block by its label.
// The providers are test/testdata's failing-provider.mjs and blocks-provider.mjs (served by
// @magma/provider-server from a filesystem mirror, so terraform and magma run the same
// providers); the stderr is compared plain and coloured (where the highlight shows the range),
// and -json's ranges. The same configuration in JSON syntax too (@magma/test-support's
// tfToJson: the places are then a JSON file's). Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, testProvidersCliConfig } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

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

(TERRAFORM !== undefined ? describe.each(["native", "JSON"] as const) : describe.skip.each(["native", "JSON"] as const))("an apply error about a path into the configuration, against terraform's (%s syntax)", (syntax) => {
  const native = syntax === "native";
  /** Plain and coloured in native syntax; plain only in JSON (the colours do not depend on the syntax). */
  const COLOURS = native ? [false, true] : [false];
  let cliConfig: string;
  let dirs: [string, string];
  beforeAll(async () => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs", blocks: "blocks-provider.mjs" });
    const files = native ? { "main.tf": CONFIG } : { "main.tf.json": tfToJson(CONFIG) };
    dirs = [workdir(files), workdir(files)];
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
  }, 600_000);

  test("the place terraform follows the path to: the errors on stderr, plain and coloured, byte for byte", async () => {
    for (const colour of COLOURS) {
      const args = ["apply", "-auto-approve", "-input=false", ...(colour ? [] : ["-no-color"])];
      // Nothing is created (every create fails): each tool's runs start from an empty state.
      const [ours, theirs] = await Promise.all([runTool("magma", args, dirs[0], colour ? { FORCE_COLOR: "1" } : {}), runTool("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);
      expect({ colour, code: theirs.code }).toEqual({ colour, code: 1 });
      expect({ colour, code: ours.code }).toEqual({ colour, code: 1 });
      expect({ colour, stderr: ours.stderr }).toEqual({ colour, stderr: theirs.stderr });
      if (!colour && native) {
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
    const [ours, theirs] = await Promise.all([runTool("magma", args, dirs[0], {}), runTool("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    expect(ranges(ours.stdout)).toEqual(ranges(theirs.stdout));
    expect(ranges(ours.stdout)).toHaveLength(7);
    // The list's element: "fail", the second of input = ["a", "fail", "c"] (line 17).
    if (native) expect(ranges(ours.stdout)).toContain(JSON.stringify({ address: "random_shuffle.idx", range: { filename: "main.tf", start: { line: 17, column: 20, byte: 327 }, end: { line: 17, column: 26, byte: 333 } } }));
  }, 600_000);
});

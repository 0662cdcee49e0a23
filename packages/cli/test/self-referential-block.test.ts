// A resource whose configuration refers to itself (issue 33 item 7): terraform 1.11.4's plan
// refuses it with "Self-referential block" when it plans the instance (twice per reference for
// an instance without a key: it matches the instance's and the resource's name), prints the
// rest of the plan as "planned … but then encountered a problem", and its validate accepts it;
// magma must do the same in both syntaxes (not plan it and fail at apply). Skipped without
// terraform. Not compared: the ", in resource.random_string.a.keepers" context terraform names
// for JSON files (magma does not yet: @magma/engine README, "Self-referential blocks").
import { comparableText, expectSameRuns, initialisedPair, pairCliConfig, runPair } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const PROVIDERS = { random: { source: "magma/random" } };

const native = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_string" "ok" {
  length = 2
}
resource "random_string" "a" {
  length  = length(random_string.ok.result) + 1
  keepers = {
    x = random_string.a.result
    y = "\${random_string.a.id}-\${random_string.ok.id}"
  }
}
`;

const json = JSON.stringify({
  terraform: { required_providers: PROVIDERS },
  resource: {
    random_string: {
      ok: { length: 2 },
      a: { length: "${length(random_string.ok.result) + 1}", keepers: { x: "${random_string.a.result}", y: "${random_string.a.id}-${random_string.ok.id}" } },
    },
  },
});

const COMMANDS = [["plan"]] as const;

(TERRAFORM !== undefined ? describe : describe.skip)("Self-referential block, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": native }],
    ["JSON syntax", { "main.tf.json": json }],
  ])("%s: plan refuses it, validate accepts it", async (_name, files) => {
    const pair = await initialisedPair(files);
    const withoutJsonContext = (t: ToolRun): ToolRun => ({ ...t, stderr: t.stderr.replace(/(on main\.tf\.json line \d+), in [^:\n]*:/g, "$1:") });
    const runs = (await runPair(pair, COMMANDS)).map(([o, t]) => [withoutJsonContext(o), withoutJsonContext(t)] as const);
    expect(runs[0]![1].stderr.match(/Error: Self-referential block/g)).toHaveLength(4);
    expect(runs[0]![1].stdout).toContain("# random_string.ok will be created");
    expectSameRuns(runs, COMMANDS);
    const validate = await Promise.all([runTool("magma", ["validate", "-no-color"], pair[0], {}), runTool("terraform", ["validate", "-no-color"], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]);
    const [ours, theirs] = validate.map((r) => ({ code: r.code, stdout: comparableText(r.stdout), stderr: comparableText(r.stderr) }));
    expect(theirs!.code).toBe(0);
    expect(ours).toEqual(theirs);
  }, 300_000);
});

// A data source read while planning, against terraform 1.11.4 on the same configuration:
// terraform's UI hook prints `data.x.y: Reading...` and `data.x.y: Read complete after 0s
// [id=…]` (with -json, `apply_start`/`apply_complete` with action "read") during plan and
// apply's plan. The provider is test/testdata/failing-provider.mjs (its `random_refusal` data
// source reads fine for any other input), served by @magma/provider-server from a
// filesystem mirror, so terraform and magma run the same provider. The configuration also in
// JSON syntax (tfToJson; plain text only). Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CONFIG = `terraform {
  required_providers {
    failing = { source = "magma/failing" }
  }
}
data "random_refusal" "r" {
  provider = failing
  input    = "hello"
}
output "id" {
  value = data.random_refusal.r.id
}
`;

/** The -json messages without their timestamps. */
function jsonMessages(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split("\n")
    .map((l): Record<string, unknown> => ({ ...(JSON.parse(l) as Record<string, unknown>), "@timestamp": "T" }))
    .filter((m) => m["type"] !== "version");
}

(TERRAFORM !== undefined ? describe.each(["native", "JSON"] as const) : describe.skip.each(["native", "JSON"] as const))("data source reads at plan time, against terraform's (%s syntax)", (syntax) => {
  let cliConfig: string;
  let dirs: [string, string];
  beforeAll(async () => {
    cliConfig = testProvidersCliConfig({ failing: "failing-provider.mjs" });
    const files = syntax === "native" ? { "main.tf": CONFIG } : { "main.tf.json": tfToJson(CONFIG) };
    dirs = [workdir(files), workdir(files)];
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
  }, 300_000);

  const both = (args: readonly string[], colour = false): Promise<[ToolRun, ToolRun]> =>
    Promise.all([runTool("magma", args, dirs[0], colour ? { FORCE_COLOR: "1" } : {}), runTool("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);

  test("plan: Reading... and Read complete after 0s [id=…] before the plan, plain and coloured", async () => {
    for (const colour of syntax === "native" ? [false, true] : [false]) {
      const args = ["plan", "-input=false", ...(colour ? [] : ["-no-color"])];
      const [ours, theirs] = await both(args, colour);
      if (!colour) expect(theirs.stdout).toContain("data.random_refusal.r: Reading...\ndata.random_refusal.r: Read complete after 0s [id=refusal-hello]\n");
      expect({ args, code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ args, code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
    }
  }, 600_000);

  test("plan -json: apply_start and apply_complete with action read", async () => {
    const [ours, theirs] = await both(["plan", "-input=false", "-json"]);
    const t = jsonMessages(theirs.stdout);
    expect(t.map((m) => m["type"])).toContain("apply_complete");
    expect(jsonMessages(ours.stdout)).toEqual(t);
    expect(ours.code).toBe(theirs.code);
  }, 600_000);
});

// magma's -json UI stream against terraform 1.11.4's on the same working directory, with
// provider-random served to terraform by @magma/provider-server (skipped without terraform):
// the reasons planned_change messages give for replaces, deletes and reads.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const PROVIDER = `terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\n`;

/** The messages of a -json stream of one type, without what differs from run to run. */
function messages(text: string, type: string): unknown[] {
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m["type"] === type)
    .map((m) => ({ ...m, "@timestamp": "T" }));
}

const withTerraform = TERRAFORM !== undefined ? describe : describe.skip;

withTerraform("magma's -json UI against terraform's", () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
  });

  test("planned_change reasons: cannot_update, requested, delete_because_count_index, delete_because_no_resource_config", async () => {
    const before = `${PROVIDER}
resource "random_id" "n" {
  count       = 2
  byte_length = 4
}
resource "random_string" "k" {
  length  = 6
  keepers = { v = "a" }
}
resource "random_string" "gone" {
  length = 4
}
resource "random_string" "asked" {
  length = 4
}
`;
    const after = before.replace("count       = 2", "count       = 1").replace(`keepers = { v = "a" }`, `keepers = { v = "b" }`).replace(/resource "random_string" "gone" \{\n {2}length = 4\n\}\n/, "");
    const m = workdir({ "main.tf": before });
    const t = workdir({ "main.tf": before });
    expect((await magma(["apply", "-auto-approve"], { cwd: m })).code).toBe(0);
    terraform(["init", "-no-color", "-input=false"], t, { env });
    terraform(["apply", "-auto-approve", "-no-color", "-input=false"], t, { env });
    const args = ["plan", "-json", "-replace=random_string.asked"];
    writeFileSync(join(m, "main.tf"), after);
    writeFileSync(join(t, "main.tf"), after);
    const mPlan = await magma(args, { cwd: m });
    expect(mPlan.stderr).toBe("");
    const tPlan = terraform([...args, "-input=false"], t, { env });
    const reasons = (text: string): string[] =>
      messages(text, "planned_change").map((x) => {
        const c = (x as { change: { resource: { addr: string }; action: string; reason?: string } }).change;
        return `${c.resource.addr} ${c.action} ${c.reason ?? ""}`;
      });
    expect(reasons(tPlan.stdout).sort()).toEqual([
      "random_id.n[1] delete delete_because_count_index",
      "random_string.asked replace requested",
      "random_string.gone delete delete_because_no_resource_config",
      "random_string.k replace cannot_update",
    ]);
    // terraform lists the changes in the order its graph walk recorded them (here the orphan
    // first), which is not an order magma promises: compared as sets of messages.
    const byMessage = (xs: unknown[]): unknown[] => [...xs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(byMessage(messages(mPlan.stdout, "planned_change"))).toEqual(byMessage(messages(tPlan.stdout, "planned_change")));
  }, 180_000);
});

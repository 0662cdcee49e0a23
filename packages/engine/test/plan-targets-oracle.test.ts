/**
 * `-target` against terraform 1.11.4: on the state terraform applied from one configuration,
 * a changed configuration is planned with resource, instance and module targets, in normal
 * and destroy mode; magma's actions (resources and root outputs) must be the ones
 * `terraform show -json` reports for the same targets, and the plan's warning is terraform's.
 * The native memory and random providers are served to terraform through
 * @magma/provider-server and given to magma's engine in-process (test/support/plan-oracle.ts).
 */
import { hasTerraform } from "@magma/test-support";
import { expectExit } from "../../provider-server/test/support/harness.js";
import { bothPlans, planOracleDir, writeFiles, type PlanOracleDir } from "./support/plan-oracle.js";
import { MOD_TF, V1_TF, V2_TF } from "./support/plan-oracle-configs.js";

const d = hasTerraform() ? describe : describe.skip;

d("magma's targeted plans equal terraform's", () => {
  let dir: PlanOracleDir;

  beforeAll(() => {
    dir = planOracleDir("etarget-");
    writeFiles(dir, { "mod/main.tf": MOD_TF });
  });
  afterAll(() => dir.cleanup());

  test("resource, instance and module targets, normal and destroy, on terraform's state", async () => {
    writeFiles(dir, { "main.tf": V1_TF });
    expectExit(await dir.tf("init", "-no-color"), 0, "init", dir.env);
    expectExit(await dir.tf("apply", "-auto-approve", "-no-color"), 0, "apply", dir.env);
    writeFiles(dir, { "main.tf": V2_TF });

    const cases: [string[], boolean][] = [
      [["memory_item.counted"], false],
      [['memory_item.env["dev"]', "memory_item.from_module"], false],
      [["module.m[1]"], false],
      [["memory_item.a"], true],
      [["module.m"], true],
    ];
    for (const [targets, destroy] of cases) {
      const r = await bothPlans(dir, { targets, ...(destroy ? { mode: "destroy" as const } : {}) });
      expect({ targets, destroy, actions: r.magma }).toEqual({ targets, destroy, actions: r.terraform });
      expect(r.result.plan.targets).toEqual(targets);
      const w = r.result.diagnostics.find((x) => x.severity === "warning" && x.summary === r.warning?.summary);
      expect(w === undefined ? undefined : { summary: w.summary, detail: w.detail }).toEqual(r.warning);
    }
  }, 600_000);
});

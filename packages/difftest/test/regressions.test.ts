/**
 * The differential test's found-and-fixed differences as regression cases
 * (test/regression-cases.ts): the cases side by side in one root module, their steps run
 * through terraform 1.11.4 and magma in twin directories with the testbed provider, in native
 * syntax and in JSON syntax; every observation of the comparer (plan, show -json, apply, state,
 * re-plan) must agree, and each case must exercise its construct in terraform's run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasTerraform, tfToJson } from "@magma/test-support";
import { prepareDifftest, runTwinSteps, type TwinStep } from "../src/index.js";
import { REGRESSION_CASES, ROOT_HEADER, type RegressionCase } from "./regression-cases.js";

/** Step `i` of every case (a case with fewer steps keeps its last), in one syntax (JSON by tfToJson). */
function twinSteps(cases: readonly RegressionCase[], syntax: "native" | "json"): TwinStep[] {
  const steps = Math.max(...cases.map((c) => c.steps.length));
  let previous = "";
  const out: TwinStep[] = [];
  for (let i = 0; i < steps; i++) {
    const native: Record<string, string> = { "root.tf": ROOT_HEADER };
    for (const c of cases) Object.assign(native, c.steps[Math.min(i, c.steps.length - 1)]);
    const files: Record<string, string> = {};
    for (const [rel, text] of Object.entries(native)) {
      if (syntax === "json") files[`${rel}.json`] = tfToJson(text, rel);
      else files[rel] = text;
    }
    // init again when the module calls change.
    const modules = JSON.stringify([...Object.values(native).join("\n").matchAll(/^module "([^"]+)"/gm)].map((m) => m[1]).sort());
    out.push({ files, init: modules !== previous });
    previous = modules;
  }
  return out;
}

(hasTerraform() ? describe : describe.skip)("differences found by the differential test, fixed", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "magma-difftest-regressions-"));
  });
  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  // The cases side by side, then each case that must run alone; each in both syntaxes.
  const groups: [string, readonly RegressionCase[]][] = [["the cases side by side", REGRESSION_CASES.filter((c) => c.alone !== true)], ...REGRESSION_CASES.filter((c) => c.alone === true).map((c): [string, RegressionCase[]] => [c.name, [c]])];
  const runs = groups.flatMap(([name, cases], g) => (["native", "json"] as const).map((syntax) => [name, syntax, g, cases] as const));
  test.each(runs)("%s (%s): terraform and magma agree", async (_name, syntax, g, cases) => {
    const setup = prepareDifftest(work);
    const r = await runTwinSteps(setup, join(work, `${g}-${syntax}`), twinSteps(cases, syntax));
    const terraform = r.observations.map((o) => o.terraform);
    expect(terraform.map((o) => ({ code: o.plan.code, diagnostics: o.plan.diagnostics.filter((d) => d.startsWith("Error")) }))).toEqual(terraform.map(() => ({ code: 0, diagnostics: [] })));
    expect(cases.map((c) => [c.name, c.exercised(terraform)])).toEqual(cases.map((c) => [c.name, undefined]));
    expect(r.differences).toEqual([]);
  }, 900_000);
});

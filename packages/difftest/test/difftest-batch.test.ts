/**
 * The CI batch of the differential test (`pnpm difftest` without arguments runs the same): 8
 * generated stacks of seed 16, each a first configuration and one mutation step, side by side in
 * one root module (even stacks in native syntax, odd ones in JSON), through terraform and magma,
 * with the constructs of KNOWN_OPEN (none at present) left out. Every terraform plan must succeed
 * (the generator writes valid configurations) and the tools must agree on every observation; a
 * stack that differs is shrunk and its reproduction written under the package's difftest-out/
 * (named in the failure).
 *
 * Sized for CI (about 2 minutes on a loaded 2-core machine): one batch, so each tool runs one
 * `init`, and per step `plan`, `show -json`, `apply` and the re-plan, once for all 8 stacks; both
 * tools share one filesystem mirror with one bundled testbed provider launcher, and magma runs
 * from one copy of its bundle (prepareDifftest). Seed 16 was chosen among the seeds whose 8
 * stacks cover every kind of feature and mutation (count changes, renames with `moved`,
 * removals, module calls beside data sources) and checked to pass. Long runs are
 * `pnpm difftest --count N --seed S` (docs/compatibility.md records them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hasTerraform } from "@magma/test-support";
import { KNOWN_OPEN, prepareDifftest, runDifftest } from "../src/index.js";

/** The CI batch's size and seed (docs/compatibility.md records them; src/bin/difftest.ts's defaults are the same). */
const COUNT = 8;
const SEED = 16;

(hasTerraform() ? describe : describe.skip)("the CI batch of generated stacks", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "magma-difftest-ci-"));
  });
  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test(`${COUNT} two-step stacks of seed ${SEED}: terraform and magma agree`, async () => {
    const setup = prepareDifftest(work);
    const lines: string[] = [];
    const report = await runDifftest(setup, {
      count: COUNT,
      seed: SEED,
      batchSize: COUNT,
      maxSteps: 1,
      minSteps: 1,
      avoid: new Set(KNOWN_OPEN.keys()),
      workDir: join(work, "runs"),
      outDir: join(dirname(fileURLToPath(import.meta.url)), "..", "difftest-out"),
      shrinkTimeMs: 120_000,
      log: (l) => lines.push(l),
    });
    const summary = {
      terraformPlanFailures: report.terraformPlanFailures,
      differing: report.differing.map((d) => ({ stack: d.index, reproduction: d.reproduction, first: d.differences.slice(0, 3) })),
      unattributed: report.unattributed.slice(0, 5),
    };
    expect({ ...summary, log: summary.differing.length + summary.unattributed.length + summary.terraformPlanFailures > 0 ? lines : [] }).toEqual({
      terraformPlanFailures: 0,
      differing: [],
      unattributed: [],
      log: [],
    });
    expect(report.stacks).toBe(COUNT);
    expect(report.steps).toBe(2 * COUNT);
  }, 1_200_000);
});

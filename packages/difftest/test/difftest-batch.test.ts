/**
 * The CI batch of the differential test (`pnpm difftest` without arguments runs the same):
 * 20 generated two-step stacks of seed 32 (one batch), in both syntaxes, through terraform and
 * magma, with the constructs whose differences are found and open (KNOWN_OPEN: implied moves,
 * data sources, see docs/compatibility.md differences 10 and 19) left out. Every terraform plan must succeed (the generator
 * writes valid configurations) and the tools must agree on every observation; a stack that
 * differs is shrunk and its reproduction written under the package's difftest-out/ (named in
 * the failure). Sized for CI (about 3 minutes on a loaded 2-core machine); long runs are
 * `pnpm difftest --count N --seed S` (docs/compatibility.md records them).
 *
 * Still off unless MAGMA_DIFFTEST_BATCH=1: its last run (session 13, KNOWN_OPEN then implied-move
 * and moved) found difference 19 in stack 17, which is a data-source difference, not a move; with
 * data-sources left out instead (as now) the batch has not been run yet. Turn it on (remove the
 * condition) once `pnpm difftest` exits 0.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hasTerraform } from "@magma/test-support";
import { KNOWN_OPEN, prepareDifftest, runDifftest } from "../src/index.js";

/** The CI batch's size and seed (docs/compatibility.md records them). */
const COUNT = 20;
const SEED = 32;

/** Set to 1 to run the batch (see above). */
const BATCH_ENV = "MAGMA_DIFFTEST_BATCH";

(process.env[BATCH_ENV] === "1" && hasTerraform() ? describe : describe.skip)("the CI batch of generated stacks", () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "magma-difftest-ci-"));
  });
  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test(`${COUNT} stacks of seed ${SEED}: terraform and magma agree`, async () => {
    const setup = prepareDifftest(work);
    const lines: string[] = [];
    const report = await runDifftest(setup, {
      count: COUNT,
      seed: SEED,
      batchSize: COUNT,
      maxSteps: 1,
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
    expect(report.steps).toBeGreaterThan(COUNT);
  }, 1_800_000);
});

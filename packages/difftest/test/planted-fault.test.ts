/**
 * The comparer's own test: a magma build with a planted engine bug (a `count` of 2 or more
 * makes one instance too few) must be found by the differential test and shrunk to a small
 * reproduction. The mutant is a copy of the built bundle with one line changed
 * (writeMutantMagma); the engine's sources are untouched. Kept cheap for CI: plans only, one
 * stack (a batch of one is its own confirmation run), and the first seed whose stack is small
 * (a counted resource and at most one other feature), so that the shrink has few candidates.
 */
import fc from "fast-check";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hasTerraform } from "@magma/test-support";
import { COUNT_OFF_BY_ONE, Construct, prepareDifftest, runDifftest, stackArbitrary, writeMutantMagma, type MutantMagma, type StackSpec } from "../src/index.js";

const AVOID = new Set<Construct>(Object.values(Construct));
const counted = (s: StackSpec): boolean => s.features.some((f) => "repeat" in f && f.repeat.kind === "count" && f.repeat.n >= 2);
const small = (s: StackSpec): boolean => counted(s) && s.features.length <= 2 && s.features.length >= 2;

(hasTerraform() ? describe : describe.skip)("a planted engine bug", () => {
  let work: string;
  let mutant: MutantMagma;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "magma-difftest-planted-"));
    mutant = writeMutantMagma(COUNT_OFF_BY_ONE);
  });
  afterAll(() => {
    mutant?.dispose();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  test("is found, confirmed alone and shrunk to a reproduction with the counted resource", async () => {
    // The first seed whose first stack has a count of 2 or more beside one other feature (generation is pure and cheap).
    const arb = stackArbitrary({ avoid: AVOID, maxSteps: 0 });
    let seed = 1;
    while (!small(fc.sample(arb, { seed, numRuns: 1 })[0]!)) seed++;
    const original = fc.sample(arb, { seed, numRuns: 1 })[0]!;

    const setup = prepareDifftest(work, mutant.command);
    const report = await runDifftest(setup, { count: 1, seed, avoid: AVOID, maxSteps: 0, workDir: join(work, "runs"), outDir: join(work, "out"), planOnly: true, shrinkTimeMs: 300_000 });

    expect(report.differing).toHaveLength(1);
    const found = report.differing[0]!;
    expect(found.differences.length).toBeGreaterThan(0);
    expect(found.reproduction).toBeDefined();
    const shrunk = found.shrunk!;
    expect(counted(shrunk)).toBe(true);
    // Shrunk: the other feature goes, or the count comes down to 2.
    expect(JSON.stringify(shrunk)).not.toBe(JSON.stringify(original));
    expect(shrunk.features.length).toBeLessThanOrEqual(original.features.length);
    const repro = found.reproduction!;
    expect(existsSync(join(repro, "spec.json"))).toBe(true);
    expect(readFileSync(join(repro, "step-0-native", "s0_stack.tf"), "utf8")).toMatch(/count = [23]/);
    expect(JSON.parse(readFileSync(join(repro, "step-0-json", "s0_stack.tf.json"), "utf8"))).toHaveProperty("resource");
    expect(readFileSync(join(repro, "differences.txt"), "utf8")).toMatch(/\[1\]|resource_changes/);
  }, 900_000);
});

import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotMagma } from "./magma-snapshot.js";
import type { ToolCommand } from "./tool-run.js";

/** A fault planted in a copy of the built magma: the text to find in its bundle and what to put instead. */
export interface PlantedFault {
  /** Exactly one occurrence in the bundle's chunks. */
  readonly find: string;
  readonly replace: string;
}

/** Thrown (code `fault_anchor`) when the fault's text is not in the bundle exactly once (the engine changed: update the fault). */
export class FaultAnchorError extends Error {
  /** Stable code. */
  readonly code = "fault_anchor";
  constructor(find: string, count: number) {
    super(`[fault_anchor] the planted fault's text ${JSON.stringify(find)} occurs ${count} times in magma's bundle (dist/bin), not once: update the fault to the engine's current code`);
    this.name = "FaultAnchorError";
  }
}

/** A mutant magma: how to run it, and how to remove it. */
export interface MutantMagma {
  readonly command: ToolCommand;
  dispose(): void;
}

/**
 * Copies the built `magma` into `dir` ({@link snapshotMagma}; default a new temporary directory)
 * and plants a fault in the copy's bundle: a test build with a known engine bug, for checking
 * that the differential test finds and shrinks it. No source file, and not the build itself, changes.
 *
 * @throws FaultAnchorError when `fault.find` is not in the bundle exactly once.
 */
export function writeMutantMagma(fault: PlantedFault, dir = mkdtempSync(join(tmpdir(), "magma-mutant-"))): MutantMagma {
  const snapshot = snapshotMagma(dir);
  const hits: string[] = [];
  let count = 0;
  for (const f of readdirSync(snapshot.binDir)) {
    if (!f.endsWith(".js")) continue;
    const n = readFileSync(join(snapshot.binDir, f), "utf8").split(fault.find).length - 1;
    if (n > 0) hits.push(f);
    count += n;
  }
  if (count !== 1) {
    snapshot.dispose();
    throw new FaultAnchorError(fault.find, count);
  }
  const file = join(snapshot.binDir, hits[0]!);
  writeFileSync(file, readFileSync(file, "utf8").replace(fault.find, fault.replace));
  return { command: snapshot.command, dispose: snapshot.dispose };
}

/**
 * The planted engine bug of the comparer's own test: a `count` of 2 or more makes one
 * instance too few (in the engine's evaluation of `count`, eval/expansion.ts).
 */
export const COUNT_OFF_BY_ONE: PlantedFault = {
  find: "const count = Number(big);",
  replace: "const count = Number(big) >= 2 ? Number(big) - 1 : Number(big);",
};

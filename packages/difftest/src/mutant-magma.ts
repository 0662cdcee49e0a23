import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { magmaBin } from "./difftest-setup.js";
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
 * Copies the built `magma` bundle (@magma/cli's dist/bin) to a sibling directory of it and
 * plants a fault in the copy: a test build with a known engine bug, for checking that the
 * differential test finds and shrinks it. The copy sits beside dist/bin because the bundle
 * refers to the unbundled library files of dist/ by relative URL; no source file changes.
 *
 * @throws FaultAnchorError when `fault.find` is not in the bundle exactly once.
 */
export function writeMutantMagma(fault: PlantedFault, name = `difftest-mutant-${process.pid}`): MutantMagma {
  const bin = dirname(magmaBin());
  const dir = join(dirname(bin), name);
  rmSync(dir, { recursive: true, force: true });
  const hits: string[] = [];
  let count = 0;
  for (const f of readdirSync(bin)) {
    if (!f.endsWith(".js")) continue;
    const n = readFileSync(join(bin, f), "utf8").split(fault.find).length - 1;
    if (n > 0) hits.push(f);
    count += n;
  }
  if (count !== 1) throw new FaultAnchorError(fault.find, count);
  cpSync(bin, dir, { recursive: true });
  const file = join(dir, hits[0]!);
  writeFileSync(file, readFileSync(file, "utf8").replace(fault.find, fault.replace));
  return {
    command: { executable: process.execPath, preArgs: [join(dir, "magma.js")] },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The planted engine bug of the comparer's own test: a `count` of 2 or more makes one
 * instance too few (in the engine's evaluation of `count`, eval/expansion.ts).
 */
export const COUNT_OFF_BY_ONE: PlantedFault = {
  find: "const count = Number(big);",
  replace: "const count = Number(big) >= 2 ? Number(big) - 1 : Number(big);",
};

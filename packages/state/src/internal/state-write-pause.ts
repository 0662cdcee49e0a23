import { writeSync } from "node:fs";
import { StateError } from "../state-error.js";

/**
 * A test hook for crash tests of the local and pg backends (the kill trials of issues 20 and
 * 33): with `MAGMA_TEST_STATE_WRITE_PAUSE=N:PHASE:MS` in the environment, the N-th state write
 * of the process (local: counting the writes that change the file; pg: every statement that
 * writes a workspace's row) announces itself on standard error
 * (`magma-test-hook: state write N paused at PHASE`) and blocks the process for MS
 * milliseconds at PHASE, so that a test can SIGKILL it exactly there:
 *
 * - `begin`: nothing written yet (an object applied by its provider but not persisted);
 * - `journal`: the journal committed, the state file not touched;
 * - `torn`: the first half of the new bytes written over the state file (a torn file);
 * - `written`: the state file complete, the journal not yet removed (pg: the row's statement
 *   committed and answered, the caller not yet told).
 *
 * The pg backend has no `journal` or `torn` point: its write is one autocommitted statement.
 *
 * Inert unless the variable is set; an unparsable value is refused at the first write.
 *
 * @internal
 */
export const STATE_WRITE_PAUSE_ENV = "MAGMA_TEST_STATE_WRITE_PAUSE";

/** The points of a write where the hook can pause. @internal */
export type StateWritePhase = "begin" | "journal" | "torn" | "written";

interface PauseSpec {
  readonly write: number;
  readonly phase: StateWritePhase;
  readonly ms: number;
}

let parsed: { readonly text: string | undefined; readonly spec: PauseSpec | undefined } | undefined;
let writes = 0;

function spec(): PauseSpec | undefined {
  const text = process.env[STATE_WRITE_PAUSE_ENV];
  if (parsed !== undefined && parsed.text === text) return parsed.spec;
  let s: PauseSpec | undefined;
  if (text !== undefined && text !== "") {
    const m = /^(\d+):(begin|journal|torn|written):(\d+)$/.exec(text);
    if (m === null) {
      throw new StateError("invalid_argument", `${STATE_WRITE_PAUSE_ENV}=${JSON.stringify(text)}: expected N:PHASE:MS with PHASE one of begin, journal, torn, written`);
    }
    s = { write: Number(m[1]), phase: m[2] as StateWritePhase, ms: Number(m[3]) };
  }
  parsed = { text, spec: s };
  return s;
}

/** Counts a state write of this process and returns its 1-based number. @internal */
export function nextStateWrite(): number {
  spec();
  return ++writes;
}

/** Whether the hook pauses write `n` at `phase`. @internal */
export function pausesAt(n: number, phase: StateWritePhase): boolean {
  const s = spec();
  return s !== undefined && s.write === n && s.phase === phase;
}

/** Pauses write `n` at `phase` if the hook asks for it (blocking the whole process). @internal */
export function maybePause(n: number, phase: StateWritePhase): void {
  if (!pausesAt(n, phase)) return;
  const ms = spec()!.ms;
  try {
    writeSync(2, `magma-test-hook: state write ${n} paused at ${phase} (${ms} ms)\n`);
  } catch {
    // No standard error: pause anyway.
  }
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** How many state writes this process has counted so far. @internal */
export function stateWritesSoFar(): number {
  return writes;
}

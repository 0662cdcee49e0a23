/** Test support: what a call fails with, checked by shape (isStateError) as the house rules ask. */
import { isStateError, type StateError } from "../../src/state-error.js";

/** The code of the StateError `f` throws, or `"ok"` when it returns; any other error is rethrown. */
export function errorCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isStateError(e)) return e.code;
    throw e;
  }
  return "ok";
}

/** The StateError `p` rejects with; any other error is rethrown, and a fulfilled `p` is an error. */
export async function rejection(p: Promise<unknown>): Promise<StateError> {
  try {
    await p;
  } catch (e) {
    if (isStateError(e)) return e;
    throw e;
  }
  throw new Error("expected a StateError");
}

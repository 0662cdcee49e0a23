import { Path, type PathStep } from "../path.js";
import { isPathError, PathError, type PathErrorCode } from "../path-error.js";

/**
 * An internal failure on its way out of the codec. Containers push their step while the
 * failure unwinds (O(1) each), so the happy path never builds a Path; the public entry
 * points turn it into a {@link PathError} with the steps in order.
 * @internal
 */
export class Fail {
  readonly code: PathErrorCode;
  readonly reason: string;
  /** Steps, innermost first. */
  readonly steps: PathStep[] = [];
  readonly cause: unknown;

  constructor(code: PathErrorCode, reason: string, cause?: unknown) {
    this.code = code;
    this.reason = reason;
    this.cause = cause;
  }

  toPathError(): PathError {
    const path = Path.of(this.steps.slice().reverse());
    return this.cause === undefined
      ? new PathError(this.code, path, this.reason)
      : new PathError(this.code, path, this.reason, { cause: this.cause });
  }
}

/**
 * Wraps a PathError thrown by the core (factories, CtyNumber, type JSON) as a Fail, keeping
 * its code, reason and any path steps it already carried.
 * @internal
 */
export function failFrom(e: unknown): Fail {
  if (e instanceof Fail) return e;
  if (isPathError(e)) {
    const f = new Fail(e.code, e.reason, e);
    for (let i = e.path.steps.length - 1; i >= 0; i--) f.steps.push(e.path.steps[i]!);
    return f;
  }
  throw e;
}

/** Adds a step to a failure unwinding through a container, and rethrows it. @internal */
export function withStep(e: unknown, step: PathStep): never {
  if (e instanceof Fail) {
    e.steps.push(step);
    throw e;
  }
  const f = failFrom(e);
  f.steps.push(step);
  throw f;
}

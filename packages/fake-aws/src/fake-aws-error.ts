/** The stable codes of {@link FakeAwsError}: how a test misused the fake's own API. */
export const FakeAwsErrorCode = {
  /** `inject()` was given an invalid fault specification. */
  InvalidFault: "invalid_fault",
  /** `startFakeAws()` was given invalid options. */
  InvalidOptions: "invalid_options",
} as const;

/** One of the {@link FakeAwsErrorCode} values. */
export type FakeAwsErrorCode = (typeof FakeAwsErrorCode)[keyof typeof FakeAwsErrorCode];

/**
 * Thrown (never sent over the wire) when a test uses the fake's API wrongly, e.g. a fault
 * with `nth: 0`. The message starts with `[code]` and names the offending field.
 */
export class FakeAwsError extends Error {
  /** The stable error code. */
  readonly code: FakeAwsErrorCode;

  /**
   * @param code - the stable error code.
   * @param message - what was wrong and where.
   */
  constructor(code: FakeAwsErrorCode, message: string) {
    super(`[${code}] ${message}`);
    this.name = "FakeAwsError";
    this.code = code;
  }
}

/** Whether `x` looks like a {@link FakeAwsError} (checked by shape, not `instanceof`). */
export function isFakeAwsError(x: unknown): x is FakeAwsError {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { name?: unknown }).name === "FakeAwsError" &&
    typeof (x as { code?: unknown }).code === "string"
  );
}

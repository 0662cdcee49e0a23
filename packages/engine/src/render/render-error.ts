/** The stable codes of {@link RenderError}. */
export const RenderErrorCode = {
  /** No schema was given for a resource type the state or plan holds; the message names the type and provider. */
  MissingSchema: "missing_schema",
  /** A stored object does not fit its schema (schema version mismatch, undecodable attributes, legacy flatmap only). */
  InvalidState: "invalid_state",
  /** A plan cannot be rendered (an address that does not parse, a provider that cannot be determined). */
  InvalidPlan: "invalid_plan",
} as const;

/** One of the {@link RenderErrorCode} values. */
export type RenderErrorCode = (typeof RenderErrorCode)[keyof typeof RenderErrorCode];

/**
 * The error of the renderings (`stateJson`, `planJson`). The message starts with `[code]`
 * and names the object; `code` is stable. Check with {@link isRenderError}, never `instanceof`.
 */
export class RenderError extends Error {
  /** Always `"RenderError"`. */
  override readonly name = "RenderError" as const;
  /** What kind of failure this is. */
  readonly code: RenderErrorCode;

  /**
   * @param code - the stable error code.
   * @param message - what was wrong and where (the `[code] ` prefix is added here).
   * @param cause - the underlying error, kept as `Error.cause`.
   */
  constructor(code: RenderErrorCode, message: string, cause?: unknown) {
    super(`[${code}] ${message}`, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

/** Whether `x` is a {@link RenderError} (by shape, so duplicated package copies still match). */
export function isRenderError(x: unknown): x is RenderError {
  return typeof x === "object" && x !== null && (x as { name?: unknown }).name === "RenderError" && typeof (x as { code?: unknown }).code === "string";
}

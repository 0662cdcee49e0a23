/** The stable codes of {@link ServeError}. */
export const ServeErrorCode = {
  /** The process was not started by a go-plugin client (no or wrong magic cookie). */
  NotAPlugin: "not_a_plugin",
  /** The go-plugin environment is unusable (a bad client certificate, a socket path too long). */
  InvalidEnvironment: "invalid_environment",
  /** The server could not listen on its socket. */
  ListenFailed: "listen_failed",
  /** The provider factory failed or returned something that is not a Provider. */
  ProviderFailed: "provider_failed",
  /** The launcher options are invalid (names, versions, paths). */
  InvalidOptions: "invalid_options",
} as const;

/** One of the {@link ServeErrorCode} values. */
export type ServeErrorCode = (typeof ServeErrorCode)[keyof typeof ServeErrorCode];

/**
 * Why {@link serve} or {@link writeProviderLauncher} failed. The message is `[code] text`;
 * `code` is stable, the text is not. Recognise it with {@link isServeError}.
 */
export class ServeError extends Error {
  /** Always `"ServeError"`. */
  override readonly name = "ServeError" as const;
  /** What went wrong. */
  readonly code: ServeErrorCode;

  /** Makes an error; `cause` is kept as `Error.cause`. */
  constructor(code: ServeErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[${code}] ${message}`, options);
    this.code = code;
  }
}

/** Whether `x` is a {@link ServeError}, by shape rather than `instanceof`. */
export function isServeError(x: unknown): x is ServeError {
  if (typeof x !== "object" || x === null) return false;
  const e = x as { name?: unknown; code?: unknown };
  return e.name === "ServeError" && typeof e.code === "string" && (Object.values(ServeErrorCode) as string[]).includes(e.code);
}

/** The stable codes of {@link InstallError}. */
export const InstallErrorCode = {
  /** A registry, mirror or discovery request failed (status, bad JSON, connection refused). */
  QueryFailed: "query_failed",
  /** No source offers the provider, or no version meets the constraints. */
  NotFound: "not_found",
  /** The version has no package for the target platform. */
  PlatformNotSupported: "platform_not_supported",
  /** A package does not match its checksum (registry, mirror or lock file). */
  ChecksumMismatch: "checksum_mismatch",
  /** The checksum list's signature is bad or from a key the registry did not name. */
  Signature: "signature",
  /** A package archive is malformed or would write outside its directory. */
  BadArchive: "bad_archive",
  /** A download failed: connection, status, truncated body, redirect loop. */
  Download: "download",
  /** A server did not answer in time. */
  Timeout: "timeout",
  /** The lock file's version is excluded by the configuration's constraints. */
  LockConflict: "lock_conflict",
  /** The server wants credentials, or rejected them. */
  Unauthorized: "unauthorized",
  /** The CLI configuration or an argument is malformed. */
  BadConfig: "bad_config",
  /** A credentials helper failed or gave malformed output. */
  Credentials: "credentials",
} as const;

/** One of the {@link InstallErrorCode} values. */
export type InstallErrorCode = (typeof InstallErrorCode)[keyof typeof InstallErrorCode];

/**
 * Why an installation step failed: a stable `code`, and terraform's own wording as a
 * diagnostic (`summary` and `detail`), so a command line can print it as terraform does.
 * The message is `[code] summary: detail`.
 */
export class InstallError extends Error {
  /** Always `"InstallError"`. */
  override readonly name = "InstallError" as const;
  /** What kind of failure this is. */
  readonly code: InstallErrorCode;
  /** Terraform's diagnostic summary (`Failed to install provider`). */
  readonly summary: string;
  /** Terraform's diagnostic detail. */
  readonly detail: string;
  /** The underlying reason alone, as terraform's installer error lists it (`- <address>: <reason>`). */
  readonly reason: string;

  /** Makes an error; `cause` is kept as `Error.cause`; `reason` defaults to the detail. */
  constructor(code: InstallErrorCode, summary: string, detail: string, cause?: unknown, reason?: string) {
    super(`[${code}] ${summary}: ${detail}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.summary = summary;
    this.detail = detail;
    this.reason = reason ?? detail;
  }
}

/** Whether `x` is an {@link InstallError} (by shape, so duplicated package copies still match). */
export function isInstallError(x: unknown): x is InstallError {
  return x instanceof Error && x.name === "InstallError" && typeof (x as { code?: unknown }).code === "string" && typeof (x as { summary?: unknown }).summary === "string";
}

/**
 * A failure below the diagnostic level (one request, one check), carried up to the step
 * that words it as terraform does; a provider source's methods reject with it.
 */
export class StepError extends Error {
  /** The code the final {@link InstallError} gets. */
  readonly code: InstallErrorCode;
  /** Makes one. */
  constructor(code: InstallErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

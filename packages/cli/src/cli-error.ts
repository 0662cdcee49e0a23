import { ExitCode } from "./exit-code.js";

/** The stable codes of {@link CliError}. */
export const CliErrorCode = {
  /** The command line is wrong (exit 2). */
  Usage: "usage",
  /** An input (JSON, file, base64, number) is malformed or does not fit the schema (exit 1). */
  BadInput: "bad_input",
  /** An operation's result is not what the command needs (e.g. an import found nothing) (exit 1). */
  NotFound: "not_found",
  /** An optional package a command needs is not installed (`@magma/fake-aws` for `magma demo`'s AWS part) (exit 1). */
  NotInstalled: "not_installed",
  /** A Terraform feature magma does not have yet (`-target`) (exit 1). */
  Unsupported: "unsupported",
} as const;

/** One of the {@link CliErrorCode} values. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/**
 * An error of the command line itself (as opposed to a `ProviderError` or cty `PathError`
 * from the layers below): a stable code, a one-line message, and an optional hint that
 * says what to do about it.
 */
export class CliError extends Error {
  /** Always `"CliError"`. */
  override readonly name = "CliError" as const;
  /** What kind of failure this is. */
  readonly code: CliErrorCode;
  /** What to do about it, if there is something to say. */
  readonly hint: string | undefined;
  /**
   * For the working-directory commands: the detail of a Terraform-style diagnostic. When set,
   * the error is printed as Terraform prints it (`Error: <message>`, a blank line, the detail),
   * or, with `plain`, as the message and detail alone (Terraform's older commands' wording).
   */
  readonly detail: string | undefined;
  /** Print the message and detail without the `Error:` heading. */
  readonly plain: boolean;
  /** Print nothing: the command has already said what went wrong (e.g. validate's diagnostics). */
  readonly silent: boolean;

  /** Makes an error; `cause` is kept as `Error.cause`. */
  constructor(code: CliErrorCode, message: string, options: { hint?: string; cause?: unknown; detail?: string; plain?: boolean; silent?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.detail = options.detail;
    this.plain = options.plain === true;
    this.silent = options.silent === true;
  }

  /** The process exit code for this error: 2 for usage errors, else 1. */
  get exitCode(): ExitCode {
    return this.code === CliErrorCode.Usage ? ExitCode.Usage : ExitCode.Error;
  }
}

/** Whether `x` is a {@link CliError} (by shape, so duplicated package copies still match). */
export function isCliError(x: unknown): x is CliError {
  return x instanceof Error && x.name === "CliError" && typeof (x as { code?: unknown }).code === "string";
}

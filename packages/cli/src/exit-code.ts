/**
 * The exit codes of the `magma` command: `0` success, `1` an error (bad input, provider
 * failure, diagnostics), `2` a usage error (unknown command or option, missing argument),
 * `130` interrupted (SIGINT or SIGTERM; the provider is closed first).
 */
export const ExitCode = {
  /** The command did what was asked. */
  Ok: 0,
  /** The command failed: bad input, a provider error, error diagnostics. */
  Error: 1,
  /** The command line itself is wrong: unknown command or option, missing argument. */
  Usage: 2,
  /** `plan -detailed-exitcode`: the plan succeeded and has changes (Terraform's 2). */
  Changes: 2,
  /** `fmt -check`: some input is not in the canonical format (Terraform's 3). */
  Unformatted: 3,
  /** Interrupted by SIGINT or SIGTERM. */
  Interrupted: 130,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

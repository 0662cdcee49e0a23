import type { Diagnostic } from "@magma/hcl";
import { CliError, CliErrorCode } from "../cli-error.js";

/**
 * The root module of a working directory does not load: its diagnostics (errors and the
 * warnings beside them), for the command to print as terraform prints them before it stops
 * (see `writeConfigurationDiagnostics` in ./invalid-configuration.ts).
 */
export class InvalidConfigurationError extends CliError {
  /** The root module's diagnostics, errors and warnings, in the order they were found. */
  readonly diagnostics: readonly Diagnostic[];

  /** Makes the error; `diagnostics` holds at least one error. */
  constructor(diagnostics: readonly Diagnostic[]) {
    const first = diagnostics.find((d) => d.severity === "error");
    super(CliErrorCode.BadInput, `the configuration is not valid${first === undefined ? "" : `: ${first.summary}`}`);
    this.diagnostics = diagnostics;
  }
}

/** Whether `e` is an {@link InvalidConfigurationError} (by shape). */
export function isInvalidConfigurationError(e: unknown): e is InvalidConfigurationError {
  return e instanceof Error && e.name === "CliError" && Array.isArray((e as { diagnostics?: unknown }).diagnostics);
}

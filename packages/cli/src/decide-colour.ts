import type { CliIo, CliStream } from "./cli-io.js";

/**
 * Whether one run colours its human output, decided once per stream: stdout (plans,
 * progress, results) and stderr (error diagnostics).
 */
export interface Colour {
  /** Colour on stdout. */
  readonly stdout: boolean;
  /** Colour on stderr. */
  readonly stderr: boolean;
}

/**
 * Decides the colour of a run as Terraform's `Colorize` would, except that magma colours
 * only a terminal by default:
 *
 * - `-no-color` on the command line (or in `TF_CLI_ARGS`): no colour;
 * - `NO_COLOR` set to anything non-empty: no colour;
 * - `FORCE_COLOR` set and neither empty nor `0`: colour even when piped;
 * - otherwise colour on a stream that is a terminal.
 */
export function decideColour(io: Pick<CliIo, "stdout" | "stderr" | "env">, argv: readonly string[]): Colour {
  const off = argv.includes("--no-color") || (io.env["NO_COLOR"] ?? "") !== "";
  const force = (io.env["FORCE_COLOR"] ?? "") !== "" && io.env["FORCE_COLOR"] !== "0";
  const on = (s: CliStream): boolean => !off && (force || s.isTTY === true);
  return { stdout: on(io.stdout), stderr: on(io.stderr) };
}

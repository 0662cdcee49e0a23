import { colorize } from "@magma/engine";
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

/**
 * Terraform's colour markup (`[reset]`, `[bold]`, `[green]`…; see `colorize` of
 * `@magma/engine`) to text for a stream: escape sequences with a closing reset when
 * `enabled`, the bare text otherwise.
 */
export function paint(enabled: boolean, markup: string): string {
  return colorize(markup, enabled);
}

/**
 * Terraform's `fmt.Sprintf(color.Color(format), args...)`: the markup of `format` coloured
 * first, then each `%s` filled with the next argument as it is, so that text from outside
 * (addresses, ids) is never read as colour markup.
 */
export function paintf(enabled: boolean, format: string, ...args: readonly string[]): string {
  let i = 0;
  return colorize(format, enabled).replace(/%s/g, () => args[i++] ?? "");
}

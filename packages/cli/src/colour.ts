// The engine's colour markup alone (its subpath export): importing the engine's index would make
// the bundle load the whole engine with every command that paints (`magma init` among them).
import { colorize } from "@magma/engine/colorstring";
// Whether to colour (`decideColour`) is decided in decide-colour.ts, which loads nothing else:
// the run decides it before any command, and painting needs the engine's `colorize`.
export { decideColour } from "./decide-colour.js";
export type { Colour } from "./decide-colour.js";

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

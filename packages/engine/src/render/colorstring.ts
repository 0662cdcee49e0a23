/**
 * The colour codes of Terraform's colour markup (mitchellh/colorstring's default set, the
 * ones Terraform's views use): `[reset]`, `[bold]`, `[underline]`, `[red]`, `[green]`,
 * `[yellow]`, `[cyan]`, `[dark_gray]`…, each the SGR parameter it stands for.
 */
export const COLOR_CODES: Readonly<Record<string, string>> = {
  reset: "0",
  bold: "1",
  dim: "2",
  underline: "4",
  invert: "7",
  default: "39",
  black: "30",
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  light_gray: "37",
  dark_gray: "90",
  light_red: "91",
  light_green: "92",
  light_yellow: "93",
  light_blue: "94",
  light_magenta: "95",
  light_cyan: "96",
  white: "97",
};

const MARKUP = /\[([a-z0-9_-]+)\]/g;

/**
 * Terraform's `Colorize.Color` on a piece of colour markup: each known `[code]` becomes its
 * escape sequence (`[green]` → `ESC[32m`) and, when any was found, a reset (`ESC[0m`) is
 * appended, as colorstring does with `Reset: true`. Unknown bracketed words (`[0]` of an
 * address) are left as they are. With `enabled` false the known codes are removed and
 * nothing is added, as Terraform's `-no-color` does.
 *
 * Only fixed markup and text without brackets should go through it: a value's text could
 * contain something that reads as a code.
 */
export function colorize(markup: string, enabled: boolean): string {
  let coloured = false;
  const out = markup.replace(MARKUP, (whole, name: string) => {
    const code = COLOR_CODES[name];
    if (code === undefined) return whole;
    coloured = true;
    return enabled ? `\x1b[${code}m` : "";
  });
  return coloured && enabled ? `${out}\x1b[0m` : out;
}

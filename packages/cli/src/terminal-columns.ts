import type { CliStream } from "./cli-io.js";

/** The width Terraform assumes for a stream that is not a terminal (its `defaultColumns`). */
export const DEFAULT_COLUMNS = 78;

/**
 * The width Terraform formats a stream's human output for (its `Stream.Columns`): the
 * terminal's width when the stream is a terminal that reports one, else 78.
 */
export function terminalColumns(stream: CliStream): number {
  const columns = stream.isTTY === true ? stream.columns : undefined;
  return columns !== undefined && Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_COLUMNS;
}

/**
 * Terraform's `format.WordWrap`: each line not starting with a space word-wrapped so that no
 * line is longer than `width - 1` (a word longer than that stays whole on its own line).
 */
export function wordWrap(text: string, width: number): string {
  if (width <= 1) return text;
  return text
    .split("\n")
    .map((line) => (line.startsWith(" ") ? line : wrapLine(line, width - 1)))
    .join("\n");
}

/** go-wordwrap's `WrapString` on one line: breaks at spaces so that lines are at most `limit` long where the words allow. */
export function wrapLine(line: string, limit: number): string {
  if (line.length <= limit) return line;
  const out: string[] = [];
  let cur = "";
  for (const word of line.split(" ")) {
    if (cur !== "" && cur.length + 1 + word.length > limit) {
      out.push(cur);
      cur = word;
    } else cur = cur === "" ? word : `${cur} ${word}`;
  }
  out.push(cur);
  return out.join("\n");
}

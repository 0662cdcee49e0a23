/**
 * Builders of JSON text as Go's `encoding/json` writes it, for the `terraform show -json`
 * renderings: struct fields in declaration order (absent fields left out, as `omitempty`
 * does), map keys sorted by their UTF-8 bytes, and — on the finished document — the HTML
 * escapes Go applies to every string (`<`, `>`, `&`, U+2028, U+2029). Every function takes
 * and returns finished JSON text, so exact cty numbers are never routed through JS numbers.
 *
 * @internal
 */

/** JSON text of a string. */
export function jsonString(s: string): string {
  return JSON.stringify(s);
}

/** JSON text of a struct: the fields in the order given; `undefined` values are left out. */
export function jsonStruct(fields: ReadonlyArray<readonly [string, string | undefined]>): string {
  const parts: string[] = [];
  for (const [k, v] of fields) if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`);
  return `{${parts.join(",")}}`;
}

/** JSON text of a Go map: keys sorted by UTF-8 bytes. */
export function jsonMap(entries: Iterable<readonly [string, string]>): string {
  const list = [...entries].sort((a, b) => compareUtf8(a[0], b[0]));
  return `{${list.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
}

/** JSON text of an array. */
export function jsonArray(items: readonly string[]): string {
  return `[${items.join(",")}]`;
}

/** Go's string order: by UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

const HTML = /[<>&\u2028\u2029]/g;
const ESCAPES: Readonly<Record<string, string>> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * Applies Go's HTML-safe escapes to a finished JSON document. These characters can only
 * occur inside JSON strings, so replacing them everywhere is exact.
 */
export function goEscape(json: string): string {
  return json.replace(HTML, (c) => ESCAPES[c]!);
}

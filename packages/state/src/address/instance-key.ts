/**
 * The key of one instance of a resource or module: a number (`count`), a string
 * (`for_each`), or undefined for an object without either (Terraform's `NoKey`).
 */
export type InstanceKey = number | string | undefined;

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/**
 * Quotes `s` the way Terraform prints a string instance key (HCL quoting): `"`, `\`, `\n`,
 * `\r`, `\t` escaped, `${`/`%{` doubled, other non-printable characters as `\uNNNN`/`\UNNNNNNNN`.
 */
export function quoteHcl(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    switch (ch) {
      case "\n": out += "\\n"; break;
      case "\r": out += "\\r"; break;
      case "\t": out += "\\t"; break;
      case '"': out += '\\"'; break;
      case "\\": out += "\\\\"; break;
      case "$":
      case "%":
        out += ch;
        if (s[i] === "{") out += ch;
        break;
      default:
        if (PRINTABLE.test(ch)) out += ch;
        else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
        else out += "\\U" + cp.toString(16).padStart(8, "0");
    }
  }
  return out + '"';
}

/** Prints an instance key as Terraform does: `[0]`, `["a"]`, or "" for no key. */
export function formatInstanceKey(key: InstanceKey): string {
  if (key === undefined) return "";
  if (typeof key === "number") return `[${key}]`;
  return `[${quoteHcl(key)}]`;
}

/** Terraform's instance key order: no key first, then numbers, then strings (byte order). */
export function compareInstanceKeys(a: InstanceKey, b: InstanceKey): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === "number") return typeof b === "number" ? a - b : -1;
  if (typeof b === "number") return 1;
  return compareBytes(a, b);
}

/** Compares two strings by their UTF-8 bytes (Go's string order). */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // UTF-16 order differs from UTF-8 order only between surrogates and U+E000..U+FFFF.
      const sx = x >= 0xd800 && x <= 0xdfff;
      const sy = y >= 0xd800 && y <= 0xdfff;
      if (sx !== sy && x >= 0xd800 && y >= 0xd800) return sx ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

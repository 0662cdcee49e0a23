const HEX = "0123456789abcdef";

// Characters that Go's encoding/json escapes (with its default HTML-safe escaping): control
// characters, quote, backslash, <, >, &, U+2028, U+2029, and lone surrogates (which
// encode to U+FFFD in UTF-8).
const NEEDS_ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/**
 * Writes a string as a JSON string literal exactly as Go's `encoding/json` does (Go 1.22 and
 * later, as used by Terraform): `\n`, `\r`, `\t`, `\b`, `\f` by name, other control
 * characters and `<`, `>`, `&`, U+2028, U+2029 as `\u00XX`-style escapes, and lone
 * surrogates (invalid UTF-16, which UTF-8 cannot carry) as U+FFFD.
 */
export function goJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20) {
      switch (c) {
        case 0x0a:
          rep = "\\n";
          break;
        case 0x0d:
          rep = "\\r";
          break;
        case 0x09:
          rep = "\\t";
          break;
        case 0x08:
          rep = "\\b";
          break;
        case 0x0c:
          rep = "\\f";
          break;
        default:
          rep = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = "\\\\";
    else if (c === 0x3c) rep = "\\u003c";
    else if (c === 0x3e) rep = "\\u003e";
    else if (c === 0x26) rep = "\\u0026";
    else if (c === 0x2028) rep = "\\u2028";
    else if (c === 0x2029) rep = "\\u2029";
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++; // a valid pair: copied as is
        continue;
      }
      rep = "\ufffd";
    } else if (c >= 0xdc00 && c <= 0xdfff) rep = "\ufffd";
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

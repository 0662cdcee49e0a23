const HTML = /[<>&\u2028\u2029]/g;
const HTML_TEST = /[<>&\u2028\u2029]/;
const ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

function escapeHtml(s: string): string {
  return HTML_TEST.test(s) ? s.replace(HTML, (c) => ESCAPES[c]!) : s;
}

/**
 * Quotes a string as Go's `encoding/json` does: like `JSON.stringify`, plus `<`, `>`, `&`,
 * U+2028 and U+2029 as `\u` escapes.
 *
 * @internal
 */
export function goQuote(s: string): string {
  return escapeHtml(JSON.stringify(s));
}

const STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/y;
const PLAIN = /[^"{}[\],:\s]+/y;

/**
 * Appends valid JSON text `raw` to `out` as Go's `json.MarshalIndent(…, "", "  ")` prints a
 * `json.RawMessage` nested `depth` levels deep: compacted, HTML characters in strings
 * escaped, then indented by two spaces per level; empty objects and arrays stay `{}`/`[]`.
 *
 * @internal
 */
export function appendIndented(raw: string, depth: number, out: string[]): void {
  let level = depth;
  let pos = 0;
  let chunk = "";
  const n = raw.length;
  const nl = (l: number): string => "\n" + "  ".repeat(l);
  while (pos < n) {
    const c = raw.charCodeAt(pos);
    switch (c) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        pos++;
        break;
      case 0x22: {
        STRING.lastIndex = pos;
        STRING.test(raw);
        chunk += escapeHtml(raw.slice(pos, STRING.lastIndex));
        pos = STRING.lastIndex;
        break;
      }
      case 0x7b:
      case 0x5b: {
        // An empty container stays on one line.
        let j = pos + 1;
        while (j < n) {
          const w = raw.charCodeAt(j);
          if (w !== 0x20 && w !== 0x09 && w !== 0x0a && w !== 0x0d) break;
          j++;
        }
        const close = c === 0x7b ? 0x7d : 0x5d;
        if (raw.charCodeAt(j) === close) {
          chunk += c === 0x7b ? "{}" : "[]";
          pos = j + 1;
        } else {
          level++;
          chunk += (c === 0x7b ? "{" : "[") + nl(level);
          pos++;
        }
        break;
      }
      case 0x7d:
      case 0x5d:
        level--;
        chunk += nl(level) + (c === 0x7d ? "}" : "]");
        pos++;
        break;
      case 0x2c:
        chunk += "," + nl(level);
        pos++;
        break;
      case 0x3a:
        chunk += ": ";
        pos++;
        break;
      default: {
        PLAIN.lastIndex = pos;
        PLAIN.test(raw);
        chunk += raw.slice(pos, PLAIN.lastIndex);
        pos = PLAIN.lastIndex;
      }
    }
    if (chunk.length > 4096) {
      out.push(chunk);
      chunk = "";
    }
  }
  out.push(chunk);
}

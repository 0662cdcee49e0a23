import { typeName, type Type, type Value } from "@magma/cty";

/** Go's `strconv.Quote` (printable characters kept, control characters escaped the Go way). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (c === 7) out += "\\a";
    else if (c === 8) out += "\\b";
    else if (c === 12) out += "\\f";
    else if (c === 11) out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if ((c >= 0x80 && c < 0xa0) || c === 0xad || c === 0xfeff || (c >= 0x2028 && c <= 0x2029)) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function multiline(s: string, indent: number): string | undefined {
  const lines = s.split("\n");
  if (lines.length < 2) return undefined;
  let delim = "EOT";
  while (lines.some((l) => l.trim() === delim)) delim += "_";
  const pad = " ".repeat(indent);
  return `${indent > 0 ? "<<-" : "<<"}${delim}${lines.map((l) => `\n${pad}${l}`).join("")}\n${pad}${delim}`;
}

function nullText(t: Type): string {
  switch (t.kind) {
    case "dynamic":
      return "null";
    case "string":
      return "tostring(null)";
    case "number":
      return "tonumber(null)";
    case "bool":
      return "tobool(null)";
    case "list":
    case "set":
    case "map":
      return `to${t.kind}(null) /* of ${typeName(t.element)} */`;
    default:
      return `null /* ${typeName(t)} */`;
  }
}

function sequence(items: readonly Value[], indent: number): string {
  if (items.length === 0) return "[]";
  const pad = " ".repeat(indent + 2);
  return `[${items.map((v) => `\n${pad}${formatValue(v, indent + 2)},`).join("")}\n${" ".repeat(indent)}]`;
}

function mapping(entries: readonly [string, Value][], indent: number): string {
  if (entries.length === 0) return "{}";
  const pad = " ".repeat(indent + 2);
  return `{${entries.map(([k, v]) => `\n${pad}${goQuote(k)} = ${formatValue(v, indent + 2)}`).join("")}\n${" ".repeat(indent)}}`;
}

/**
 * A value in Terraform's language syntax, as `terraform output` and the console print it
 * (Terraform's `repl.FormatValue`): `tolist([...])`, `toset`, `tomap` where the type is not
 * a tuple or object, heredocs for multi-line strings, `(sensitive value)` for marked values.
 */
export function formatValue(v: Value, indent = 0): string {
  if (!v.isKnown()) return "(known after apply)";
  if (v.isMarked("sensitive")) return "(sensitive value)";
  const t = v.type;
  if (v.isNull()) return nullText(t);
  switch (t.kind) {
    case "string":
      return multiline(v.asString(), indent) ?? goQuote(v.asString());
    case "number":
      return v.asNumber().toString();
    case "bool":
      return v.asBool() ? "true" : "false";
    case "object":
      return mapping(Object.entries(v.attributes()).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), indent);
    case "map":
      return `tomap(${mapping([...v.entries()], indent)})`;
    case "tuple":
      return sequence(v.elements(), indent);
    case "list":
    case "set":
      return `to${t.kind}(${sequence(v.elements(), indent)})`;
    default:
      return "null";
  }
}

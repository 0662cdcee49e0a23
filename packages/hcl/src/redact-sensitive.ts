import { Mark, type Value } from "@magma/cty";

/** What a redacted sensitive value reads as in a message (terraform's `redactIfSensitive`). */
export const SENSITIVE_PLACEHOLDER = "(sensitive value)";

/**
 * The texts of the sensitive parts of `values`: every known string (and map key) and
 * every number inside a value marked sensitive, at any depth. Booleans are left out (their
 * two texts are ordinary words of messages).
 */
export function sensitiveTexts(values: readonly Value[]): string[] {
  const out = new Set<string>();
  for (const v of values) collect(v, false, out);
  return [...out].filter((s) => s !== "").sort((a, b) => b.length - a.length);
}

function collect(v: Value, inherited: boolean, out: Set<string>): void {
  const sensitive = inherited || v.isMarked(Mark.Sensitive);
  if (!sensitive && !v.containsMarked()) return;
  const u = v.unmark();
  if (!u.isKnown() || u.isNull()) return;
  switch (u.type.kind) {
    case "string":
      if (sensitive) out.add(u.asString());
      return;
    case "number":
      if (sensitive) out.add(u.asNumber().toString());
      return;
    case "list":
    case "set":
    case "tuple":
      for (const e of u.elements()) collect(e, sensitive, out);
      return;
    case "map":
      for (const [k, e] of u.entries()) {
        if (sensitive) out.add(k);
        collect(e, sensitive, out);
      }
      return;
    case "object":
      for (const e of Object.values(u.attributes())) collect(e, sensitive, out);
      return;
    default:
      return;
  }
}

/**
 * `message` with every quotation of a sensitive text replaced by {@link SENSITIVE_PLACEHOLDER}:
 * a double-quoted segment whose content is part of a secret (Go's `%q` of the whole value
 * or of the piece a parser stopped at, as `time.Parse` quotes), then each secret written
 * bare as a whole word (`invalid CIDR address: <secret>`). Terraform redacts this way in
 * the few functions that take marked arguments (`base64decode`, the file functions,
 * `lookup`); here it applies to every function error, so no argument marked sensitive is
 * ever quoted.
 */
export function redactSensitive(message: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return message;
  let out = message.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => {
    const inner = unquote(quoted);
    return inner !== "" && secrets.some((s) => s.includes(inner)) ? SENSITIVE_PLACEHOLDER : quoted;
  });
  for (const s of secrets) out = replaceWord(out, s);
  return out;
}

function unquote(quoted: string): string {
  try {
    const v: unknown = JSON.parse(quoted);
    if (typeof v === "string") return v;
  } catch {
    // Go's %q has escapes JSON does not (\x41, \a); the raw text is close enough.
  }
  return quoted.slice(1, -1);
}

const WORD = /[\p{L}\p{N}_]/u;

function replaceWord(text: string, word: string): string {
  let out = "";
  let from = 0;
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    if (i < from) continue;
    const before = text[i - 1];
    const after = text[i + word.length];
    const startsWord = WORD.test(word[0]!);
    const endsWord = WORD.test(word[word.length - 1]!);
    if ((startsWord && before !== undefined && WORD.test(before)) || (endsWord && after !== undefined && WORD.test(after))) continue;
    out += text.slice(from, i) + SENSITIVE_PLACEHOLDER;
    from = i + word.length;
  }
  return out + text.slice(from);
}

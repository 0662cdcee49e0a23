/**
 * JSON parsing that keeps numbers as their exact text, for comparing terraform's state
 * values with ours digit for digit.
 *
 * @internal
 * @packageDocumentation
 */

/** A JSON number as written. */
export interface ExactNumber {
  readonly num: string;
}

/** Parses JSON text; every number becomes an {@link ExactNumber}. */
export function parseExactJson(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        const k = value() as string;
        ws();
        i++;
        out[k] = value();
        ws();
        if (text[i++] === "}") return out;
      }
    }
    if (c === "[") {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === "]") return out;
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))!;
      i += m[0].length;
      return JSON.parse(m[0]) as string;
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(text.slice(i));
    if (m === null) throw new Error(`bad JSON at ${i}`);
    i += m[0].length;
    if (m[0] === "true") return true;
    if (m[0] === "false") return false;
    if (m[0] === "null") return null;
    return { num: m[0] } satisfies ExactNumber;
  };
  return value();
}

import { fromJson } from "@magma/cty/json";
import type { ObjectType, Value } from "@magma/cty";

/**
 * Splits the top level of a JSON object into its members' raw texts, without parsing the
 * values (so that numbers keep every digit). Returns `undefined` when the text is not one
 * JSON object.
 */
function topLevelMembers(text: string): { key: string; raw: string }[] | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const str = (): string | undefined => {
    if (text[i] !== '"') return undefined;
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) return undefined;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  const skipValue = (): boolean => {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        if (str() === undefined) return false;
        i--;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) return true;
        depth--;
      } else if (c === "," && depth === 0) return true;
    }
    return depth === 0;
  };
  ws();
  if (text[i] !== "{") return undefined;
  i++;
  const out: { key: string; raw: string }[] = [];
  ws();
  if (text[i] === "}") return out;
  for (;;) {
    ws();
    const key = str();
    if (key === undefined) return undefined;
    ws();
    if (text[i] !== ":") return undefined;
    i++;
    const start = i;
    if (!skipValue()) return undefined;
    out.push({ key, raw: text.slice(start, i) });
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "}") {
      i++;
      ws();
      return i === text.length ? out : undefined;
    }
    return undefined;
  }
}

/**
 * Decodes a stored state (the state file's `attributes` JSON) as a value of `type`, ignoring
 * top-level attributes the type does not have (as terraform-plugin-framework does when it
 * reads prior state); attributes missing from the JSON are null.
 *
 * @throws PathError (from cty) when the JSON is malformed or an attribute has the wrong shape.
 * @internal
 */
export function decodeStateJson(rawJson: string, type: ObjectType): Value {
  const members = topLevelMembers(rawJson);
  if (members === undefined) return fromJson(rawJson, type); // let cty report what is wrong
  const kept = members.filter((m) => Object.hasOwn(type.attributes, m.key));
  const text = `{${kept.map((m) => `${JSON.stringify(m.key)}:${m.raw}`).join(",")}}`;
  return fromJson(text, type);
}

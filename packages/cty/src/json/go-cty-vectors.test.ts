/**
 * Golden vectors from go-cty 1.12.1 (testdata/go-cty-vectors.json): the JSON text of every
 * value must match go-cty's ctyjson.Marshal byte for byte; every JSON input must decode to a
 * value that re-encodes to go-cty's canonical JSON, or fail with a PathError at go-cty's path.
 *
 * Known, intended differences (each asserted below, not skipped):
 * - Go 1.19 writes \b and \f as \u0008 and \u000c; Go >= 1.22 (Terraform 1.11) and magma write
 *   \b and \f.
 * - go-cty 1.12 ignores data after the top-level JSON value ("1 2", "01"); magma rejects it.
 * - go-cty 1.12 writes invalid JSON for an unknown or infinite value in a dynamic slot
 *   (zclconf/go-cty#169, vectors marked jsonSupersededBy); magma throws, as go-cty >= 1.14.4.
 * - go-cty panics on some inputs (recorded as `panic`); magma throws a PathError.
 * - Set elements are not addressable in magma paths: where go-cty reports `[?]` (or the
 *   element value) inside a set, magma reports the set's path and names the element in the
 *   reason.
 * - Values are rebuilt from go-cty 1.12's msgpack bytes, except where those bytes lost what the
 *   JSON shows: whole numbers beyond int64 written as float64 (vectors marked supersededBy:
 *   go-cty >= 1.14.4 writes them as text) and negative zero (msgpack's integer 0). Those are
 *   rebuilt from their JSON text, which must then come back unchanged.
 * - go-cty reports an error reading an object key at the previous attribute's path
 *   ("trailing comma in object": `.a`); magma reports it at the object.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromMsgpack, toMsgpack } from "../msgpack/index.js";
import { isPathError, formatErrorPath } from "../path-error.js";
import { Path } from "../path.js";
import { typeFromJsonValue, typeToJson } from "../type-json.js";
import type { Type } from "../type.js";
import type { Value } from "../value.js";
import { fromJson, toJson, typeFromJson } from "./index.js";

interface ValueVec {
  name: string;
  type: unknown;
  valueType?: unknown;
  msgpack?: string;
  msgpackError?: string;
  json: string | null;
  jsonError?: string;
  jsonErrorPath?: string;
  jsonSupersededBy?: string;
  supersededBy?: string;
}
interface DecodeVec {
  name: string;
  type: unknown;
  input: string;
  canonicalJson?: string;
  canonicalJsonError?: string;
  decodedType?: unknown;
  error?: string;
  path?: string;
  panic?: string;
}
interface TypeVec {
  name: string;
  input: string;
  canonical?: string;
  error?: string;
  panic?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const vectors = JSON.parse(
  readFileSync(join(here, "../../testdata/go-cty-vectors.json"), "utf8"),
) as {
  values: ValueVec[];
  jsonDecode: DecodeVec[];
  types: TypeVec[];
};

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Go 1.19's \u0008 and \u000c escapes, written as Go >= 1.22 (and magma) write them. */
function modernEscapes(json: string): string {
  return json.replace(/\\(\\|u0008|u000c)/g, (m, g: string) =>
    g === "u0008" ? "\\b" : g === "u000c" ? "\\f" : m,
  );
}

type GoStep =
  | { kind: "attr"; name: string }
  | { kind: "key"; key: string }
  | { kind: "index"; index: number }
  | { kind: "other" };

/** Parses the vectors' path rendering: `.name`, `["key"]`, `[3]`, `[?]`, `[-Inf]`. */
function parseGoPath(text: string): GoStep[] {
  const steps: GoStep[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ".") {
      const m = /^\.([^.[]*)/.exec(text.slice(i))!;
      steps.push({ kind: "attr", name: m[1]! });
      i += m[0].length;
    } else if (text.startsWith('["', i)) {
      // A JSON string inside brackets.
      let j = i + 2;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      steps.push({ kind: "key", key: JSON.parse(text.slice(i + 1, j + 1)) as string });
      i = j + 2;
    } else {
      const m = /^\[([^\]]*)\]/.exec(text.slice(i))!;
      steps.push(/^\d+$/.test(m[1]!) ? { kind: "index", index: Number(m[1]) } : { kind: "other" });
      i += m[0].length;
    }
  }
  return steps;
}

/** go-cty's path as magma reports it: cut at the first step into a set. */
function expectedPath(goPath: string, type: Type): string {
  let p = Path.root;
  let t: Type | undefined = type;
  for (const s of parseGoPath(goPath)) {
    if (t === undefined || t.kind === "set" || s.kind === "other") break;
    if (t.kind === "dynamic") {
      // The concrete type comes from the data: follow the steps as they are.
      p = s.kind === "attr" ? p.attr(s.name) : s.kind === "key" ? p.key(s.key) : p.index(s.index);
      continue;
    }
    if (s.kind === "attr") {
      p = p.attr(s.name);
      t = t.kind === "object" ? t.attributes[s.name] : undefined;
    } else if (s.kind === "key") {
      p = p.key(s.key);
      t = t.kind === "map" ? t.element : undefined;
    } else {
      p = p.index(s.index);
      t = t.kind === "list" ? t.element : t.kind === "tuple" ? t.elements[s.index] : undefined;
    }
  }
  return formatErrorPath(p);
}

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

const TRAILING_ACCEPTED_BY_GO = new Set([
  "trailing data after number",
  "trailing data after string",
  "trailing data after list",
  "trailing data after object",
  "trailing data after dynamic",
  "leading zero number",
]);
const NEGATIVE_ZERO = new Set([
  "number from -0",
  "number -0 parsed from string",
  "number -0.0 from float64",
]);
const KEY_ERROR_AT_PREVIOUS_ATTRIBUTE = new Set(["trailing comma in object"]);

describe("go-cty 1.12 JSON encoding vectors (values[])", () => {
  const cases = vectors.values.filter((v) => v.msgpack !== undefined);
  test("the vectors are present", () => {
    expect(cases.length).toBeGreaterThan(200);
  });
  test.each(cases.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const type = typeFromJsonValue(v.type);
    const fromText = v.json !== null && (v.supersededBy !== undefined || NEGATIVE_ZERO.has(v.name));
    const value: Value = fromText ? fromJson(v.json!, type) : fromMsgpack(hexBytes(v.msgpack!), type);
    if (v.json !== null && v.jsonSupersededBy === undefined) {
      if (NEGATIVE_ZERO.has(v.name)) {
        // Negative zero prints "-0" and is written to msgpack as the integer 0, as go-cty does.
        expect(v.json).toBe("-0");
        expect(v.msgpack).toBe("00");
        expect(Buffer.from(toMsgpack(value, type)).toString("hex")).toBe("00");
      }
      expect(toJson(value, type)).toBe(modernEscapes(v.json));
      return;
    }
    const e = catchError(() => toJson(value, type));
    expect(isPathError(e)).toBe(true);
    if (!isPathError(e)) return;
    if (v.jsonSupersededBy !== undefined) {
      expect(["unknown_value", "invalid_value"]).toContain(e.code);
      return;
    }
    expect(e.message).toContain(v.jsonError!);
    expect(formatErrorPath(e.path)).toBe(expectedPath(v.jsonErrorPath ?? "", type));
  });
});

describe("go-cty 1.12 JSON decoding vectors (jsonDecode[])", () => {
  test.each(vectors.jsonDecode.map((v) => [v.name, v] as const))("%s", (name, v) => {
    const type = typeFromJsonValue(v.type);
    if (TRAILING_ACCEPTED_BY_GO.has(name)) {
      expect(v.error).toBeUndefined();
      const e = catchError(() => fromJson(v.input, type));
      expect(isPathError(e) && e.code).toBe("malformed_json");
      return;
    }
    if (v.error !== undefined || v.panic !== undefined) {
      const e = catchError(() => fromJson(v.input, type));
      expect(isPathError(e)).toBe(true);
      if (isPathError(e) && KEY_ERROR_AT_PREVIOUS_ATTRIBUTE.has(name)) {
        expect(v.path).toBe(".a");
        expect(formatErrorPath(e.path)).toBe("");
        expect(e.code).toBe("malformed_json");
      } else if (isPathError(e) && v.path !== undefined) {
        expect(formatErrorPath(e.path)).toBe(expectedPath(v.path, type));
        const where = expectedPath(v.path, type);
        if (where !== "") expect(e.message.startsWith(`${where}: `)).toBe(true);
      }
      return;
    }
    const value = fromJson(v.input, type);
    const decodedType: Type = v.decodedType !== undefined ? typeFromJsonValue(v.decodedType) : type;
    expect(typeToJson(value.type)).toBe(typeToJson(decodedType));
    if (v.canonicalJsonError !== undefined) {
      const e = catchError(() => toJson(value, type));
      expect(isPathError(e) && e.message).toContain(v.canonicalJsonError);
      return;
    }
    expect(toJson(value, type)).toBe(modernEscapes(v.canonicalJson!));
    // Decoding our own output gives the same value again.
    expect(fromJson(toJson(value, type), type).rawEquals(value)).toBe(true);
  });
});

describe("go-cty 1.12 type JSON vectors (types[])", () => {
  test.each(vectors.types.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    if (v.canonical !== undefined) {
      expect(typeToJson(typeFromJson(v.input))).toBe(v.canonical);
    } else {
      const e = catchError(() => typeFromJson(v.input));
      expect(isPathError(e) && e.code).toBe("invalid_type");
    }
  });
});

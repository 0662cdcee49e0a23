import { compareUtf8 } from "./internal/compare-utf8.js";
import { goJsonString } from "./internal/go-json-string.js";
import { Path } from "./path.js";
import { PathError, PathErrorCode } from "./path-error.js";
import {
  boolType,
  dynamicType,
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  tupleType,
  type Type,
} from "./type.js";

/** Deepest type nesting accepted when decoding, so hostile input cannot exhaust the stack. */
const MAX_DEPTH = 500;

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Writes a type as cty type JSON, exactly as go-cty's `MarshalType`: `"string"`,
 * `["list","number"]`, `["object",{"a":"bool"}]` with keys in UTF-8 byte order and no
 * whitespace, and `["object",{...},["opt"]]` when attributes are marked optional.
 */
export function typeToJson(type: Type): string {
  if (type.kind === "string" || type.kind === "number" || type.kind === "bool" || type.kind === "dynamic") return `"${type.kind}"`;
  // Types are immutable and, made by the constructors, shared (interned): the text of a
  // composite type is remembered per type object.
  let json = typeJsonCache.get(type);
  if (json === undefined) {
    json = writeTypeJson(type);
    typeJsonCache.set(type, json);
  }
  return json;
}

const typeJsonCache = new WeakMap<Type, string>();

function writeTypeJson(type: Type): string {
  switch (type.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return `"${type.kind}"`;
    case "list":
    case "set":
    case "map":
      return `["${type.kind}",${typeToJson(type.element)}]`;
    case "tuple":
      return `["tuple",[${type.elements.map(typeToJson).join(",")}]]`;
    case "object": {
      const attrs = type.attributeNames
        .map((n) => `${goJsonString(n)}:${typeToJson(type.attributes[n]!)}`)
        .join(",");
      if (type.optional.size === 0) return `["object",{${attrs}}]`;
      const opt = [...type.optional].sort(compareUtf8).map(goJsonString).join(",");
      return `["object",{${attrs}},[${opt}]]`;
    }
  }
}

/**
 * Reads cty type JSON (text or UTF-8 bytes), as go-cty's `UnmarshalType`; whitespace is
 * allowed, trailing data is not.
 *
 * @throws {@link PathError} with code `invalid_type` naming what is wrong.
 */
export function typeFromJson(json: string | Uint8Array): Type {
  let text: string;
  if (typeof json === "string") {
    text = json;
  } else {
    try {
      text = decoder.decode(json);
    } catch (cause) {
      throw new PathError(PathErrorCode.InvalidType, Path.root, "type JSON is not valid UTF-8", { cause });
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new PathError(
      PathErrorCode.InvalidType,
      Path.root,
      `invalid type JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  return typeFromJsonValue(parsed);
}

/**
 * Reads an already-parsed cty type JSON structure (for example the `type` of an attribute
 * in `terraform providers schema -json` output).
 *
 * @throws {@link PathError} with code `invalid_type` naming what is wrong.
 */
export function typeFromJsonValue(json: unknown): Type {
  return decode(json, 0);
}

function decode(json: unknown, depth: number): Type {
  if (depth > MAX_DEPTH) throw invalid(`type nesting is deeper than ${MAX_DEPTH}`);
  if (typeof json === "string") {
    switch (json) {
      case "string":
        return stringType;
      case "number":
        return numberType;
      case "bool":
        return boolType;
      case "dynamic":
        return dynamicType;
      default:
        throw invalid(`invalid primitive type name ${JSON.stringify(json)}`);
    }
  }
  if (!Array.isArray(json)) throw invalid(`a type must be a string or an array, got ${describe(json)}`);
  const [kind, arg, extra] = json as unknown[];
  switch (kind) {
    case "list":
    case "set":
    case "map": {
      if (json.length !== 2) throw invalid(`${kind} type must have exactly one element type`);
      const element = decode(arg, depth + 1);
      return kind === "list" ? listType(element) : kind === "set" ? setType(element) : mapType(element);
    }
    case "tuple": {
      if (json.length !== 2 || !Array.isArray(arg)) throw invalid("tuple type must be [\"tuple\", [types...]]");
      return tupleType(arg.map((e) => decode(e, depth + 1)));
    }
    case "object": {
      if (json.length !== 2 && json.length !== 3) {
        throw invalid('object type must be ["object", {attributes}] or ["object", {attributes}, [optional]]');
      }
      if (typeof arg !== "object" || arg === null || Array.isArray(arg)) {
        throw invalid(`object type attributes must be a JSON object, got ${describe(arg)}`);
      }
      const attrs = new Map<string, Type>();
      for (const [name, t] of Object.entries(arg)) attrs.set(name, decode(t, depth + 1));
      let optional: string[] | undefined;
      if (json.length === 3) {
        if (!Array.isArray(extra) || !extra.every((n) => typeof n === "string")) {
          throw invalid("optional attributes of an object type must be an array of strings");
        }
        for (const n of extra) {
          if (!attrs.has(n)) throw invalid(`optional attribute ${JSON.stringify(n)} is not an attribute of the object type`);
        }
        optional = extra;
      }
      return objectType(attrs, optional);
    }
    default:
      throw invalid(`invalid complex type kind ${typeof kind === "string" ? JSON.stringify(kind) : describe(kind)}`);
  }
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  return typeof x === "object" ? "an object" : `a ${typeof x}`;
}

function invalid(reason: string): PathError {
  return new PathError(PathErrorCode.InvalidType, Path.root, reason);
}

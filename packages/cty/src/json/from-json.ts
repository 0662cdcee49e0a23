import { stringToBool, stringToNumber } from "../convert/primitive-conversions.js";
import { Path } from "../path.js";
import { PathError, PathErrorCode, isPathError } from "../path-error.js";
import { typeFromJsonValue } from "../type-json.js";
import type { ObjectType, TupleType, Type } from "../type.js";
import { boolVal, emptyTupleVal, listVal, listValEmpty, mapVal, mapValEmpty, nullVal, objectVal, setVal, setValEmpty, stringVal, tupleVal } from "../construction.js";
import type { Value } from "../value.js";
import { parseJsonTree, type JsonFault, type JsonNode } from "./parse-json-tree.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Reads a value of the given type from JSON, as go-cty's `ctyjson.Unmarshal` does.
 *
 * The decoding is lenient in the same ways as go-cty's:
 * - an object attribute missing from the JSON is null; a key that is not an attribute is an
 *   error (`unsupported attribute "x"`); for a duplicated key the last one wins;
 * - a number may be given as a JSON string (`"12"`, `"1e3"`, `"Inf"`), parsed exactly;
 * - a string may be given as a number or bool token, taken as its text (`1.50` → `"1.50"`);
 * - a bool may be given as the strings `"true"`, `"false"`, `"1"` or `"0"`;
 * - JSON `null` is the null of the expected type;
 * - where the type is dynamic, the JSON must be `{"value": …, "type": …}` (type JSON as in
 *   {@link typeFromJson}), or `null`.
 *
 * Numbers never go through a JS `number`: `9007199254740993` stays exact. Unlike go-cty, data
 * after the top-level value and invalid UTF-8 (bytes, or lone surrogates in a string) are
 * rejected rather than ignored or replaced.
 *
 * @param json JSON text, or its UTF-8 bytes.
 * @throws {@link PathError} naming the path of the problem: `malformed_json` for text that
 * is not JSON (with the path of the top-level element it is in, as go-cty reports it),
 * `type_mismatch` for JSON of the wrong shape (`.rules[1].from: a number is required`),
 * `invalid_type` for a bad dynamic type, `invalid_value` for a number beyond the supported
 * range (exponent ±100000).
 */
export function fromJson(json: string | Uint8Array, type: Type): Value {
  let text: string;
  if (typeof json === "string") {
    const bad = LONE_SURROGATE.exec(json);
    if (bad !== null) {
      throw new PathError(
        PathErrorCode.MalformedJson,
        Path.root,
        `invalid UTF-8: lone surrogate at offset ${bad.index}`,
      );
    }
    text = json;
  } else {
    try {
      text = utf8.decode(json);
    } catch (cause) {
      throw new PathError(PathErrorCode.MalformedJson, Path.root, "invalid UTF-8 in JSON input", {
        cause,
      });
    }
  }
  const doc = parseJsonTree(text);
  const value = decode(doc.root, type, Path.root);
  if (doc.trailing !== undefined) throw syntax(Path.root, "", doc.trailing);
  return value;
}

function syntax(path: Path, context: string, fault: JsonFault): PathError {
  return new PathError(
    PathErrorCode.MalformedJson,
    path,
    `${context}${fault.message} (at offset ${fault.offset})`,
  );
}

function mismatch(path: Path, reason: string): PathError {
  return new PathError(PathErrorCode.TypeMismatch, path, reason);
}

function decode(node: JsonNode, type: Type, path: Path): Value {
  if (node.k === "broken") throw syntax(path, "", node.fault);
  if (node.k === "null") return nullVal(type);
  switch (type.kind) {
    case "dynamic":
      return decodeDynamic(node, path);
    case "string":
      switch (node.k) {
        case "string":
          return stringVal(node.value);
        case "number":
          return stringVal(node.text);
        case "bool":
          return stringVal(node.value ? "true" : "false");
        default:
          throw mismatch(path, "string is required");
      }
    case "number":
      if (node.k === "number") return stringToNumber(node.text, path);
      if (node.k === "string") return stringToNumber(node.value, path);
      throw mismatch(path, "number is required");
    case "bool":
      if (node.k === "bool") return boolVal(node.value);
      if (node.k === "string") return stringToBool(node.value, path);
      throw mismatch(path, "bool is required");
    case "list":
    case "set": {
      if (node.k !== "array") throw mismatch(path, "missing expected [");
      const what = type.kind;
      const values: Value[] = [];
      node.items.forEach((item, i) => {
        const p = path.index(i);
        if (item.k === "broken") throw syntax(p, `failed to read ${what} value: `, item.fault);
        values.push(
          what === "set"
            ? decodeSetElement(item, type.element, path, i)
            : decode(item, type.element, p),
        );
      });
      if (node.fault !== undefined) throw syntax(path, "", node.fault);
      if (values.length === 0)
        return what === "list" ? listValEmpty(type.element) : setValEmpty(type.element);
      return build(path, () => (what === "list" ? listVal(values) : setVal(values)));
    }
    case "map": {
      if (node.k !== "object") throw mismatch(path, "missing expected {");
      const entries = new Map<string, Value>();
      node.keys.forEach((key, i) => {
        const p = path.key(key);
        const item = node.values[i]!;
        if (item.k === "broken") throw syntax(p, "failed to read map value: ", item.fault);
        entries.delete(key); // the last duplicate wins
        entries.set(key, decode(item, type.element, p));
      });
      if (node.fault !== undefined) throw syntax(path, "", node.fault);
      if (entries.size === 0) return mapValEmpty(type.element);
      return build(path, () => mapVal(entries));
    }
    case "tuple":
      return decodeTuple(node, type, path);
    case "object":
      return decodeObject(node, type, path);
  }
}

/** Set elements are not addressable: an error inside one is reported at the set. */
function decodeSetElement(item: JsonNode, type: Type, setPath: Path, i: number): Value {
  try {
    return decode(item, type, Path.root);
  } catch (e) {
    if (!isPathError(e)) throw e;
    const inner = e.path.toString();
    const where = inner === "" ? "" : inner.startsWith("[") ? inner : `.${inner}`;
    throw new PathError(e.code, setPath, `set element ${i}${where}: ${e.reason}`, { cause: e });
  }
}

function decodeTuple(node: JsonNode, type: TupleType, path: Path): Value {
  if (node.k !== "array") throw mismatch(path, "missing expected [");
  const n = type.elements.length;
  const values: Value[] = [];
  node.items.forEach((item, i) => {
    if (i >= n) throw mismatch(path, `too many tuple elements (need ${n})`);
    const p = path.index(i);
    if (item.k === "broken") throw syntax(p, "failed to read tuple value: ", item.fault);
    values.push(decode(item, type.elements[i]!, p));
  });
  if (node.fault !== undefined) throw syntax(path, "", node.fault);
  if (values.length !== n) throw mismatch(path, `not enough tuple elements (need ${n})`);
  return values.length === 0 ? emptyTupleVal : tupleVal(values);
}

function decodeObject(node: JsonNode, type: ObjectType, path: Path): Value {
  if (node.k !== "object") throw mismatch(path, "missing expected {");
  const attrs = new Map<string, Value>();
  node.keys.forEach((key, i) => {
    const at = type.attributes[key];
    if (at === undefined) throw mismatch(path, `unsupported attribute ${JSON.stringify(key)}`);
    const p = path.attr(key);
    const item = node.values[i]!;
    if (item.k === "broken") throw syntax(p, "failed to read object value: ", item.fault);
    attrs.set(key, decode(item, at, p));
  });
  if (node.fault !== undefined) throw syntax(path, "", node.fault);
  for (const name of type.attributeNames) {
    if (!attrs.has(name)) attrs.set(name, nullVal(type.attributes[name]!));
  }
  return objectVal(attrs);
}

function decodeDynamic(node: JsonNode, path: Path): Value {
  if (node.k !== "object") throw mismatch(path, "missing expected {");
  let type: Type | undefined;
  let body: JsonNode | undefined;
  node.keys.forEach((key, i) => {
    const item = node.values[i]!;
    if (item.k === "broken")
      throw syntax(path, "failed to read dynamic type descriptor value: ", item.fault);
    switch (key) {
      case "type":
        try {
          type = typeFromJsonValue(toPlain(item));
        } catch (e) {
          if (!isPathError(e)) throw e;
          throw new PathError(
            PathErrorCode.InvalidType,
            path,
            `failed to decode type for dynamic value: ${e.reason}`,
            { cause: e },
          );
        }
        break;
      case "value":
        body = item;
        break;
      default:
        throw mismatch(path, `invalid key ${JSON.stringify(key)} in dynamically-typed value`);
    }
  });
  if (node.fault !== undefined) throw syntax(path, "", node.fault);
  if (type === undefined) throw mismatch(path, "missing type in dynamically-typed value");
  if (body === undefined) throw mismatch(path, "missing value in dynamically-typed value");
  return decode(body, type, path);
}

/** A well-formed node as plain JSON data, for the type decoder. */
function toPlain(node: JsonNode): unknown {
  switch (node.k) {
    case "string":
      return node.value;
    case "number":
      return Number(node.text);
    case "bool":
      return node.value;
    case "null":
      return null;
    case "array":
      return node.items.map(toPlain);
    case "object": {
      const out = Object.create(null) as Record<string, unknown>;
      node.keys.forEach((k, i) => (out[k] = toPlain(node.values[i]!)));
      return out;
    }
    case "broken":
      return undefined; // not reached: broken nodes are rejected before
  }
}

/** Runs a value constructor, giving its errors (such as mixed element types) the path. */
function build(path: Path, make: () => Value): Value {
  try {
    return make();
  } catch (e) {
    if (!isPathError(e)) throw e;
    throw new PathError(e.code, path.concat(e.path), e.reason, { cause: e });
  }
}

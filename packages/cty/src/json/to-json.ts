import { convert } from "../convert/convert.js";
import { conforms } from "../convert/type-utils.js";
import { goJsonString } from "../internal/go-json-string.js";
import type { CtyNumber } from "../number.js";
import { Path } from "../path.js";
import { PathError, PathErrorCode, formatErrorPath, isPathError } from "../path-error.js";
import { typeToJson } from "../type-json.js";
import type { Type } from "../type.js";
import type { Value } from "../value.js";

/**
 * Writes a value as JSON for the given type, exactly as go-cty's `ctyjson.Marshal`: object
 * attributes in UTF-8 byte order with every attribute present, map keys in UTF-8 byte order,
 * numbers in plain decimal without exponent (`18446744073709551616`, `0.1`), strings escaped
 * as Go's `encoding/json` does, lists, sets and tuples as arrays, and a value in a dynamic
 * slot as `{"value":…,"type":…}` (a null of dynamic type as `null`).
 *
 * A value whose type does not conform to `type` is first converted with {@link convert}, as
 * go-cty does. Marks are stripped: they are never written (go-cty refuses marked values;
 * unmark them first if that matters).
 *
 * @throws {@link PathError} `unknown_value` ("value is not known") with the path of an
 * unknown value, which JSON cannot represent; `invalid_value` for an infinite number; any
 * error of {@link convert} when the value cannot be converted to the type.
 */
export function toJson(value: Value, type: Type): string {
  const v = conforms(value.type, type) ? value : convert(value, type);
  const out: string[] = [];
  encode(v, type, Path.root, out);
  return out.join("");
}

function encode(v: Value, t: Type, path: Path, out: string[]): void {
  if (t.kind === "dynamic" && v.type.kind !== "dynamic") {
    out.push('{"value":');
    encode(v, v.type, path, out);
    out.push(',"type":', typeToJson(v.type), "}");
    return;
  }
  if (v._s === 1) {
    out.push("null");
    return;
  }
  if (v._s === 2) throw new PathError(PathErrorCode.UnknownValue, path, "value is not known");
  switch (t.kind) {
    case "string":
      out.push(goJsonString(v._v as string));
      return;
    case "number": {
      const n = v._v as CtyNumber;
      if (n.isInfinite())
        throw new PathError(PathErrorCode.InvalidValue, path, "cannot serialize infinity as JSON");
      out.push(n.toString());
      return;
    }
    case "bool":
      out.push(v._v === true ? "true" : "false");
      return;
    case "list":
    case "tuple": {
      const elems = v._v as readonly Value[];
      out.push("[");
      elems.forEach((e, i) => {
        if (i > 0) out.push(",");
        encode(e, t.kind === "list" ? t.element : t.elements[i]!, path.index(i), out);
      });
      out.push("]");
      return;
    }
    case "set": {
      const elems = v._v as readonly Value[];
      out.push("[");
      elems.forEach((e, i) => {
        if (i > 0) out.push(",");
        try {
          encode(e, t.element, Path.root, out);
        } catch (err) {
          // Set elements are not addressable: report at the set, naming the element.
          if (!isPathError(err)) throw err;
          throw new PathError(
            err.code,
            path,
            `set element ${i}${formatErrorPath(err.path)}: ${err.reason}`,
            { cause: err },
          );
        }
      });
      out.push("]");
      return;
    }
    case "map": {
      out.push("{");
      let first = true;
      for (const [k, e] of v._v as ReadonlyMap<string, Value>) {
        if (!first) out.push(",");
        first = false;
        out.push(goJsonString(k), ":");
        encode(e, t.element, path.key(k), out);
      }
      out.push("}");
      return;
    }
    case "object": {
      const attrs = v._v as readonly Value[];
      const names = (v.type as typeof t).attributeNames;
      out.push("{");
      t.attributeNames.forEach((name, i) => {
        if (i > 0) out.push(",");
        // The value's attributes are in its own type's order, which has the same names.
        const at = names[i] === name ? attrs[i]! : attrs[names.indexOf(name)]!;
        out.push(goJsonString(name), ":");
        encode(at, t.attributes[name]!, path.attr(name), out);
      });
      out.push("}");
      return;
    }
    case "dynamic":
      // A null or unknown of dynamic type was handled above; a known value is never dynamic.
      throw new PathError(
        PathErrorCode.InvalidValue,
        path,
        "a known value cannot have the dynamic type",
      );
  }
}

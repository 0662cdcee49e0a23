import type { CtyNumber } from "../number.js";
import { Path } from "../path.js";
import { PathError, PathErrorCode } from "../path-error.js";
import type { Value } from "../value.js";

/** Options of {@link toPlain}. */
export interface ToPlainOptions {
  /**
   * How to give numbers: `"auto"` (the default) gives a JS number when the cty number is
   * exactly a float64 (or infinite) and its decimal text otherwise, so nothing is rounded;
   * `"string"` always gives the decimal text (`"18446744073709551616"`).
   */
  readonly numbers?: "auto" | "string";
  /**
   * What to put in place of an unknown value; without it, an unknown is an error. Called with
   * the unknown's path and the value itself.
   */
  readonly unknown?: (path: Path, value: Value) => unknown;
}

/**
 * Turns a cty value into plain JavaScript data: strings, booleans, `null`, numbers (see
 * {@link ToPlainOptions.numbers}), arrays for lists, sets and tuples, plain objects for maps
 * and objects. Marks are not carried over.
 *
 * @throws {@link PathError} `unknown_value` with the path of an unknown value, unless
 * {@link ToPlainOptions.unknown} is given.
 */
export function toPlain(value: Value, options?: ToPlainOptions): unknown {
  return plainAt(value, Path.root, options?.numbers === "string", options?.unknown);
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function plainAt(
  v: Value,
  path: Path,
  numbersAsText: boolean,
  onUnknown: ToPlainOptions["unknown"],
): unknown {
  if (!v.isKnown()) {
    if (onUnknown !== undefined) return onUnknown(path, v);
    throw new PathError(PathErrorCode.UnknownValue, path, "value is not known");
  }
  if (v.isNull()) return null;
  const t = v.type;
  switch (t.kind) {
    case "string":
      return v.unmark().asString();
    case "bool":
      return v.unmark().asBool();
    case "number": {
      const n: CtyNumber = v.unmark().asNumber();
      if (!numbersAsText && n.isFloat64()) return n.toNumber();
      return n.toString();
    }
    case "list":
    case "tuple":
      return v
        .unmark()
        .elements()
        .map((e, i) => plainAt(e, path.index(i), numbersAsText, onUnknown));
    case "set":
      return v
        .unmark()
        .elements()
        .map((e) => plainAt(e, path, numbersAsText, onUnknown));
    case "map": {
      const out: Record<string, unknown> = {};
      for (const [k, e] of v.unmark().entries())
        setOwn(out, k, plainAt(e, path.key(k), numbersAsText, onUnknown));
      return out;
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const attrs = v.unmark().attributes();
      for (const n of t.attributeNames)
        setOwn(out, n, plainAt(attrs[n]!, path.attr(n), numbersAsText, onUnknown));
      return out;
    }
    case "dynamic":
      throw new PathError(
        PathErrorCode.InvalidValue,
        path,
        "a known value cannot have the dynamic type",
      );
  }
}

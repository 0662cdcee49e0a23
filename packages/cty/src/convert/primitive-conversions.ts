import { parseGoNumber } from "./parse-go-number.js";
import type { Path } from "../path.js";
import { PathError, PathErrorCode, isPathError } from "../path-error.js";
import { boolVal, numberVal } from "../construction.js";
import type { Value } from "../value.js";

/**
 * String to number, as go-cty's unsafe primitive conversion (and its JSON decoder for a
 * JSON string where a number is expected).
 *
 * @throws {@link PathError} `type_mismatch` "a number is required" at `path` when the text is
 * not a number; `invalid_value` when it is beyond the supported exponent range.
 * @internal
 */
export function stringToNumber(s: string, path: Path): Value {
  let n;
  try {
    n = parseGoNumber(s);
  } catch (e) {
    if (isPathError(e)) throw new PathError(e.code, path, e.reason, { cause: e });
    throw e;
  }
  if (n === undefined)
    throw new PathError(PathErrorCode.TypeMismatch, path, "a number is required");
  return numberVal(n);
}

/**
 * String to bool, as go-cty's unsafe primitive conversion: `"true"` and `"1"` are true,
 * `"false"` and `"0"` are false, anything else fails (with a hint for other letter cases).
 *
 * @throws {@link PathError} `type_mismatch` at `path`.
 * @internal
 */
export function stringToBool(s: string, path: Path): Value {
  switch (s) {
    case "true":
    case "1":
      return boolVal(true);
    case "false":
    case "0":
      return boolVal(false);
  }
  const lower = s.toLowerCase();
  const hint =
    lower === "true" || lower === "false"
      ? `; to convert from string, use lowercase "${lower}"`
      : "";
  throw new PathError(PathErrorCode.TypeMismatch, path, `a bool is required${hint}`);
}

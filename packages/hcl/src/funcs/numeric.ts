/**
 * Numeric functions: go-cty's `stdlib/number.go` and Terraform's `funcs/number.go`.
 *
 * @internal
 * @packageDocumentation
 */

import { CtyNumber, convert, listType, listVal, listValEmpty, numberType, numberVal, typeName, unknownVal, type Value } from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { addGoNumbers } from "./big-float.js";
import { absNumber, ceilNumber, fixedFunction, floatResult, floorNumber, notNull, param, toGoInt } from "./helpers.js";

const num = (name = "num") => param(name, numberType);

function numFn(description: string, f: (n: CtyNumber) => CtyNumber): HclFunction {
  return fixedFunction({ description, params: [num()], returns: numberType, refineResult: notNull, impl: (a) => numberVal(f(a[0]!.asNumber())) });
}

/** Digits of Go's `big.Int.SetString` for bases up to 62. */
function digitValue(c: string, base: number): number {
  const code = c.charCodeAt(0);
  let d: number;
  if (code >= 48 && code <= 57) d = code - 48;
  else if (code >= 97 && code <= 122) d = code - 97 + 10;
  else if (code >= 65 && code <= 90) d = base <= 36 ? code - 65 + 10 : code - 65 + 36;
  else return -1;
  return d < base ? d : -1;
}

function parseGoBigInt(s: string, base: number): bigint | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    i = 1;
  }
  if (i >= s.length) return undefined;
  let v = 0n;
  const b = BigInt(base);
  for (; i < s.length; i++) {
    const d = digitValue(s[i]!, base);
    if (d < 0) return undefined;
    v = v * b + BigInt(d);
  }
  return neg ? -v : v;
}

function extremum(description: string, better: (c: number) => boolean): HclFunction {
  return fixedFunction({
    description,
    params: [],
    varParam: param("numbers", numberType, { allowDynamicType: true }),
    returns: numberType,
    refineResult: notNull,
    impl: (a) => {
      if (a.length === 0) throw new FunctionError("must pass at least one number");
      let best = a[0]!;
      for (const v of a.slice(1)) if (better(v.asNumber().compare(best.asNumber()))) best = v;
      return best;
    },
  });
}

function sumType(args: readonly Value[]): typeof numberType {
  const v = args[0]!;
  const t = v.type;
  if (t.kind !== "list" && t.kind !== "set" && t.kind !== "tuple") {
    if (t.kind === "map" || t.kind === "object") {
      throw new FunctionArgError(0, `argument must be list, set, or tuple. Received ${typeName(t)}`);
    }
    throw new FunctionArgError(0, "cannot sum noniterable");
  }
  if (v.isKnown() && !v.isNull() && v.length() === 0) throw new FunctionArgError(0, "cannot sum an empty list");
  return numberType;
}

/** The numeric functions, by name. */
export function numericFunctions(): Record<string, HclFunction> {
  return {
    abs: numFn("Returns the absolute value of the given number.", absNumber),
    ceil: numFn("Returns the closest whole number that is greater than or equal to the given value.", ceilNumber),
    floor: numFn("Returns the closest whole number that is less than or equal to the given value.", floorNumber),
    signum: numFn("Determines the sign of a number, returning -1, 0 or 1.", (n) => CtyNumber.from(Math.sign(n.isInfinite() ? n.sign() : toGoInt(n)))),
    log: fixedFunction({
      description: "Returns the logarithm of a given number in a given base.",
      params: [num(), param("base", numberType)],
      returns: numberType,
      refineResult: notNull,
      impl: (a) => floatResult(Math.log(a[0]!.asNumber().toNumber()) / Math.log(a[1]!.asNumber().toNumber())),
    }),
    pow: fixedFunction({
      description: "Calculates an exponent, by raising its first argument to the power of the second argument.",
      params: [num(), param("power", numberType)],
      returns: numberType,
      refineResult: notNull,
      impl: (a) => floatResult(Math.pow(a[0]!.asNumber().toNumber(), a[1]!.asNumber().toNumber())),
    }),
    max: extremum("Returns the greatest of the given numbers.", (c) => c > 0),
    min: extremum("Returns the smallest of the given numbers.", (c) => c < 0),
    parseint: {
      description: "Parses the given string as a representation of an integer in the specified base.",
      params: [param("number", { kind: "dynamic" }), param("base", numberType)],
      refineResult: notNull,
      type: (a) => {
        if (a[0]!.type.kind !== "string") throw new FunctionArgError(0, `first argument must be a string, not ${typeName(a[0]!.type)}`);
        return numberType;
      },
      impl: (a) => {
        const s = a[0]!.asString();
        let base: number;
        try {
          base = toGoInt(a[1]!.asNumber());
        } catch (e) {
          throw new FunctionArgError(1, `invalid base: ${(e as Error).message}`);
        }
        if (base < 2 || base > 62) throw new FunctionArgError(1, "base must be a whole number between 2 and 62 inclusive");
        const v = parseGoBigInt(s, base);
        if (v === undefined) throw new FunctionArgError(0, `cannot parse ${goQuote(s)} as a base ${base} integer`);
        return numberVal(CtyNumber.fromBigInt(v));
      },
    },
    sum: {
      description: "Returns the total sum of the elements of the given list or set.",
      params: [param("list", { kind: "dynamic" })],
      type: sumType,
      impl: (a) => {
        const v = a[0]!;
        if (!v.isWhollyKnown()) return unknownVal(numberType);
        const els = v.elements();
        let total: CtyNumber | undefined;
        for (const e of els) {
          if (e.isNull()) throw new FunctionArgError(0, "argument must be list, set, or tuple of number values");
          let n: Value;
          try {
            n = convert(e, numberType);
          } catch {
            throw new FunctionArgError(0, "argument must be list, set, or tuple of number values");
          }
          total = total === undefined ? n.asNumber() : addGoNumbers(total, n.asNumber());
        }
        return numberVal(total ?? CtyNumber.zero);
      },
    },
    range: fixedFunction({
      description: "Generates a list of numbers using a start value, a limit value, and a step value.",
      params: [],
      varParam: param("params", numberType),
      returns: listType(numberType),
      refineResult: notNull,
      impl: (a) => {
        const n = a.map((v) => v.asNumber());
        let start: CtyNumber;
        let end: CtyNumber;
        let step: CtyNumber;
        const one = CtyNumber.from(1);
        const minusOne = CtyNumber.from(-1);
        if (n.length === 1) [start, end, step] = [CtyNumber.zero, n[0]!, n[0]!.sign() < 0 ? minusOne : one];
        else if (n.length === 2) [start, end, step] = [n[0]!, n[1]!, n[1]!.compare(n[0]!) < 0 ? minusOne : one];
        else if (n.length === 3) [start, end, step] = [n[0]!, n[1]!, n[2]!];
        else throw new FunctionError("must have one, two, or three arguments");
        const down = step.sign() < 0;
        if (down && end.compare(start) > 0) throw new FunctionArgError(1, "end must be less than start when step is negative");
        if (!down && end.compare(start) < 0) throw new FunctionArgError(1, "end must be greater than start when step is positive");
        const vals: Value[] = [];
        let cur = start;
        for (;;) {
          if (down ? cur.compare(end) <= 0 : cur.compare(end) >= 0) break;
          if (vals.length >= 1024) {
            throw new FunctionError("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step");
          }
          vals.push(numberVal(cur));
          cur = addGoNumbers(cur, step);
        }
        return vals.length === 0 ? listValEmpty(numberType) : listVal(vals);
      },
    }),
  };
}

/** Go's `%q` of a string (`strconv.Quote`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"') out += '\\"';
    else if (c === "\\") out += "\\\\";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (c === "\x07") out += "\\a";
    else if (c === "\b") out += "\\b";
    else if (c === "\f") out += "\\f";
    else if (c === "\v") out += "\\v";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp === 0xfffd || /[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(c)) out += c;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}


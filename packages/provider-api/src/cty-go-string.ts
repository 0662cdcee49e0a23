import type { CtyNumber, Type, Value } from "@magma/cty";

/**
 * A cty value as go-cty's `GoString` writes it (`%#v` in Go): `cty.StringVal("x")`,
 * `cty.NullVal(cty.String)`, `cty.UnknownVal(cty.Number)`,
 * `cty.ObjectVal(map[string]cty.Value{"a":cty.True})`. Terraform puts these in the
 * messages of its plan and apply checks, which are meant for provider developers; the
 * checks here use it to word their messages exactly as Terraform does. Marks are ignored.
 */
export function ctyGoString(v: Value): string {
  const t = v.type;
  if (v.isNull()) return `cty.NullVal(${ctyTypeGoString(t)})`;
  if (!v.isKnown()) {
    if (t.kind === "dynamic") return "cty.DynamicVal";
    return `cty.UnknownVal(${ctyTypeGoString(t)})${refinementSuffix(v)}`;
  }
  switch (t.kind) {
    case "bool":
      return v.asBool() ? "cty.True" : "cty.False";
    case "number":
      return numberGoString(v.asNumber());
    case "string":
      return `cty.StringVal(${goQuote(v.asString())})`;
    case "list":
      return v.length() === 0 ? `cty.ListValEmpty(${ctyTypeGoString(t.element)})` : `cty.ListVal(${valueSlice(v.elements())})`;
    case "set":
      return v.length() === 0 ? `cty.SetValEmpty(${ctyTypeGoString(t.element)})` : `cty.SetVal(${valueSlice(v.elements())})`;
    case "map":
      return v.length() === 0 ? `cty.MapValEmpty(${ctyTypeGoString(t.element)})` : `cty.MapVal(${valueMap(v.entries())})`;
    case "tuple":
      return t.elements.length === 0 ? "cty.EmptyTupleVal" : `cty.TupleVal(${valueSlice(v.elements())})`;
    case "object":
      return t.attributeNames.length === 0 ? "cty.EmptyObjectVal" : `cty.ObjectVal(${valueMap(new Map(Object.entries(v.attributes())))})`;
    default:
      return "cty.DynamicVal";
  }
}

/** A cty type as go-cty's `GoString` writes it: `cty.String`, `cty.List(cty.Number)`, `cty.Object(map[string]cty.Type{…})`. */
export function ctyTypeGoString(t: Type): string {
  switch (t.kind) {
    case "string":
      return "cty.String";
    case "number":
      return "cty.Number";
    case "bool":
      return "cty.Bool";
    case "dynamic":
      return "cty.DynamicPseudoType";
    case "list":
      return `cty.List(${ctyTypeGoString(t.element)})`;
    case "set":
      return `cty.Set(${ctyTypeGoString(t.element)})`;
    case "map":
      return `cty.Map(${ctyTypeGoString(t.element)})`;
    case "tuple":
      return t.elements.length === 0 ? "cty.EmptyTuple" : `cty.Tuple([]cty.Type{${t.elements.map(ctyTypeGoString).join(", ")}})`;
    case "object": {
      if (t.attributeNames.length === 0) return "cty.EmptyObject";
      const names = [...t.attributeNames].sort();
      return `cty.Object(map[string]cty.Type{${names.map((n) => `${goQuote(n)}:${ctyTypeGoString(t.attributes[n]!)}`).join(", ")}})`;
    }
  }
}

/** Go's `strconv.Quote` for the characters that matter here. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case "\\":
        out += "\\\\";
        continue;
      case "\x07":
        out += "\\a";
        continue;
      case "\b":
        out += "\\b";
        continue;
      case "\f":
        out += "\\f";
        continue;
      case "\n":
        out += "\\n";
        continue;
      case "\r":
        out += "\\r";
        continue;
      case "\t":
        out += "\\t";
        continue;
      case "\v":
        out += "\\v";
        continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if ((c >= 0x80 && c < 0xa0) || c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) out += c > 0xff ? `\\u${c.toString(16).padStart(4, "0")}` : `\\u00${c.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

function valueSlice(vs: readonly Value[]): string {
  return `[]cty.Value{${vs.map(ctyGoString).join(", ")}}`;
}

function valueMap(m: ReadonlyMap<string, Value>): string {
  const keys = [...m.keys()].sort();
  return `map[string]cty.Value{${keys.map((k) => `${goQuote(k)}:${ctyGoString(m.get(k)!)}`).join(", ")}}`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function numberGoString(n: CtyNumber): string {
  if (n.isInteger() && !n.isInfinite()) {
    const i = n.toBigInt();
    if (i >= INT64_MIN && i <= INT64_MAX) return `cty.NumberIntVal(${i})`;
  }
  if (n.isFloat64()) return `cty.NumberFloatVal(${goFloat(n.toNumber())})`;
  return `cty.MustParseNumberVal(${goQuote(n.toString())})`;
}

/** Go's `%#v` of a float64 (`%g` with the shortest digits): exponent form when the exponent is below -4 or at least 6. */
function goFloat(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? "+Inf" : x < 0 ? "-Inf" : "NaN";
  const [mant, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(x);
}

function refinementSuffix(v: Value): string {
  const r = v.refinements;
  const calls: string[] = [];
  if (r.notNull === true) calls.push(".NotNull()");
  if (r.stringPrefix !== undefined && r.stringPrefix !== "") calls.push(`.StringPrefixFull(${goQuote(r.stringPrefix)})`);
  if (r.numberLowerBound !== undefined) calls.push(`.NumberRangeLowerBound(${numberGoString(r.numberLowerBound.value)}, ${r.numberLowerBound.inclusive})`);
  if (r.numberUpperBound !== undefined) calls.push(`.NumberRangeUpperBound(${numberGoString(r.numberUpperBound.value)}, ${r.numberUpperBound.inclusive})`);
  if (r.lengthLowerBound !== undefined && r.lengthLowerBound > 0) calls.push(`.CollectionLengthLowerBound(${r.lengthLowerBound})`);
  if (r.lengthUpperBound !== undefined) calls.push(`.CollectionLengthUpperBound(${r.lengthUpperBound})`);
  if (calls.length === 0) return "";
  if (calls.length === 1 && calls[0] === ".NotNull()") return ".RefineNotNull()";
  return `.Refine()${calls.join("")}.NewValue()`;
}

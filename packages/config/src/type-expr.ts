import {
  boolType,
  convert,
  dynamicType,
  isPathError,
  listType,
  mapType,
  numberType,
  objectType,
  objectVal,
  setType,
  stringType,
  tupleType,
  listVal,
  setVal,
  mapVal,
  tupleVal,
  type Type,
  type Value,
} from "@magma/cty";
import { evaluate, hasErrors, parseExpression, type Diagnostic, type Expression } from "@magma/hcl";
import { errorDiag } from "./diagnostics.js";

/**
 * The defaults of `optional(T, default)` attributes in a type constraint (HCL's
 * `typeexpr.Defaults`): defaults by attribute name for an object type, and the defaults of
 * nested types by attribute name (or `""` for a collection's element type).
 */
export interface TypeDefaults {
  readonly type: Type;
  readonly defaultValues: ReadonlyMap<string, Value>;
  readonly children: ReadonlyMap<string, TypeDefaults>;
}

const INVALID = "Invalid type specification";

/** A type constraint with its optional-attribute defaults. */
export interface TypeConstraint {
  readonly type: Type;
  readonly defaults?: TypeDefaults;
  readonly diags: Diagnostic[];
}

/**
 * Decodes a type constraint expression (`map(object({a = optional(string, "x")}))`) as
 * Terraform's `typeexpr.TypeConstraintWithDefaults` does. In JSON syntax the expression is
 * a string holding the constraint.
 */
export function typeConstraint(expr: Expression): TypeConstraint {
  let e = expr;
  if (e.kind === "json") {
    if (e.node.type !== "string") {
      return { type: dynamicType, diags: [errorDiag(INVALID, "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).", e.range)] };
    }
    // Terraform parses the string's value from the opening quote's position; problems
    // with the whole expression point at the whole JSON string.
    const parsed = parseExpression(e.node.value, e.node.range.filename, e.node.range.start);
    // A string that does not parse is neither a keyword nor a call to HCL's JSON expression
    // (its AsTraversal and ExprCall give nil): not a type specification, the whole string.
    if (hasErrors(parsed.diags)) {
      return { type: dynamicType, diags: [errorDiag(INVALID, "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).", e.range)] };
    }
    const whole = e.range;
    const inner = parsed.expr.range;
    const diags: Diagnostic[] = [];
    const r = decode(parsed.expr, false, diags);
    const mapped = diags.map((d) =>
      d.subject !== undefined && d.subject.start.byte === inner.start.byte && d.subject.end.byte === inner.end.byte ? { ...d, subject: whole } : d,
    );
    return { type: r.type, ...(r.defaults !== undefined ? { defaults: r.defaults } : {}), diags: mapped };
  }
  const diags: Diagnostic[] = [];
  const r = decode(e, false, diags);
  return { type: r.type, ...(r.defaults !== undefined ? { defaults: r.defaults } : {}), diags };
}

interface Decoded {
  type: Type;
  defaults?: TypeDefaults;
  /** Only from `optional(...)` inside an object. */
  optional?: boolean;
  defaultValue?: Value;
}

function unparen(e: Expression): Expression {
  let x = e;
  while (x.kind === "paren") x = x.expr;
  return x;
}

function decode(expr: Expression, inObjectAttr: boolean, diags: Diagnostic[]): Decoded {
  const e = unparen(expr);
  if (e.kind === "traversal" && e.traversal.steps.length === 0) {
    switch (e.traversal.root) {
      case "bool":
        return { type: boolType };
      case "string":
        return { type: stringType };
      case "number":
        return { type: numberType };
      case "any":
        return { type: dynamicType };
      case "list":
      case "map":
      case "set":
        diags.push(errorDiag(INVALID, `The ${e.traversal.root} type constructor requires one argument specifying the element type.`, e.range));
        return { type: dynamicType };
      case "object":
        diags.push(errorDiag(INVALID, "The object type constructor requires one argument specifying the attribute types as a map.", e.range));
        return { type: dynamicType };
      case "tuple":
        diags.push(errorDiag(INVALID, "The tuple type constructor requires one argument specifying the element types as a list.", e.range));
        return { type: dynamicType };
      case "optional":
        diags.push(errorDiag(INVALID, `Keyword "optional" is valid only as a modifier for object type attributes.`, e.range));
        return { type: dynamicType };
      default:
        diags.push(errorDiag(INVALID, `The keyword ${JSON.stringify(e.traversal.root)} is not a valid type specification.`, e.range));
        return { type: dynamicType };
    }
  }
  if (e.kind !== "call") {
    diags.push(errorDiag(INVALID, "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).", e.range));
    return { type: dynamicType };
  }
  const name = e.name;
  switch (name) {
    case "bool":
    case "string":
    case "number":
    case "any":
      diags.push(errorDiag(INVALID, `Primitive type keyword ${JSON.stringify(name)} does not expect arguments.`, e.range));
      return { type: dynamicType };
    case "list":
    case "set":
    case "map": {
      if (e.args.length !== 1) {
        diags.push(errorDiag(INVALID, `The ${name} type constructor requires one argument specifying the element type.`, e.range));
        return { type: dynamicType };
      }
      const el = decode(e.args[0]!, false, diags);
      const type = name === "list" ? listType(el.type) : name === "set" ? setType(el.type) : mapType(el.type);
      return { type, ...(el.defaults !== undefined ? { defaults: { type, defaultValues: new Map(), children: new Map([["", el.defaults]]) } } : {}) };
    }
    case "object": {
      if (e.args.length !== 1) {
        diags.push(errorDiag(INVALID, "The object type constructor requires one argument specifying the attribute types as a map.", e.range));
        return { type: dynamicType };
      }
      const arg = unparen(e.args[0]!);
      if (arg.kind !== "object") {
        diags.push(errorDiag(INVALID, "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.", arg.range));
        return { type: dynamicType };
      }
      // A Map: attribute names such as "__proto__" or "constructor" are names like any other.
      const attrs = new Map<string, Type>();
      const optional: string[] = [];
      const defaultValues = new Map<string, Value>();
      const children = new Map<string, TypeDefaults>();
      for (const item of arg.items) {
        const k = unparen(item.key);
        let key: string | undefined;
        if (k.kind === "traversal" && k.traversal.steps.length === 0) key = k.traversal.root;
        else {
          const v = evaluate(k).value;
          if (v.isKnown() && !v.isNull() && v.type.kind === "string") key = v.asString();
        }
        if (key === undefined) {
          diags.push(errorDiag(INVALID, "Object constructor map keys must be attribute names.", k.range));
          continue;
        }
        const d = decode(item.value, true, diags);
        attrs.set(key, d.type);
        if (d.optional === true) optional.push(key);
        if (d.defaultValue !== undefined) defaultValues.set(key, d.defaultValue);
        if (d.defaults !== undefined) children.set(key, d.defaults);
      }
      const type = objectType(attrs, optional);
      if (defaultValues.size === 0 && children.size === 0) return { type };
      return { type, defaults: { type, defaultValues, children } };
    }
    case "tuple": {
      if (e.args.length !== 1) {
        diags.push(errorDiag(INVALID, "The tuple type constructor requires one argument specifying the element types as a list.", e.range));
        return { type: dynamicType };
      }
      const arg = unparen(e.args[0]!);
      if (arg.kind !== "tuple") {
        diags.push(errorDiag(INVALID, "Tuple type constructor requires a list of element types.", arg.range));
        return { type: dynamicType };
      }
      const els: Type[] = [];
      const children = new Map<string, TypeDefaults>();
      arg.items.forEach((it, i) => {
        const d = decode(it, false, diags);
        els.push(d.type);
        if (d.defaults !== undefined) children.set(String(i), d.defaults);
      });
      const type = tupleType(els);
      return { type, ...(children.size > 0 ? { defaults: { type, defaultValues: new Map(), children } } : {}) };
    }
    case "optional": {
      if (!inObjectAttr) {
        diags.push(errorDiag(INVALID, `Keyword "optional" is valid only as a modifier for object type attributes.`, e.range));
        return { type: dynamicType };
      }
      if (e.args.length < 1 || e.args.length > 2) {
        diags.push(errorDiag(INVALID, "Optional attribute modifier requires the attribute type as its first argument and an optional default value as its second.", e.range));
        return { type: dynamicType };
      }
      const inner = decode(e.args[0]!, false, diags);
      if (e.args.length === 1) return { ...inner, optional: true };
      const dv = evaluate(e.args[1]!);
      diags.push(...dv.diags);
      try {
        const conv = convert(dv.value, inner.type);
        return { ...inner, optional: true, defaultValue: inner.defaults !== undefined ? applyTypeDefaults(conv, inner.defaults) : conv };
      } catch (err) {
        if (!isPathError(err)) throw err;
        diags.push(errorDiag("Invalid default value for optional attribute", `This default value is not compatible with the attribute's type constraint: ${err.message}.`, e.args[1]!.range));
        return { ...inner, optional: true };
      }
    }
    default:
      diags.push(errorDiag(INVALID, `Keyword ${JSON.stringify(name)} is not a valid type constructor.`, e.range));
      return { type: dynamicType };
  }
}

/**
 * Fills in the defaults of optional attributes that are absent or null (HCL's
 * `Defaults.Apply`), through collections and nested objects. Apply before converting the
 * value to the type constraint.
 */
export function applyTypeDefaults(value: Value, d: TypeDefaults): Value {
  if (value.isNull() || !value.isKnown()) return value;
  const t = value.type;
  switch (t.kind) {
    case "object": {
      // A Map: attribute names such as "__proto__" or "constructor" are names like any other.
      const attrs = new Map<string, Value>(Object.entries(value.attributes()));
      if (d.type.kind === "map") {
        // A map constraint given an object value: each attribute is an element.
        const child = d.children.get("");
        if (child === undefined) return value;
        for (const [k, v] of attrs) attrs.set(k, applyTypeDefaults(v, child));
        return objectVal(attrs).mark(...value.marks);
      }
      const want = d.type.kind === "object" ? d.type : undefined;
      for (const [name, dv] of d.defaultValues) {
        const cur = attrs.get(name);
        if (cur === undefined || cur.isNull()) attrs.set(name, dv);
      }
      if (want !== undefined) {
        for (const [name, child] of d.children) {
          const cur = attrs.get(name);
          if (cur !== undefined) attrs.set(name, applyTypeDefaults(cur, child));
        }
      }
      return objectVal(attrs).mark(...value.marks);
    }
    case "map": {
      const child = d.children.get("");
      if (child === undefined || value.length() === 0) return value;
      const m = new Map<string, Value>();
      for (const [k, v] of value.entries()) m.set(k, applyTypeDefaults(v, child));
      return tryCollection(() => mapVal(m), value);
    }
    case "list":
    case "set": {
      const child = d.children.get("");
      if (child === undefined || value.length() === 0) return value;
      const els = value.elements().map((v) => applyTypeDefaults(v, child));
      return tryCollection(() => (t.kind === "list" ? listVal(els) : setVal(els)), value);
    }
    case "tuple": {
      const single = d.children.get("");
      const els = value.elements().map((v, i) => {
        const c = d.children.get(String(i)) ?? single;
        return c === undefined ? v : applyTypeDefaults(v, c);
      });
      return tupleVal(els).mark(...value.marks);
    }
    default:
      return value;
  }
}

/** Collections whose elements got different types by defaults fall back to a tuple/object. */
function tryCollection(make: () => Value, orig: Value): Value {
  try {
    return make().mark(...orig.marks);
  } catch {
    return orig;
  }
}

import { Path, typeName, typeString, type Type, type Value } from "@magma/cty";

/** Where and why a value does not fit a type. */
export interface ConformanceProblem {
  /** The path of the first offending value. */
  readonly path: Path;
  /** What is wrong there. */
  readonly reason: string;
}

/**
 * Checks that a value fits a type exactly as Terraform requires of wire values: the same
 * kinds and attribute names all the way down, any value where the type is dynamic, and
 * typed nulls and unknowns whose type fits.
 *
 * @returns `undefined` when it fits, else the first problem found.
 */
export function valueConformance(value: Value, type: Type): ConformanceProblem | undefined {
  return check(value, type, Path.root);
}

function check(v: Value, t: Type, at: Path): ConformanceProblem | undefined {
  // A value always fits its own type (cty values are built to their type, and dynamic parts
  // of a type accept anything); types are shared objects, so this is the common case.
  if (t.kind === "dynamic" || v.type === t) return undefined;
  if (v.isNull() || !v.isKnown()) {
    const r = typeProblem(v.type, t, at);
    return r;
  }
  const vt = v.type;
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
      return vt.kind === t.kind ? undefined : wrong(at, t, vt);
    case "list":
    case "set": {
      if (vt.kind !== t.kind) return wrong(at, t, vt);
      const es = v.elements();
      for (let i = 0; i < es.length; i++) {
        const p = check(es[i]!, t.element, t.kind === "list" ? at.index(i) : at);
        if (p !== undefined) return p;
      }
      return typeProblem(vt.element, t.element, at);
    }
    case "map": {
      if (vt.kind !== "map") return wrong(at, t, vt);
      for (const [k, e] of v.entries()) {
        const p = check(e, t.element, at.key(k));
        if (p !== undefined) return p;
      }
      return typeProblem(vt.element, t.element, at);
    }
    case "object": {
      if (vt.kind !== "object") return wrong(at, t, vt);
      for (const n of vt.attributeNames) {
        if (!(n in t.attributes)) return { path: at, reason: `unexpected attribute ${JSON.stringify(n)}` };
      }
      const attrs = v.attributes();
      for (const n of t.attributeNames) {
        const a = attrs[n];
        if (a === undefined) return { path: at, reason: `attribute ${JSON.stringify(n)} is required` };
        const p = check(a, t.attributes[n]!, at.attr(n));
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case "tuple": {
      if (vt.kind !== "tuple") return wrong(at, t, vt);
      const es = v.elements();
      if (es.length !== t.elements.length) return { path: at, reason: `tuple has ${es.length} elements, expected ${t.elements.length}` };
      for (let i = 0; i < es.length; i++) {
        const p = check(es[i]!, t.elements[i]!, at.index(i));
        if (p !== undefined) return p;
      }
      return undefined;
    }
  }
}

/** Type-level fit for nulls, unknowns and empty collections: dynamic matches anything. */
function typeProblem(actual: Type, expected: Type, at: Path): ConformanceProblem | undefined {
  if (expected.kind === "dynamic" || actual.kind === "dynamic") return undefined;
  if (actual.kind !== expected.kind) return wrong(at, expected, actual);
  switch (expected.kind) {
    case "list":
    case "set":
    case "map":
      return typeProblem((actual as typeof expected).element, expected.element, at);
    case "object": {
      const a = actual as typeof expected;
      for (const n of a.attributeNames) if (!(n in expected.attributes)) return { path: at, reason: `unexpected attribute ${JSON.stringify(n)}` };
      for (const n of expected.attributeNames) {
        const x = a.attributes[n];
        if (x === undefined) return { path: at, reason: `attribute ${JSON.stringify(n)} is required` };
        const p = typeProblem(x, expected.attributes[n]!, at.attr(n));
        if (p !== undefined) return p;
      }
      return undefined;
    }
    case "tuple": {
      const a = actual as typeof expected;
      if (a.elements.length !== expected.elements.length) return wrong(at, expected, actual);
      for (let i = 0; i < a.elements.length; i++) {
        const p = typeProblem(a.elements[i]!, expected.elements[i]!, at.index(i));
        if (p !== undefined) return p;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

function wrong(at: Path, expected: Type, actual: Type): ConformanceProblem {
  return { path: at, reason: `expected ${typeString(expected)}, got ${typeName(actual)}` };
}

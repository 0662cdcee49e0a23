import { randomInt } from "node:crypto";
import {
  boolVal,
  convert,
  emptyObjectVal,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  typeName,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { attributeType, type Attribute, type Block } from "@magma/provider-api";

/**
 * The values a mocked object's computed attributes take (Terraform's `mocking.MockedData`):
 * the `defaults`/`values` object written in the test (or none), where it was written, and
 * whether the computed attributes are left unknown instead (a plan without `override_during = plan`).
 */
export interface MockedData {
  readonly value?: Value;
  /** Where `value` was written (`file:line,col-col`), for error messages. */
  readonly range?: string;
  readonly computedAsUnknown?: boolean;
}

/** A problem filling a computed attribute (Terraform's "Failed to compute attribute" / "Invalid replacement value"). */
export interface MockProblem {
  readonly summary: string;
  readonly detail: string;
  /** The attribute it is about (Terraform's `tfdiags.AttributeValue` path). */
  readonly path?: readonly string[];
}

const CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** 8 random lower-case letters and digits, as Terraform's `mocking.str(8)`. */
function randomString(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += CHARS[randomInt(CHARS.length)];
  return s;
}

/** Terraform's `GenerateValueForType`: a made-up value of a type (strings random, numbers 0, bools false, collections empty). */
export function generateValueForType(t: Type): Value {
  switch (t.kind) {
    case "string":
      return stringVal(randomString(8));
    case "number":
      return numberVal(0);
    case "bool":
      return boolVal(false);
    case "list":
      return listValEmpty(t.element);
    case "set":
      return setValEmpty(t.element);
    case "map":
      return mapValEmpty(t.element);
    case "object": {
      const names = [...t.attributeNames].sort();
      if (names.length === 0) return emptyObjectVal;
      return objectVal(Object.fromEntries(names.map((n) => [n, generateValueForType(t.attributes[n]!)])));
    }
    case "dynamic":
      return nullVal(t);
    default:
      // go-cty panics here (tuples are never schema attribute types); an empty tuple is the closest value.
      return tupleVal([]);
  }
}

/** Terraform's `GenerateValueForAttribute`. */
export function generateValueForAttribute(a: Attribute): Value {
  const n = a.nestedType;
  if (n !== undefined) {
    const type = attributeType(a);
    switch (n.nesting) {
      case "single": {
        const names = Object.keys(n.attributes).sort();
        if (names.length === 0) return emptyObjectVal;
        return objectVal(Object.fromEntries(names.map((k) => [k, generateValueForAttribute(n.attributes[k]!)])));
      }
      case "set":
        return setValEmpty((type as { element: Type }).element);
      case "list":
        return listValEmpty((type as { element: Type }).element);
      default:
        return mapValEmpty((type as { element: Type }).element);
    }
  }
  return generateValueForType(a.type!);
}

/** A path error as go-cty's `path.NewErrorf` carries it. */
class FillError extends Error {
  readonly path: readonly string[];
  constructor(path: readonly string[], message: string) {
    super(message);
    this.path = path;
  }
}

function friendly(t: Type): string {
  return typeName(t);
}

/** Terraform's `FillAttribute`: `in` converted to the attribute's type, with what it lacks generated. */
function fillAttribute(input: Value, a: Attribute, path: readonly string[]): Value {
  const n = a.nestedType;
  if (n !== undefined) {
    if (input.type.kind !== "object") throw new FillError(path, `incompatible types; expected object type, found ${friendly(input.type)}`);
    const type = attributeType(a);
    switch (n.nesting) {
      case "single": {
        const names = Object.keys(n.attributes).sort();
        if (names.length === 0) return emptyObjectVal;
        const out: Record<string, Value> = {};
        for (const k of names)
          out[k] = input.type.attributes[k] !== undefined ? fillAttribute(input.getAttr(k), n.attributes[k]!, [...path, k]) : generateValueForAttribute(n.attributes[k]!);
        return objectVal(out);
      }
      case "set":
        return setValEmpty((type as { element: Type }).element);
      case "list":
        return listValEmpty((type as { element: Type }).element);
      default:
        return mapValEmpty((type as { element: Type }).element);
    }
  }
  return fillType(input, a.type!, path);
}

/** Terraform's `FillType`. */
function fillType(input: Value, target: Type, path: readonly string[]): Value {
  if (target.kind === "object") {
    const names = [...target.attributeNames].sort();
    if (input.type.kind === "object" || input.type.kind === "map") {
      if (names.length === 0) return emptyObjectVal;
      const isObject = input.type.kind === "object";
      const out: Record<string, Value> = {};
      for (const k of names) {
        const has = isObject ? (input.type as { attributes: Record<string, Type> }).attributes[k] !== undefined : input.isKnown() && !input.isNull() && input.entries().has(k);
        out[k] = has ? fillType(isObject ? input.getAttr(k) : input.index(k), target.attributes[k]!, [...path, k]) : generateValueForType(target.attributes[k]!);
      }
      return objectVal(out);
    }
    throw new FillError(path, `incompatible types; expected ${friendly(target)}, found ${friendly(input.type)}`);
  }
  if ((target.kind === "list" || target.kind === "set" || target.kind === "map") && target.element.kind === "object") {
    const el = target.element;
    if (target.kind === "map") {
      const out: Record<string, Value> = {};
      if (input.type.kind === "map") for (const [k, v] of [...input.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = fillType(v, el, [...path, k]);
      else if (input.type.kind === "object") for (const k of [...input.type.attributeNames].sort()) out[k] = fillType(input.getAttr(k), el, [...path, k]);
      else throw new FillError(path, `incompatible types; expected ${friendly(target)}, found ${friendly(input.type)}`);
      return Object.keys(out).length === 0 ? mapValEmpty(el) : mapVal(out);
    }
    if (input.type.kind !== "set" && input.type.kind !== "list" && input.type.kind !== "tuple")
      throw new FillError(path, `incompatible types; expected ${friendly(target)}, found ${friendly(input.type)}`);
    const values = input.elements().map((v, i) => fillType(v, el, [...path, String(i)]));
    if (target.kind === "list") return values.length === 0 ? listValEmpty(el) : listVal(values);
    return values.length === 0 ? setValEmpty(el) : setVal(values);
  }
  if (target.kind === "tuple" && input.type.kind === "tuple") {
    if (target.elements.length !== input.type.elements.length)
      throw new FillError(path, `incompatible types; expected ${friendly(target)} with length ${target.elements.length}, found ${friendly(input.type)} with length ${input.type.elements.length}`);
    const values = input.elements().map((v, i) => fillType(v, target.elements[i]!, [...path, String(i)]));
    return tupleVal(values);
  }
  try {
    return convert(input, target);
  } catch (e) {
    throw new FillError(path, (e as Error).message);
  }
}

/** The mocked data's value for an attribute path (Terraform's `getMockedDataForPath`); undefined when it gives none. */
function dataForPath(data: MockedData, path: readonly string[], problems: MockProblem[]): Value | undefined {
  let current = data.value;
  if (current === undefined) return undefined;
  const walked: string[] = [];
  for (const step of path) {
    if (current.type.kind !== "object") {
      problems.push({
        summary: "Failed to compute attribute",
        detail: `Terraform expected an object type for attribute ${JSON.stringify(walked.join("."))} defined within the mocked data at ${data.range ?? ""}, but found ${friendly(current.type)}.`,
        path: walked,
      });
      return undefined;
    }
    if (current.type.attributes[step] === undefined) return undefined;
    current = current.getAttr(step);
    walked.push(step);
  }
  return current;
}

type Generate = (a: Attribute, data: Value | undefined, path: readonly string[]) => Value;

/**
 * Terraform's `populateComputedValues`: every computed attribute of `target` (at any depth)
 * for which `replace` holds is given the mocked data's value for it, or a generated one (or
 * an unknown when `data.computedAsUnknown`). Problems are collected; a valid value is always returned.
 */
export function populateComputedValues(target: Value, data: MockedData, block: Block, replace: (v: Value) => boolean, problems: MockProblem[]): Value {
  let with_ = data;
  if (with_.value !== undefined && with_.value.type.kind !== "object") {
    problems.push({ summary: "Invalid replacement value", detail: `The requested replacement value must be an object type, but was ${friendly(with_.value.type)}.` });
    with_ = {};
  }
  const generate: Generate = with_.computedAsUnknown === true
    ? (a) => unknownVal(attributeType(a))
    : (a, given, path) => {
        if (given !== undefined) {
          try {
            return fillAttribute(given, a, []);
          } catch (e) {
            const rel = e instanceof FillError ? e.path : [];
            problems.push({
              summary: "Failed to compute attribute",
              detail: `Terraform could not compute a value for the target type ${friendly(attributeType(a))} with the mocked data defined at ${with_.range ?? ""} with the attribute ${JSON.stringify([...path, ...rel].join("."))}: ${(e as Error).message}.`,
              path,
            });
          }
        }
        return generateValueForAttribute(a);
      };

  const attr = (v: Value, a: Attribute, path: readonly string[]): Value => {
    let out = v;
    const n = a.nestedType;
    if (n !== undefined && v.isKnown() && !v.isNull()) {
      const inner = (o: Value): Value => (o.isKnown() && !o.isNull() ? objectVal(Object.fromEntries(Object.entries(n.attributes).map(([k, ca]) => [k, attr(o.getAttr(k), ca, [...path, k])]))) : o);
      out = rebuild(v, inner);
    }
    if (a.computed === true && replace(out)) return generate(a, dataForPath(with_, path, problems), path);
    return out;
  };

  const blockValue = (v: Value, b: Block, path: readonly string[]): Value => {
    if (!v.isKnown() || v.isNull()) return v;
    const out: Record<string, Value> = {};
    for (const k of v.type.kind === "object" ? v.type.attributeNames : []) {
      const a = b.attributes?.[k];
      const nb = b.blockTypes?.[k];
      const child = v.getAttr(k);
      if (a !== undefined) out[k] = attr(child, a, [...path, k]);
      else if (nb !== undefined) out[k] = nb.nesting === "single" || nb.nesting === "group" ? blockValue(child, nb.block, [...path, k]) : child.isKnown() && !child.isNull() ? rebuild(child, (e) => blockValue(e, nb.block, [...path, k])) : child;
      else out[k] = child;
    }
    return objectVal(out);
  };

  return blockValue(target, block, []);
}

/** A known collection (list, set, map) or object with `f` applied to each element. */
function rebuild(v: Value, f: (e: Value) => Value): Value {
  switch (v.type.kind) {
    case "list": {
      const els = v.elements().map(f);
      return els.length === 0 ? v : listVal(els);
    }
    case "set": {
      const els = v.elements().map(f);
      return els.length === 0 ? v : setVal(els);
    }
    case "map": {
      const entries = [...v.entries()];
      return entries.length === 0 ? v : mapVal(Object.fromEntries(entries.map(([k, e]) => [k, f(e)])));
    }
    case "object":
      return f(v);
    default:
      return v;
  }
}

import { Mark, Path, markWithPaths, toJson, type Value } from "@magma/cty";
import type { Block, NestedAttributeType } from "@magma/provider-api";
import { jsonArray, jsonStruct } from "./go-json.js";

/**
 * go-cty JSON text of a value with its own (concrete) type, as `ctyjson.Marshal(v, v.Type())`
 * writes it; marks are ignored. With `omitUnknown`, unknown object attributes and map
 * elements are left out and unknown list, set and tuple elements written as `null` (the
 * `omitUnknowns` of `terraform show -json`); without it an unknown value is an error.
 *
 * @internal
 */
export function valueJson(v: Value, omitUnknown = false): string {
  if (!v.isKnown()) {
    if (omitUnknown) return "null";
    throw new TypeError(`cannot render an unknown value as JSON: ${v.toString()}`);
  }
  if (v.isNull()) return "null";
  const t = v.type;
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
      return toJson(v.unmark(), t);
    case "list":
    case "set":
    case "tuple":
      return jsonArray(v.elements().map((e) => valueJson(e, omitUnknown)));
    case "map":
      return jsonStruct([...v.entries()].filter(([, e]) => !omitUnknown || e.isKnown()).map(([k, e]) => [k, valueJson(e, omitUnknown)] as const));
    case "object": {
      const attrs = v.attributes();
      return jsonStruct(t.attributeNames.filter((n) => !omitUnknown || attrs[n]!.isKnown()).map((n) => [n, valueJson(attrs[n]!, omitUnknown)] as const));
    }
    default:
      throw new TypeError(`cannot render a known value of type ${t.kind} as JSON`);
  }
}

/**
 * The attributes of an object as `attributeValues` of `terraform show -json`: each
 * attribute's JSON (unknowns omitted), keys sorted; `undefined` for a null object or one
 * without (known) attributes, as Go's `omitempty` leaves an empty map out.
 *
 * @internal
 */
export function attributeValuesJson(v: Value): string | undefined {
  if (v.isNull() || !v.isKnown()) return undefined;
  const json = valueJson(v, true);
  return json === "{}" ? undefined : json;
}

/**
 * Terraform's `unknownAsBool`: true for an unknown leaf (and an unknown collection), false
 * for a known or null one; objects and maps list only their non-false members, sequences
 * every element.
 *
 * @internal
 */
export function unknownAsBoolJson(v: Value): string {
  if (v.isNull()) return "false";
  if (!v.isKnown()) return "true";
  const t = v.type;
  switch (t.kind) {
    case "list":
    case "set":
    case "tuple":
      return jsonArray(v.elements().map(unknownAsBoolJson));
    case "map":
      return jsonStruct([...v.entries()].map(([k, e]) => [k, nonFalse(unknownAsBoolJson(e))] as const));
    case "object": {
      const attrs = v.attributes();
      return jsonStruct(t.attributeNames.map((n) => [n, nonFalse(unknownAsBoolJson(attrs[n]!))] as const));
    }
    default:
      return "false";
  }
}

/**
 * Terraform's `SensitiveAsBool` of a value marked sensitive at `paths` (and wherever the
 * value itself carries the mark): true for a sensitive value, false for a non-sensitive
 * leaf; objects and maps list only their non-false members, sequences every element; an
 * unknown collection is `[]` or `{}`.
 *
 * @internal
 */
export function sensitiveAsBoolJson(v: Value, paths: readonly Path[]): string {
  const marked = paths.length === 0 ? v : markWithPaths(v, paths.map((path) => ({ path, marks: SENSITIVE })));
  return sensitiveJson(marked);
}

const SENSITIVE: ReadonlySet<string> = new Set([Mark.Sensitive]);

function sensitiveJson(v: Value): string {
  if (v.isMarked(Mark.Sensitive)) return "true";
  const t = v.type;
  if (v.isNull() || t.kind === "string" || t.kind === "number" || t.kind === "bool" || t.kind === "dynamic") return "false";
  switch (t.kind) {
    case "list":
    case "set":
    case "tuple":
      return v.isKnown() ? jsonArray(v.elements().map(sensitiveJson)) : "[]";
    case "map":
      return v.isKnown() ? jsonStruct([...v.entries()].map(([k, e]) => [k, nonFalse(sensitiveJson(e))] as const)) : "{}";
    case "object": {
      if (!v.isKnown()) return "{}";
      const attrs = v.attributes();
      return jsonStruct(t.attributeNames.map((n) => [n, nonFalse(sensitiveJson(attrs[n]!))] as const));
    }
  }
}

function nonFalse(json: string): string | undefined {
  return json === "false" ? undefined : json;
}

/**
 * The paths of the schema's sensitive attributes in a value of the block (configschema's
 * `SensitivePaths`): every attribute marked sensitive, inside nested attribute types and
 * nested blocks too (per element of lists and maps; set elements are not addressable, so
 * nothing inside a set is reported).
 *
 * @internal
 */
export function schemaSensitivePaths(block: Block, v: Value, at: Path = Path.root): Path[] {
  const out: Path[] = [];
  collectBlock(block, v, at, out);
  return out;
}

function collectBlock(block: Block, v: Value, at: Path, out: Path[]): void {
  if (v.isNull() || !v.isKnown() || v.type.kind !== "object") return;
  const attrs = v.attributes();
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const p = at.attr(name);
    if (a.sensitive === true) out.push(p);
    else if (a.nestedType !== undefined && attrs[name] !== undefined) collectNested(a.nestedType, attrs[name], p, out);
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const bv = attrs[name];
    if (bv === undefined || bv.isNull() || !bv.isKnown()) continue;
    const p = at.attr(name);
    switch (nb.nesting) {
      case "single":
      case "group":
        collectBlock(nb.block, bv, p, out);
        break;
      case "list":
        bv.elements().forEach((e, i) => collectBlock(nb.block, e, p.index(i), out));
        break;
      case "map":
        for (const [k, e] of bv.type.kind === "map" ? bv.entries() : Object.entries(bv.attributes())) collectBlock(nb.block, e, p.key(k), out);
        break;
      default:
        break;
    }
  }
}

function collectNested(n: NestedAttributeType, v: Value, at: Path, out: Path[]): void {
  if (v.isNull() || !v.isKnown()) return;
  const block: Block = { attributes: n.attributes };
  switch (n.nesting) {
    case "single":
      collectBlock(block, v, at, out);
      break;
    case "list":
      v.elements().forEach((e, i) => collectBlock(block, e, at.index(i), out));
      break;
    case "map":
      for (const [k, e] of v.entries()) collectBlock(block, e, at.key(k), out);
      break;
    default:
      break;
  }
}

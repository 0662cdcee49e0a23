import { Path, listVal, mapVal, nullVal, objectVal, tupleVal, type Value } from "@magma/cty";
import type { Block, NestedAttributeType } from "./schema.js";

/**
 * Whether a block declares a write-only attribute anywhere, in its nested attribute types
 * and nested blocks too (Terraform's `Block.ContainsWriteOnly`).
 */
export function containsWriteOnly(block: Block): boolean {
  for (const a of Object.values(block.attributes ?? {})) {
    if (a.writeOnly === true) return true;
    if (a.nestedType !== undefined && nestedContainsWriteOnly(a.nestedType)) return true;
  }
  return Object.values(block.blockTypes ?? {}).some((nb) => containsWriteOnly(nb.block));
}

/** Whether a nested attribute type declares a write-only attribute anywhere (Terraform's `Object.ContainsWriteOnly`). */
export function nestedContainsWriteOnly(nested: NestedAttributeType): boolean {
  return Object.values(nested.attributes).some((a) => a.writeOnly === true || (a.nestedType !== undefined && nestedContainsWriteOnly(a.nestedType)));
}

const byName = <T>(r: Readonly<Record<string, T>>): [string, T][] => Object.entries(r).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));

/**
 * The paths of the write-only attributes in `value`, an object of `block`'s implied type
 * (Terraform's `Block.WriteOnlyPaths`): one per write-only attribute of the block, and of
 * each element of a nested block or nested attribute collection that the value holds. A
 * null or unknown object or collection has none below it; elements of sets are not
 * addressable (schemas may not put write-only attributes in sets). In name order.
 */
export function writeOnlyPaths(block: Block, value: Value, base: Path = Path.root): Path[] {
  const out: Path[] = [];
  if (value.isNull() || !value.isKnown()) return out;
  const v = value.unmark();
  for (const [name, a] of byName(block.attributes ?? {})) {
    if (a.writeOnly === true) out.push(base.attr(name));
    else if (a.nestedType !== undefined && nestedContainsWriteOnly(a.nestedType)) out.push(...nestedPaths(a.nestedType, v.getAttr(name), base.attr(name)));
  }
  for (const [name, nb] of byName(block.blockTypes ?? {})) {
    if (!containsWriteOnly(nb.block)) continue;
    const bv = v.getAttr(name);
    for (const [step, ev] of elementsOf(bv, nb.nesting === "single" || nb.nesting === "group")) out.push(...writeOnlyPaths(nb.block, ev, step(base.attr(name))));
  }
  return out;
}

/** The paths (see {@link writeOnlyPaths}) whose value in `value` is not null: what Terraform reports when a provider returns them. */
export function nonNullWriteOnlyPaths(block: Block, value: Value): Path[] {
  return writeOnlyPaths(block, value).filter((p) => !value.getPath(p).isNull());
}

/**
 * `value` with every write-only attribute of `block` set to null, marks kept (Terraform's
 * `ephemeral.StripWriteOnlyAttributes`): what a provider's plan and apply answers must hold
 * for them, so a native provider can build its answers from the configuration with it.
 */
export function stripWriteOnlyAttributes(block: Block, value: Value): Value {
  return mapWriteOnlyAttributes(block, value, (v) => nullVal(v.type).mark(...v.marks));
}

/**
 * `value` with `f` applied to the value of every write-only attribute of `block` (the
 * attributes {@link writeOnlyPaths} finds; elements of sets are left as they are): the
 * general form of {@link stripWriteOnlyAttributes}.
 */
export function mapWriteOnlyAttributes(block: Block, value: Value, f: (v: Value) => Value): Value {
  if (!containsWriteOnly(block) || value.isNull() || !value.isKnown()) return value;
  const marks = [...value.marks];
  const v = value.unmark();
  const attrs: Record<string, Value> = { ...v.attributes() };
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const av = attrs[name];
    if (av === undefined) continue;
    if (a.writeOnly === true) attrs[name] = f(av);
    else if (a.nestedType !== undefined && nestedContainsWriteOnly(a.nestedType)) attrs[name] = mapElements(av, a.nestedType.nesting === "single", (e) => mapNested(a.nestedType!, e, f));
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const bv = attrs[name];
    if (bv === undefined || !containsWriteOnly(nb.block)) continue;
    attrs[name] = mapElements(bv, nb.nesting === "single" || nb.nesting === "group", (e) => mapWriteOnlyAttributes(nb.block, e, f));
  }
  const out = objectVal(attrs);
  return marks.length === 0 ? out : out.mark(...marks);
}

function mapNested(nested: NestedAttributeType, value: Value, f: (v: Value) => Value): Value {
  return mapWriteOnlyAttributes({ attributes: nested.attributes }, value, f);
}

function nestedPaths(nested: NestedAttributeType, value: Value, base: Path): Path[] {
  const out: Path[] = [];
  for (const [step, ev] of elementsOf(value, nested.nesting === "single")) out.push(...writeOnlyPaths({ attributes: nested.attributes }, ev, step(base)));
  return out;
}

/** The objects a block or nested attribute value holds, each with the step that reaches it (sets: none, as they are not addressable). */
function elementsOf(value: Value, single: boolean): [(p: Path) => Path, Value][] {
  if (value.isNull() || !value.isKnown()) return [];
  if (single) return [[(p) => p, value]];
  const v = value.unmark();
  switch (v.type.kind) {
    case "list":
    case "tuple":
      return v.elements().map((e, i) => [(p: Path) => p.index(i), e]);
    case "map":
      return [...v.entries()].map(([k, e]) => [(p: Path) => p.key(k), e]);
    case "object":
      return Object.entries(v.attributes()).map(([k, e]) => [(p: Path) => p.key(k), e]);
    default:
      return [];
  }
}

/** A block or nested attribute value with `f` applied to each object it holds (sets as they are). */
function mapElements(value: Value, single: boolean, f: (v: Value) => Value): Value {
  if (value.isNull() || !value.isKnown()) return value;
  if (single) return f(value);
  const marks = [...value.marks];
  const v = value.unmark();
  let out: Value;
  switch (v.type.kind) {
    case "list":
      out = v.length() === 0 ? v : listVal(v.elements().map(f));
      break;
    case "tuple":
      out = tupleVal(v.elements().map(f));
      break;
    case "map":
      out = v.length() === 0 ? v : mapVal(new Map([...v.entries()].map(([k, e]) => [k, f(e)])));
      break;
    case "object":
      out = objectVal(Object.fromEntries(Object.entries(v.attributes()).map(([k, e]) => [k, f(e)])));
      break;
    default:
      return value;
  }
  return marks.length === 0 ? out : out.mark(...marks);
}

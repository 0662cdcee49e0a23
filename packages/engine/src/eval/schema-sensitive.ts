import { Mark, markWithPaths, Path, type PathMarks, type Value } from "@magma/cty";
import type { Block } from "@magma/provider-api";

/**
 * The paths of the schema-sensitive attributes present in a value of a schema block's
 * implied type (Terraform marks them when it reads or plans an object): attributes declared
 * `sensitive`, also inside nested blocks and nested attribute types. Null and unknown
 * parts have no paths inside them; elements of sets are not addressable, so a sensitive
 * attribute inside a set marks the set.
 */
export function schemaSensitivePaths(value: Value, block: Block): Path[] {
  const out: Path[] = [];
  if (hasSensitive(block)) collect(value, block, Path.root, out);
  return out;
}

/** Whether a block declares a sensitive attribute anywhere inside (remembered per schema block). */
const sensitiveInside = new WeakMap<Block, boolean>();
function hasSensitive(block: Block): boolean {
  let r = sensitiveInside.get(block);
  if (r === undefined) {
    r =
      Object.values(block.attributes ?? {}).some((a) => a.sensitive === true || (a.nestedType !== undefined && hasSensitive(nestedBlock(a.nestedType.attributes)))) ||
      Object.values(block.blockTypes ?? {}).some((nb) => hasSensitive(nb.block));
    sensitiveInside.set(block, r);
  }
  return r;
}

function collect(value: Value, block: Block, at: Path, out: Path[]): void {
  if (value.isNull() || !value.isKnown()) return;
  for (const [name, attr] of Object.entries(block.attributes ?? {})) {
    const nested = attr.nestedType;
    if (attr.sensitive !== true && (nested === undefined || !hasSensitive(nestedBlock(nested.attributes)))) continue;
    if (!value.hasAttr(name)) continue;
    const p = at.attr(name);
    if (attr.sensitive === true) {
      out.push(p);
      continue;
    }
    if (nested !== undefined) eachNested(value.getAttr(name), nested.nesting, p, (v, q) => collect(v, nestedBlock(nested.attributes), q, out), out, (v, into) => collect(v, nestedBlock(nested.attributes), Path.root, into));
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    if (!hasSensitive(nb.block) || !value.hasAttr(name)) continue;
    eachNested(value.getAttr(name), nb.nesting, at.attr(name), (v, q) => collect(v, nb.block, q, out), out, (v, into) => collect(v, nb.block, Path.root, into));
  }
}

/** The block of a nested attribute type's attributes (one object per attributes record, so that hasSensitive remembers it). */
const nestedBlocks = new WeakMap<NonNullable<Block["attributes"]>, Block>();
function nestedBlock(attributes: NonNullable<Block["attributes"]>): Block {
  let b = nestedBlocks.get(attributes);
  if (b === undefined) {
    b = { attributes };
    nestedBlocks.set(attributes, b);
  }
  return b;
}

function eachNested(v: Value, nesting: string, p: Path, visit: (v: Value, p: Path) => void, out: Path[], visitInto: (v: Value, into: Path[]) => void): void {
  if (v.isNull() || !v.isKnown()) return;
  switch (nesting) {
    case "single":
    case "group":
      visit(v, p);
      return;
    case "list":
      v.elements().forEach((e, i) => visit(e, p.index(i)));
      return;
    case "map":
      for (const [k, e] of v.entries()) visit(e, p.key(k));
      return;
    case "set": {
      // Set elements are not addressable: a sensitive value inside marks the set itself.
      const inner: Path[] = [];
      for (const e of v.elements()) visitInto(e, inner);
      if (inner.length > 0) out.push(p);
      return;
    }
    default:
      return;
  }
}

/** A value with `sensitive` marks put at the given paths. */
export function markSensitive(value: Value, paths: readonly Path[]): Value {
  if (paths.length === 0) return value;
  const marks: PathMarks[] = paths.map((path) => ({ path, marks: new Set([Mark.Sensitive]) }));
  return markWithPaths(value, marks);
}

/** The paths where a value carries the `sensitive` mark, and the value without any marks. */
export function splitSensitive(value: Value): { value: Value; paths: Path[] } {
  const { value: plain, paths } = value.unmarkDeep();
  return { value: plain, paths: paths.filter((p) => p.marks.has(Mark.Sensitive)).map((p) => p.path) };
}

/** The union of path lists, without duplicates, in first-seen order. */
export function unionPaths(...lists: readonly (readonly Path[])[]): Path[] {
  const out: Path[] = [];
  for (const l of lists) for (const p of l) if (!out.some((q) => q.equals(p))) out.push(p);
  return out;
}

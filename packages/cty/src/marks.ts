// Marks: the well-known marks, and putting marks on, taking them off and comparing them at
// every depth of a value.
import { attrIndex } from "./internal/attr-index.js";
import { KNOWN, NO_MARKS } from "./internal/value-state.js";
import type { Path } from "./path.js";
import { Value } from "./value.js";

/** Well-known marks. Marks are strings; `sensitive` is the one Terraform uses. */
export const Mark = {
  /** The value is sensitive: hide it from people, never log it. */
  Sensitive: "sensitive",
} as const;

/** A path together with the marks found there (see {@link Value.unmarkDeep}). */
export interface PathMarks {
  readonly path: Path;
  readonly marks: ReadonlySet<string>;
}

/**
 * Puts marks back at paths (go-cty's `MarkWithPaths`), the inverse of
 * {@link Value.unmarkDeep}: `markWithPaths(v.unmarkDeep().value, v.unmarkDeep().paths)`
 * equals `v` for values without marks inside sets. A path that does not exist in the value
 * (or goes through a null or unknown) is skipped; a path into a set marks the set.
 */
export function markWithPaths(value: Value, paths: readonly PathMarks[]): Value {
  let out = value;
  for (const { path, marks } of paths) out = markAt(out, path, 0, marks);
  return out;
}

function markAt(v: Value, path: Path, i: number, marks: ReadonlySet<string>): Value {
  if (i === path.steps.length) return v.mark(...marks);
  if (v._s !== KNOWN) return v;
  const step = path.steps[i]!;
  const t = v.type;
  let next: Value;
  if (t.kind === "set") return v.mark(...marks);
  if (step.kind === "attr" && t.kind === "object") {
    const idx = attrIndex(t, step.name);
    if (idx < 0) return v;
    const vals = (v._v as Value[]).slice();
    vals[idx] = markAt(vals[idx]!, path, i + 1, marks);
    next = Value._new(t, KNOWN, Object.freeze(vals), undefined);
  } else if (step.kind === "index" && (t.kind === "list" || t.kind === "tuple")) {
    const vals = (v._v as Value[]).slice();
    if (step.index >= vals.length) return v;
    vals[step.index] = markAt(vals[step.index]!, path, i + 1, marks);
    next = Value._new(t, KNOWN, Object.freeze(vals), undefined);
  } else if (step.kind === "key" && t.kind === "map") {
    const m = v._v as ReadonlyMap<string, Value>;
    const e = m.get(step.key);
    if (e === undefined) return v;
    const copy = new Map(m);
    copy.set(step.key, markAt(e, path, i + 1, marks));
    next = Value._new(t, KNOWN, copy, undefined);
  } else {
    return v;
  }
  return v._m === undefined ? next : next.mark(...v._m);
}

/** @internal */
export function unmarkDeepAt(v: Value, path: Path, out: PathMarks[], inSet: boolean): Value {
  let result = v;
  if (v._m !== undefined) {
    out.push({ path, marks: v._m });
    result = v.unmark();
  }
  if (v._s !== KNOWN) return result;
  const t = v.type;
  if (t.kind === "list" || t.kind === "tuple" || t.kind === "set" || t.kind === "object") {
    const elems = v._v as Value[];
    let changed = false;
    const next = elems.map((e, i) => {
      const p =
        inSet || t.kind === "set"
          ? path
          : t.kind === "object"
            ? path.attr(t.attributeNames[i]!)
            : path.index(i);
      const n = unmarkDeepAt(e, p, out, inSet || t.kind === "set");
      if (n !== e) changed = true;
      return n;
    });
    if (changed) result = Value._new(t, KNOWN, Object.freeze(next), undefined);
  } else if (t.kind === "map") {
    const m = v._v as ReadonlyMap<string, Value>;
    let changed = false;
    const next = new Map<string, Value>();
    for (const [k, e] of m) {
      const n = unmarkDeepAt(e, inSet ? path : path.key(k), out, inSet);
      if (n !== e) changed = true;
      next.set(k, n);
    }
    if (changed) result = Value._new(t, KNOWN, next, undefined);
  }
  return result;
}

/** @internal */
export function withMarks(v: Value, marks: ReadonlySet<string> | undefined): Value {
  if (marks === undefined || marks.size === 0) return v;
  return v.mark(...marks);
}

/** @internal */
export function unionMarks(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): ReadonlySet<string> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a, ...b]);
}

/** @internal */
export function sameMarks(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): boolean {
  const x = a ?? NO_MARKS;
  const y = b ?? NO_MARKS;
  if (x.size !== y.size) return false;
  for (const m of x) if (!y.has(m)) return false;
  return true;
}

import { toJson, type Type, type Value } from "@magma/cty";

/** One attribute whose value differs between magma's state and terraform's. */
export interface AttributeDifference {
  /** The top-level attribute name. */
  readonly attribute: string;
  /** magma's value (JSON, after normalisation); `undefined` when magma has no such attribute. */
  readonly magma: unknown;
  /** terraform's value (JSON, after normalisation); `undefined` when terraform has no such attribute. */
  readonly terraform: unknown;
}

/** Rewrites one JSON value before comparison (e.g. a generated id into a placeholder). */
export type Normaliser = (value: unknown) => unknown;

/** A state value as `terraform show -json` writes `values`: the cty JSON of the object, parsed. */
export function stateJson(state: Value, type: Type): Record<string, unknown> {
  return JSON.parse(toJson(state, type)) as Record<string, unknown>;
}

/**
 * Compares two states attribute by attribute (deep equality of the JSON values) and lists
 * every attribute that differs or exists on one side only. Both sides go through
 * `normalise` first.
 */
export function stateDifferences(magma: Readonly<Record<string, unknown>>, terraform: Readonly<Record<string, unknown>>, normalise: Normaliser = (v) => v): AttributeDifference[] {
  const names = [...new Set([...Object.keys(magma), ...Object.keys(terraform)])].sort();
  const out: AttributeDifference[] = [];
  for (const name of names) {
    const m = Object.hasOwn(magma, name) ? normalise(magma[name]) : undefined;
    const t = Object.hasOwn(terraform, name) ? normalise(terraform[name]) : undefined;
    if (!jsonEquals(m, t)) out.push({ attribute: name, magma: m, terraform: t });
  }
  return out;
}

/**
 * A normaliser that replaces, inside every string of a JSON value, each match of each
 * pattern with its placeholder: for generated ids that differ between two fake endpoints
 * (e.g. `/eipalloc-[0-9a-f]{17}/g` → `eipalloc-<generated>`).
 */
export function replaceGenerated(patterns: readonly (readonly [RegExp, string])[]): Normaliser {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return patterns.reduce((s, [re, with_]) => s.replace(re, with_), v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]));
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => jsonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

import { type Path, type Value } from "@magma/cty";
import type { NativeImport, NativePlan, NativeUpgrade, SchemaEntry } from "@magma/provider-api";

/** What every testbed operation is told about the provider's configuration. @internal */
export interface TestbedContext {
  /** The provider's `prefix` ("" when unset): part of every id, so aliases make different ids. */
  readonly prefix: string;
}

/** One resource type of the testbed provider, as its dispatcher calls it. @internal */
export interface TestbedResource {
  /** The resource type name. */
  readonly typeName: string;
  /** Its schema entry. */
  readonly entry: SchemaEntry;
  /** Plans a non-destroy change (prior null for a create). */
  plan(prior: Value, proposed: Value, config: Value, ctx: TestbedContext): NativePlan;
  /** Fills in a planned create or update: every unknown becomes a value derived from the plan. */
  apply(prior: Value, planned: Value, ctx: TestbedContext): { newState: Value; legacyTypeSystem?: boolean };
  /** Whether a read reports the object gone. */
  gone?(state: Value): boolean;
  /** Imports by id; absent when the type cannot be imported. */
  importState?(id: string, ctx: TestbedContext): NativeImport;
  /** Upgrades a stored state of an older schema version; `undefined` when there is no upgrader from it. */
  upgradeFrom?(storedVersion: number, raw: Record<string, unknown>): NativeUpgrade | undefined;
}

/** The value at a path, or null-ish `undefined` when a step on the way is null or unknown. @internal */
export function valueAt(v: Value, path: Path): Value | undefined {
  let cur = v;
  for (const step of path.steps) {
    if (!cur.isKnown() || cur.isNull()) return undefined;
    if (step.kind !== "attr") return undefined;
    cur = cur.getAttr(step.name);
  }
  return cur;
}

/**
 * The paths among `paths` whose value differs between the prior state and the plan (a
 * missing or null container counts as a null value): what the plan reports as
 * `requiresReplace`. Never on a create.
 * @internal
 */
export function changedPaths(prior: Value, planned: Value, paths: readonly Path[]): Path[] {
  if (prior.isNull()) return [];
  const out: Path[] = [];
  for (const p of paths) {
    const a = valueAt(prior, p);
    const b = valueAt(planned, p);
    const aNull = a === undefined || (a.isKnown() && a.isNull());
    const bNull = b === undefined || (b.isKnown() && b.isNull());
    const same = aNull || bNull ? aNull === bNull : a.rawEquals(b);
    if (!same) out.push(p);
  }
  return out;
}

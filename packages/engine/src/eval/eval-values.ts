import { dynamicVal, emptyObjectVal, emptyTupleVal, objectVal, tupleVal, type Value } from "@magma/cty";
import type { Expansion } from "./expansion.js";

/** What is known of one resource or data source while walking: its expansion and its instances' values. */
export interface ResourceValues {
  readonly mode: "managed" | "data" | "ephemeral";
  readonly type: string;
  readonly name: string;
  readonly expansion: Expansion;
  /** Instance values by key (`undefined` for a single instance); unknown parts where still to be applied. */
  readonly instances: ReadonlyMap<number | string | undefined, Value>;
}

/** `count.index` and `each.key`/`each.value` of the instance being evaluated. */
export interface InstanceRepetition {
  readonly key: number | string | undefined;
  readonly eachValue?: Value;
}

/** The value of a whole resource as expressions see it: the object, a tuple (count) or an object by key (for_each). */
export function resourceValue(r: ResourceValues): Value {
  const get = (k: number | string | undefined): Value => r.instances.get(k) ?? dynamicVal;
  switch (r.expansion.kind) {
    case "single":
      return get(undefined);
    case "count":
      return r.expansion.count === 0 ? emptyTupleVal : tupleVal(Array.from({ length: r.expansion.count }, (_, i) => get(i)));
    case "for_each": {
      // A Map: a key is any string (`__proto__`, `constructor`).
      const out = new Map<string, Value>();
      for (const k of [...r.expansion.entries.keys()].sort()) out.set(k, get(k));
      return out.size === 0 ? emptyObjectVal : objectVal(out);
    }
  }
}

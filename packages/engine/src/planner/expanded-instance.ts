import type { ExpandedInstance, Expansion } from "../eval/expansion.js";

/** The instance of an expansion with this key, looked up directly (not by listing all N instances for each of N instances). */
export function expandedInstance(e: Expansion, key: number | string | undefined): ExpandedInstance | undefined {
  switch (e.kind) {
    case "single":
      return key === undefined ? { key } : undefined;
    case "count":
      return typeof key === "number" && Number.isInteger(key) && key >= 0 && key < e.count ? { key } : undefined;
    case "for_each": {
      if (typeof key !== "string") return undefined;
      const eachValue = e.entries.get(key);
      return eachValue === undefined ? undefined : { key, eachValue };
    }
  }
}

import { compareUtf8 } from "./compare-utf8.js";
import type { ObjectType } from "../type.js";

/** The index of an attribute in an object type's `attributeNames` (UTF-8 order), or -1. @internal */
export function attrIndex(t: ObjectType, name: string): number {
  // attributeNames is sorted by UTF-8 bytes: binary search.
  const names = t.attributeNames;
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareUtf8(names[mid]!, name);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

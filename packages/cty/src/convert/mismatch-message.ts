// Mismatch messages (go-cty's `MismatchMessage`): why a value of one type does not convert
// to another.
import { typeEquals, type ObjectType, type Type } from "../type.js";
import { getConversion } from "./convert.js";
import { constraintName } from "./type-utils.js";

/** Why no conversion from `got` to `want` exists, in go-cty's words. @internal */
export function mismatchMessage(got: Type, want: Type): string {
  if (got.kind === "object" && want.kind === "object") return mismatchObjects(got, want);
  if (got.kind === "tuple" && want.kind === "list" && want.element.kind === "dynamic")
    return "all list elements must have the same type";
  if (got.kind === "tuple" && want.kind === "set" && want.element.kind === "dynamic")
    return "all set elements must have the same type";
  if (got.kind === "object" && want.kind === "map" && want.element.kind === "dynamic")
    return "all map elements must have the same type";
  const wantCollection = want.kind === "list" || want.kind === "set" || want.kind === "map";
  if ((got.kind === "tuple" || got.kind === "object") && wantCollection) {
    if ((want.kind === "list" || want.kind === "set") && got.kind !== "tuple")
      return `${constraintName(want)} required`;
    if (want.kind === "map" && got.kind !== "object") return `${constraintName(want)} required`;
    const wantEty = want.element;
    if (got.kind === "tuple") {
      for (let i = 0; i < got.elements.length; i++) {
        const g = got.elements[i]!;
        if (typeEquals(g, wantEty) || getConversion(g, wantEty, true) !== undefined) continue;
        return `element ${i}: ${mismatchMessage(g, wantEty)}`;
      }
    } else if (got.kind === "object") {
      for (const n of got.attributeNames) {
        const g = got.attributes[n]!;
        if (typeEquals(g, wantEty) || getConversion(g, wantEty, true) !== undefined) continue;
        return `element ${JSON.stringify(n)}: ${mismatchMessage(g, wantEty)}`;
      }
    }
    return `all elements must be ${constraintName(wantEty)}`;
  }
  if ((got.kind === "list" || got.kind === "set" || got.kind === "map") && wantCollection) {
    if ((want.kind === "list" || want.kind === "set") && got.kind === "map")
      return `${constraintName(want)} required`;
    if (want.kind === "map" && got.kind !== "map") return `${constraintName(want)} required`;
    return `incorrect ${want.kind} element type: ${mismatchMessage(got.element, want.element)}`;
  }
  return `${constraintName(want)} required`;
}

function mismatchObjects(got: ObjectType, want: ObjectType): string {
  const missing: string[] = [];
  let unsafeMismatch = "";
  let safeMismatch = "";
  for (const n of want.attributeNames) {
    const w = want.attributes[n]!;
    const g = got.attributes[n];
    if (g === undefined) {
      if (!want.optional.has(n)) missing.push(n);
      continue;
    }
    if (typeEquals(g, w)) continue;
    if (unsafeMismatch !== "") continue;
    if (getConversion(g, w, true) === undefined)
      unsafeMismatch = `attribute ${JSON.stringify(n)}: ${mismatchMessage(g, w)}`;
    if (safeMismatch !== "") continue;
    if (getConversion(g, w, false) === undefined)
      safeMismatch = `attribute ${JSON.stringify(n)}: ${mismatchMessage(g, w)}`;
  }
  if (missing.length === 1) return `attribute ${JSON.stringify(missing[0])} is required`;
  if (missing.length === 2)
    return `attributes ${JSON.stringify(missing[0])} and ${JSON.stringify(missing[1])} are required`;
  if (missing.length > 2) {
    const head = missing
      .slice(0, -1)
      .map((m) => `${JSON.stringify(m)}, `)
      .join("");
    return `attributes ${head}and ${JSON.stringify(missing[missing.length - 1])} are required`;
  }
  if (unsafeMismatch !== "") return unsafeMismatch;
  if (safeMismatch !== "") return safeMismatch;
  return "incorrect object attributes";
}

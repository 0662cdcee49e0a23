import type { Path, Value } from "@magma/cty";
import type { Attribute, Block, NestedAttributeType, NestedBlock } from "@magma/provider-api";
import { ResourcePlanAction, type PlanOutcome } from "./operations.js";

/** Options of {@link renderPlanDiff}. */
export interface RenderPlanOptions {
  /** The resource's name in the header (`resource "random_string" "<name>"`); default `this`. */
  readonly name?: string;
}

type Sym = "+" | "-" | "~" | " ";

/**
 * Where a value is sensitive, from the schema: `true` (all of it), `false` (none of it),
 * per attribute of an object (a v6 nested attribute's members), or the same for every
 * element of a list, set or map (nested attributes of those nestings).
 */
type Sens = boolean | { readonly attrs: ReadonlyMap<string, Sens> } | { readonly each: Sens };

/** The sensitivity of an attribute's value, following nested attribute types to any depth. */
function attributeSens(a: Attribute): Sens {
  if (a.sensitive === true) return true;
  if (a.nestedType === undefined) return false;
  return nestedSens(a.nestedType);
}

function nestedSens(n: NestedAttributeType): Sens {
  const attrs = new Map<string, Sens>();
  for (const [k, a] of Object.entries(n.attributes)) {
    const x = attributeSens(a);
    if (x !== false) attrs.set(k, x);
  }
  if (attrs.size === 0) return false;
  const obj: Sens = { attrs };
  return n.nesting === "single" ? obj : { each: obj };
}

/** The sensitivity of an object's attribute or a map's value (`key`), or of a list or set element (no key). */
function sub(sens: Sens, key?: string): Sens {
  if (typeof sens === "boolean") return sens;
  if ("each" in sens) return sens.each;
  return key === undefined ? false : (sens.attrs.get(key) ?? false);
}

const HEADERS: Readonly<Record<ResourcePlanAction, [string, string]>> = {
  "no-op": ["has no changes", "  "],
  create: ["will be created", "  + "],
  update: ["will be updated in-place", "  ~ "],
  replace: ["must be replaced", "-/+ "],
  delete: ["will be destroyed", "  - "],
};

/**
 * Renders a planned change as Terraform's human plan output does: a header, `+` / `~` /
 * `-` per attribute (and `-/+` for a replacement), `# forces replacement` on the attributes
 * whose change requires it, `(sensitive value)` for sensitive attributes,
 * `(known after apply)` for unknown values, hidden unchanged attributes counted, and a
 * closing `Plan: N to add, N to change, N to destroy.` line.
 */
export function renderPlanDiff(plan: PlanOutcome, options: RenderPlanOptions = {}): string {
  const name = options.name ?? "this";
  const addr = `${plan.typeName}.${name}`;
  if (plan.action === ResourcePlanAction.NoOp) {
    return `No changes. ${addr} matches its configuration.\n`;
  }
  const [verb, lead] = HEADERS[plan.action];
  const lines: string[] = [`  # ${addr} ${verb}`, `${lead}resource ${JSON.stringify(plan.typeName)} ${JSON.stringify(name)} {`];
  const before = plan.prior.isNull() ? undefined : plan.prior;
  const after = plan.change.plannedState.isNull() ? undefined : plan.change.plannedState;
  const forces = new Set(plan.replacing.map((p: Path) => p.toString()));
  lines.push(...blockBody(plan.entry.block, before, after, 6, "", forces));
  lines.push("    }");
  const add = plan.action === ResourcePlanAction.Create || plan.action === ResourcePlanAction.Replace ? 1 : 0;
  const change = plan.action === ResourcePlanAction.Update ? 1 : 0;
  const destroy = plan.action === ResourcePlanAction.Delete || plan.action === ResourcePlanAction.Replace ? 1 : 0;
  lines.push("", `Plan: ${add} to add, ${change} to change, ${destroy} to destroy.`);
  return lines.join("\n") + "\n";
}

function pad(n: number): string {
  return " ".repeat(n);
}

function attr(v: Value | undefined, name: string): Value | undefined {
  if (v === undefined || v.isNull() || !v.isKnown()) return undefined;
  const a = v.getAttr(name);
  return a.isNull() ? undefined : a;
}

function blockBody(block: Block, before: Value | undefined, after: Value | undefined, indent: number, path: string, forces: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const attrs = Object.entries(block.attributes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const shown: { name: string; a: Attribute; b: Value | undefined; f: Value | undefined; sym: Sym }[] = [];
  let hidden = 0;
  for (const [name, a] of attrs) {
    const b = attr(before, name);
    const unknownAfter = after !== undefined && after.isKnown() && !after.getAttr(name).isKnown();
    const f = unknownAfter ? after.getAttr(name) : attr(after, name);
    const sym = symbolFor(b, f);
    if (sym === " ") {
      if (b !== undefined) hidden++;
      continue;
    }
    shown.push({ name, a, b, f, sym });
  }
  const width = Math.max(0, ...shown.map((s) => s.name.length));
  for (const s of shown) {
    const p = path === "" ? s.name : `${path}.${s.name}`;
    const suffix = forces.has(p) ? " # forces replacement" : "";
    out.push(...entry(s.sym, s.name.padEnd(width), s.b, s.f, attributeSens(s.a), indent, suffix));
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    out.push(...nestedBlocks(name, nb, attr(before, name), after === undefined ? undefined : after.isKnown() ? after.getAttr(name) : undefined, indent, path === "" ? name : `${path}.${name}`, forces));
  }
  if (hidden > 0) out.push(`${pad(indent + 2)}# (${hidden} unchanged attribute${hidden === 1 ? "" : "s"} hidden)`);
  return out;
}

function nestedBlocks(name: string, nb: NestedBlock, before: Value | undefined, after: Value | undefined, indent: number, path: string, forces: ReadonlySet<string>): string[] {
  const items = (v: Value | undefined): Value[] => {
    if (v === undefined || v.isNull() || !v.isKnown()) return [];
    if (nb.nesting === "single" || nb.nesting === "group") return [v];
    if (nb.nesting === "map") return [...v.entries().values()];
    return [...v.elements()];
  };
  const bs = items(before);
  const as = items(after);
  const out: string[] = [];
  const suffix = forces.has(path) ? " # forces replacement" : "";
  if (after !== undefined && !after.isKnown()) {
    out.push(`${pad(indent)}~ ${name} = (known after apply)${suffix}`);
    return out;
  }
  const ordered = nb.nesting === "list" || nb.nesting === "single" || nb.nesting === "group";
  if (ordered) {
    for (let i = 0; i < Math.max(bs.length, as.length); i++) {
      const b = bs[i];
      const f = as[i];
      const sym = symbolFor(b, f);
      if (sym === " ") continue;
      out.push(`${pad(indent)}${sym} ${name} {${suffix}`, ...blockBody(nb.block, b, f, indent + 4, path, forces), `${pad(indent + 2)}}`);
    }
    return out;
  }
  for (const b of bs) if (!as.some((f) => f.rawEquals(b))) out.push(`${pad(indent)}- ${name} {${suffix}`, ...blockBody(nb.block, b, undefined, indent + 4, path, forces), `${pad(indent + 2)}}`);
  for (const f of as) if (!bs.some((b) => b.rawEquals(f))) out.push(`${pad(indent)}+ ${name} {${suffix}`, ...blockBody(nb.block, undefined, f, indent + 4, path, forces), `${pad(indent + 2)}}`);
  return out;
}

function symbolFor(b: Value | undefined, f: Value | undefined): Sym {
  if (b === undefined && f === undefined) return " ";
  if (b === undefined) return "+";
  if (f === undefined) return "-";
  return f.isKnown() && b.rawEquals(f) ? " " : "~";
}

/** Lines of one `key = value` entry (possibly multi-line for collections). */
function entry(sym: Sym, key: string, b: Value | undefined, f: Value | undefined, sens: Sens, indent: number, suffix: string): string[] {
  const lead = `${pad(indent)}${sym} ${key} = `;
  if (sens === true) return [`${lead}(sensitive value)${suffix}`];
  if (f !== undefined && !f.isKnown()) {
    return [b === undefined ? `${lead}(known after apply)${suffix}` : `${lead}${inlineValue(b, sens)} -> (known after apply)${suffix}`];
  }
  const isColl = (v: Value | undefined): boolean => v !== undefined && v.isKnown() && !v.isNull() && ["map", "object", "list", "set", "tuple"].includes(v.type.kind);
  if (sym === "~" && isColl(b) && isColl(f) && b!.type.kind === f!.type.kind) {
    return [`${lead}${open(f!)}${suffix}`, ...collectionDiff(b!, f!, indent + 4, sens), `${pad(indent + 2)}${close(f!)}`];
  }
  if (sym === "+") return block(lead, f!, "+", indent, "", suffix, sens);
  if (sym === "-") return block(lead, b!, "-", indent, " -> null", suffix, sens);
  return [`${lead}${inlineValue(b!, sens)} -> ${inlineValue(f!, sens)}${suffix}`];
}

/** A whole value added or removed, collections spread over lines. */
function block(lead: string, v: Value, sym: "+" | "-", indent: number, tail: string, suffix: string, sens: Sens): string[] {
  const kind = v.type.kind;
  if (sens === true || !v.isKnown() || !["map", "object", "list", "set", "tuple"].includes(kind) || v.length() === 0) return [`${lead}${inlineValue(v, sens)}${tail}${suffix}`];
  const inner: string[] = [];
  if (kind === "map" || kind === "object") {
    const entries = kind === "map" ? [...v.entries()] : Object.entries(v.attributes());
    const width = Math.max(...entries.map(([k]) => key(k, kind).length));
    for (const [k, e] of entries) inner.push(...block(`${pad(indent + 4)}${sym} ${key(k, kind).padEnd(width)} = `, e, sym, indent + 4, "", "", sub(sens, k)));
  } else {
    for (const e of v.elements()) inner.push(...block(`${pad(indent + 4)}${sym} `, e, sym, indent + 4, "", "", sub(sens)).map((l) => l.replace(/ = $/, "")));
  }
  return [`${lead}${open(v)}${suffix}`, ...inner, `${pad(indent + 2)}${close(v)}${tail}`];
}

function collectionDiff(b: Value, f: Value, indent: number, sens: Sens): string[] {
  const out: string[] = [];
  const kind = f.type.kind;
  let hidden = 0;
  if (kind === "map" || kind === "object") {
    const be = kind === "map" ? b.entries() : new Map(Object.entries(b.attributes()));
    const fe = kind === "map" ? f.entries() : new Map(Object.entries(f.attributes()));
    const keys = [...new Set([...be.keys(), ...fe.keys()])].sort();
    const width = Math.max(...keys.map((k) => key(k, kind).length));
    for (const k of keys) {
      const bv = be.get(k);
      const fv = fe.get(k);
      const bx = bv === undefined || bv.isNull() ? undefined : bv;
      const fx = fv === undefined || (fv.isKnown() && fv.isNull()) ? undefined : fv;
      const sym = symbolFor(bx, fx);
      if (sym === " ") {
        if (bx !== undefined) hidden++;
        continue;
      }
      out.push(...entry(sym, key(k, kind).padEnd(width), bx, fx, sub(sens, k), indent, ""));
    }
  } else {
    const bs = b.elements();
    const fs = f.elements();
    for (const x of bs) if (!fs.some((y) => y.rawEquals(x))) out.push(`${pad(indent)}- ${inlineValue(x, sub(sens))},`);
    for (const y of fs) {
      if (!bs.some((x) => x.rawEquals(y))) out.push(`${pad(indent)}+ ${inlineValue(y, sub(sens))},`);
      else hidden++;
    }
  }
  if (hidden > 0) out.push(`${pad(indent)}# (${hidden} unchanged element${hidden === 1 ? "" : "s"} hidden)`);
  return out;
}

function key(k: string, kind: string): string {
  return kind === "map" || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? JSON.stringify(k) : k;
}

function open(v: Value): string {
  return ["map", "object"].includes(v.type.kind) ? "{" : "[";
}

function close(v: Value): string {
  return ["map", "object"].includes(v.type.kind) ? "}" : "]";
}

/** A value on one line, HCL-style (with no schema: nothing is taken as sensitive). */
export function formatInlineValue(v: Value): string {
  return inlineValue(v, false);
}

/** @deprecated Renamed {@link formatInlineValue} (what it formats was not in the name); this alias goes in the next minor release. */
export const inline: typeof formatInlineValue = formatInlineValue;

/** {@link formatInlineValue} where the parts that `sensitive` marks show as `(sensitive value)`. */
function inlineValue(v: Value, sensitive: Sens): string {
  if (sensitive === true) return "(sensitive value)";
  if (!v.isKnown()) return "(known after apply)";
  if (v.isNull()) return "null";
  switch (v.type.kind) {
    case "string":
      return JSON.stringify(v.asString());
    case "number":
      return v.asNumber().toString();
    case "bool":
      return String(v.asBool());
    case "list":
    case "set":
    case "tuple":
      return `[${v.elements().map((e) => inlineValue(e, sub(sensitive))).join(", ")}]`;
    case "map":
      return `{${[...v.entries()].map(([k, e]) => ` ${JSON.stringify(k)} = ${inlineValue(e, sub(sensitive, k))}`).join(",")} }`.replace("{ }", "{}");
    case "object":
      return `{${Object.entries(v.attributes()).map(([k, e]) => ` ${key(k, "object")} = ${inlineValue(e, sub(sensitive, k))}`).join(",")} }`.replace("{ }", "{}");
    default:
      return v.toString();
  }
}

/**
 * An object's state as `name = value` lines (sorted; nested blocks as `name { … }`),
 * sensitive attributes (also inside nested attributes, at any depth) shown as
 * `(sensitive value)` and null attributes left out.
 */
export function renderState(block: Block, state: Value, indent = 2): string[] {
  const out: string[] = [];
  if (state.isNull()) return out;
  const attrs = Object.entries(block.attributes ?? {})
    .filter(([name]) => !state.getAttr(name).isNull())
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const width = Math.max(0, ...attrs.map(([n]) => n.length));
  for (const [name, a] of attrs) out.push(`${pad(indent)}${name.padEnd(width)} = ${inlineValue(state.getAttr(name), attributeSens(a))}`);
  for (const [name, nb] of Object.entries(block.blockTypes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const v = state.getAttr(name);
    if (v.isNull() || !v.isKnown()) continue;
    const items = nb.nesting === "single" || nb.nesting === "group" ? [v] : nb.nesting === "map" ? [...v.entries().values()] : [...v.elements()];
    for (const item of items) out.push(`${pad(indent)}${name} {`, ...renderState(nb.block, item, indent + 2), `${pad(indent)}}`);
  }
  return out;
}

import { Mark, fromJson, markWithPaths, type Type, type Value } from "@magma/cty";
import { schemaSensitivePaths } from "@magma/engine";
import type { Attribute, Block, NestedAttributeType, SchemaEntry } from "@magma/provider-api";
import { decodeSensitivePaths, formatModuleInstance, type InstanceObjectState } from "@magma/state";
import { goQuote } from "./format-value.js";
import type { StateInstance } from "./state-objects.js";

// The human rendering of state objects as `terraform show` and `terraform state show` print
// them: Terraform's structured renderer over an object that does not change, with every
// child shown and no diff symbols (four spaces per level).

const SENS: ReadonlySet<string> = new Set([Mark.Sensitive]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function ind(n: number): string {
  return "    ".repeat(n);
}

/** A name as an HCL attribute key: bare when it is an identifier, quoted otherwise. */
function attrKey(k: string): string {
  return IDENT.test(k) ? k : goQuote(k);
}

function sensitive(v: Value): boolean {
  return v.isMarked(Mark.Sensitive);
}

/**
 * The `# addr:` header and the `resource "type" "name" {…}` (or `data …`) block of one
 * object of a resource instance, rendered with its schema: attributes sorted and aligned,
 * null ones omitted (empty strings of legacy-SDK schemas shown as `null`, write-only
 * attributes as `(write-only attribute)`), nested blocks as blocks, maps with
 * quoted keys, multi-line strings as heredocs, JSON strings as `jsonencode(…)`, sensitive
 * values (per schema and per the object's `sensitive_attributes`) as `(sensitive value)`.
 *
 * @throws Error when the attributes do not decode with the schema's type.
 */
export function schemaInstanceText(inst: StateInstance, obj: InstanceObjectState, entry: SchemaEntry): string {
  const plain = fromJson(obj.attributesJson ?? "{}", entry.type);
  const paths = [...decodeSensitivePaths(obj.sensitiveAttributesJson), ...schemaSensitivePaths(plain, entry.block)];
  const value = markWithPaths(plain, paths.map((path) => ({ path, marks: SENS })));
  return `${header(inst, obj)}${blockText(entry.block, value, 0, true)}\n`;
}

/** `# addr:` (with Terraform's deposed and tainted notes) and the block's first words. */
export function header(inst: StateInstance, obj: InstanceObjectState): string {
  const note = obj.deposed !== undefined ? ` (deposed object ${obj.deposed})` : obj.tainted ? " (tainted)" : "";
  const kw = inst.addr.mode === "data" ? "data" : "resource";
  return `# ${inst.text}:${note}\n${kw} ${goQuote(inst.addr.type)} ${goQuote(inst.addr.name)} `;
}

function sensitiveBlock(indent: number): string {
  const prefix = `${ind(indent)}   `;
  return `{\n${prefix}  # At least one attribute in this block is (or was) sensitive,\n${prefix}  # so its contents will not be displayed.\n${prefix}}`;
}

/**
 * Whether a block uses what the legacy SDK could not declare (map or group blocks, nested
 * attribute types, dynamic, object or tuple types, collections of non-primitive collections):
 * then its empty strings are not read as null.
 */
function nonLegacy(block: Block): boolean {
  if (Object.values(block.blockTypes ?? {}).some((nb) => nb.nesting === "map" || nb.nesting === "group")) return true;
  return Object.values(block.attributes ?? {}).some((a) => a.nestedType !== undefined || (a.type !== undefined && nonLegacyType(a.type)));
}

function nonLegacyType(t: Type): boolean {
  if (t.kind === "dynamic" || t.kind === "object" || t.kind === "tuple") return true;
  if (t.kind === "list" || t.kind === "set" || t.kind === "map") {
    const e = t.element;
    if (e.kind === "dynamic") return true;
    if ((e.kind === "list" || e.kind === "set" || e.kind === "map") && !["string", "number", "bool"].includes(e.element.kind)) return true;
  }
  return false;
}

/**
 * A block's body from `{` to `}`, its attributes at `indent + 1`. In a `legacy` object
 * (one whose blocks use nothing the legacy SDK could not declare) empty strings read as null.
 */
function blockText(block: Block, v: Value, indent: number, legacyParent: boolean): string {
  if (sensitive(v)) return sensitiveBlock(indent);
  const legacy = legacyParent && !nonLegacy(block);
  const attrs: [string, string][] = [];
  for (const name of Object.keys(block.attributes ?? {}).sort()) {
    const a = v.getAttr(name);
    const schema = block.attributes![name]!;
    if (schema.writeOnly === true) {
      attrs.push([attrKey(name), "(write-only attribute)"]);
      continue;
    }
    if (a.isNull()) continue;
    attrs.push([attrKey(name), attributeText(schema, a, indent + 1, legacy)]);
  }
  const groups: string[][] = [];
  for (const name of Object.keys(block.blockTypes ?? {}).sort()) {
    const nb = block.blockTypes![name]!;
    const bv = v.getAttr(name);
    if (bv.isNull()) continue;
    const whole = sensitive(bv);
    const lines: string[] = [];
    const one = (label: string, e: Value) => lines.push(`${ind(indent + 1)}${attrKey(name)}${label} ${whole ? sensitiveBlock(indent + 1) : blockText(nb.block, e, indent + 1, legacy)}`);
    const plain = bv.unmarkDeep().value;
    switch (nb.nesting) {
      case "single":
      case "group":
        one("", bv);
        break;
      case "map": {
        const entries = plain.type.kind === "map" ? [...bv.entries()] : Object.entries(bv.attributes());
        for (const [k, e] of entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) one(` ${goQuote(k)}`, e);
        break;
      }
      default:
        for (const e of whole ? plain.elements() : bv.elements()) one("", e);
    }
    groups.push(lines);
  }
  if (attrs.length === 0 && groups.length === 0) return "{}";
  const width = Math.max(0, ...attrs.map(([k]) => k.length));
  let out = "{\n";
  for (const [k, text] of attrs) out += `${ind(indent + 1)}${k.padEnd(width)} = ${text}\n`;
  for (const lines of groups) {
    if (lines.length === 0) continue;
    if (attrs.length > 0) out += "\n";
    for (const l of lines) out += `${l}\n`;
  }
  return `${out}${ind(indent)}}`;
}

/** An attribute's value: through its nested type when it has one, else by its type. */
function attributeText(a: Attribute, v: Value, indent: number, legacy: boolean): string {
  if (a.nestedType !== undefined) return nestedText(a.nestedType, v, indent);
  return valueText(v, indent, a.type?.kind === "dynamic", legacy);
}

function nestedText(n: NestedAttributeType, v: Value, indent: number): string {
  if (sensitive(v)) return "(sensitive value)";
  if (v.isNull()) return "null";
  const object = (e: Value, at: number): string => {
    if (sensitive(e)) return "(sensitive value)";
    if (e.isNull()) return "null";
    const rows: [string, string][] = [];
    for (const name of Object.keys(n.attributes).sort()) {
      const x = e.getAttr(name);
      if (x.isNull()) continue;
      rows.push([attrKey(name), attributeText(n.attributes[name]!, x, at + 1, false)]);
    }
    return objectLines(rows, at);
  };
  switch (n.nesting) {
    case "single":
      return object(v, indent);
    case "map": {
      // Terraform does not align the keys of a nested attribute's map.
      const rows = [...v.entries()].sort(([x], [y]) => cmp(x, y));
      if (rows.length === 0) return "{}";
      return `{\n${rows.map(([k, e]) => `${ind(indent + 1)}${goQuote(k)} = ${object(e, indent + 1)},\n`).join("")}${ind(indent)}}`;
    }
    default:
      return listLines(
        v.elements().map((e) => object(e, indent + 1)),
        indent,
      );
  }
}

function objectLines(rows: readonly [string, string][], indent: number): string {
  if (rows.length === 0) return "{}";
  const width = Math.max(...rows.map(([k]) => k.length));
  return `{\n${rows.map(([k, t]) => `${ind(indent + 1)}${k.padEnd(width)} = ${t}\n`).join("")}${ind(indent)}}`;
}

function mapLines(rows: readonly [string, string, boolean][], indent: number): string {
  if (rows.length === 0) return "{}";
  const sorted = [...rows].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const width = Math.max(...sorted.map(([k]) => goQuote(k).length));
  return `{\n${sorted.map(([k, t, comma]) => `${ind(indent + 1)}${goQuote(k).padEnd(width)} = ${t}${comma ? "," : ""}\n`).join("")}${ind(indent)}}`;
}

function listLines(items: readonly string[], indent: number): string {
  if (items.length === 0) return "[]";
  return `[\n${items.map((t) => `${ind(indent + 1)}${t},\n`).join("")}${ind(indent)}]`;
}

/**
 * A value by its type. Inside a dynamically typed attribute Terraform renders from JSON, so
 * maps read as objects (bare keys) there.
 */
function valueText(v: Value, indent: number, dynamic: boolean, legacy: boolean): string {
  if (sensitive(v)) return "(sensitive value)";
  if (v.isNull()) return "null";
  switch (v.type.kind) {
    case "string":
      // The legacy SDK cannot tell an empty string from null: Terraform shows it as null.
      return legacy && v.asString() === "" ? "null" : stringText(v.asString(), indent);
    case "number":
      return v.asNumber().toString();
    case "bool":
      return String(v.asBool());
    case "list":
    case "set":
    case "tuple":
      return listLines(
        v.elements().map((e) => valueText(e, indent + 1, dynamic, legacy)),
        indent,
      );
    case "map":
      if (!dynamic) {
        return mapLines(
          [...v.entries()].map(([k, e]) => [k, valueText(e, indent + 1, dynamic, legacy), isObjectLike(e, dynamic)]),
          indent,
        );
      }
      return objectLines(
        [...v.entries()]
          .filter(([, e]) => !e.isNull())
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          .map(([k, e]) => [attrKey(k), valueText(e, indent + 1, dynamic, legacy)]),
        indent,
      );
    case "object":
      return objectLines(
        Object.entries(v.attributes())
          .filter(([, e]) => !e.isNull())
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          .map(([k, e]) => [attrKey(k), valueText(e, indent + 1, dynamic, legacy)]),
        indent,
      );
    default:
      return v.toString();
  }
}

/**
 * A root output's value as `terraform show` prints it after `Outputs:` (Terraform's renderer
 * over the value and its type, at indent 0): four spaces per level, maps with quoted keys,
 * objects with bare ones, aligned; multi-line strings as heredocs, JSON strings as
 * `jsonencode(…)`.
 */
export function outputValueText(v: Value): string {
  return valueText(v, 0, false, false);
}

/** Whether a map element renders as an object (Terraform puts a comma after those). */
function isObjectLike(v: Value, dynamic: boolean): boolean {
  return !sensitive(v) && !v.isNull() && (v.type.kind === "object" || (dynamic && v.type.kind === "map"));
}

/** A string: quoted, a heredoc when it spans lines, `jsonencode(…)` when it holds a JSON object or array. */
function stringText(s: string, indent: number): string {
  if (s.startsWith("{") || s.startsWith("[")) {
    let parsed: unknown;
    let ok = true;
    try {
      parsed = JSON.parse(s);
    } catch {
      ok = false;
    }
    if (ok) {
      const text = jsonText(parsed, indent + 1);
      return text.includes("\n") ? `jsonencode(\n${ind(indent + 1)}${text}\n${ind(indent)})` : `jsonencode(${text})`;
    }
  }
  if (s.includes("\n")) {
    const lines = s.trim().split("\n");
    return `<<-EOT\n${lines.map((l) => `${ind(indent + 1)}${l}`).join("\n")}\n${ind(indent)}EOT`;
  }
  return goQuote(s);
}

/** A JSON value inside `jsonencode(…)`: objects (keys quoted when not identifiers), arrays as lists. */
function jsonText(v: unknown, indent: number): string {
  if (v === null) return "null";
  if (typeof v === "string") return stringText(v, indent);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return listLines(v.map((e) => jsonText(e, indent + 1)), indent);
  const entries = Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return objectLines(
    entries.map(([k, e]) => [attrKey(k), jsonText(e, indent + 1)]),
    indent,
  );
}

/**
 * A state's objects in `terraform show`'s order: the root module's resources by address,
 * then each child module (by address) depth first; an instance's current object before its
 * deposed ones (by key).
 */
export function showOrder(instances: readonly StateInstance[]): { inst: StateInstance; obj: InstanceObjectState }[] {
  const byModule = new Map<string, { inst: StateInstance; obj: InstanceObjectState }[]>();
  const children = new Map<string, Set<string>>();
  for (const inst of instances) {
    const key = formatModuleInstance(inst.addr.module);
    for (let a = inst.addr.module; a.length > 0; a = a.slice(0, -1)) {
      const parent = formatModuleInstance(a.slice(0, -1));
      let set = children.get(parent);
      if (set === undefined) children.set(parent, (set = new Set()));
      set.add(formatModuleInstance(a));
    }
    let list = byModule.get(key);
    if (list === undefined) byModule.set(key, (list = []));
    const key0 = JSON.stringify(inst.addr.key ?? null);
    const objs = inst.resource.instances.filter((o) => JSON.stringify(o.indexKey ?? null) === key0);
    const deposed = objs.filter((o) => o.deposed !== undefined).sort((x, y) => cmp(x.deposed!, y.deposed!));
    for (const obj of [...(inst.current === undefined ? [] : [inst.current]), ...deposed]) list.push({ inst, obj });
  }
  const out: { inst: StateInstance; obj: InstanceObjectState }[] = [];
  const walk = (key: string): void => {
    // A stable sort keeps each instance's current object before its deposed ones.
    out.push(...(byModule.get(key) ?? []).sort((x, y) => cmp(x.inst.text, y.inst.text)));
    for (const child of [...(children.get(key) ?? [])].sort(cmp)) walk(child);
  };
  walk("");
  return out;
}

function cmp(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

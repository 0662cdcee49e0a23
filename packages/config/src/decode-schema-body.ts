import { convert, hasDynamicTypes, isPathError, listVal, mapVal, nullVal, numberVal, objectVal, setVal, stringVal, tupleVal, unknownVal, type Value } from "@magma/cty";
import { attributeType, emptyNestedBlockValue, impliedType, type Block as SchemaBlock, type NestedBlock } from "@magma/provider-api";
import { evaluate, type Attribute, type Body, type BodySchema, type Diagnostic, type EvalScope, type Expression, type SourceRange } from "@magma/hcl";
import { at, defRange, errorDiag } from "./diagnostics.js";
import { bodyContent } from "./hcl-fixups.js";

/** A nested block decoded against its schema. */
export interface DecodedBlock {
  readonly labels: readonly string[];
  readonly body: DecodedBody;
  readonly typeRange: SourceRange;
  readonly declRange: SourceRange;
}

/**
 * A `dynamic "x" { for_each = …; content { … } }` block, kept unexpanded: the engine
 * expands it once `for_each` is known ({@link evaluateSchemaBody} does so).
 */
export interface DynamicBlock {
  /** The block type it generates. */
  readonly blockType: string;
  readonly forEach: Expression;
  /** The iterator name (`iterator`, default the block type). */
  readonly iterator: string;
  /** `labels` (for map-nested blocks). */
  readonly labels?: Expression;
  /** The `content` block's body, decoded against the generated block's schema. */
  readonly content: DecodedBody;
  readonly declRange: SourceRange;
}

/** A resource, data source or provider body decoded against the provider's schema. */
export interface DecodedBody {
  /** Arguments written in the body, by name. */
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** Nested blocks by block type, in source order. */
  readonly blocks: ReadonlyMap<string, readonly DecodedBlock[]>;
  readonly dynamicBlocks: readonly DynamicBlock[];
  readonly range: SourceRange;
}

/**
 * `record[key]` when `key` is the record's own property: a name from the configuration such
 * as `constructor` or `__proto__` must not find what every object inherits. @internal
 */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** HCL body schema for a provider schema block (plus `dynamic` when allowed). */
export function hclSchemaFor(block: SchemaBlock, dynamic = true): BodySchema {
  const attributes = Object.entries(block.attributes ?? {})
    .map(([name, a]) => ({ name, required: a.required === true }));
  const blocks = Object.entries(block.blockTypes ?? {}).map(([type, nb]) => ({ type, labelNames: nb.nesting === "map" ? ["key"] : [] }));
  if (dynamic) blocks.push({ type: "dynamic", labelNames: ["type"] });
  return { attributes, blocks };
}

/**
 * Decodes a body (native or JSON syntax) against a provider's schema block, as Terraform
 * does with `hcldec`: JSON properties become arguments or nested blocks by the schema;
 * unknown arguments and block types, computed-only arguments set in configuration, missing
 * required arguments, and wrong block counts are diagnostics with ranges (and "did you mean").
 */
export function decodeSchemaBody(body: Body, block: SchemaBlock): { decoded: DecodedBody; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const decoded = decodeInto(body, block, diags);
  return { decoded, diags };
}

function decodeInto(body: Body, block: SchemaBlock, diags: Diagnostic[]): DecodedBody {
  const schema = hclSchemaFor(block);
  // Terraform decodes computed-only attributes like optional ones (the provider's own
  // validation refuses them); JSON bodies get no "did you mean" here, as in Terraform.
  const { content, diags: d } = bodyContent(body, schema, false);
  diags.push(...d);
  const attributes = new Map<string, Attribute>(content.attributes);
  const blocks = new Map<string, DecodedBlock[]>();
  const dynamicBlocks: DynamicBlock[] = [];
  for (const b of content.blocks) {
    if (b.type === "dynamic") {
      const blockType = b.labels[0]!;
      const nb = ownEntry(block.blockTypes, blockType);
      if (nb === undefined) {
        diags.push(errorDiag("Unsupported block type", `Blocks of type ${JSON.stringify(blockType)} are not expected here.`, b.labelRanges[0]));
        continue;
      }
      const dyn = bodyContent(b.body, { attributes: [{ name: "for_each", required: true }, { name: "iterator" }, { name: "labels" }], blocks: [{ type: "content" }] });
      diags.push(...dyn.diags);
      const fe = dyn.content.attributes.get("for_each");
      const contentBlocks = dyn.content.blocks;
      if (contentBlocks.length !== 1) {
        diags.push(errorDiag(contentBlocks.length === 0 ? "Missing dynamic content block" : "Extraneous dynamic content block", "A dynamic block must have exactly one nested block of type \"content\".", b.typeRange));
        continue;
      }
      if (fe === undefined) continue;
      let iterator = blockType;
      const it = dyn.content.attributes.get("iterator");
      if (it !== undefined) {
        const e = it.expr;
        if (e.kind === "traversal" && e.traversal.steps.length === 0) iterator = e.traversal.root;
        else if (e.kind === "json" && e.node.type === "string") iterator = e.node.value;
        else diags.push(errorDiag("Invalid dynamic iterator name", "Dynamic iterator must be a single variable name.", e.range));
      }
      const labels = dyn.content.attributes.get("labels");
      dynamicBlocks.push({
        blockType,
        forEach: fe.expr,
        iterator,
        ...(labels !== undefined ? { labels: labels.expr } : {}),
        content: decodeInto(contentBlocks[0]!.body, nb.block, diags),
        declRange: defRange(b),
      });
      continue;
    }
    const nb = ownEntry(block.blockTypes, b.type);
    if (nb === undefined) continue;
    const list = blocks.get(b.type) ?? [];
    if ((nb.nesting === "single" || nb.nesting === "group") && list.length > 0) {
      diags.push(errorDiag(`Duplicate ${b.type} block`, `Only one ${JSON.stringify(b.type)} block is allowed. Another was defined at ${at(list[0]!.declRange)}.`, b.typeRange));
      continue;
    }
    list.push({ labels: b.labels, body: decodeInto(b.body, nb.block, diags), typeRange: b.typeRange, declRange: defRange(b) });
    blocks.set(b.type, list);
  }
  for (const [type, nb] of Object.entries(block.blockTypes ?? {})) {
    if (nb.nesting !== "list" && nb.nesting !== "set") continue;
    const n = blocks.get(type)?.length ?? 0;
    const hasDynamic = dynamicBlocks.some((x) => x.blockType === type);
    if (!hasDynamic && nb.minItems !== undefined && nb.minItems > 0 && n < nb.minItems) {
      diags.push(errorDiag(`Insufficient ${type} blocks`, `At least ${nb.minItems} "${type}" blocks are required.`, content.missingItemRange));
    }
    if (nb.maxItems !== undefined && nb.maxItems > 0 && n > nb.maxItems) {
      const extra = blocks.get(type)![nb.maxItems]!;
      diags.push(errorDiag(`Too many ${type} blocks`, `No more than ${nb.maxItems} "${type}" blocks are allowed`, extra.typeRange));
    }
  }
  return { attributes, blocks, dynamicBlocks, range: body.range };
}

/**
 * Evaluates a decoded body in a scope into the value of the schema block's implied type,
 * with `configValue`'s conventions: absent arguments are null, absent `list`/`set`/`map`
 * blocks empty, absent `group` blocks an object of empty values, absent `single` blocks
 * null. `dynamic` blocks are expanded over their `for_each` (an unknown `for_each` makes
 * the whole block collection unknown).
 */
export function evaluateSchemaBody(decoded: DecodedBody, block: SchemaBlock, scope: EvalScope | undefined): { value: Value; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const value = evalBody(decoded, block, scope, diags);
  return { value, diags };
}

function evalBody(decoded: DecodedBody, block: SchemaBlock, scope: EvalScope | undefined, diags: Diagnostic[]): Value {
  const attrs = new Map<string, Value>();
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const ty = attributeType(a);
    const written = decoded.attributes.get(name);
    if (written === undefined) {
      attrs.set(name, nullVal(ty));
      continue;
    }
    const r = evaluate(written.expr, scope);
    diags.push(...r.diags);
    try {
      attrs.set(name, convert(r.value, ty));
    } catch (err) {
      if (!isPathError(err)) throw err;
      diags.push(errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(name)}: ${err.message}.`, written.expr.range));
      attrs.set(name, unknownVal(ty));
    }
  }
  for (const [type, nb] of Object.entries(block.blockTypes ?? {})) {
    attrs.set(type, evalBlocks(type, nb, decoded, scope, diags));
  }
  return objectVal(attrs);
}

interface Instance {
  readonly key: string | undefined;
  readonly value: Value;
}

function evalBlocks(type: string, nb: NestedBlock, decoded: DecodedBody, scope: EvalScope | undefined, diags: Diagnostic[]): Value {
  const values: { label: string | undefined; value: Value }[] = [];
  for (const b of decoded.blocks.get(type) ?? []) values.push({ label: b.labels[0], value: evalBody(b.body, nb.block, scope, diags) });
  for (const dyn of decoded.dynamicBlocks.filter((d) => d.blockType === type)) {
    const fe = evaluate(dyn.forEach, scope);
    diags.push(...fe.diags);
    if (fe.diags.length > 0) continue;
    const coll = fe.value;
    if (!coll.isKnown()) return unknownVal(emptyNestedBlockValue(nb).type);
    if (coll.isNull()) {
      diags.push(errorDiag("Invalid dynamic for_each value", "Cannot use a null value in for_each.", dyn.forEach.range));
      continue;
    }
    const t = coll.type.kind;
    if (t !== "list" && t !== "set" && t !== "tuple" && t !== "map" && t !== "object") {
      diags.push(errorDiag("Invalid dynamic for_each value", `Cannot use a ${coll.type.kind} value in for_each. An iterable collection is required.`, dyn.forEach.range));
      continue;
    }
    const instances: Instance[] =
      t === "map" || t === "object"
        ? [...(t === "map" ? coll.entries() : new Map(Object.entries(coll.attributes())))].map(([k, v]) => ({ key: k, value: v }))
        : coll.elements().map((v, i) => ({ key: t === "set" ? undefined : String(i), value: v }));
    for (const inst of instances) {
      const keyVal = inst.key === undefined ? inst.value : t === "map" || t === "object" ? stringVal(inst.key) : numberVal(Number(inst.key));
      const iterVal = objectVal({ key: keyVal, value: inst.value });
      const inner: EvalScope = withVariable(scope, dyn.iterator, iterVal);
      let label: string | undefined;
      if (dyn.labels !== undefined) {
        const lv = evaluate(dyn.labels, inner);
        diags.push(...lv.diags);
        const first = lv.value.isKnown() && !lv.value.isNull() && (lv.value.type.kind === "list" || lv.value.type.kind === "tuple") ? lv.value.elements()[0] : undefined;
        if (first !== undefined && first.isKnown() && first.type.kind === "string") label = first.asString();
      }
      values.push({ label, value: evalBody(dyn.content, nb.block, inner, diags) });
    }
  }
  const objType = impliedType(nb.block);
  switch (nb.nesting) {
    case "single":
    case "group":
      return values[0]?.value ?? emptyNestedBlockValue(nb);
    case "list":
      if (values.length === 0) return emptyNestedBlockValue(nb);
      return hasDynamicTypes(objType) ? tupleVal(values.map((v) => v.value)) : listVal(values.map((v) => v.value));
    case "set":
      if (values.length === 0) return emptyNestedBlockValue(nb);
      return setVal(values.map((v) => v.value));
    case "map": {
      if (values.length === 0) return emptyNestedBlockValue(nb);
      const m = new Map<string, Value>();
      for (const v of values) m.set(v.label ?? "", v.value);
      return hasDynamicTypes(objType) ? objectVal(Object.fromEntries(m)) : mapVal(m);
    }
  }
}

function withVariable(scope: EvalScope | undefined, name: string, value: Value): EvalScope {
  const base = scope?.variables;
  const vars = new Map<string, Value>(base === undefined ? [] : base instanceof Map ? [...(base as ReadonlyMap<string, Value>)] : Object.entries(base as Record<string, Value>));
  vars.set(name, value);
  return { ...(scope ?? {}), variables: vars };
}

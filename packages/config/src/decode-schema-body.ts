import { convert, hasDynamicTypes, isPathError, listVal, mapVal, nullVal, numberVal, objectVal, setVal, stringVal, tupleVal, unknownVal, type Type, type Value } from "@magma/cty";
import { attributeSpecType, attributeType, emptyNestedBlockValue, impliedType, type Attribute as SchemaAttribute, type Block as SchemaBlock, type NestedBlock } from "@magma/provider-api";
import { evaluate, type Attribute, type Body, type BodySchema, type Diagnostic, type EvalScope, type Expression, type SourceRange } from "@magma/hcl";
import { at, defRange, errorDiag } from "./diagnostics.js";
import { bodyContent } from "./hcl-fixups.js";

/** A nested block decoded against its schema. */
export interface DecodedBlock {
  /** The block's place among the body's nested blocks (static and `dynamic`), in source order. */
  readonly index: number;
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
  /** The block's place among the body's nested blocks (static and `dynamic`), in source order. */
  readonly index: number;
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

/**
 * The attributes of a schema block that may be written as blocks (Terraform's `blocktoattr`
 * fixup): those of a list or set of objects, unless the schema has a type the fixup skips.
 */
function ambiguousNames(block: SchemaBlock): string[] {
  if (skipFixup(block)) return [];
  return Object.entries(block.attributes ?? {})
    .filter(([, a]) => a.type !== undefined && (a.type.kind === "list" || a.type.kind === "set") && a.type.element.kind === "object")
    .map(([name]) => name);
}

/** Terraform's `skipFixup`: schemas with types that make block syntax ambiguous get no fixup. */
function skipFixup(block: SchemaBlock): boolean {
  for (const a of Object.values(block.attributes ?? {})) {
    if (a.nestedType !== undefined || a.type === undefined) return true;
    const t = a.type;
    if (t.kind === "tuple" || t.kind === "object") return true;
    if (t.kind === "map" && t.element.kind === "object") return true;
    if ((t.kind === "list" || t.kind === "set" || t.kind === "map") && (t.element.kind === "list" || t.element.kind === "set" || t.element.kind === "map")) {
      const inner = t.element.element.kind;
      if (inner !== "string" && inner !== "number" && inner !== "bool") return true;
    }
  }
  return Object.values(block.blockTypes ?? {}).some((nb) => skipFixup(nb.block));
}

/**
 * The nested block an attribute of a list or set of objects is written as (Terraform's
 * `SchemaForCtyContainerType`): every attribute of the element optional.
 */
function blockForAttribute(ty: Type): NestedBlock {
  const element = (ty as { element: Type }).element as Type & { attributes: Readonly<Record<string, Type>> };
  const attributes = Object.fromEntries(Object.entries(element.attributes).map(([name, t]) => [name, { type: t, optional: true }]));
  return { nesting: ty.kind === "set" ? "set" : "list", block: { attributes } };
}

/**
 * The schema a body is decoded against: the provider's, with each attribute of a list or
 * set of objects that the body does not write as an argument turned into a block type
 * (Terraform's `blocktoattr.effectiveSchema`, after `dynamic` blocks are expanded).
 */
function effectiveBlock(body: Body, block: SchemaBlock): { effective: SchemaBlock; asBlocks: ReadonlySet<string> } {
  const names = ambiguousNames(block);
  if (names.length === 0) return { effective: block, asBlocks: new Set() };
  const asBlocks = new Set<string>();
  const attributes: Record<string, SchemaAttribute> = { ...block.attributes };
  const blockTypes: Record<string, NestedBlock> = { ...block.blockTypes };
  for (const name of names) {
    if (body.partialContent({ attributes: [{ name }] }).content.attributes.has(name)) continue;
    asBlocks.add(name);
    blockTypes[name] = blockForAttribute(attributes[name]!.type!);
    delete attributes[name];
  }
  return { effective: { ...block, attributes, blockTypes }, asBlocks };
}

function decodeInto(body: Body, given: SchemaBlock, diags: Diagnostic[]): DecodedBody {
  const { effective: block, asBlocks } = effectiveBlock(body, given);
  const schema = hclSchemaFor(block);
  // Terraform decodes computed-only attributes like optional ones (the provider's own
  // validation refuses them); JSON bodies get no "did you mean" here, as in Terraform.
  const { content, diags: d } = bodyContent(body, schema, false);
  diags.push(...d);
  const attributes = new Map<string, Attribute>(content.attributes);
  const blocks = new Map<string, DecodedBlock[]>();
  const dynamicBlocks: DynamicBlock[] = [];
  for (const [index, b] of content.blocks.entries()) {
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
        index,
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
    list.push({ index, labels: b.labels, body: decodeInto(b.body, nb.block, diags), typeRange: b.typeRange, declRange: defRange(b) });
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
  for (const name of asBlocks) {
    if (given.attributes![name]!.required === true && !blocks.has(name) && !dynamicBlocks.some((x) => x.blockType === name)) {
      diags.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(name)} is required, but no definition was found.`, content.missingItemRange));
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
      attrs.set(name, decoded.blocks.has(name) || decoded.dynamicBlocks.some((d) => d.blockType === name) ? blocksAsAttribute(name, ty, decoded, scope, diags) : nullVal(ty));
      continue;
    }
    const r = evaluate(written.expr, scope);
    diags.push(...r.diags);
    try {
      // Optional attributes of nested attribute types may be left out (Terraform's decoderSpec).
      attrs.set(name, a.nestedType === undefined ? convert(r.value, ty) : convert(r.value, attributeSpecType(a)));
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

/**
 * The value of an attribute of a list or set of objects written as blocks (Terraform's
 * `fixupBlocksExpr`): a list of the blocks' objects in source order converted to the
 * attribute's type, null when `dynamic` blocks generate none.
 */
function blocksAsAttribute(name: string, ty: Type, decoded: DecodedBody, scope: EvalScope | undefined, diags: Diagnostic[]): Value {
  const nb = blockForAttribute(ty);
  const v = evalBlocks(name, { ...nb, nesting: "list" }, decoded, scope, diags);
  if (v.isKnown() && v.length() === 0) return nullVal(ty);
  return convert(v, ty);
}

interface Instance {
  readonly key: string | undefined;
  readonly value: Value;
}

function evalBlocks(type: string, nb: NestedBlock, decoded: DecodedBody, scope: EvalScope | undefined, diags: Diagnostic[]): Value {
  const values: { label: string | undefined; value: Value }[] = [];
  // Static and dynamic blocks in source order (dynamic ones expanded in place, as Terraform's dynblock).
  const written = [...(decoded.blocks.get(type) ?? []), ...decoded.dynamicBlocks.filter((d) => d.blockType === type)].sort((a, b) => a.index - b.index);
  for (const w of written) {
    if (!("forEach" in w)) {
      values.push({ label: w.labels[0], value: evalBody(w.body, nb.block, scope, diags) });
      continue;
    }
    const dyn = w;
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

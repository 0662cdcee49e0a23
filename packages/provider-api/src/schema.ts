import {
  Path,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  hasDynamicTypes,
  listType,
  listValEmpty,
  mapType,
  mapValEmpty,
  nullVal,
  objectType,
  objectVal,
  setType,
  setValEmpty,
  type ObjectType,
  type Type,
  type Value,
} from "@magma/cty";
import type { Diag } from "./diagnostic.js";
import type { FunctionCaller, isFunctionCaller } from "./function-caller.js";
import type { EphemeralResourceOpener, isEphemeralResourceOpener } from "./ephemeral-resource-opener.js";
import { schemaError, unknownTypeError } from "./provider-error.js";
import { containsWriteOnly, nestedContainsWriteOnly } from "./write-only.js";

/** How a nested block type repeats (tfplugin's `NestedBlock.NestingMode`). */
export const NestingMode = {
  /** At most one block; absent is null. */
  Single: "single",
  /** Exactly one block whose absence is an object of empty values, never null. */
  Group: "group",
  /** An ordered list of blocks. */
  List: "list",
  /** An unordered set of blocks. */
  Set: "set",
  /** Blocks with one label each, keyed by it. */
  Map: "map",
} as const;

/** One of the {@link NestingMode} values. */
export type NestingMode = (typeof NestingMode)[keyof typeof NestingMode];

/** How a v6 nested attribute type repeats: the {@link NestingMode}s without `group`. */
export type ObjectNestingMode = Exclude<NestingMode, "group">;

/** The format of a description (tfplugin's `StringKind`). */
export const StringKind = {
  /** Plain text. */
  Plain: "plain",
  /** Markdown. */
  Markdown: "markdown",
} as const;

/** One of the {@link StringKind} values. */
export type StringKind = (typeof StringKind)[keyof typeof StringKind];

/**
 * One attribute of a {@link Block} (tfplugin's `Schema.Attribute`; its name is its key in
 * `Block.attributes`).
 *
 * Exactly one of `type` and `nestedType` is set. Of `required`, `optional` and
 * `computed`, an attribute is required, or optional, or computed, or optional and
 * computed (set by the user, or else by the provider).
 */
export interface Attribute {
  /** The cty type of the value. */
  readonly type?: Type;
  /** A v6 nested attribute type: an object of attributes with a nesting mode. */
  readonly nestedType?: NestedAttributeType;
  /** The configuration must set it. */
  readonly required?: boolean;
  /** The configuration may set it. */
  readonly optional?: boolean;
  /** The provider sets it (when the configuration does not, for optional+computed). */
  readonly computed?: boolean;
  /** The value is hidden in Terraform's output. */
  readonly sensitive?: boolean;
  /**
   * Write-only (Terraform 1.11, protocol 5.8/6.8): set in the configuration — ephemeral
   * values allowed — and sent to the provider with the configuration at plan and apply, but
   * never stored. The provider answers null for it in every plan, apply, read, import and
   * upgrade result (`nonNullWriteOnlyPaths` finds those that are not;
   * `stripWriteOnlyAttributes` nulls them), so it is null in state and plan files; its
   * changes cannot be seen, which is why providers pair it with an ordinary attribute (e.g.
   * `value_wo_version`) whose change drives the update. Never computed, and never inside a
   * set (of nested blocks, or a set nested attribute): `createSchemaEntry` rejects both.
   * Meant for managed resources (the provider frameworks allow it nowhere else).
   */
  readonly writeOnly?: boolean;
  /** The attribute is deprecated. */
  readonly deprecated?: boolean;
  /** Why it is deprecated and what to use instead. */
  readonly deprecationMessage?: string;
  /** What the attribute means. */
  readonly description?: string;
  /** The format of `description` (default plain). */
  readonly descriptionKind?: StringKind;
}

/** A v6 nested attribute type (tfplugin6's `Schema.Object`). */
export interface NestedAttributeType {
  /** The attributes of each object, keyed by name. */
  readonly attributes: Readonly<Record<string, Attribute>>;
  /** How the objects repeat. */
  readonly nesting: ObjectNestingMode;
}

/** A nested block type of a {@link Block} (tfplugin's `Schema.NestedBlock`; its name is its key in `Block.blockTypes`). */
export interface NestedBlock {
  /** How the blocks repeat. */
  readonly nesting: NestingMode;
  /** The schema of each block. */
  readonly block: Block;
  /** The least number of blocks (list and set; 0 when absent). Never changes the type. */
  readonly minItems?: number;
  /** The greatest number of blocks (list and set; 0 or absent for no limit). Never changes the type. */
  readonly maxItems?: number;
}

/** A configuration block: attributes and nested block types (tfplugin's `Schema.Block`). */
export interface Block {
  /** The attributes, keyed by name (default none). */
  readonly attributes?: Readonly<Record<string, Attribute>>;
  /** The nested block types, keyed by name (default none). */
  readonly blockTypes?: Readonly<Record<string, NestedBlock>>;
  /** What the block means. */
  readonly description?: string;
  /** The format of `description` (default plain). */
  readonly descriptionKind?: StringKind;
  /** The block is deprecated. */
  readonly deprecated?: boolean;
  /** Why it is deprecated and what to use instead. */
  readonly deprecationMessage?: string;
}

/**
 * The schema of the provider's configuration, of one resource type, of one data source,
 * or of provider meta: a version, the block and the block's implied cty type (the type
 * every value of it has on the wire).
 */
export interface SchemaEntry {
  /** The schema version; a stored state with a smaller version goes through `upgradeResourceState`. */
  readonly version: number;
  /** The block. */
  readonly block: Block;
  /** `impliedType(block)`. */
  readonly type: ObjectType;
}

/** What a provider server supports beyond the basics (tfplugin's `ServerCapabilities`). */
export interface ServerCapabilities {
  /** The provider wants `planResourceChange` called for destroys too. */
  readonly planDestroy: boolean;
  /** Callers may skip `getSchema` in later processes (the schema is cacheable). */
  readonly getProviderSchemaOptional: boolean;
  /** The provider implements MoveResourceState. */
  readonly moveResourceState: boolean;
  /** The provider implements GenerateResourceConfig. */
  readonly generateResourceConfig: boolean;
}

/** Server capabilities with everything off. */
export const noServerCapabilities: ServerCapabilities = Object.freeze({
  planDestroy: false,
  getProviderSchemaOptional: false,
  moveResourceState: false,
  generateResourceConfig: false,
});

/**
 * One parameter of a provider-defined function (tfplugin's `Function.Parameter`). Arguments
 * are positional: the name is for documentation and messages only.
 */
export interface FunctionParameter {
  /** The parameter's name (may be empty). */
  readonly name: string;
  /** The cty type every argument must conform to (`dynamic` for any). */
  readonly type: Type;
  /** What the parameter means. */
  readonly description?: string;
  /** The format of `description` (default plain). */
  readonly descriptionKind?: StringKind;
  /** The function accepts a null argument here (default false: Terraform rejects null before calling). */
  readonly allowNullValue?: boolean;
  /** The function accepts an unknown argument here (default false: the result is unknown without a call). */
  readonly allowUnknownValues?: boolean;
}

/**
 * The signature and documentation of a provider-defined function (tfplugin's `Function`,
 * protocol 5.5/6.5 and later; its name is its key in `ProviderSchema.functions`). Called in
 * Terraform as `provider::<local name>::<function name>(…)`.
 */
export interface FunctionSignature {
  /** The positional parameters, in order (default none). */
  readonly parameters: readonly FunctionParameter[];
  /** The parameter that takes any further arguments, when the function is variadic. */
  readonly variadicParameter?: FunctionParameter;
  /** The cty type of the result. */
  readonly returnType: Type;
  /** A short, one-line description. */
  readonly summary?: string;
  /** What the function does. */
  readonly description?: string;
  /** The format of `description` (default plain). */
  readonly descriptionKind?: StringKind;
  /** Set when the function is deprecated: why, and what to use instead. */
  readonly deprecationMessage?: string;
}

/** Everything a provider's `getSchema` returns. */
export interface ProviderSchema {
  /** The schema of the provider's own configuration. */
  readonly provider: SchemaEntry;
  /** The schema of `terraform { provider_meta "<name>" {…} }`, when the provider declares one. */
  readonly providerMeta?: SchemaEntry;
  /** Managed resource types by name. */
  readonly resources: ReadonlyMap<string, SchemaEntry>;
  /** Data sources by name. */
  readonly dataSources: ReadonlyMap<string, SchemaEntry>;
  /**
   * Ephemeral resource types by name (protocol 5.7/6.7 and later), when the source of the
   * schema knows them; absent means none are declared. The `Provider` contract has no
   * operations for them: a provider that can open them is also an
   * {@link EphemeralResourceOpener} (see {@link isEphemeralResourceOpener}).
   */
  readonly ephemeralResources?: ReadonlyMap<string, SchemaEntry>;
  /**
   * Provider-defined functions by name (protocol 5.5/6.5 and later), when the source of the
   * schema knows them; absent means none are declared. The `Provider` contract has no
   * operation to call them: a provider that can call them is also a {@link FunctionCaller}
   * (see {@link isFunctionCaller}).
   */
  readonly functions?: ReadonlyMap<string, FunctionSignature>;
  /** What the server supports. */
  readonly serverCapabilities: ServerCapabilities;
  /** Warnings returned with the schema. */
  readonly warnings: readonly Diag[];
}

// ---------------------------------------------------------------------------------------
// Implied types

/**
 * The implied cty type of a block: the type of every value of it on the wire (protocol
 * D2). An object with one attribute per attribute and per nested block type:
 *
 * - an attribute has its `type`; a nested attribute type is the object of its attributes
 *   (optional markers stripped) wrapped by its nesting (as is, list, set, map);
 * - a `single` or `group` block is an object, `list` is `list(object)`, `set` is
 *   `set(object)`, `map` is `map(object)`; a `list` or `map` block whose object contains
 *   the dynamic type is itself `dynamic` (its values are tuples and objects);
 * - `minItems`, `maxItems`, `required`, `optional`, `computed`, `sensitive` and
 *   `writeOnly` never change the type.
 *
 * @throws {@link ProviderError} `schema` when an attribute has neither or both of `type` and `nestedType`.
 */
export function impliedType(block: Block): ObjectType {
  return blockType(block, Path.root);
}

function blockType(block: Block, at: Path): ObjectType {
  const attrs: Record<string, Type> = {};
  for (const [name, a] of Object.entries(block.attributes ?? {})) attrs[name] = attributeTypeAt(a, at.attr(name));
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    if (name in attrs) throw schemaError(`${JSON.stringify(name)} is both an attribute and a block type`, { path: at.attr(name) });
    attrs[name] = nestedBlockTypeAt(nb, at.attr(name));
  }
  return objectType(attrs);
}

/**
 * The type of one attribute's value: its `type`, or the implied type of its nested type.
 *
 * @throws {@link ProviderError} `schema` when the attribute has neither or both of `type` and `nestedType`.
 */
export function attributeType(attribute: Attribute): Type {
  return attributeTypeAt(attribute, Path.root);
}

/**
 * The type constraint a configuration value of one attribute is converted to (Terraform's
 * `Attribute.decoderSpec`): its `type`, or for a nested attribute type the implied type with
 * the optional and computed attributes of each nested object marked optional (Terraform's
 * `Object.specType`), so that the configuration may leave them out (they become null). A value
 * converted to it has the type {@link attributeType} gives.
 *
 * @throws {@link ProviderError} `schema` when the attribute has neither or both of `type` and `nestedType`.
 */
export function attributeSpecType(attribute: Attribute): Type {
  return attributeTypeAt(attribute, Path.root, true);
}

function attributeTypeAt(a: Attribute, at: Path, spec = false): Type {
  if (a.type !== undefined && a.nestedType !== undefined) throw schemaError("an attribute has both type and nestedType", { path: at });
  if (a.type !== undefined) return a.type;
  if (a.nestedType === undefined) throw schemaError("an attribute has neither type nor nestedType", { path: at });
  const inner: Record<string, Type> = {};
  for (const [name, x] of Object.entries(a.nestedType.attributes)) inner[name] = attributeTypeAt(x, at.attr(name), spec);
  const optional = spec ? Object.entries(a.nestedType.attributes).filter(([, x]) => x.optional === true || x.computed === true).map(([name]) => name) : [];
  const o = objectType(inner, optional);
  switch (a.nestedType.nesting) {
    case "single":
      return o;
    case "list":
      return listType(o);
    case "set":
      return setType(o);
    case "map":
      return mapType(o);
  }
}

/** The type of the value of a nested block type (see {@link impliedType}). */
export function nestedBlockType(nested: NestedBlock): Type {
  return nestedBlockTypeAt(nested, Path.root);
}

function nestedBlockTypeAt(nb: NestedBlock, at: Path): Type {
  const o = blockType(nb.block, at);
  switch (nb.nesting) {
    case "single":
    case "group":
      return o;
    case "list":
      return hasDynamicTypes(o) ? dynamicType : listType(o);
    case "set":
      return setType(o);
    case "map":
      return hasDynamicTypes(o) ? dynamicType : mapType(o);
  }
}

/**
 * The value of an empty configuration of the block (Terraform's `Block.EmptyValue`):
 * attributes null; `single` blocks null; `group` blocks their own empty value; `list` and
 * `set` blocks empty (a `list` containing dynamic types: the empty tuple); `map` blocks
 * empty (containing dynamic types: the empty object).
 */
export function emptyBlockValue(block: Block): Value {
  const vals: Record<string, Value> = {};
  for (const [name, a] of Object.entries(block.attributes ?? {})) vals[name] = nullVal(attributeType(a));
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) vals[name] = emptyNestedBlockValue(nb);
  return objectVal(vals);
}

/** The value of an absent nested block (see {@link emptyBlockValue}). */
export function emptyNestedBlockValue(nested: NestedBlock): Value {
  switch (nested.nesting) {
    case "single":
      return nullVal(impliedType(nested.block));
    case "group":
      return emptyBlockValue(nested.block);
    case "list": {
      const t = impliedType(nested.block);
      return hasDynamicTypes(t) ? emptyTupleVal : listValEmpty(t);
    }
    case "set":
      return setValEmpty(impliedType(nested.block));
    case "map": {
      const t = impliedType(nested.block);
      return hasDynamicTypes(t) ? emptyObjectVal : mapValEmpty(t);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Entries and look-ups

/**
 * Checks a block and makes its {@link SchemaEntry} with the implied type.
 *
 * @param version The schema version (default 0).
 * @throws {@link ProviderError} `schema` naming the path of the first problem: an
 * attribute with neither or both of `type` and `nestedType`, none of required, optional
 * and computed, required together with optional or computed, a name used by both an
 * attribute and a block type, a negative or inconsistent `minItems`/`maxItems`, a
 * write-only attribute that is computed or inside a set (of nested blocks or a set nested
 * attribute: Terraform's rule), or a negative or fractional version.
 */
export function createSchemaEntry(block: Block, version = 0): SchemaEntry {
  if (!Number.isSafeInteger(version) || version < 0) throw schemaError(`schema version must be a non-negative integer, got ${version}`);
  validateBlock(block, Path.root);
  return Object.freeze({ version, block, type: impliedType(block) });
}

function validateBlock(block: Block, at: Path): void {
  for (const [name, a] of Object.entries(block.attributes ?? {})) validateAttribute(a, at.attr(name));
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const p = at.attr(name);
    if (block.attributes !== undefined && Object.hasOwn(block.attributes, name)) throw schemaError(`${JSON.stringify(name)} is both an attribute and a block type`, { path: p });
    if (!Object.values(NestingMode).includes(nb.nesting)) throw schemaError(`unknown nesting mode ${JSON.stringify(nb.nesting)}`, { path: p });
    const min = nb.minItems ?? 0;
    const max = nb.maxItems ?? 0;
    if (!Number.isSafeInteger(min) || min < 0 || !Number.isSafeInteger(max) || max < 0) throw schemaError("minItems and maxItems must be non-negative integers", { path: p });
    if (max > 0 && min > max) throw schemaError(`minItems ${min} is above maxItems ${max}`, { path: p });
    // Terraform's rule: a mark inside a set is hoisted to the whole set, so only a whole set could be write-only.
    if (nb.nesting === "set" && containsWriteOnly(nb.block)) throw schemaError("a set of nested blocks cannot contain write-only attributes", { path: p });
    validateBlock(nb.block, p);
  }
}

function validateAttribute(a: Attribute, at: Path): void {
  attributeTypeAt(a, at);
  const req = a.required === true;
  const opt = a.optional === true;
  const comp = a.computed === true;
  if (!req && !opt && !comp) throw schemaError("an attribute must be required, optional or computed", { path: at });
  if (req && (opt || comp)) throw schemaError("a required attribute cannot also be optional or computed", { path: at });
  if (a.writeOnly === true && comp) throw schemaError("a write-only attribute cannot be computed", { path: at });
  if (a.nestedType !== undefined) {
    if (!["single", "list", "set", "map"].includes(a.nestedType.nesting)) throw schemaError(`unknown nesting mode ${JSON.stringify(a.nestedType.nesting)}`, { path: at });
    if (a.nestedType.nesting === "set" && nestedContainsWriteOnly(a.nestedType)) throw schemaError("a set nested attribute cannot contain write-only attributes", { path: at });
    for (const [name, x] of Object.entries(a.nestedType.attributes)) validateAttribute(x, at.attr(name));
  }
}

/**
 * The schema of a managed resource type.
 *
 * @throws {@link ProviderError} `unknown_type` when the schema has no such resource type.
 */
export function resourceSchema(schema: ProviderSchema, typeName: string): SchemaEntry {
  const e = schema.resources.get(typeName);
  if (e === undefined) throw unknownTypeError("resource", typeName);
  return e;
}

/**
 * The schema of a data source.
 *
 * @throws {@link ProviderError} `unknown_type` when the schema has no such data source.
 */
export function dataSourceSchema(schema: ProviderSchema, typeName: string): SchemaEntry {
  const e = schema.dataSources.get(typeName);
  if (e === undefined) throw unknownTypeError("data_source", typeName);
  return e;
}

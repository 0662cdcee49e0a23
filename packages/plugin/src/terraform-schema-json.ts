import { typeToJson, type Type } from "@magma/cty";
import type {
  Attribute,
  Block,
  FunctionParameter,
  FunctionSignature,
  NestedAttributeType,
  NestedBlock,
  ProviderSchema,
  SchemaEntry,
} from "@magma/provider-api";

/** A cty type in its JSON structure: `"string"`, `["list","string"]`, `["object",{…}]`, … (protocol D1). */
export type TerraformTypeJson = string | readonly unknown[];

/** One attribute as `terraform providers schema -json` prints it. */
export interface TerraformAttributeJson {
  /** The cty type (absent for a nested attribute type). */
  readonly type?: TerraformTypeJson;
  /** A v6 nested attribute type (absent otherwise). */
  readonly nested_type?: TerraformNestedTypeJson;
  /** Absent when empty. */
  readonly description?: string;
  /** Always present: `plain` or `markdown`. */
  readonly description_kind: "plain" | "markdown";
  readonly deprecated?: true;
  readonly required?: true;
  readonly optional?: true;
  readonly computed?: true;
  readonly sensitive?: true;
  readonly write_only?: true;
}

/** A v6 nested attribute type as Terraform prints it. */
export interface TerraformNestedTypeJson {
  /** Absent when there are none. */
  readonly attributes?: Readonly<Record<string, TerraformAttributeJson>>;
  readonly nesting_mode: string;
}

/** A nested block type as Terraform prints it. */
export interface TerraformBlockTypeJson {
  readonly nesting_mode: string;
  readonly block: TerraformBlockJson;
  /** Absent when 0. */
  readonly min_items?: number;
  /** Absent when 0 (no limit). */
  readonly max_items?: number;
}

/** A block as Terraform prints it. */
export interface TerraformBlockJson {
  /** Absent when there are none. */
  readonly attributes?: Readonly<Record<string, TerraformAttributeJson>>;
  /** Absent when there are none. */
  readonly block_types?: Readonly<Record<string, TerraformBlockTypeJson>>;
  /** Absent when empty. */
  readonly description?: string;
  /** Always present: `plain` or `markdown`. */
  readonly description_kind: "plain" | "markdown";
  readonly deprecated?: true;
}

/** One schema (provider, resource type or data source) as Terraform prints it. */
export interface TerraformSchemaJson {
  readonly version: number;
  readonly block: TerraformBlockJson;
}

/** One parameter of a provider-defined function as Terraform prints it. */
export interface TerraformFunctionParameterJson {
  /** Absent when empty. */
  readonly name?: string;
  /** Absent when empty. */
  readonly description?: string;
  /** Present (true) only when the function accepts a null argument here. */
  readonly is_nullable?: true;
  /** The cty type every argument must conform to. */
  readonly type: TerraformTypeJson;
}

/**
 * A provider-defined function's signature as Terraform prints it. Terraform 1.11.4 prints no
 * description kind and nothing about unknown values.
 */
export interface TerraformFunctionJson {
  /** Absent when empty. */
  readonly description?: string;
  /** Absent when empty. */
  readonly summary?: string;
  /** Present only for a deprecated function. */
  readonly deprecation_message?: string;
  /** The cty type of the result. */
  readonly return_type: TerraformTypeJson;
  /** Absent when the function has no positional parameters. */
  readonly parameters?: readonly TerraformFunctionParameterJson[];
  /** Absent unless the function is variadic. */
  readonly variadic_parameter?: TerraformFunctionParameterJson;
}

/**
 * A provider's entry under `provider_schemas` in `terraform providers schema -json`
 * (Terraform 1.11.4: these five sections, each but `provider` absent when empty).
 */
export interface TerraformProviderSchemaJson {
  readonly provider: TerraformSchemaJson;
  /** Absent when the provider has no resource types. */
  readonly resource_schemas?: Readonly<Record<string, TerraformSchemaJson>>;
  /** Absent when the provider has no data sources. */
  readonly data_source_schemas?: Readonly<Record<string, TerraformSchemaJson>>;
  /** Absent when the provider has no ephemeral resource types. */
  readonly ephemeral_resource_schemas?: Readonly<Record<string, TerraformSchemaJson>>;
  /** Absent when the provider has no functions. */
  readonly functions?: Readonly<Record<string, TerraformFunctionJson>>;
}

/**
 * Renders a provider schema exactly as Terraform 1.11.4 prints it under
 * `provider_schemas["<address>"]` in `terraform providers schema -json` (format 1.0): the
 * same keys, values and omissions. `description_kind` is always present (`plain` unless the
 * schema says markdown); `description`, `min_items`, `max_items` and false flags are left
 * out when empty, zero or false; attribute types are cty type JSON structures; a v6 nested
 * attribute type is `nested_type: {attributes, nesting_mode}`. Keys come out in the order Go's
 * `encoding/json` writes them (struct fields in declaration order, map keys sorted by
 * UTF-8 bytes), so `JSON.stringify` of the result matches Terraform's key order.
 *
 * Ephemeral resource types are printed like resources under `ephemeral_resource_schemas`.
 * Functions are printed under `functions` as Terraform's function signatures:
 * `description`, `summary` and `deprecation_message` (each left out when empty),
 * `return_type` (cty type JSON), `parameters` (left out when there are none) and
 * `variadic_parameter` (left out unless variadic); each parameter has `name` and
 * `description` (left out when empty), `is_nullable` (only when true) and `type`.
 *
 * Lossy: deprecation messages of attributes and blocks are not printed (Terraform 1.11.4
 * prints only `deprecated`); description kinds of functions and their parameters and
 * whether a parameter allows unknown values are not printed either; and `provider_meta`,
 * server capabilities and warnings have no place in this format.
 */
export function providerSchemaToTerraformJson(schema: ProviderSchema): TerraformProviderSchemaJson {
  const out: {
    -readonly [K in keyof TerraformProviderSchemaJson]: TerraformProviderSchemaJson[K];
  } = {
    provider: schemaEntryJson(schema.provider),
  };
  if (schema.resources.size > 0) out.resource_schemas = entriesJson(schema.resources);
  if (schema.dataSources.size > 0) out.data_source_schemas = entriesJson(schema.dataSources);
  if (schema.ephemeralResources !== undefined && schema.ephemeralResources.size > 0) {
    out.ephemeral_resource_schemas = entriesJson(schema.ephemeralResources);
  }
  if (schema.functions !== undefined && schema.functions.size > 0) {
    const fns: Record<string, TerraformFunctionJson> = {};
    for (const name of sortedKeys(schema.functions.keys())) fns[name] = functionJson(schema.functions.get(name)!);
    out.functions = fns;
  }
  return out;
}

function functionJson(f: FunctionSignature): TerraformFunctionJson {
  // Built in the order of Terraform's struct fields.
  const out: { -readonly [K in keyof TerraformFunctionJson]?: TerraformFunctionJson[K] } = {};
  if (f.description !== undefined && f.description !== "") out.description = f.description;
  if (f.summary !== undefined && f.summary !== "") out.summary = f.summary;
  if (f.deprecationMessage !== undefined && f.deprecationMessage !== "") out.deprecation_message = f.deprecationMessage;
  out.return_type = typeJson(f.returnType);
  if (f.parameters.length > 0) out.parameters = f.parameters.map(parameterJson);
  if (f.variadicParameter !== undefined) out.variadic_parameter = parameterJson(f.variadicParameter);
  return out as TerraformFunctionJson;
}

function parameterJson(p: FunctionParameter): TerraformFunctionParameterJson {
  // Built in the order of Terraform's struct fields.
  const out: { -readonly [K in keyof TerraformFunctionParameterJson]?: TerraformFunctionParameterJson[K] } = {};
  if (p.name !== "") out.name = p.name;
  if (p.description !== undefined && p.description !== "") out.description = p.description;
  if (p.allowNullValue === true) out.is_nullable = true;
  out.type = typeJson(p.type);
  return out as TerraformFunctionParameterJson;
}

function entriesJson(
  entries: ReadonlyMap<string, SchemaEntry>,
): Record<string, TerraformSchemaJson> {
  const out: Record<string, TerraformSchemaJson> = {};
  for (const name of sortedKeys(entries.keys())) out[name] = schemaEntryJson(entries.get(name)!);
  return out;
}

function schemaEntryJson(entry: SchemaEntry): TerraformSchemaJson {
  return { version: entry.version, block: blockJson(entry.block) };
}

function blockJson(b: Block): TerraformBlockJson {
  // Built in the order of Terraform's struct fields.
  const out: { -readonly [K in keyof TerraformBlockJson]?: TerraformBlockJson[K] } = {};
  const attrs = attributesJson(b.attributes);
  if (attrs !== undefined) out.attributes = attrs;
  const blockTypes = b.blockTypes === undefined ? [] : sortedKeys(Object.keys(b.blockTypes));
  if (blockTypes.length > 0) {
    const bt: Record<string, TerraformBlockTypeJson> = {};
    for (const name of blockTypes) bt[name] = blockTypeJson(b.blockTypes![name]!);
    out.block_types = bt;
  }
  if (b.description !== undefined && b.description !== "") out.description = b.description;
  out.description_kind = b.descriptionKind === "markdown" ? "markdown" : "plain";
  if (b.deprecated === true) out.deprecated = true;
  return out as TerraformBlockJson;
}

function blockTypeJson(nb: NestedBlock): TerraformBlockTypeJson {
  const out: { -readonly [K in keyof TerraformBlockTypeJson]: TerraformBlockTypeJson[K] } = {
    nesting_mode: nb.nesting,
    block: blockJson(nb.block),
  };
  if (nb.minItems !== undefined && nb.minItems > 0) out.min_items = nb.minItems;
  if (nb.maxItems !== undefined && nb.maxItems > 0) out.max_items = nb.maxItems;
  return out;
}

function attributesJson(
  attrs: Readonly<Record<string, Attribute>> | undefined,
): Record<string, TerraformAttributeJson> | undefined {
  if (attrs === undefined) return undefined;
  const names = sortedKeys(Object.keys(attrs));
  if (names.length === 0) return undefined;
  const out: Record<string, TerraformAttributeJson> = {};
  for (const name of names) out[name] = attributeJson(attrs[name]!);
  return out;
}

function attributeJson(a: Attribute): TerraformAttributeJson {
  // Built in the order of Terraform's struct fields.
  const out: { -readonly [K in keyof TerraformAttributeJson]?: TerraformAttributeJson[K] } = {};
  if (a.type !== undefined) out.type = typeJson(a.type);
  if (a.nestedType !== undefined) out.nested_type = nestedTypeJson(a.nestedType);
  if (a.description !== undefined && a.description !== "") out.description = a.description;
  out.description_kind = a.descriptionKind === "markdown" ? "markdown" : "plain";
  if (a.deprecated === true) out.deprecated = true;
  if (a.required === true) out.required = true;
  if (a.optional === true) out.optional = true;
  if (a.computed === true) out.computed = true;
  if (a.sensitive === true) out.sensitive = true;
  if (a.writeOnly === true) out.write_only = true;
  return out as TerraformAttributeJson;
}

function nestedTypeJson(n: NestedAttributeType): TerraformNestedTypeJson {
  const attrs = attributesJson(n.attributes);
  return attrs === undefined
    ? { nesting_mode: n.nesting }
    : { attributes: attrs, nesting_mode: n.nesting };
}

// The same few types recur tens of thousands of times in a big schema.
const typeJsonCache = new WeakMap<Type, TerraformTypeJson>();

function typeJson(t: Type): TerraformTypeJson {
  let hit = typeJsonCache.get(t);
  if (hit === undefined) {
    hit = deepFreeze(JSON.parse(typeToJson(t)) as TerraformTypeJson);
    typeJsonCache.set(t, hit);
  }
  return hit;
}

function deepFreeze<T>(x: T): T {
  if (typeof x === "object" && x !== null) {
    for (const v of Object.values(x)) deepFreeze(v);
    Object.freeze(x);
  }
  return x;
}

/** Sorted as Go sorts map keys: by UTF-8 bytes, which is code point order. */
function sortedKeys(keys: Iterable<string>): string[] {
  return [...keys].sort(compareCodePoints);
}

function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

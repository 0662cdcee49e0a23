import { typeFromJsonValue } from "@magma/cty";
import type { Attribute, Block, NestedAttributeType, NestedBlock, NestingMode, ObjectNestingMode } from "@magma/provider-api";

/** A block as `terraform providers schema -json` prints it. */
export interface SchemaJsonBlock {
  readonly attributes?: Readonly<Record<string, SchemaJsonAttribute>>;
  readonly block_types?: Readonly<Record<string, { nesting_mode: string; block: SchemaJsonBlock; min_items?: number; max_items?: number }>>;
  readonly description?: string;
  readonly deprecated?: boolean;
}

/** An attribute as `terraform providers schema -json` prints it. */
export interface SchemaJsonAttribute {
  readonly type?: unknown;
  readonly nested_type?: { attributes: Readonly<Record<string, SchemaJsonAttribute>>; nesting_mode: string };
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  readonly description?: string;
  readonly deprecated?: boolean;
}

function attribute(a: SchemaJsonAttribute): Attribute {
  const nested: NestedAttributeType | undefined =
    a.nested_type === undefined
      ? undefined
      : {
          attributes: Object.fromEntries(Object.entries(a.nested_type.attributes).map(([k, v]) => [k, attribute(v)])),
          nesting: a.nested_type.nesting_mode as ObjectNestingMode,
        };
  return {
    ...(a.type !== undefined ? { type: typeFromJsonValue(a.type) } : {}),
    ...(nested !== undefined ? { nestedType: nested } : {}),
    ...(a.required === true ? { required: true } : {}),
    ...(a.optional === true ? { optional: true } : {}),
    ...(a.computed === true ? { computed: true } : {}),
    ...(a.sensitive === true ? { sensitive: true } : {}),
    ...(a.description !== undefined ? { description: a.description } : {}),
    ...(a.deprecated === true ? { deprecated: true } : {}),
  };
}

/**
 * A schema block from the JSON `terraform providers schema -json` prints (its
 * `resource_schemas.<type>.block`), as `@magma/provider-api`'s {@link Block}.
 */
export function blockFromSchemaJson(b: SchemaJsonBlock): Block {
  const blockTypes: Record<string, NestedBlock> = {};
  for (const [name, nb] of Object.entries(b.block_types ?? {})) {
    blockTypes[name] = {
      nesting: nb.nesting_mode as NestingMode,
      block: blockFromSchemaJson(nb.block),
      ...(nb.min_items !== undefined ? { minItems: nb.min_items } : {}),
      ...(nb.max_items !== undefined ? { maxItems: nb.max_items } : {}),
    };
  }
  return {
    attributes: Object.fromEntries(Object.entries(b.attributes ?? {}).map(([k, v]) => [k, attribute(v)])),
    blockTypes,
    ...(b.description !== undefined ? { description: b.description } : {}),
    ...(b.deprecated === true ? { deprecated: true } : {}),
  };
}

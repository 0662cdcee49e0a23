/**
 * Test support: the `terraform providers schema -json` form of a native schema, written
 * from Terraform's documented JSON output format, to compare with what terraform prints
 * after reading the schema over the wire.
 */
import { typeToJson } from "@magma/cty";
import type { Attribute, Block, ProviderSchema, SchemaEntry } from "@magma/provider-api";

function attributeJson(a: Attribute): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (a.type !== undefined) out["type"] = JSON.parse(typeToJson(a.type));
  if (a.nestedType !== undefined) {
    const attrs = Object.entries(a.nestedType.attributes);
    out["nested_type"] = {
      ...(attrs.length > 0 ? { attributes: Object.fromEntries(attrs.map(([n, x]) => [n, attributeJson(x)])) } : {}),
      nesting_mode: a.nestedType.nesting,
    };
  }
  if (a.description !== undefined && a.description !== "") out["description"] = a.description;
  out["description_kind"] = a.descriptionKind ?? "plain";
  if (a.deprecated === true) out["deprecated"] = true;
  if (a.required === true) out["required"] = true;
  if (a.optional === true) out["optional"] = true;
  if (a.computed === true) out["computed"] = true;
  if (a.sensitive === true) out["sensitive"] = true;
  if (a.writeOnly === true) out["write_only"] = true;
  return out;
}

function blockJson(b: Block): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const attrs = Object.entries(b.attributes ?? {});
  if (attrs.length > 0) out["attributes"] = Object.fromEntries(attrs.map(([n, a]) => [n, attributeJson(a)]));
  const blocks = Object.entries(b.blockTypes ?? {});
  if (blocks.length > 0) {
    out["block_types"] = Object.fromEntries(
      blocks.map(([n, nb]) => [
        n,
        {
          nesting_mode: nb.nesting,
          block: blockJson(nb.block),
          ...((nb.minItems ?? 0) > 0 ? { min_items: nb.minItems } : {}),
          ...((nb.maxItems ?? 0) > 0 ? { max_items: nb.maxItems } : {}),
        },
      ]),
    );
  }
  if (b.description !== undefined && b.description !== "") out["description"] = b.description;
  out["description_kind"] = b.descriptionKind ?? "plain";
  if (b.deprecated === true) out["deprecated"] = true;
  return out;
}

function entryJson(e: SchemaEntry): Record<string, unknown> {
  return { version: e.version, block: blockJson(e.block) };
}

/** The `provider_schemas[address]` object terraform prints for a provider with this schema. */
export function terraformSchemaJson(schema: ProviderSchema): Record<string, unknown> {
  const map = (m: ReadonlyMap<string, SchemaEntry>): Record<string, unknown> => Object.fromEntries([...m].map(([k, e]) => [k, entryJson(e)]));
  const out: Record<string, unknown> = { provider: entryJson(schema.provider) };
  if (schema.resources.size > 0) out["resource_schemas"] = map(schema.resources);
  if (schema.dataSources.size > 0) out["data_source_schemas"] = map(schema.dataSources);
  if (schema.ephemeralResources !== undefined && schema.ephemeralResources.size > 0) out["ephemeral_resource_schemas"] = map(schema.ephemeralResources);
  return out;
}

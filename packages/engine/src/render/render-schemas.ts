import type { ProviderSchema, SchemaEntry } from "@magma/provider-api";
import { formatProviderSource, parseProviderSource } from "@magma/state";
import { RenderError } from "./render-error.js";

/**
 * The provider schemas a rendering decodes values with, by provider source address
 * (`registry.terraform.io/hashicorp/aws`; the short forms `hashicorp/aws` and `aws` are
 * accepted too and normalised as Terraform does).
 */
export type RenderSchemas = ReadonlyMap<string, ProviderSchema>;

/** @internal The schemas by normalised source address. */
export function normaliseSchemas(schemas: RenderSchemas): ReadonlyMap<string, ProviderSchema> {
  const out = new Map<string, ProviderSchema>();
  for (const [k, v] of schemas) out.set(formatProviderSource(parseProviderSource(k)), v);
  return out;
}

/**
 * @internal The schema entry of a resource or data source type of a provider.
 *
 * @throws RenderError `missing_schema` naming the type and the provider.
 */
export function entryFor(schemas: ReadonlyMap<string, ProviderSchema>, provider: string, mode: "managed" | "data", type: string, address: string): SchemaEntry {
  const schema = schemas.get(provider);
  if (schema === undefined) throw new RenderError("missing_schema", `no schema of provider ${provider} was given (needed for ${address})`);
  const entry = (mode === "managed" ? schema.resources : schema.dataSources).get(type);
  if (entry === undefined) throw new RenderError("missing_schema", `provider ${provider} has no ${mode === "managed" ? "resource type" : "data source"} ${JSON.stringify(type)} (needed for ${address})`);
  return entry;
}

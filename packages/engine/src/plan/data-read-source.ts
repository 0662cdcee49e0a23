import { hasDynamicTypes, typeFromJson, typeToJson, type Type, type Value } from "@magma/cty";
import type { SchemaEntry } from "@magma/provider-api";
import type { DataReadSource } from "./plan.js";

/**
 * How a data source read at plan time is recorded: the provider configuration it was read
 * with, its schema version and, when the schema has dynamically-typed attributes, the
 * schema's type (the state stores those attributes with their type, as Terraform does).
 *
 * @internal
 */
export function dataReadSource(provider: string, entry: SchemaEntry): DataReadSource {
  return hasDynamicTypes(entry.type) ? { provider, schemaVersion: entry.version, typeJson: typeToJson(entry.type) } : { provider, schemaVersion: entry.version };
}

/** The type a data source's value read is stored with: the schema's when recorded, else the value's own. @internal */
export function dataReadStateType(source: DataReadSource, value: Value): Type {
  return source.typeJson === undefined ? value.type : typeFromJson(source.typeJson);
}

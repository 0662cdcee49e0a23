import { typeToJson } from "@magma/cty";
import type { Attribute, Block, FunctionParameter, FunctionSignature, NestedBlock, ProviderSchema, SchemaEntry } from "@magma/provider-api";

// Terraform's `providers schema -json` document (its jsonprovider and jsonfunction packages),
// written as Go's encoding/json writes it: struct fields in declaration order with
// `omitempty` fields left out, map keys in UTF-8 byte order, HTML characters escaped.

const HTML = /[<>&\u2028\u2029]/g;
const ESCAPES: Readonly<Record<string, string>> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

function str(s: string): string {
  return JSON.stringify(s).replace(HTML, (c) => ESCAPES[c]!);
}

function struct(fields: ReadonlyArray<readonly [string, string | undefined]>): string {
  const parts: string[] = [];
  for (const [k, v] of fields) if (v !== undefined) parts.push(`${JSON.stringify(k)}:${v}`);
  return `{${parts.join(",")}}`;
}

function map(entries: Iterable<readonly [string, string]>): string | undefined {
  const list = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])));
  return list.length === 0 ? undefined : `{${list.map(([k, v]) => `${str(k)}:${v}`).join(",")}}`;
}

const nonEmpty = (s: string | undefined): string | undefined => (s === undefined || s === "" ? undefined : str(s));
const flag = (b: boolean | undefined): string | undefined => (b === true ? "true" : undefined);
const kind = (k: string | undefined): string => str(k === "markdown" ? "markdown" : "plain");

function attribute(a: Attribute): string {
  return struct([
    ["type", a.type === undefined || a.nestedType !== undefined ? undefined : typeToJson(a.type)],
    [
      "nested_type",
      a.nestedType === undefined
        ? undefined
        : struct([
            ["attributes", map(Object.entries(a.nestedType.attributes).map(([k, v]) => [k, attribute(v)] as const))],
            ["nesting_mode", str(a.nestedType.nesting)],
          ]),
    ],
    ["description", nonEmpty(a.description)],
    ["description_kind", kind(a.descriptionKind)],
    ["deprecated", flag(a.deprecated)],
    ["required", flag(a.required)],
    ["optional", flag(a.optional)],
    ["computed", flag(a.computed)],
    ["sensitive", flag(a.sensitive)],
    ["write_only", flag(a.writeOnly)],
  ]);
}

function blockType(b: NestedBlock): string {
  return struct([
    ["nesting_mode", str(b.nesting)],
    ["block", block(b.block)],
    ["min_items", b.minItems === undefined || b.minItems === 0 ? undefined : String(b.minItems)],
    ["max_items", b.maxItems === undefined || b.maxItems === 0 ? undefined : String(b.maxItems)],
  ]);
}

function block(b: Block): string {
  return struct([
    ["attributes", map(Object.entries(b.attributes ?? {}).map(([k, v]) => [k, attribute(v)] as const))],
    ["block_types", map(Object.entries(b.blockTypes ?? {}).map(([k, v]) => [k, blockType(v)] as const))],
    ["description", nonEmpty(b.description)],
    ["description_kind", kind(b.descriptionKind)],
    ["deprecated", flag(b.deprecated)],
  ]);
}

function schema(e: SchemaEntry): string {
  return struct([
    ["version", String(e.version)],
    ["block", block(e.block)],
  ]);
}

function schemas(m: ReadonlyMap<string, SchemaEntry> | undefined): string | undefined {
  return map([...(m ?? new Map<string, SchemaEntry>())].map(([k, v]) => [k, schema(v)] as const));
}

function parameter(p: FunctionParameter): string {
  return struct([
    ["name", nonEmpty(p.name)],
    ["description", nonEmpty(p.description)],
    ["is_nullable", flag(p.allowNullValue)],
    ["type", typeToJson(p.type)],
  ]);
}

/** One function's signature as terraform's `jsonfunction.FunctionSignature`. */
export function functionSignatureJson(f: FunctionSignature): string {
  return struct([
    ["description", nonEmpty(f.description)],
    ["summary", nonEmpty(f.summary)],
    ["deprecation_message", nonEmpty(f.deprecationMessage)],
    ["return_type", typeToJson(f.returnType)],
    ["parameters", f.parameters.length === 0 ? undefined : `[${f.parameters.map(parameter).join(",")}]`],
    ["variadic_parameter", f.variadicParameter === undefined ? undefined : parameter(f.variadicParameter)],
  ]);
}

/**
 * `terraform metadata functions -json`'s document for the given signatures by name:
 * `format_version` 1.0 and `function_signatures`, byte for byte as terraform 1.11 writes it
 * (without the final newline).
 */
export function functionSignaturesJson(signatures: ReadonlyMap<string, FunctionSignature>): string {
  return struct([
    ["format_version", str("1.0")],
    ["function_signatures", map([...signatures].map(([k, f]) => [k, functionSignatureJson(f)] as const))],
  ]);
}

/**
 * `terraform providers schema -json`'s document for the providers' schemas, by source
 * address: `format_version` 1.0 and `provider_schemas` (each `provider`,
 * `resource_schemas`, `data_source_schemas`, `ephemeral_resource_schemas` and `functions`),
 * byte for byte as terraform 1.11 writes it (without the final newline).
 */
export function providerSchemasJson(providers: ReadonlyMap<string, ProviderSchema>): string {
  return struct([
    ["format_version", '"1.0"'],
    ["provider_schemas", providerSchemasMapJson(providers)],
  ]);
}

/** The `provider_schemas` map of {@link providerSchemasJson} (terraform's `jsonprovider.MarshalForRenderer`); undefined when empty. */
export function providerSchemasMapJson(providers: ReadonlyMap<string, ProviderSchema>): string | undefined {
  const entries = [...providers].map(
    ([addr, s]) =>
      [
        addr,
        struct([
          ["provider", schema(s.provider)],
          ["resource_schemas", schemas(s.resources)],
          ["data_source_schemas", schemas(s.dataSources)],
          ["ephemeral_resource_schemas", schemas(s.ephemeralResources)],
          ["functions", map([...(s.functions ?? new Map<string, FunctionSignature>())].map(([k, f]) => [k, functionSignatureJson(f)] as const))],
        ]),
      ] as const,
  );
  return map(entries);
}

import { typeString } from "@magma/cty";
import type { Attribute, Block, ProviderSchema, SchemaEntry } from "@magma/provider-api";

/** What is known about where a provider came from, for the summary's header. */
export interface ProviderOrigin {
  /** The reference given on the command line. */
  readonly ref: string;
  /** `plugin` or `native`. */
  readonly kind: "plugin" | "native";
  /** The negotiated protocol version of a plugin. */
  readonly protocolVersion?: number | undefined;
  /** The executable of a plugin. */
  readonly binary?: string | undefined;
  /** The version found by source resolution. */
  readonly version?: string | undefined;
  /** The fully qualified source address, when resolved from one. */
  readonly address?: string | undefined;
}

const LIST_LIMIT = 60;

/**
 * A readable summary of a provider schema: origin, protocol, the counts of resource types
 * and data sources, and of ephemeral resource types and functions when there are any (with
 * their names when there are at most 60 of each), the server capabilities, and the provider
 * configuration's attributes.
 */
export function renderSchemaSummary(schema: ProviderSchema, origin: ProviderOrigin): string {
  const lines: string[] = [];
  const title = origin.address ?? origin.ref;
  lines.push(`provider ${title}${origin.version === undefined ? "" : ` ${origin.version}`}`);
  if (origin.kind === "native") lines.push("  kind:          native (TypeScript, in-process)");
  else lines.push(`  binary:        ${origin.binary ?? "?"}`, `  protocol:      ${origin.protocolVersion ?? "?"}`);
  const caps = Object.entries(schema.serverCapabilities)
    .filter(([, on]) => on === true)
    .map(([k]) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  lines.push(`  capabilities:  ${caps.length === 0 ? "(none)" : caps.join(", ")}`);
  const pa = Object.keys(schema.provider.block.attributes ?? {}).length;
  const pb = Object.keys(schema.provider.block.blockTypes ?? {}).length;
  lines.push(`  configuration: ${pa} attribute${pa === 1 ? "" : "s"}, ${pb} block${pb === 1 ? "" : "s"}`);
  const sections: [string, ReadonlyMap<string, unknown>][] = [
    ["resources", schema.resources],
    ["data sources", schema.dataSources],
  ];
  // Shown only when the provider declares any.
  if (schema.ephemeralResources !== undefined && schema.ephemeralResources.size > 0) sections.push(["ephemeral resources", schema.ephemeralResources]);
  if (schema.functions !== undefined && schema.functions.size > 0) sections.push(["functions", schema.functions]);
  for (const [label, map] of sections) {
    lines.push(`  ${`${label}:`.padEnd(14)} ${map.size}`);
    if (map.size > 0 && map.size <= LIST_LIMIT) for (const name of [...map.keys()].sort()) lines.push(`    ${name}`);
  }
  if (schema.resources.size > LIST_LIMIT || schema.dataSources.size > LIST_LIMIT) {
    lines.push("", `(too many to list; \`magma schema ${origin.ref} --json\` prints them all)`);
  }
  lines.push("", `Show one type: magma schema ${origin.ref} <type>`);
  return lines.join("\n") + "\n";
}

/**
 * One schema as a tree: a header (`resource random_string (schema version 2)`), the
 * description, then every attribute with its type and flags (required, optional, computed,
 * sensitive, write-only, deprecated) and every nested block with its nesting and limits.
 */
export function renderSchemaEntry(kind: "resource" | "data source" | "ephemeral resource" | "provider", name: string, entry: SchemaEntry): string {
  const lines = [`${kind} ${name} (schema version ${entry.version})`];
  if (entry.block.description !== undefined && entry.block.description !== "") lines.push(...wrap(entry.block.description, 90).map((l) => `  ${l}`));
  lines.push(...blockTree(entry.block, ""));
  return lines.join("\n") + "\n";
}

function flags(a: Attribute): string {
  const f: string[] = [];
  if (a.required === true) f.push("required");
  if (a.optional === true) f.push("optional");
  if (a.computed === true) f.push("computed");
  if (a.sensitive === true) f.push("sensitive");
  if (a.writeOnly === true) f.push("write-only");
  if (a.deprecated === true) f.push("deprecated");
  return f.join(", ");
}

function blockTree(block: Block, prefix: string): string[] {
  const attrs = Object.entries(block.attributes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const blocks = Object.entries(block.blockTypes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const total = attrs.length + blocks.length;
  const nameWidth = Math.max(0, ...attrs.map(([n]) => n.length));
  const typeWidth = Math.max(0, ...attrs.map(([, a]) => attrType(a).length));
  const out: string[] = [];
  let i = 0;
  for (const [name, a] of attrs) {
    const last = ++i === total;
    out.push(`${prefix}${last ? "└── " : "├── "}${name.padEnd(nameWidth)}  ${attrType(a).padEnd(typeWidth)}  ${flags(a)}`.trimEnd());
    if (a.nestedType !== undefined) out.push(...blockTree({ attributes: a.nestedType.attributes }, prefix + (last ? "    " : "│   ")));
  }
  for (const [name, nb] of blocks) {
    const last = ++i === total;
    const limits: string[] = [];
    if ((nb.minItems ?? 0) > 0) limits.push(`min ${nb.minItems}`);
    if ((nb.maxItems ?? 0) > 0) limits.push(`max ${nb.maxItems}`);
    out.push(`${prefix}${last ? "└── " : "├── "}block ${name} (${[nb.nesting, ...limits].join(", ")})`);
    out.push(...blockTree(nb.block, prefix + (last ? "    " : "│   ")));
  }
  return out;
}

function attrType(a: Attribute): string {
  if (a.type !== undefined) return typeString(a.type);
  return `nested ${a.nestedType?.nesting ?? "?"}`;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of para.split(/\s+/)) {
      if (line !== "" && line.length + word.length + 1 > width) {
        out.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    out.push(line);
  }
  return out;
}

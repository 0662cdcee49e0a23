import type { Attribute, Block, Body, BodyContent, BodySchema, Diagnostic } from "@magma/hcl";

/**
 * A body of a base-file block with an override file's block of the same name merged over
 * it (Terraform's `mergeBody`): the override's arguments replace the base's by name, and if
 * the override has any nested blocks of a type (or `dynamic` blocks generating it), they
 * replace all the base's blocks of that type. Both bodies are read partially (extra
 * arguments are left to the caller, as Terraform's `mergeBody.Content` does), and the
 * override with every argument optional (Terraform's `schemaForOverrides`): an override
 * file sets only what it changes.
 */
export class MergedBody implements Body {
  readonly syntax: "native" | "json";
  readonly range: Body["range"];

  readonly base: Body;
  readonly override: Body;

  constructor(base: Body, override: Body) {
    this.base = base;
    this.override = override;
    this.syntax = base.syntax;
    this.range = base.range;
  }

  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] } {
    const { content, diags } = this.partialContent(schema);
    return { content, diags };
  }

  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
    const withDynamic = schemaWithDynamic(schema);
    const b = this.base.partialContent(withDynamic);
    const o = this.override.partialContent(schemaForOverrides(withDynamic));
    return { content: mergeContent(b.content, o.content), remain: new MergedBody(b.remain, o.remain), diags: [...b.diags, ...o.diags] };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const b = this.base.justAttributes();
    const o = this.override.justAttributes();
    const attributes = new Map(b.attributes);
    for (const [k, v] of o.attributes) attributes.set(k, v);
    return { attributes, diags: [...b.diags, ...o.diags] };
  }
}

/** The schema plus `dynamic` blocks (Terraform's `schemaWithDynamic`). */
function schemaWithDynamic(schema: BodySchema): BodySchema {
  if ((schema.blocks ?? []).some((b) => b.type === "dynamic")) return schema;
  return { ...schema, blocks: [...(schema.blocks ?? []), { type: "dynamic", labelNames: ["type"] }] };
}

/** The schema with every argument optional (Terraform's `schemaForOverrides`). */
function schemaForOverrides(schema: BodySchema): BodySchema {
  return { ...schema, attributes: (schema.attributes ?? []).map((a) => ({ ...a, required: false })) };
}

/** The type of block a block generates (a `dynamic` block's label). */
const generatedType = (b: Block): string => (b.type === "dynamic" ? (b.labels[0] ?? "") : b.type);

function mergeContent(base: BodyContent, override: BodyContent): BodyContent {
  const attributes = new Map(base.attributes);
  for (const [k, v] of override.attributes) attributes.set(k, v);
  const overridden = new Set(override.blocks.map(generatedType));
  const blocks: Block[] = [...base.blocks.filter((b) => !overridden.has(generatedType(b))), ...override.blocks];
  return { attributes, blocks, missingItemRange: base.missingItemRange };
}

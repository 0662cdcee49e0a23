import type { Attribute, Block, Body, BodyContent, BodySchema, Diagnostic } from "@magma/hcl";

/**
 * A body of a base-file block with an override file's block of the same name merged over
 * it (Terraform's `mergeBody`): the override's arguments replace the base's by name, and if
 * the override has any nested blocks of a type, they replace all the base's blocks of that
 * type.
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
    const b = this.base.content(schema);
    const o = this.override.content(schema);
    return { content: mergeContent(schema, b.content, o.content), diags: [...b.diags, ...o.diags] };
  }

  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
    const b = this.base.partialContent(schema);
    const o = this.override.partialContent(schema);
    return { content: mergeContent(schema, b.content, o.content), remain: new MergedBody(b.remain, o.remain), diags: [...b.diags, ...o.diags] };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const b = this.base.justAttributes();
    const o = this.override.justAttributes();
    const attributes = new Map(b.attributes);
    for (const [k, v] of o.attributes) attributes.set(k, v);
    return { attributes, diags: [...b.diags, ...o.diags] };
  }
}

function mergeContent(schema: BodySchema, base: BodyContent, override: BodyContent): BodyContent {
  const attributes = new Map(base.attributes);
  for (const [k, v] of override.attributes) attributes.set(k, v);
  const blocks: Block[] = [];
  for (const bs of schema.blocks ?? []) {
    const ov = override.blocks.filter((b) => b.type === bs.type);
    blocks.push(...(ov.length > 0 ? ov : base.blocks.filter((b) => b.type === bs.type)));
  }
  return { attributes, blocks, missingItemRange: base.missingItemRange };
}

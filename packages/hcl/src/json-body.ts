import type { JsonNode, JsonProperty } from "./ast.js";
import type { Attribute, Block, Body, BodyContent, BodySchema } from "./body.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { formatRange, rangeBetween, type SourceRange } from "./source-range.js";

/**
 * A JSON-syntax body (HCL's `json/spec.md`): one JSON object, or several (a root array of
 * objects, or several blocks' bodies merged). Whether a property is an argument or a
 * nested block is decided by the schema it is decoded against; `"//"` properties are
 * comments and ignored.
 */
export class JsonBody implements Body {
  readonly syntax = "json" as const;
  readonly range: SourceRange;
  private readonly objects: readonly (JsonNode & { type: "object" })[];
  private readonly hidden: ReadonlySet<string>;

  /** @internal Made by {@link parseJsonConfig} and by block decoding. */
  constructor(objects: readonly (JsonNode & { type: "object" })[], range: SourceRange, hidden?: ReadonlySet<string>) {
    this.objects = objects;
    this.range = range;
    this.hidden = hidden ?? new Set();
  }

  private props(): JsonProperty[] {
    const out: JsonProperty[] = [];
    for (const o of this.objects) for (const p of o.props) if (p.name !== "//" && !this.hidden.has(p.name)) out.push(p);
    return out;
  }

  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] } {
    const { content, remain, diags } = this.partialContent(schema);
    // The HCL that Terraform 1.11 bundles suggests no name here (terraform validate -json shows
    // none for a JSON property one letter off), unlike the native syntax's "Unsupported argument".
    for (const p of (remain as JsonBody).props()) {
      diags.push(
        errorDiag(
          "Extraneous JSON object property",
          `No argument or block type is named "${p.name}".`,
          p.nameNode.range,
          p.value.range,
        ),
      );
    }
    return { content, diags };
  }

  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    const blocks: Block[] = [];
    const attrNames = new Map((schema.attributes ?? []).map((a) => [a.name, a]));
    const blockTypes = new Map((schema.blocks ?? []).map((b) => [b.type, b]));
    const hidden = new Set(this.hidden);
    for (const p of this.props()) {
      if (attrNames.has(p.name)) {
        const prev = attributes.get(p.name);
        if (prev !== undefined) {
          diags.push(
            errorDiag("Duplicate argument", `The argument "${p.name}" was already set at ${formatRange(prev.nameRange)}. Each argument may be set only once.`, p.nameNode.range),
          );
          continue;
        }
        attributes.set(p.name, {
          name: p.name,
          expr: { kind: "json", node: p.value, range: p.value.range },
          range: rangeBetween(p.nameNode.range, p.value.range),
          nameRange: p.nameNode.range,
        });
        continue;
      }
      const bs = blockTypes.get(p.name);
      if (bs !== undefined) decodeBlocks(p, p.value, bs.labelNames ?? [], [], [], blocks, diags);
    }
    for (const [name, as] of attrNames) {
      hidden.add(name);
      if (as.required === true && !attributes.has(name)) {
        diags.push(errorDiag("Missing required argument", `The argument "${name}" is required, but no definition was found.`, this.missingItemRange()));
      }
    }
    for (const name of blockTypes.keys()) hidden.add(name);
    return {
      content: { attributes, blocks, missingItemRange: this.missingItemRange() },
      remain: new JsonBody(this.objects, this.range, hidden),
      diags,
    };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    for (const p of this.props()) {
      const prev = attributes.get(p.name);
      if (prev !== undefined) {
        diags.push(errorDiag("Duplicate argument", `The argument "${p.name}" was already set at ${formatRange(prev.nameRange)}. Each argument may be set only once.`, p.nameNode.range));
        continue;
      }
      attributes.set(p.name, {
        name: p.name,
        expr: { kind: "json", node: p.value, range: p.value.range },
        range: rangeBetween(p.nameNode.range, p.value.range),
        nameRange: p.nameNode.range,
      });
    }
    return { attributes, diags };
  }

  /** HCL's `MissingItemRange` of a JSON body: its object's closing brace. */
  private missingItemRange(): SourceRange {
    const o = this.objects[0];
    if (o === undefined) return { filename: this.range.filename, start: this.range.start, end: this.range.start };
    const end = o.range.end;
    return { filename: o.range.filename, start: { line: end.line, column: end.column - 1, byte: end.byte - 1 }, end };
  }
}

function decodeBlocks(
  prop: JsonProperty,
  v: JsonNode,
  labelNames: readonly string[],
  labels: string[],
  labelRanges: SourceRange[],
  out: Block[],
  diags: Diagnostic[],
): void {
  if (labels.length < labelNames.length) {
    if (v.type === "array") {
      for (const it of v.items) decodeBlocks(prop, it, labelNames, labels, labelRanges, out, diags);
      return;
    }
    if (v.type !== "object") {
      diags.push(
        errorDiag(
          "Incorrect JSON value type",
          `A JSON object is required here, whose property names are the ${labelNames[labels.length]} labels of ${prop.name} blocks.`,
          v.range,
        ),
      );
      return;
    }
    if (v.props.length === 0) {
      diags.push(errorDiag(`Missing ${labelNames[labels.length]} for ${prop.name}`, `All ${prop.name} blocks must have ${labelNames.length} labels (${labelNames.join(", ")}).`, v.range));
      return;
    }
    for (const p of v.props) {
      if (p.name === "//") continue;
      decodeBlocks(prop, p.value, labelNames, [...labels, p.name], [...labelRanges, p.nameNode.range], out, diags);
    }
    return;
  }
  if (v.type === "object") {
    out.push({
      type: prop.name,
      labels,
      body: new JsonBody([v], v.range),
      typeRange: prop.nameNode.range,
      labelRanges,
      range: rangeBetween(prop.nameNode.range, v.range),
      defRange: v.openRange,
    });
    return;
  }
  if (v.type === "array") {
    for (const it of v.items) {
      if (it.type !== "object") {
        diags.push(errorDiag("Incorrect JSON value type", `A JSON object is required here, to define the content of a ${prop.name} block.`, it.range));
        continue;
      }
      out.push({
        type: prop.name,
        labels,
        body: new JsonBody([it], it.range),
        typeRange: prop.nameNode.range,
        labelRanges,
        range: rangeBetween(prop.nameNode.range, it.range),
        defRange: v.openRange,
      });
    }
    return;
  }
  diags.push(
    errorDiag(
      "Incorrect JSON value type",
      `Either a JSON object or a JSON array of objects is required here, to define the content of ${prop.name} blocks.`,
      v.range,
    ),
  );
}

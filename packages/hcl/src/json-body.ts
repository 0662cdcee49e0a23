import type { JsonNode, JsonProperty } from "./ast.js";
import type { Attribute, Block, Body, BodyContent, BodySchema } from "./body.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { startRange } from "./json-parser.js";
import { formatRange, rangeBetween, type SourceRange } from "./source-range.js";

/**
 * A JSON-syntax body (HCL's `json/spec.md`): one JSON value, an object or an array of
 * objects (a root array, or several blocks' bodies merged). Whether a property is an
 * argument or a nested block is decided by the schema it is decoded against; `"//"`
 * properties are comments and ignored. A value of another kind (one that failed to parse,
 * say) is reported when the body's content is asked for, in HCL's words.
 */
export class JsonBody implements Body {
  readonly syntax = "json" as const;
  readonly range: SourceRange;
  private readonly val: JsonNode;
  private readonly hidden: ReadonlySet<string>;

  /** @internal Made by {@link parseJsonConfig} and by block decoding. */
  constructor(val: JsonNode, range: SourceRange, hidden?: ReadonlySet<string>) {
    this.val = val;
    this.range = range;
    this.hidden = hidden ?? new Set();
  }

  private props(diags: Diagnostic[]): JsonProperty[] {
    const out: JsonProperty[] = [];
    for (const p of collectDeepAttrs(this.val, undefined, diags)) if (p.name !== "//" && !this.hidden.has(p.name)) out.push(p);
    return out;
  }

  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] } {
    const { content, remain, diags } = this.partialContent(schema);
    // The HCL that Terraform 1.11 bundles suggests no name here (terraform validate -json shows
    // none for a JSON property one letter off), unlike the native syntax's "Unsupported argument".
    // As in HCL, the properties are collected again (a mistyped body is reported twice).
    for (const p of (remain as JsonBody).props(diags)) {
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
    for (const p of this.props(diags)) {
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
      if (bs !== undefined) unpackBlock(p, p.value, bs.labelNames ?? [], [], [], blocks, diags);
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
      remain: new JsonBody(this.val, this.range, hidden),
      diags,
    };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    if (this.val.type !== "object") {
      diags.push(errorDiag("Incorrect JSON value type", "A JSON object is required here, setting the arguments for this block.", startRange(this.val)));
      return { attributes, diags };
    }
    for (const p of this.val.props) {
      if (p.name === "//" || this.hidden.has(p.name)) continue;
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
    // (HCL's: an object's closing brace, an array's opening bracket, else where the value starts)
    const v = this.val;
    if (v.type !== "object") return startRange(v);
    const end = v.range.end;
    return { filename: v.range.filename, start: { line: end.line, column: end.column - 1, byte: end.byte - 1 }, end };
  }
}

/**
 * The properties of an object, or of each object in an array (HCL's `collectDeepAttrs`);
 * null has none; anything else is reported (as holding block labels when `labelName` is
 * given).
 */
function collectDeepAttrs(v: JsonNode, labelName: string | undefined, diags: Diagnostic[]): JsonProperty[] {
  switch (v.type) {
    case "null":
      return [];
    case "object":
      return [...v.props];
    case "array": {
      const out: JsonProperty[] = [];
      for (const ev of v.items) {
        if (ev.type === "object") out.push(...ev.props);
        else {
          const detail = labelName !== undefined ? `A JSON object is required here, to specify ${labelName} labels for this block.` : "A JSON object is required here, to define arguments and child blocks.";
          diags.push(errorDiag("Incorrect JSON value type", detail, startRange(ev)));
        }
      }
      return out;
    }
    default: {
      const detail =
        labelName !== undefined
          ? `Either a JSON object or JSON array of objects is required here, to specify ${labelName} labels for this block.`
          : "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.";
      diags.push(errorDiag("Incorrect JSON value type", detail, startRange(v)));
      return [];
    }
  }
}

/** The blocks a property's value stands for, its labels peeled off one level at a time (HCL's `unpackBlock`). */
function unpackBlock(
  prop: JsonProperty,
  v: JsonNode,
  labelNames: readonly string[],
  labels: readonly string[],
  labelRanges: readonly SourceRange[],
  out: Block[],
  diags: Diagnostic[],
): void {
  if (labels.length < labelNames.length) {
    const labelName = labelNames[labels.length]!;
    const props = collectDeepAttrs(v, labelName, diags);
    if (props.length === 0) {
      diags.push(errorDiag("Missing block label", `At least one object property is required, whose name represents the ${prop.name} block's ${labelName}.`, startRange(v)));
      return;
    }
    // A "//" property here is a label like any other (only a body's "//" is a comment).
    for (const p of props) {
      unpackBlock(prop, p.value, labelNames, [...labels, p.name], [...labelRanges, p.nameNode.range], out, diags);
    }
    return;
  }
  const block = (body: JsonNode, defRange: SourceRange): Block => ({
    type: prop.name,
    labels,
    body: new JsonBody(body, body.range),
    typeRange: prop.nameNode.range,
    labelRanges,
    range: rangeBetween(prop.nameNode.range, body.range),
    defRange,
  });
  if (v.type === "null") return;
  if (v.type === "object") out.push(block(v, v.openRange));
  else if (v.type === "array") for (const it of v.items) out.push(block(it, v.openRange));
  else {
    diags.push(
      errorDiag("Incorrect JSON value type", `Either a JSON object or a JSON array is required, representing the contents of one or more "${prop.name}" blocks.`, startRange(v)),
    );
  }
}

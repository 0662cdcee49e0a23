import type { Attribute, Block, Body, BodyContent, BodySchema } from "./body.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { nameSuggestion } from "./name-suggestion.js";
import type { SourceRange } from "./source-range.js";

/**
 * A native-syntax body: the attributes and blocks of a file or a block, as written. It
 * implements {@link Body}; {@link NativeBody.attributes} and {@link NativeBody.blocks} give
 * the raw contents without a schema.
 */
export class NativeBody implements Body {
  readonly syntax = "native" as const;
  /** Every attribute, by name. */
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** Every nested block, in source order. */
  readonly blocks: readonly Block[];
  readonly range: SourceRange;
  readonly filename: string;
  private readonly hidden: ReadonlySet<string>;

  /** @internal The parser makes bodies. */
  constructor(attributes: ReadonlyMap<string, Attribute>, blocks: readonly Block[], range: SourceRange, filename: string, hidden?: ReadonlySet<string>) {
    this.attributes = attributes;
    this.blocks = blocks;
    this.range = range;
    this.filename = filename;
    this.hidden = hidden ?? new Set();
  }

  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] } {
    const { content, remain, diags } = this.partialContent(schema);
    const rest = remain as NativeBody;
    const attrNames = new Set((schema.attributes ?? []).map((a) => a.name));
    const blockTypes = new Set((schema.blocks ?? []).map((b) => b.type));
    for (const [name, a] of rest.attributes) {
      if (rest.hidden.has(name)) continue;
      const close = nameSuggestion(name, [...attrNames]);
      const hint = blockTypes.has(name) ? ` Did you mean to define a block of type "${name}"?` : close !== undefined ? ` Did you mean "${close}"?` : "";
      diags.push(errorDiag("Unsupported argument", `An argument named "${name}" is not expected here.${hint}`, a.nameRange));
    }
    for (const b of rest.blocks) {
      if (rest.hidden.has(`\0block:${b.type}`)) continue;
      const close = nameSuggestion(b.type, [...blockTypes]);
      const hint = attrNames.has(b.type)
        ? ` Did you mean to define argument "${b.type}"? If so, use the equals sign to assign it a value.`
        : close !== undefined
          ? ` Did you mean "${close}"?`
          : "";
      diags.push(errorDiag("Unsupported block type", `Blocks of type "${b.type}" are not expected here.${hint}`, b.typeRange));
    }
    return { content, diags };
  }

  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    const hidden = new Set(this.hidden);
    for (const as of schema.attributes ?? []) {
      const a = this.hidden.has(as.name) ? undefined : this.attributes.get(as.name);
      if (a !== undefined) {
        attributes.set(as.name, a);
        hidden.add(as.name);
      } else if (as.required === true) {
        diags.push(
          errorDiag("Missing required argument", `The argument "${as.name}" is required, but no definition was found.`, {
            filename: this.range.filename,
            start: this.range.end,
            end: this.range.end,
          }),
        );
      }
    }
    const blocks: Block[] = [];
    const schemaBlocks = new Map((schema.blocks ?? []).map((b) => [b.type, b]));
    for (const b of this.blocks) {
      if (this.hidden.has(`\0block:${b.type}`)) continue;
      const bs = schemaBlocks.get(b.type);
      if (bs === undefined) continue;
      const labelNames = bs.labelNames ?? [];
      if (b.labels.length < labelNames.length) {
        const missing = labelNames[b.labels.length]!;
        diags.push(
          errorDiag(
            `Missing ${missing} for ${b.type}`,
            `All ${b.type} blocks must have ${labelNames.length} labels (${labelNames.join(", ")}).`,
            b.labelRanges[b.labels.length - 1] ?? b.typeRange,
          ),
        );
        continue;
      }
      if (b.labels.length > labelNames.length) {
        diags.push(
          errorDiag(
            `Extraneous label for ${b.type}`,
            labelNames.length === 0
              ? `No labels are expected for ${b.type} blocks.`
              : `Only ${labelNames.length} labels (${labelNames.join(", ")}) are expected for ${b.type} blocks.`,
            b.labelRanges[labelNames.length]!,
          ),
        );
        continue;
      }
      blocks.push(b);
    }
    for (const bs of schema.blocks ?? []) hidden.add(`\0block:${bs.type}`);
    const remain = new NativeBody(this.attributes, this.blocks, this.range, this.filename, hidden);
    return { content: { attributes, blocks, missingItemRange: this.missingItemRange() }, remain, diags };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    for (const [name, a] of this.attributes) if (!this.hidden.has(name)) attributes.set(name, a);
    for (const b of this.blocks) {
      if (this.hidden.has(`\0block:${b.type}`)) continue;
      diags.push(errorDiag(`Unexpected "${b.type}" block`, "Blocks are not allowed here.", b.typeRange));
    }
    return { attributes, diags };
  }

  private missingItemRange(): SourceRange {
    return { filename: this.range.filename, start: this.range.end, end: this.range.end };
  }
}

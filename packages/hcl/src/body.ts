import type { Expression } from "./ast.js";
import type { Diagnostic } from "./diagnostic.js";
import type { SourceRange } from "./source-range.js";

/** An argument (`name = expr`) of a body (HCL's `hcl.Attribute`). */
export interface Attribute {
  readonly name: string;
  readonly expr: Expression;
  /** The whole definition. */
  readonly range: SourceRange;
  readonly nameRange: SourceRange;
}

/** A nested block (`type "label" { … }`) of a body (HCL's `hcl.Block`). */
export interface Block {
  readonly type: string;
  readonly labels: readonly string[];
  readonly body: Body;
  readonly typeRange: SourceRange;
  readonly labelRanges: readonly SourceRange[];
  /** The whole block's definition. */
  readonly range: SourceRange;
  /**
   * HCL's `DefRange` where the syntax gives one other than the type and labels: in JSON, the
   * opening brace of the block's object (of the array, for a block given as an array of
   * objects), as HCL's JSON decoder gives it. Undefined in the native syntax.
   */
  readonly defRange?: SourceRange;
}

/** An attribute a {@link BodySchema} names. */
export interface AttributeSchema {
  readonly name: string;
  /** A missing required attribute is an error. */
  readonly required?: boolean;
}

/** A block type a {@link BodySchema} names. */
export interface BlockSchema {
  readonly type: string;
  /** How many labels each block of this type has (`resource` has 2). */
  readonly labelNames?: readonly string[];
}

/** What a body may contain (HCL's `hcl.BodySchema`). */
export interface BodySchema {
  readonly attributes?: readonly AttributeSchema[];
  readonly blocks?: readonly BlockSchema[];
}

/** A body's contents decoded against a schema (HCL's `hcl.BodyContent`). */
export interface BodyContent {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly blocks: readonly Block[];
  /** The range of the body, for diagnostics about missing things. */
  readonly missingItemRange: SourceRange;
}

/**
 * The contents of a configuration file or block in either syntax (HCL's `hcl.Body`).
 * Native-syntax bodies know their attributes and blocks by syntax; JSON-syntax bodies only
 * know them once a schema says which properties are blocks.
 */
export interface Body {
  /** The syntax the body was written in. */
  readonly syntax: "native" | "json";
  /** The body's range. */
  readonly range: SourceRange;
  /** Decodes the body against the schema; anything the schema does not name is an error. */
  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] };
  /**
   * Decodes what the schema names and returns the rest as another body (HCL's
   * `PartialContent`), for decoding in stages.
   */
  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] };
  /**
   * Every item as an attribute, for bodies whose names are not known in advance such as
   * `locals` (HCL's `JustAttributes`); a block is an error.
   */
  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] };
}

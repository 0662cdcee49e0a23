import type { Value } from "@magma/cty";
import type { SourceRange } from "./source-range.js";

/**
 * One step of a {@link Traversal}: an attribute name, or an index with a literal key
 * (`[0]`, `["k"]`, legacy `.0`).
 */
export type TraversalStep =
  | { readonly kind: "attr"; readonly name: string; readonly range: SourceRange }
  | { readonly kind: "index"; readonly key: Value; readonly range: SourceRange };

/**
 * A static reference (HCL's `hcl.Traversal`): a root variable name followed by attribute
 * and literal index steps, such as `aws_instance.web[0].id`. This is what dependency
 * graphs are built from (see {@link variables}).
 */
export interface Traversal {
  readonly root: string;
  readonly rootRange: SourceRange;
  readonly steps: readonly TraversalStep[];
  /** The whole traversal's source range. */
  readonly range: SourceRange;
}

/** Binary operators, by their source text. */
export type BinaryOperator = "||" | "&&" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%";

/** One part of a template, in source order after strip markers are applied. */
export type TemplatePart =
  | { readonly kind: "lit"; readonly value: string; readonly range: SourceRange }
  | { readonly kind: "interp"; readonly expr: Expression; readonly range: SourceRange }
  | {
      readonly kind: "if";
      readonly cond: Expression;
      readonly then: readonly TemplatePart[];
      readonly else: readonly TemplatePart[];
      readonly range: SourceRange;
    }
  | {
      readonly kind: "for";
      readonly keyVar: string | undefined;
      readonly valueVar: string;
      readonly coll: Expression;
      readonly body: readonly TemplatePart[];
      readonly range: SourceRange;
    };

/** An item of an object constructor. */
export interface ObjectItem {
  readonly key: Expression;
  /** The key was a bare identifier (taken as a literal string, not a variable). */
  readonly keyIsIdent: boolean;
  readonly value: Expression;
}

/**
 * A parsed expression of the native syntax, or a JSON-syntax value (kind `json`). Every
 * node has the range of its source. Evaluate with {@link evaluate}; list its references
 * with {@link variables}.
 */
export type Expression =
  | { readonly kind: "literal"; readonly value: Value; readonly range: SourceRange }
  | { readonly kind: "traversal"; readonly traversal: Traversal; readonly range: SourceRange }
  | { readonly kind: "relative"; readonly source: Expression; readonly steps: readonly TraversalStep[]; readonly range: SourceRange }
  | { readonly kind: "index"; readonly collection: Expression; readonly key: Expression; readonly range: SourceRange; readonly bracketRange: SourceRange }
  | {
      readonly kind: "splat";
      readonly source: Expression;
      /** The expression applied to each element: built over a `splatItem` node. */
      readonly each: Expression;
      readonly range: SourceRange;
      readonly markerRange: SourceRange;
    }
  | { readonly kind: "splatItem"; readonly range: SourceRange }
  | {
      readonly kind: "call";
      readonly name: string;
      readonly nameRange: SourceRange;
      readonly args: readonly Expression[];
      readonly expandFinal: boolean;
      readonly range: SourceRange;
      readonly openParenRange: SourceRange;
      readonly closeParenRange: SourceRange;
    }
  | {
      readonly kind: "conditional";
      readonly cond: Expression;
      readonly then: Expression;
      readonly else: Expression;
      readonly range: SourceRange;
    }
  | { readonly kind: "binary"; readonly op: BinaryOperator; readonly left: Expression; readonly right: Expression; readonly range: SourceRange }
  | { readonly kind: "unary"; readonly op: "-" | "!"; readonly operand: Expression; readonly range: SourceRange }
  | { readonly kind: "paren"; readonly expr: Expression; readonly range: SourceRange }
  | { readonly kind: "tuple"; readonly items: readonly Expression[]; readonly range: SourceRange }
  | { readonly kind: "object"; readonly items: readonly ObjectItem[]; readonly range: SourceRange }
  | {
      readonly kind: "for";
      readonly keyVar: string | undefined;
      readonly valueVar: string;
      readonly coll: Expression;
      /** Object form (`{ for … : k => v }`) when present. */
      readonly keyExpr: Expression | undefined;
      readonly valueExpr: Expression;
      readonly cond: Expression | undefined;
      readonly group: boolean;
      readonly range: SourceRange;
      readonly openRange: SourceRange;
    }
  | { readonly kind: "template"; readonly parts: readonly TemplatePart[]; readonly range: SourceRange }
  /** A template that is exactly one interpolation: its value is the expression's, unconverted. */
  | { readonly kind: "templateWrap"; readonly expr: Expression; readonly range: SourceRange }
  | { readonly kind: "json"; readonly node: JsonNode; readonly range: SourceRange };

/** A JSON value with source ranges (JSON syntax). */
export type JsonNode =
  | { readonly type: "string"; readonly value: string; readonly range: SourceRange; /** Range of the text inside the quotes. */ readonly innerRange: SourceRange; readonly raw: string }
  | { readonly type: "number"; readonly text: string; readonly range: SourceRange }
  | { readonly type: "bool"; readonly value: boolean; readonly range: SourceRange }
  | { readonly type: "null"; readonly range: SourceRange }
  | { readonly type: "array"; readonly items: readonly JsonNode[]; readonly range: SourceRange; readonly openRange: SourceRange }
  | {
      readonly type: "object";
      readonly props: readonly JsonProperty[];
      readonly range: SourceRange;
      readonly openRange: SourceRange;
      /** The closing brace's range (absent for an object not parsed from text). */
      readonly closeRange?: SourceRange;
    }
  /** A value that failed to parse (HCL's `invalidVal`), ranged at its first token; it evaluates to an unknown. */
  | { readonly type: "invalid"; readonly range: SourceRange };

/** A property of a JSON object, with the ranges of its name. */
export interface JsonProperty {
  readonly name: string;
  readonly nameNode: JsonNode & { type: "string" };
  readonly value: JsonNode;
}

import type { Expression, JsonNode } from "./ast.js";
import type { Body } from "./body.js";
import { errorDiag, type Diagnostic } from "./diagnostic.js";
import { JsonBody } from "./json-body.js";
import { parseJsonNode, startRange } from "./json-parser.js";
import type { NativeBody } from "./native-body.js";
import { Parser, type NativeParseOptions } from "./parser.js";
import { JsonSourceMap, SourceMap, type SourcePos } from "./source-range.js";

/** The result of parsing a configuration file. */
export interface ParsedConfig {
  /** The file's body; partial when there are errors. */
  readonly body: Body;
  readonly diags: Diagnostic[];
}

/** The result of parsing an expression or template. */
export interface ParsedExpression {
  /** The expression; when there are errors, a best-effort tree that evaluates to an unknown. */
  readonly expr: Expression;
  readonly diags: Diagnostic[];
}

/**
 * Parses a configuration file, choosing the syntax by file name as Terraform does: JSON
 * for names ending in `.json` (`main.tf.json`), native syntax otherwise.
 */
export function parseConfig(text: string, filename: string): ParsedConfig {
  return filename.endsWith(".json") ? parseJsonConfig(text, filename) : parseNativeConfig(text, filename);
}

/** Parses a native-syntax (`.tf`) file: attributes and blocks. */
export function parseNativeConfig(text: string, filename: string, options: NativeParseOptions = {}): { body: NativeBody; diags: Diagnostic[] } {
  const p = new Parser(new SourceMap(filename, text), "normal", options);
  const body = p.parseFile();
  return { body, diags: p.diags };
}

/**
 * Parses a JSON-syntax (`.tf.json`) file. The root must be an object (or an array of
 * objects); its properties become attributes or blocks only when decoded against a schema
 * (see {@link Body.content}). As in HCL, a root that is neither an object nor an array
 * (including one that failed to parse) is reported and the body is empty; errors deeper in
 * the file leave the rest of it to decode.
 */
export function parseJsonConfig(text: string, filename: string): { body: JsonBody; diags: Diagnostic[] } {
  const src = new JsonSourceMap(filename, text);
  const { node, diags } = parseJsonNode(src);
  const range = src.range(0, text.length);
  const at = src.range(0, 0);
  const empty: JsonNode = { type: "object", props: [], range: at, openRange: at, closeRange: at };
  if (node === undefined) return { body: new JsonBody(empty, range), diags };
  if (node.type === "object" || node.type === "array") return { body: new JsonBody(node, range), diags };
  diags.push(errorDiag("Root value must be object", "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.", startRange(node)));
  return { body: new JsonBody(empty, range), diags };
}

/**
 * Parses a native-syntax expression such as `var.a + 1` or `"${x}-y"`. `start` is where
 * the text begins in its file (for diagnostics), by default line 1, column 1.
 */
export function parseExpression(text: string, filename = "<expr>", start?: SourcePos): ParsedExpression {
  const p = new Parser(new SourceMap(filename, text, start), "normal");
  const expr = p.parseStandaloneExpression();
  return { expr, diags: p.diags };
}

/**
 * Parses a bare template (the contents of a `templatefile` file, or of a JSON string):
 * literal text with `${…}` interpolations and `%{if}`/`%{for}` directives. A template that
 * is exactly one interpolation evaluates to that expression's value, unconverted.
 */
export function parseTemplate(text: string, filename = "<template>", start?: SourcePos): ParsedExpression {
  const p = new Parser(new SourceMap(filename, text, start), "template");
  const expr = p.parseWholeTemplate();
  return { expr, diags: p.diags };
}

/**
 * Parses a JSON value as a JSON-syntax expression (what a `.tf.json` attribute holds):
 * strings are templates, arrays tuples, objects objects.
 */
export function parseJsonExpression(text: string, filename = "<expr.json>"): ParsedExpression {
  const src = new JsonSourceMap(filename, text);
  const { node, diags } = parseJsonNode(src);
  const range = src.range(0, text.length);
  if (node === undefined) return { expr: { kind: "json", node: { type: "null", range }, range }, diags };
  return { expr: { kind: "json", node, range: node.range }, diags };
}

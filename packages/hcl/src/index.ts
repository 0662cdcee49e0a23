/**
 * Terraform's configuration language over cty: HCL native syntax (`.tf`) and JSON syntax
 * (`.tf.json`), expressions, templates, and Terraform 1.11's function library.
 *
 * @packageDocumentation
 */

export { callFunction, functionReturnType } from "./call-function.js";
export { FunctionError, FunctionArgError, isFunctionError, isFunctionArgError } from "./function.js";
export type { HclFunction, FunctionParameter } from "./function.js";
export { parseConfig, parseNativeConfig, parseJsonConfig, parseExpression, parseTemplate, parseJsonExpression } from "./parse.js";
export { decodeSource, INVALID_ENCODING } from "./decode-source.js";
export type { ParsedConfig, ParsedExpression } from "./parse.js";
export { evaluate, scopeExpressionValues } from "./evaluate.js";
export type { EvalResult } from "./evaluate.js";
export type { EvalScope } from "./scope.js";
export { expressionTraversals } from "./variables.js";
export { exprList, absTraversalForExpr, exprAsKeyword } from "./static-expr.js";
export { NativeBody } from "./native-body.js";
export { JsonBody } from "./json-body.js";
export type { Body, BodySchema, BodyContent, Attribute, Block, AttributeSchema, BlockSchema } from "./body.js";
export type { Expression, Traversal, TraversalStep, TemplatePart, ObjectItem, BinaryOperator, JsonNode, JsonProperty } from "./ast.js";
export { DiagnosticSeverity, hasErrors } from "./diagnostic.js";
export type { CallSignature, CallSignatureParameter, Diagnostic, ExpressionValue, FunctionCallInfo } from "./diagnostic.js";
export { compactValue, expressionValues } from "./expression-values.js";
export type { StepApplier } from "./expression-values.js";
export type { SourcePos, SourceRange } from "./source-range.js";
export { formatRange, plainRange } from "./source-range.js";
export { MAX_NESTING_DEPTH, MAX_PARENTHESES_RUN, type NativeParseOptions } from "./parser.js";
export { terraformFunctions, IMPURE_FUNCTIONS } from "./funcs/index.js";
export type { TerraformFunctionsOptions } from "./funcs/index.js";
export { functionSignatures } from "./function-signatures.js";
export type { FunctionSignature, SignatureParameter } from "./function-signatures.js";

// The token-preserving writer (hclwrite's tokens, format and body structure).
export { lexWriteTokens } from "./lex-write-tokens.js";
export { formatTokens } from "./format-tokens.js";
export { parseWriteBody } from "./write-body.js";
export type { WriteBody, WriteAttribute, WriteBlock } from "./write-body.js";
export { writeTokensText } from "./write-token.js";
export type { WriteToken, WriteTokenType } from "./write-token.js";

// Deprecated names, kept for one release.
export { variables } from "./variables.js";

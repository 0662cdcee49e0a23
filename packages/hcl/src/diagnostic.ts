import type { Type } from "@magma/cty";
import { plainRange, type SourceRange } from "./source-range.js";

/** How serious a {@link Diagnostic} is. */
export const DiagnosticSeverity = {
  Error: "error",
  Warning: "warning",
} as const;
/** `"error"` or `"warning"`. */
export type DiagnosticSeverity = (typeof DiagnosticSeverity)[keyof typeof DiagnosticSeverity];

/**
 * A problem found while parsing or evaluating (HCL's `hcl.Diagnostic`): Terraform's summary
 * and detail wording, the range of the offending source (`subject`) and optionally a wider
 * range around it (`context`).
 */
export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  /** A short summary such as `Invalid expression`. */
  readonly summary: string;
  /** A sentence or two saying what is wrong and what was expected. */
  readonly detail: string;
  /** The source the problem is about. */
  readonly subject?: SourceRange;
  /** A wider range the problem is part of (e.g. the whole binary operation). */
  readonly context?: SourceRange;
  /**
   * The values of the references in the expression that failed, as Terraform lists them
   * under a diagnostic's snippet (`var.m is empty map of string`; `-json`'s
   * `snippet.values`), sorted by reference; see `expressionValues`.
   */
  readonly values?: readonly ExpressionValue[];
  /**
   * The function call a diagnostic is about, when the call itself failed (HCL's
   * `FunctionCallDiagExtra`): Terraform prints `while calling upper(str)` under the snippet
   * and `-json`'s `snippet.function_call`.
   */
  readonly functionCall?: FunctionCallInfo;
}

/** The function call a {@link Diagnostic} is about (Terraform's `DiagnosticFunctionCall`). */
export interface FunctionCallInfo {
  /** The name the call used, with any namespace (`upper`, `core::upper`, `provider::p::f`). */
  readonly calledAs: string;
  /** The called function's signature; absent when the function is not known. */
  readonly signature?: CallSignature;
}

/** A function's signature as Terraform describes it in a diagnostic (its `DescribeFunction`). */
export interface CallSignature {
  /** The function's name without its namespace. */
  readonly name: string;
  /** The positional parameters. */
  readonly params: readonly CallSignatureParameter[];
  /** The variadic parameter, if any. */
  readonly variadicParam?: CallSignatureParameter;
  /** The result type when every argument is an unknown of its parameter's type (`dynamicType` when that check fails). */
  readonly returnType: Type;
}

/** One parameter of a {@link CallSignature}. */
export interface CallSignatureParameter {
  /** The parameter's name. */
  readonly name: string;
  /** Its type constraint. */
  readonly type: Type;
}

/** One reference's value in a diagnostic (Terraform's `DiagnosticExpressionValue`). */
export interface ExpressionValue {
  /** The reference as written, compactly (`var.m`, `local.l[0]`). */
  readonly traversal: string;
  /** What its value is (`is "x"`, `is empty map of string`, `is a string`). */
  readonly statement: string;
}

/** True when any of the diagnostics is an error. */
export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === "error");
}

/** An error diagnostic. */
export function errorDiag(summary: string, detail: string, subject?: SourceRange, context?: SourceRange): Diagnostic {
  return {
    severity: "error",
    summary,
    detail,
    ...(subject !== undefined ? { subject: plainRange(subject) } : {}),
    ...(context !== undefined ? { context: plainRange(context) } : {}),
  };
}

import type { Refinements, Type, Value } from "@magma/cty";

/**
 * One parameter of an {@link HclFunction} (go-cty's `function.Parameter`).
 *
 * Arguments are converted to `type` by the caller (the evaluator) before the call; the
 * flags say which unusual arguments the implementation handles itself. Without
 * `allowUnknown`, an unknown argument makes the call's result unknown without running the
 * implementation; without `allowMarked`, marks are removed from the argument and put on
 * the result; without `allowNull`, a null argument is an error.
 */
export interface FunctionParameter {
  /** The parameter's name, as Terraform's documentation and diagnostics spell it. */
  readonly name: string;
  /** The type constraint: arguments are converted to it (`dynamicType` accepts any). */
  readonly type: Type;
  /** The implementation accepts null for this parameter. Default false. */
  readonly allowNull?: boolean;
  /** The implementation handles unknown values (and values containing them). Default false. */
  readonly allowUnknown?: boolean;
  /** The implementation accepts a value of the dynamic pseudo-type. Default false. */
  readonly allowDynamicType?: boolean;
  /** The implementation handles marked values itself. Default false. */
  readonly allowMarked?: boolean;
}

/**
 * A function callable from expressions: Terraform's built-ins and the caller's own
 * (go-cty's `function.Spec`). Call it with {@link callFunction}, which applies the
 * parameter rules before `impl` runs.
 */
export interface HclFunction {
  /** One sentence on what it does. */
  readonly description: string;
  /** The positional parameters. */
  readonly params: readonly FunctionParameter[];
  /** The variadic parameter, if the function takes any number of trailing arguments. */
  readonly varParam?: FunctionParameter;
  /**
   * The result type for these arguments (which may be unknown, but are never marked).
   * Throws {@link FunctionArgError} for an argument that makes the call invalid, or
   * {@link FunctionError} otherwise.
   */
  readonly type: (args: readonly Value[]) => Type;
  /**
   * Computes the result. Receives arguments that satisfy the parameter flags and the type
   * from `type`; returns a value of that type. Throws {@link FunctionArgError} or
   * {@link FunctionError} for a failed call.
   */
  readonly impl: (args: readonly Value[], returnType: Type) => Value;
  /**
   * Refinements for the unknown result of a call with unknown arguments (go-cty's
   * `RefineResult`), for example "not null".
   */
  readonly refineResult?: (returnType: Type) => Refinements;
}

/**
 * A function call failed for a reason not tied to one argument. The evaluator turns it
 * into Terraform's "Error in function call" diagnostic.
 */
export class FunctionError extends Error {
  override readonly name: string = "FunctionError";
}

/**
 * A function call failed because of one argument (go-cty's `function.ArgError`). The
 * evaluator turns it into Terraform's "Invalid function argument" diagnostic, pointing at
 * argument `argIndex` (0-based, counting variadic arguments too).
 */
export class FunctionArgError extends FunctionError {
  override readonly name: string = "FunctionArgError";
  /** The 0-based index of the offending argument. */
  readonly argIndex: number;

  /** Makes an error about argument `argIndex`. */
  constructor(argIndex: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.argIndex = argIndex;
  }
}

/** Whether `x` is a {@link FunctionError} (or {@link FunctionArgError}), checked by shape. */
export function isFunctionError(x: unknown): x is FunctionError {
  return x instanceof Error && (x.name === "FunctionError" || x.name === "FunctionArgError");
}

/** Whether `x` is a {@link FunctionArgError}, checked by shape. */
export function isFunctionArgError(x: unknown): x is FunctionArgError {
  return x instanceof Error && x.name === "FunctionArgError" && typeof (x as Partial<FunctionArgError>).argIndex === "number";
}

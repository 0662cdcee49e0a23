import { conforms, dynamicType, typeName, unknownVal, type Type, type Value } from "@magma/cty";
import { FunctionArgError, FunctionError, type FunctionParameter, type HclFunction } from "./function.js";
import { redactSensitive, sensitiveTexts } from "./redact-sensitive.js";

/**
 * The result type of calling `fn` with `args` (go-cty's `Function.ReturnTypeForValues`):
 * checks the argument count, nulls and type conformance, then asks the function.
 *
 * Arguments are expected already converted to their parameters' types (the evaluator does
 * that, as HCL does). An argument of the dynamic pseudo-type to a parameter that does not
 * allow it makes the result type dynamic.
 *
 * @throws {@link FunctionArgError} for a bad argument, {@link FunctionError} for a wrong
 * number of arguments or a failure of the function's own type check.
 */
export function functionReturnType(fn: HclFunction, args: readonly Value[]): Type {
  checkArgCount(fn, args.length);
  const plain = args.map((a) => (a.containsMarked() ? a.unmarkDeep().value : a));
  for (let i = 0; i < plain.length; i++) {
    const spec = paramFor(fn, i);
    const val = plain[i]!;
    if (val.isNull() && spec.allowNull !== true) throw new FunctionArgError(i, "argument must not be null");
    if (val.type.kind === "dynamic") {
      if (spec.allowDynamicType !== true) return dynamicType;
    } else if (!conforms(val.type, spec.type)) {
      throw new FunctionArgError(i, `${typeName(spec.type)} required, but have ${typeName(val.type)}`);
    }
  }
  try {
    return fn.type(plain);
  } catch (e) {
    throw asFunctionError(e);
  }
}

/**
 * Calls `fn` with `args` as go-cty's `Function.Call` does (and HCL's function call
 * expression around it): type check, then an unknown result (refined by `refineResult`)
 * when an argument is unknown and its parameter does not allow unknowns, or when an
 * argument has the dynamic pseudo-type and its parameter does not allow that, else the
 * implementation's result; marks removed from arguments whose parameter does not allow
 * marks are put on the result.
 *
 * An error's message never quotes an argument marked sensitive: such quotations read
 * `(sensitive value)` (see {@link redactSensitive}).
 *
 * @throws {@link FunctionArgError} or {@link FunctionError} when the call fails; any other
 * exception from the implementation is wrapped in a {@link FunctionError}.
 */
export function callFunction(fn: HclFunction, args: readonly Value[]): Value {
  try {
    return callUnredacted(fn, args);
  } catch (e) {
    const err = asFunctionError(e);
    if (!args.some((a) => a.containsMarked())) throw err;
    const message = redactSensitive(err.message, sensitiveTexts(args));
    if (message === err.message) throw err;
    throw err instanceof FunctionArgError ? new FunctionArgError(err.argIndex, message) : new FunctionError(message);
  }
}

function callUnredacted(fn: HclFunction, args: readonly Value[]): Value {
  const returnType = functionReturnType(fn, args);
  const marks = new Set<string>();
  // An argument of the dynamic pseudo-type (a bare `null`, or an unknown of no known type)
  // to a parameter that does not take one leaves the result unknown, without running the
  // function: terraform's `format("%s", null)` is unknown, not an error.
  const dynamicArg = args.some((a, i) => a.type.kind === "dynamic" && paramFor(fn, i).allowDynamicType !== true);
  const callArgs: Value[] = [];
  let unknown = false;
  for (let i = 0; i < args.length; i++) {
    const spec = paramFor(fn, i);
    let val = args[i]!;
    if (spec.allowMarked !== true && val.containsMarked()) {
      const { value, paths } = val.unmarkDeep();
      for (const p of paths) for (const m of p.marks) marks.add(m);
      val = value;
    }
    if (spec.allowUnknown !== true && !val.isKnown()) unknown = true;
    if (dynamicArg) {
      const { paths } = val.unmarkDeep();
      for (const pm of paths) for (const m of pm.marks) marks.add(m);
    }
    callArgs.push(val);
  }
  let result: Value;
  if (dynamicArg) {
    result = unknownVal(returnType);
  } else if (unknown) {
    result = unknownVal(returnType, returnType.kind === "dynamic" ? undefined : fn.refineResult?.(returnType));
  } else {
    try {
      result = fn.impl(callArgs, returnType);
    } catch (e) {
      throw asFunctionError(e);
    }
    // go-cty refines every result with RefineResult, an unknown from the implementation too.
    if (fn.refineResult !== undefined && returnType.kind !== "dynamic" && !result.isKnown() && result.type.kind !== "dynamic") {
      const own = [...result.marks];
      result = unknownVal(result.type, { ...result.unmark().refinements, ...fn.refineResult(returnType) }).mark(...own);
    }
  }
  return marks.size > 0 ? result.mark(...marks) : result;
}

function checkArgCount(fn: HclFunction, n: number): void {
  const want = fn.params.length;
  if (fn.varParam === undefined) {
    if (n !== want) throw new FunctionError(`wrong number of arguments (${want} required; ${n} given)`);
  } else if (n < want) {
    throw new FunctionError(`wrong number of arguments (at least ${want} required; ${n} given)`);
  }
}

function paramFor(fn: HclFunction, i: number): FunctionParameter {
  return fn.params[i] ?? fn.varParam!;
}

function asFunctionError(e: unknown): FunctionError {
  if (e instanceof FunctionError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new FunctionError(message, { cause: e });
}

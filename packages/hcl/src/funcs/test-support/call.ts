/**
 * Test helpers: call a library function by name with cty values.
 *
 * @internal
 * @packageDocumentation
 */

import type { Value } from "@magma/cty";
import { callFunction } from "../../call-function.js";
import type { HclFunction } from "../../function.js";
import { terraformFunctions, type TerraformFunctionsOptions } from "../index.js";

/** The function `name` of the library (throws when absent). */
export function fn(name: string, options?: TerraformFunctionsOptions): HclFunction {
  const f = terraformFunctions(options).get(name);
  if (f === undefined) throw new Error(`no function ${name}`);
  return f;
}

/** Calls the library function `name` with already-typed arguments. */
export function call(name: string, ...args: Value[]): Value {
  return callFunction(fn(name), args);
}

/** The error message of a call that must fail. */
export function callError(name: string, ...args: Value[]): { name: string; message: string; argIndex?: number } {
  try {
    call(name, ...args);
  } catch (e) {
    const err = e as Error & { argIndex?: number };
    return { name: err.name, message: err.message, ...(err.argIndex !== undefined ? { argIndex: err.argIndex } : {}) };
  }
  throw new Error(`${name} did not fail`);
}

/**
 * Terraform's configuration language over cty: HCL native syntax (`.tf`) and JSON syntax
 * (`.tf.json`), expressions, templates, and Terraform 1.11's function library.
 *
 * @packageDocumentation
 */

export { callFunction, functionReturnType } from "./call-function.js";
export { FunctionError, FunctionArgError, isFunctionError, isFunctionArgError } from "./function.js";
export type { HclFunction, FunctionParameter } from "./function.js";

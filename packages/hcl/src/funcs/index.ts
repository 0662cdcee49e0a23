/**
 * Terraform 1.11's built-in function library.
 *
 * @packageDocumentation
 */

import { unknownVal } from "@magma/cty";
import type { HclFunction } from "../function.js";
import { cidrFunctions } from "./cidr.js";
import { collectionFunctions } from "./collection.js";
import { conversionFunctions } from "./conversion.js";
import { cryptoFunctions } from "./crypto.js";
import { datetimeFunctions } from "./datetime.js";
import { encodingFunctions } from "./encoding.js";
import { filesystemFunctions } from "./filesystem.js";
import { formatFunctions } from "./format.js";
import { numericFunctions } from "./numeric.js";
import { regexFunctions } from "./regex.js";
import { removedFunctions } from "./removed.js";
import { stringFunctions } from "./string.js";

/** Options of {@link terraformFunctions}. */
export interface TerraformFunctionsOptions {
  /** The module directory: filesystem functions resolve relative paths against it. Default: the process's working directory. */
  readonly baseDir?: string;
  /** Planning: the impure functions (`timestamp`, `uuid`, `bcrypt`) return unknown values. Default false. */
  readonly plan?: boolean;
  /**
   * What `plantimestamp()` returns (RFC 3339, whole seconds): Terraform fixes it for a plan
   * and the apply of that plan. Default: the time of each call.
   */
  readonly planTimestamp?: string;
}

/** The functions whose results differ from call to call (Terraform's `impureFunctions`). */
export const IMPURE_FUNCTIONS: readonly string[] = ["bcrypt", "timestamp", "uuid"];

/** Wraps a function so that its result is unknown (go-cty's `function.Unpredictable`). */
function unpredictable(fn: HclFunction): HclFunction {
  return { ...fn, impl: (_args, returnType) => unknownVal(returnType, { notNull: true }) };
}

/**
 * Terraform 1.11's built-in functions by name (without `try`, `can` and `templatefile`,
 * which need the evaluator, and without `provider::` functions). Names are unqualified;
 * `core::name` is the same function (the evaluator strips the namespace).
 */
export function terraformFunctions(options: TerraformFunctionsOptions = {}): ReadonlyMap<string, HclFunction> {
  const baseDir = options.baseDir ?? process.cwd();
  const all: Record<string, HclFunction> = {
    ...cidrFunctions(),
    ...collectionFunctions(),
    ...conversionFunctions(),
    ...cryptoFunctions(),
    ...datetimeFunctions(options.planTimestamp),
    ...encodingFunctions(),
    ...filesystemFunctions(baseDir),
    ...formatFunctions(),
    ...numericFunctions(),
    ...regexFunctions(),
    ...removedFunctions(),
    ...stringFunctions(),
  };
  const out = new Map<string, HclFunction>();
  for (const name of Object.keys(all).sort()) {
    const fn = all[name]!;
    out.set(name, options.plan === true && IMPURE_FUNCTIONS.includes(name) ? unpredictable(fn) : fn);
  }
  return out;
}

/**
 * The `list` and `map` functions, removed in Terraform 0.12: Terraform keeps them only to
 * say what to write instead.
 *
 * @internal
 * @packageDocumentation
 */

import { dynamicType } from "@magma/cty";
import { FunctionError, type HclFunction } from "../function.js";
import { param } from "./helpers.js";

function removed(name: string, instead: string): HclFunction {
  const message = `the "${name}" function was deprecated in Terraform v0.12 and is no longer available; use ${instead} syntax to write a literal ${name}`;
  return {
    description: `Removed: use ${instead} instead.`,
    params: [],
    varParam: param("vals", dynamicType, { allowUnknown: true, allowNull: true, allowDynamicType: true }),
    type: () => {
      throw new FunctionError(message);
    },
    impl: () => {
      throw new FunctionError(message);
    },
  };
}

/** `list` and `map`, by name. */
export function removedFunctions(): Record<string, HclFunction> {
  return { list: removed("list", "tolist([ ... ])"), map: removed("map", "tomap({ ... })") };
}

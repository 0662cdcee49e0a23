import { listType, stringType, stringVal } from "@magma/cty";
import type { FunctionSignature, NativeFunctions } from "@magma/provider-api";
import { stableHash } from "./stable-hash.js";

/** The signatures of the testbed's provider-defined functions. @internal */
export const testbedFunctionSignatures: ReadonlyMap<string, FunctionSignature> = new Map<string, FunctionSignature>([
  [
    "digest",
    {
      parameters: [{ name: "input", type: stringType }],
      returnType: stringType,
      summary: "A short hash of a string",
    },
  ],
  [
    "join_sorted",
    {
      parameters: [{ name: "parts", type: listType(stringType) }],
      variadicParameter: { name: "more", type: stringType },
      returnType: stringType,
      summary: "The parts and the further arguments, sorted and joined with commas",
    },
  ],
]);

/** The implementations of the testbed's provider-defined functions (pure, no configuration needed). @internal */
export const testbedFunctions: NativeFunctions = {
  digest: (args) => ({ result: stringVal(`d-${stableHash(args[0]!.asString()).slice(0, 8)}`) }),
  join_sorted: (args) => {
    const parts = args[0]!.elements().map((e) => e.asString());
    for (const a of args.slice(1)) parts.push(a.asString());
    return { result: stringVal(parts.sort().join(",")) };
  },
};

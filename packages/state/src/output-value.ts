import { fromJson, toJson, typeFromJson, typeToJson, type Type, type Value } from "@magma/cty";
import { StateError } from "./state-error.js";
import type { OutputState } from "./state-file.js";

/** An output value decoded into cty terms. */
export interface DecodedOutput {
  /** The output's type. */
  readonly type: Type;
  /** The output's value. */
  readonly value: Value;
  /** Whether the output is sensitive. */
  readonly sensitive: boolean;
}

/**
 * Decodes an output of the state into its cty type and value.
 *
 * @throws StateError `corrupt` when the JSON does not decode (a state read by
 *   `readStateFile` has been checked already).
 */
export function decodeOutput(output: OutputState): DecodedOutput {
  try {
    const type = typeFromJson(output.typeJson);
    return { type, value: fromJson(output.valueJson, type), sensitive: output.sensitive };
  } catch (e) {
    throw new StateError("corrupt", `invalid output value: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** Encodes a cty value as an output of the state (go-cty's JSON, as Terraform writes it). */
export function encodeOutput(value: Value, type: Type, sensitive = false): OutputState {
  return { valueJson: toJson(value, type), typeJson: typeToJson(type), sensitive };
}

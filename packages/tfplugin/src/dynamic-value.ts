import { fromJson, fromMsgpack, nullVal, toMsgpack, type Type, type Value } from "@magma/cty";
import type { ProtoDynamicValue } from "./proto-shapes.js";

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder();

/**
 * A `DynamicValue` as both sides send it: the value in msgpack with its type (the schema's
 * implied type), the `json` field empty, as Terraform and the plugin SDKs send it.
 *
 * @throws cty's path error when the value does not conform to `type` (each side words it)
 */
export function dynamicValueToProto(value: Value, type: Type): ProtoDynamicValue {
  return { msgpack: toMsgpack(value, type), json: EMPTY };
}

/**
 * The value of a received `DynamicValue` with `type`: from msgpack when present, else from
 * JSON (older SDKs send JSON in some replies), and null when the message is absent or both
 * fields are empty.
 *
 * @throws cty's path error when the bytes do not decode with `type` (each side words it)
 */
export function dynamicValueFromProto(dv: ProtoDynamicValue | undefined, type: Type): Value {
  if (dv === undefined) return nullVal(type);
  if (dv.msgpack.length > 0) return fromMsgpack(dv.msgpack, type);
  if (dv.json.length > 0) return fromJson(utf8.decode(dv.json), type);
  return nullVal(type);
}

/**
 * The msgpack codec of cty values, byte-compatible with go-cty's `cty/msgpack` (the encoding
 * of `DynamicValue.msgpack` in the Terraform plugin protocol). Both directions always take
 * the type: msgpack alone cannot tell a list from a set or an object from a map.
 *
 * ```ts
 * import { toMsgpack, fromMsgpack } from "@magma/cty/msgpack";
 * const bytes = toMsgpack(value, type);
 * const back = fromMsgpack(bytes, type); // back.rawEquals(value) for an unmarked value
 * ```
 *
 * @packageDocumentation
 */

export { toMsgpack } from "./to-msgpack.js";
export { fromMsgpack, MSGPACK_MAX_DEPTH } from "./from-msgpack.js";
export { msgpackNormalForm } from "./msgpack-normal-form.js";

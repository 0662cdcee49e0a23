/**
 * The JSON encoding of cty values, exact to go-cty's `ctyjson` package: {@link toJson} and
 * {@link fromJson} always take the type (JSON alone cannot tell a list from a set or a
 * tuple, nor a map from an object), and {@link typeToJson}/{@link typeFromJson} encode types.
 *
 * ```ts
 * import { fromJson, toJson } from "@magma/cty/json";
 * import { objectType, numberType } from "@magma/cty";
 * const t = objectType({ port: numberType });
 * toJson(fromJson('{"port":"443"}', t), t); // '{"port":443}'
 * ```
 *
 * @packageDocumentation
 */

export { toJson } from "./to-json.js";
export { fromJson } from "./from-json.js";
export { typeToJson, typeFromJson, typeFromJsonValue } from "../type-json.js";

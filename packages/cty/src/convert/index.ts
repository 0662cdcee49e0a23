/**
 * Conversion of cty values between types, exact to go-cty's `convert` package, plus
 * conversion from and to plain JavaScript data.
 *
 * ```ts
 * import { convert, fromPlain, toPlain } from "@magma/cty/convert";
 * import { listType, numberType, objectType, stringVal, tupleVal } from "@magma/cty";
 * const v = convert(tupleVal([stringVal("1"), stringVal("2")]), listType(numberType));
 * toPlain(v); // [1, 2]
 * fromPlain({ port: "443" }, objectType({ port: numberType }));
 * ```
 *
 * @packageDocumentation
 */

export { convert, canConvert } from "./convert.js";
export { unify, unifyUnsafe } from "./unify.js";
export { conforms } from "./type-utils.js";
export { fromPlain } from "./from-plain.js";
export type { PlainInput } from "./from-plain.js";
export { toPlain } from "./to-plain.js";
export type { ToPlainOptions } from "./to-plain.js";

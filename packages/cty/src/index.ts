/**
 * The cty value model of Terraform, exact to go-cty: types, values (null, unknown with
 * refinements, exact numbers, sets, dynamic), marks, paths, and the msgpack and JSON codecs
 * that always take the type.
 *
 * ```ts
 * import { objectType, stringType, objectVal, stringVal, toMsgpack, fromMsgpack } from "@magma/cty";
 * const t = objectType({ name: stringType });
 * const bytes = toMsgpack(objectVal({ name: stringVal("x") }), t);
 * fromMsgpack(bytes, t).getAttr("name").asString(); // "x"
 * ```
 *
 * @packageDocumentation
 */

export {
  TypeKind,
  stringType,
  numberType,
  boolType,
  dynamicType,
  listType,
  setType,
  mapType,
  objectType,
  emptyObjectType,
  tupleType,
  emptyTupleType,
  isPrimitiveType,
  isCollectionType,
  typeEquals,
  hasDynamicTypes,
  typeName,
  typeString,
} from "./type.js";
export type {
  Type,
  StringType,
  NumberType,
  BoolType,
  DynamicType,
  ListType,
  SetType,
  MapType,
  ObjectType,
  TupleType,
  PrimitiveType,
  CollectionType,
} from "./type.js";
export { typeToJson, typeFromJson, typeFromJsonValue } from "./type-json.js";
export { CtyNumber } from "./number.js";
export { Value } from "./value.js";
export {
  stringVal,
  numberVal,
  boolVal,
  nullVal,
  unknownVal,
  dynamicVal,
  listVal,
  listValEmpty,
  setVal,
  setValEmpty,
  mapVal,
  mapValEmpty,
  objectVal,
  emptyObjectVal,
  tupleVal,
  emptyTupleVal,
} from "./construction.js";
export { Mark, markWithPaths } from "./marks.js";
export type { PathMarks } from "./marks.js";
export type { Refinements, NumberBound } from "./refinements.js";
export { Path } from "./path.js";
export type { PathStep } from "./path.js";
export { PathError, PathErrorCode, isPathError, formatErrorPath } from "./path-error.js";
export { toJson, fromJson } from "./json/index.js";
export { convert, canConvert, unify, unifyUnsafe, conforms, fromPlain, toPlain } from "./convert/index.js";
export type { PlainInput, ToPlainOptions } from "./convert/index.js";
export { toMsgpack, fromMsgpack } from "./msgpack/index.js";

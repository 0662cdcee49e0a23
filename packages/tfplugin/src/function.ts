import { typeToJson } from "@magma/cty";
import { StringKind, schemaError, type FunctionParameter, type FunctionSignature } from "@magma/provider-api";
import type { ProtoFunction, ProtoFunctionParameter } from "./proto-shapes.js";
import { stringKindFromProto, typeFromProto } from "./schema.js";

function parameterFromProto(p: ProtoFunctionParameter, where: () => string): FunctionParameter {
  if (p.type.length === 0) throw schemaError(`${where()} has no type`);
  const out: { -readonly [K in keyof FunctionParameter]: FunctionParameter[K] } = {
    name: p.name,
    type: typeFromProto(p.type, where, undefined, "type"),
  };
  if (p.description !== "") out.description = p.description;
  if (p.description !== "" || p.descriptionKind === 1) out.descriptionKind = stringKindFromProto(p.descriptionKind);
  if (p.allowNullValue) out.allowNullValue = true;
  if (p.allowUnknownValues) out.allowUnknownValues = true;
  return out;
}

/**
 * Reads a wire `Function` (a provider-defined function's signature) as a
 * {@link FunctionSignature}. Empty strings and false flags are left out; a description kind
 * is kept when there is a description or it says markdown.
 *
 * @param name The function's name (its key in the schema reply), for messages.
 * @throws ProviderError `schema` naming the function (and parameter) when the return type
 * is missing, a parameter has no type, or a type is not cty type JSON.
 * @internal
 */
export function functionFromProto(f: ProtoFunction, name: string): FunctionSignature {
  const fn = `function ${JSON.stringify(name)}`;
  const parameters = f.parameters.map((p, i) => {
    const where = (): string => `${fn}: parameter ${i}${p.name === "" ? "" : ` (${JSON.stringify(p.name)})`}`;
    return parameterFromProto(p, where);
  });
  if (f.return === undefined || f.return.type.length === 0) throw schemaError(`${fn} has no return type`);
  const out: { -readonly [K in keyof FunctionSignature]: FunctionSignature[K] } = {
    parameters,
    returnType: typeFromProto(f.return.type, () => fn, undefined, "return type"),
  };
  if (f.variadicParameter !== undefined) {
    const v = f.variadicParameter;
    out.variadicParameter = parameterFromProto(v, () => `${fn}: variadic parameter${v.name === "" ? "" : ` (${JSON.stringify(v.name)})`}`);
  }
  if (f.summary !== "") out.summary = f.summary;
  if (f.description !== "") out.description = f.description;
  if (f.description !== "" || f.descriptionKind === 1) out.descriptionKind = stringKindFromProto(f.descriptionKind);
  if (f.deprecationMessage !== "") out.deprecationMessage = f.deprecationMessage;
  return out;
}

const utf8 = new TextEncoder();

function parameterToProto(p: FunctionParameter): ProtoFunctionParameter {
  return {
    name: p.name,
    type: utf8.encode(typeToJson(p.type)),
    allowNullValue: p.allowNullValue === true,
    allowUnknownValues: p.allowUnknownValues === true,
    description: p.description ?? "",
    descriptionKind: p.descriptionKind === StringKind.Markdown ? 1 : 0,
  };
}

/**
 * Writes a {@link FunctionSignature} as a wire `Function` (the same fields in tfplugin5
 * and tfplugin6): the inverse of {@link functionFromProto}.
 *
 * @internal
 */
export function functionToProto(f: FunctionSignature): ProtoFunction {
  const out: ProtoFunction = {
    parameters: f.parameters.map(parameterToProto),
    return: { type: utf8.encode(typeToJson(f.returnType)) },
    summary: f.summary ?? "",
    description: f.description ?? "",
    descriptionKind: f.descriptionKind === StringKind.Markdown ? 1 : 0,
    deprecationMessage: f.deprecationMessage ?? "",
  };
  if (f.variadicParameter !== undefined) out.variadicParameter = parameterToProto(f.variadicParameter);
  return out;
}

/**
 * Structural views of the tfplugin5 / tfplugin6 messages that the conversions read and
 * write. Both versions' generated message types satisfy them (v6 adds `nestedType`), so one
 * conversion serves both protocol versions.
 *
 * @internal
 * @packageDocumentation
 */

/** `Schema.Attribute` (v5 and v6). */
export interface ProtoAttribute {
  name: string;
  type: Uint8Array;
  description: string;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  descriptionKind: number;
  deprecated: boolean;
  writeOnly: boolean;
  deprecationMessage: string;
  /** v6 only. */
  nestedType?: ProtoObject | undefined;
}

/** v6 `Schema.Object` (a nested attribute type). */
export interface ProtoObject {
  attributes: ProtoAttribute[];
  nesting: number;
}

/** `Schema.Block`. */
export interface ProtoBlock {
  version: bigint;
  attributes: ProtoAttribute[];
  blockTypes: ProtoNestedBlock[];
  description: string;
  descriptionKind: number;
  deprecated: boolean;
  deprecationMessage: string;
}

/** `Schema.NestedBlock`. */
export interface ProtoNestedBlock {
  typeName: string;
  block?: ProtoBlock | undefined;
  nesting: number;
  minItems: bigint;
  maxItems: bigint;
}

/** `Schema`. */
export interface ProtoSchema {
  version: bigint;
  block?: ProtoBlock | undefined;
}

/** `Function.Parameter`. */
export interface ProtoFunctionParameter {
  name: string;
  type: Uint8Array;
  allowNullValue: boolean;
  allowUnknownValues: boolean;
  description: string;
  descriptionKind: number;
}

/** `Function.Return`. */
export interface ProtoFunctionReturn {
  type: Uint8Array;
}

/** `Function` (a provider-defined function's signature). */
export interface ProtoFunction {
  parameters: ProtoFunctionParameter[];
  variadicParameter?: ProtoFunctionParameter | undefined;
  return?: ProtoFunctionReturn | undefined;
  summary: string;
  description: string;
  descriptionKind: number;
  deprecationMessage: string;
}

/** `AttributePath.Step`. */
export interface ProtoPathStep {
  selector:
    | { case: "attributeName"; value: string }
    | { case: "elementKeyString"; value: string }
    | { case: "elementKeyInt"; value: bigint }
    | { case: undefined; value?: undefined };
}

/** `AttributePath`. */
export interface ProtoAttributePath {
  steps: ProtoPathStep[];
}

/** `Diagnostic`. */
export interface ProtoDiagnostic {
  severity: number;
  summary: string;
  detail: string;
  attribute?: ProtoAttributePath | undefined;
}

/** `DynamicValue`. */
export interface ProtoDynamicValue {
  msgpack: Uint8Array;
  json: Uint8Array;
}

/** `ServerCapabilities`. */
export interface ProtoServerCapabilities {
  planDestroy: boolean;
  getProviderSchemaOptional: boolean;
  moveResourceState: boolean;
  generateResourceConfig: boolean;
}

/** `Deferred`. */
export interface ProtoDeferred {
  reason: number;
}

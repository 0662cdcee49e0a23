/**
 * Structural views of the tfplugin5 / tfplugin6 messages that the conversions read and
 * write. Both versions' generated message types satisfy them (v6 adds `nestedType`), so one
 * conversion serves both protocol versions.
 *
 * @internal
 * @packageDocumentation
 */

import type { Deferred_Reason, Diagnostic_Severity, Schema_NestedBlock_NestingMode, StringKind } from "./gen/tfplugin5/tfplugin5_pb.js";
import type { Schema_Object_NestingMode } from "./gen/tfplugin6/tfplugin6_pb.js";

/** `Schema.Attribute` (v5 and v6). */
export interface ProtoAttribute {
  name: string;
  type: Uint8Array;
  description: string;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  descriptionKind: StringKind;
  deprecated: boolean;
  writeOnly: boolean;
  deprecationMessage: string;
  /** v6 only. */
  nestedType?: ProtoObject | undefined;
}

/** v6 `Schema.Object` (a nested attribute type). */
export interface ProtoObject {
  attributes: ProtoAttribute[];
  nesting: Schema_Object_NestingMode;
}

/** `Schema.Block`. */
export interface ProtoBlock {
  version: bigint;
  attributes: ProtoAttribute[];
  blockTypes: ProtoNestedBlock[];
  description: string;
  descriptionKind: StringKind;
  deprecated: boolean;
  deprecationMessage: string;
}

/** `Schema.NestedBlock`. */
export interface ProtoNestedBlock {
  typeName: string;
  block?: ProtoBlock | undefined;
  nesting: Schema_NestedBlock_NestingMode;
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
  descriptionKind: StringKind;
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
  descriptionKind: StringKind;
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
  severity: Diagnostic_Severity;
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
  reason: Deferred_Reason;
}

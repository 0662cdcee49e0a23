/**
 * The provider contract of magma: one small interface, {@link Provider}, through which
 * engines drive real Terraform providers (via `@magma/plugin`) and native TypeScript
 * providers alike, over cty values typed by the provider's schema.
 *
 * - {@link Provider}: the 8 operations, with their option and result types.
 * - {@link FunctionCaller}: the optional capability of calling provider-defined functions
 *   (not a ninth operation: {@link isFunctionCaller} tells whether a provider offers it).
 * - {@link EphemeralResourceOpener}: the optional capability of opening, renewing and
 *   closing ephemeral resources ({@link isEphemeralResourceOpener}).
 * - {@link ConfigValidator}: the optional capability of validating provider, resource and
 *   data source configurations ({@link isConfigValidator}).
 * - {@link ProviderSchema}, {@link Block}, {@link impliedType}: schemas and their wire types.
 * - {@link PlannedChange}, {@link Diag}: plan results and diagnostics.
 * - {@link ProviderError} with stable codes, {@link isProviderError}, {@link isRetryable}
 *   and {@link classifyApplyOutcome}: how calls fail.
 * - {@link createNativeProvider}: write a provider in TypeScript; the wrapper enforces
 *   the contract (configure first, known type names, value types, diagnostics).
 * - {@link proposedNewState} and {@link configValue}: build what Terraform would send.
 * - {@link assertPlanValid} and {@link assertObjectCompatible}: Terraform's checks of a
 *   provider's plans and apply results, with Terraform's wording.
 *
 * An in-memory provider for tests is on the `@magma/provider-api/testing` subpath.
 *
 * @packageDocumentation
 */

// For everyone: the contract.
export type {
  Provider,
  ProviderOperation,
  AbortSignalLike,
  CallOptions,
  GetSchemaOptions,
  ConfigureOptions,
  PlanOptions,
  ApplyOptions,
  ReadResourceOptions,
  ReadDataSourceOptions,
  ImportOptions,
  UpgradeOptions,
  ConfigureResult,
  ApplyResult,
  ReadResourceResult,
  ReadResourceFound,
  ReadResourceGone,
  ReadDataSourceResult,
  ImportResult,
  ImportedResource,
  UpgradeResult,
} from "./provider.js";
export { isFunctionCaller, functionSignature, functionParameter, checkFunctionCall } from "./function-caller.js";
export type { FunctionCaller, CallFunctionOptions } from "./function-caller.js";
export { isEphemeralResourceOpener, ephemeralResourceSchema } from "./ephemeral-resource-opener.js";
export type {
  EphemeralResourceOpener,
  OpenEphemeralOptions,
  EphemeralCallOptions,
  OpenEphemeralResult,
  RenewEphemeralResult,
  EphemeralWarnings,
} from "./ephemeral-resource-opener.js";
export { isConfigValidator } from "./config-validator.js";
export type { ConfigValidator, ConfigValidation, ValidateConfigOptions } from "./config-validator.js";
export { NestingMode, StringKind, noServerCapabilities, impliedType, attributeType, attributeSpecType, nestedBlockType, emptyBlockValue, emptyNestedBlockValue, createSchemaEntry, resourceSchema, dataSourceSchema } from "./schema.js";
export type { ObjectNestingMode, Attribute, NestedAttributeType, NestedBlock, Block, SchemaEntry, ServerCapabilities, FunctionParameter, FunctionSignature, ProviderSchema } from "./schema.js";
export { DeferredReason } from "./plan.js";
export type { PlannedChange, Deferred } from "./plan.js";
export { Severity, errorDiag, warningDiag, hasErrors, warningsOf, formatDiag } from "./diagnostic.js";
export type { Diag } from "./diagnostic.js";
export {
  ProviderError,
  ProviderErrorCode,
  isProviderError,
  isRetryable,
  diagnosticsError,
  noNewStateError,
  partiallyAppliedError,
  schemaError,
  notConfiguredError,
  unknownTypeError,
  canceledError,
  deadlineExceededError,
  providerNotFoundError,
  functionCallError,
} from "./provider-error.js";
export type { AnyProviderError, ProviderErrorDetail, ProviderErrorDetailOf, SchemaEntryKind, TypeNameKind } from "./provider-error.js";
export { withRetry } from "./with-retry.js";
export type { RetryPolicy } from "./with-retry.js";
export { classifyApplyOutcome } from "./apply-outcome.js";
export type { ApplyResponse, ApplyContext, ApplyOutcome } from "./apply-outcome.js";
export { proposedNewState } from "./proposed-new-state.js";
export { assertPlanValid, planProblems } from "./plan-valid.js";
export { assertObjectCompatible, compatibilityProblems } from "./object-compatible.js";
export { formatProblemPath } from "./object-change-problem.js";
export type { ObjectChangeCheckOptions, ObjectChangeProblem, ProblemStep } from "./object-change-problem.js";
export { configValue } from "./config-value.js";
export type { PlainConfig } from "./config-value.js";
export { containsWriteOnly, nestedContainsWriteOnly, writeOnlyPaths, nonNullWriteOnlyPaths, stripWriteOnlyAttributes, mapWriteOnlyAttributes } from "./write-only.js";

// For provider authors.
export { createNativeProvider } from "./native-provider.js";
export type {
  NativeProviderImpl,
  NativeContext,
  NativeSchema,
  NativeDiagnostics,
  NativePlan,
  NativeApply,
  NativeRead,
  NativeReadDataSource,
  NativeImport,
  NativeUpgrade,
  NativeEphemeralResource,
  NativeEphemeralResources,
  NativeEphemeralOpen,
  NativeEphemeralRenew,
} from "./native-provider.js";
export type { NativeFunction, NativeFunctions, NativeFunctionContext, NativeFunctionResult } from "./native-function.js";

// For transports and other libraries (as connect-es lists its transport helpers apart):
// the errors a transport raises for process, handshake and wire failures, the legacy type
// system's normalisation, and value conformance for checking decoded values.
export { transportError, pluginExitedError, handshakeFailedError, protocolMismatchError, invalidResponseError } from "./provider-error.js";
export { normalizeLegacyObject } from "./normalize-legacy-object.js";
export { valueConformance } from "./value-conformance.js";
export type { ConformanceProblem } from "./value-conformance.js";

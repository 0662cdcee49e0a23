/**
 * The magma provider contract over real Terraform provider binaries: launches a provider
 * through the go-plugin handshake (AutoMTLS, unix sockets), speaks tfplugin5 or tfplugin6
 * gRPC to it, and exposes it as a `Provider` from `@magma/provider-api` (whose names this
 * package re-exports unchanged, so one import serves).
 *
 * ```ts
 * import { dialConfiguredProvider } from "@magma/plugin";
 * const aws = await dialConfiguredProvider({ source: "hashicorp/aws", config: { region: "us-east-1" } });
 * try {
 *   const { state } = await aws.provider.readDataSource("aws_partition", ...);
 * } finally {
 *   await aws.close();
 * }
 * ```
 *
 * @packageDocumentation
 */

// For end users: open providers, find them, describe their schemas, see their logs.
export { dialProvider, dialConfiguredProvider, defaultTerraformVersion } from "./dial-provider.js";
export type { DialProviderOptions, DialConfiguredProviderOptions, LiveProvider, ProviderLocation } from "./dial-provider.js";
export { createProviderFactory } from "./provider-factory.js";
export type { ProviderFactory, ProviderFactoryOptions, OpenProviderOptions, NativeProviderFactoryFn, ResolvedReference } from "./provider-factory.js";
export type { ProviderConn, ProviderConnOptions } from "./provider-conn.js";
export { resolveProviderBinary, parseProviderSource, matchesVersionConstraint, providerSearchDirs } from "./resolve-provider.js";
export type { ResolveProviderOptions, ResolvedProvider, ProviderAddress } from "./resolve-provider.js";
export { providerSchemaToTerraformJson, type TerraformProviderSchemaJson, type TerraformSchemaJson, type TerraformBlockJson, type TerraformBlockTypeJson, type TerraformAttributeJson, type TerraformNestedTypeJson, type TerraformTypeJson, type TerraformFunctionJson, type TerraformFunctionParameterJson } from "./terraform-schema-json.js";
export { PluginLogLevel, PluginLogSource, discardPluginLogger } from "./plugin-logger.js";
export type { PluginLogEntry, PluginLogger } from "./plugin-logger.js";
export type { RecycleOptions } from "./recycling-live-provider.js";

// Transport and process plumbing (as connect-es lists its transport helpers apart): the
// go-plugin side of a provider process — debug-mode reattach (`TF_REATTACH_PROVIDERS`),
// launcher scripts, sockets of providers whose parent died. Most users need none of these.
export { parseReattachProviders } from "./reattach.js";
export type { ReattachConfig } from "./reattach.js";
export type { PluginNetwork } from "./handshake.js";
export { LAUNCHER_TARGET_MARK, launcherTargets } from "./launcher-targets.js";
export { reapOrphanedProviders, ReapOutcome } from "./reap-orphaned-providers.js";
export type { ReapOrphanedProvidersOptions, ReapedProvider } from "./reap-orphaned-providers.js";

// Deprecated names, kept for one release.
export { versionMatches } from "./resolve-provider.js";
export type { NativeProviderConstructor } from "./provider-factory.js";

// The contract, re-exported unchanged from @magma/provider-api.
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
  ObjectChangeCheckOptions,
  ObjectChangeProblem,
  ProblemStep,
  ReadDataSourceResult,
  ImportResult,
  ImportedResource,
  UpgradeResult,
  ObjectNestingMode,
  Attribute,
  NestedAttributeType,
  NestedBlock,
  Block,
  SchemaEntry,
  ServerCapabilities,
  FunctionParameter,
  FunctionSignature,
  ProviderSchema,
  PlannedChange,
  Deferred,
  Diag,
  AnyProviderError,
  ProviderErrorDetail,
  ProviderErrorDetailOf,
  SchemaEntryKind,
  TypeNameKind,
  ApplyResponse,
  ApplyContext,
  ApplyOutcome,
  PlainConfig,
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
  ConformanceProblem,
  RetryPolicy,
} from "@magma/provider-api";
export {
  NestingMode,
  StringKind,
  noServerCapabilities,
  impliedType,
  attributeType,
  attributeSpecType,
  nestedBlockType,
  emptyBlockValue,
  emptyNestedBlockValue,
  createSchemaEntry,
  resourceSchema,
  dataSourceSchema,
  DeferredReason,
  Severity,
  errorDiag,
  warningDiag,
  hasErrors,
  warningsOf,
  formatDiag,
  ProviderError,
  ProviderErrorCode,
  isProviderError,
  isRetryable,
  transportError,
  diagnosticsError,
  noNewStateError,
  partiallyAppliedError,
  schemaError,
  notConfiguredError,
  unknownTypeError,
  pluginExitedError,
  handshakeFailedError,
  protocolMismatchError,
  invalidResponseError,
  canceledError,
  deadlineExceededError,
  providerNotFoundError,
  withRetry,
  classifyApplyOutcome,
  proposedNewState,
  assertPlanValid,
  assertObjectCompatible,
  normalizeLegacyObject,
  configValue,
  createNativeProvider,
  valueConformance,
  compatibilityProblems,
  formatProblemPath,
  planProblems,
} from "@magma/provider-api";

// Write-only attributes (Terraform 1.11), re-exported unchanged from @magma/provider-api.
export { containsWriteOnly, nestedContainsWriteOnly, writeOnlyPaths, nonNullWriteOnlyPaths, stripWriteOnlyAttributes, mapWriteOnlyAttributes } from "@magma/provider-api";

// Provider-defined functions, re-exported unchanged from @magma/provider-api.
export type { FunctionCaller, CallFunctionOptions, NativeFunction, NativeFunctions, NativeFunctionContext, NativeFunctionResult } from "@magma/provider-api";
export { isFunctionCaller, functionSignature, functionParameter, checkFunctionCall, functionCallError } from "@magma/provider-api";
export type {
  EphemeralResourceOpener,
  OpenEphemeralOptions,
  EphemeralCallOptions,
  OpenEphemeralResult,
  RenewEphemeralResult,
  EphemeralWarnings,
  NativeEphemeralResource,
  NativeEphemeralResources,
  NativeEphemeralOpen,
  NativeEphemeralRenew,
} from "@magma/provider-api";
export { isEphemeralResourceOpener, ephemeralResourceSchema } from "@magma/provider-api";

// Configuration validation (Terraform's validate walk), re-exported unchanged from @magma/provider-api.
export type { ConfigValidator, ConfigValidation, ValidateConfigOptions } from "@magma/provider-api";
export { isConfigValidator } from "@magma/provider-api";

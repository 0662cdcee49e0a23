/**
 * Terraform's state: format v4, addresses, and storage that Terraform itself can share.
 *
 * @packageDocumentation
 */

// The state model and its file format.
export { readStateFile } from "./read-state-file.js";
export type { ReadStateFileOptions } from "./read-state-file.js";
export { writeStateFile, formatStateFile, StateFormatter } from "./write-state-file.js";
export type { WriteStateFileOptions } from "./write-state-file.js";
export { newStateFile, TERRAFORM_VERSION } from "./state-file.js";
export type { StateFile, OutputState, ResourceState, InstanceObjectState, CheckResultState, CheckObjectState, CheckStatus } from "./state-file.js";
export { loadState, saveState, withStateLock } from "./persist-state.js";
export { decodeOutput, encodeOutput } from "./output-value.js";
export type { DecodedOutput } from "./output-value.js";
export { decodeSensitivePaths, encodeSensitivePaths } from "./sensitive-paths.js";

// Addresses.
export { parseResourceInstance, parseResource, formatResourceInstance, formatResource } from "./address/resource-address.js";
export type { ResourceAddress, ResourceInstanceAddress, ResourceMode } from "./address/resource-address.js";
export { parseModuleInstance, formatModuleInstance } from "./address/module-address.js";
export type { ModuleInstanceAddress, ModuleStep } from "./address/module-address.js";
export { parseProviderConfig, parseLegacyProviderConfig, formatProviderConfig, parseProviderSource, formatProviderSource, DEFAULT_PROVIDER_HOST } from "./address/provider-address.js";
export type { ProviderConfigAddress, ProviderSource } from "./address/provider-address.js";
export { formatInstanceKey, compareInstanceKeys } from "./address/instance-key.js";
export type { InstanceKey } from "./address/instance-key.js";

// Storage.
export type { LockInfo, LockRequest, StateStore, StateBackend } from "./backend.js";
export { createLocalBackend, LocalStateStore } from "./backends/local.js";
export type { LocalBackend, LocalBackendOptions } from "./backends/local.js";
export { openPgBackend } from "./backends/pg.js";
export type { PgBackend, PgBackendOptions } from "./backends/pg.js";
export { createHttpBackend } from "./backends/http.js";
export type { HttpBackend, HttpBackendOptions } from "./backends/http.js";
export { openConfiguredBackend, backendConfigSchema, backendValueFromCty, BACKEND_TYPES } from "./backend-config.js";
export type { S3Backend, S3BackendOptions, S3Endpoints, S3AssumeRole, S3AssumeRoleWithWebIdentity } from "./backends/s3.js";
export type { BackendConfigValue, BackendConfigValues, BackendAttributeKind, ConfiguredBackend, OpenConfiguredBackendOptions } from "./backend-config.js";

// Errors.
export { StateError, StateErrorCode, isStateError } from "./state-error.js";
export type { StateErrorOptions } from "./state-error.js";

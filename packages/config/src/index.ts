/**
 * Terraform's configuration model: load a module directory (`.tf` and `.tf.json`, override
 * files, local and installed modules) into what an engine plans from — every block kind
 * with its meta-arguments, variable values with Terraform's precedence, bodies decoded
 * against provider schemas, `terraform validate`'s static checks, and the references each
 * object makes.
 *
 * @packageDocumentation
 */

export { loadModule, loadModuleFromFiles, moduleFiles, isOverrideFile } from "./load-module.js";
export { loadConfig, loadConfigWithSnapshot, configFromSnapshot, walkConfig, readModuleManifest, isLocalSource } from "./load-config.js";
export { descendantConfig } from "./descendant-config.js";
export { PROVISIONERS_NOT_SUPPORTED, isProvisionerDiagnostic } from "./provisioner-diagnostic.js";
export type { LoadConfigOptions, InstalledModule, ConfigSnapshot, ConfigSnapshotModule } from "./load-config.js";
export type {
  Module,
  Config,
  Resource,
  ManagedResourceSettings,
  Variable,
  Local,
  Output,
  ModuleCall,
  PassedProviderConfig,
  ProviderConfig,
  ProviderConfigRef,
  ProviderMeta,
  ProviderAddr,
  RequiredProvider,
  Backend,
  CheckRule,
  Moved,
  Import,
  Removed,
  Check,
} from "./model.js";
export { providerAddrString, impliedProvider, parseProviderSource, resourceTypeProviderName, DEFAULT_REGISTRY_HOST } from "./provider-addr.js";
export { TERRAFORM_VERSION, parseVersionConstraints, versionSatisfies } from "./version-constraint.js";
export type { VersionConstraint } from "./version-constraint.js";
export { typeConstraint, applyTypeDefaults } from "./type-expr.js";
export type { TypeConstraint, TypeDefaults } from "./type-expr.js";
export { collectVariableValues, VariableSource } from "./variable-values.js";
export type { VariableArg, VariableValueOptions, VariableValue } from "./variable-values.js";
export { decodeSchemaBody, evaluateSchemaBody, hclSchemaFor } from "./decode-schema-body.js";
export type { DecodedBody, DecodedBlock, DynamicBlock } from "./decode-schema-body.js";
export { validateConfig, validateDir, checkCoreVersion, checkExpressionReferences, providerSetupDiagnostics } from "./validate.js";
export { providerConfigDiagnostics } from "./provider-config-diagnostics.js";
export { missingProviderError } from "./missing-provider-error.js";
export type { SchemaLookup, ValidateOptions } from "./validate.js";
export { blockFromSchemaJson } from "./schema-json.js";
export type { SchemaJsonBlock, SchemaJsonAttribute } from "./schema-json.js";
export { parseRef, referencesInExpr, subjectString } from "./references.js";
export type { Reference, Subject } from "./references.js";
export { graphInputs, resourceReferences, resourceProviderConfigKey } from "./graph-inputs.js";
export { selfReferenceDiagnostics } from "./self-references.js";
export type { GraphInput, GraphNodeKind } from "./graph-inputs.js";
export { bodyTraversals } from "./body-walk.js";
export { parseConfigAddress } from "./address.js";
export type { ConfigAddress } from "./address.js";
export { SUPPORTED_BACKENDS } from "./decode-terraform.js";
export { nameSuggestion } from "./diagnostics.js";

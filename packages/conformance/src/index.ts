/**
 * Conformance harness: an engine-like driver that calls a provider in Terraform 1.11.4's
 * order, a recording provider that follows private state, a terraform CLI oracle in a
 * temporary working directory, and an attribute-by-attribute state comparison. Private to
 * this repository; the scenarios are in `test/` and listed in docs/conformance.md.
 *
 * @packageDocumentation
 */
export { EngineDriver, PlanAction } from "./engine-driver.js";
export type { ManagedObject, ResourcePlan, PlanResourceOptions } from "./engine-driver.js";
export { RecordingProvider } from "./recording-provider.js";
export type { RecordedCall } from "./recording-provider.js";
export { createTerraformWorkspace, findTerraform, hclResource, AWS_BINARY, PLUGIN_MIRROR } from "./terraform-oracle.js";
export type { TerraformInstance, TerraformPlan, TerraformRun, TerraformWorkspace, TerraformWorkspaceOptions } from "./terraform-oracle.js";
export { stateDifferences, stateJson, replaceGenerated } from "./compare-states.js";
export type { AttributeDifference, Normaliser } from "./compare-states.js";
export { awsProviderConfig, awsProviderHcl, dialAwsAgainst, AWS_MAX_RETRIES, AWS_ENDPOINT_KEYS } from "./aws-fixture.js";

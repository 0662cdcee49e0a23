/**
 * Terraform's core over magma's `Provider` contract.
 *
 * The user API is {@link createEngine}: plan (also refresh-only), apply, destroy and import
 * a loaded configuration (`@magma/config`) against a state (`@magma/state`), with
 * Terraform's events, plan files ({@link writePlanFile}, {@link readPlanFile}, {@link assertPlanCurrent}) and
 * renderings ({@link planText}, {@link planJson}, {@link stateJson}). Errors carry stable
 * codes ({@link EngineError}, {@link PlanDiagnosticsError}, {@link RenderError}).
 *
 * The rest are the building blocks the engine is made of, exported for programs that drive
 * Terraform's steps themselves (as `@magma/cli`'s single-resource commands do):
 *
 * - a dependency graph and its walk ({@link Graph}, {@link walkGraph}): bounded
 *   parallelism, per-group limits, skip-after-failure, cancellation;
 * - the per-instance steps, Terraform's way: {@link upgradeInstance}, {@link refreshInstance},
 *   {@link planInstance}, {@link planDestroy}, {@link applyInstance},
 *   {@link readDataSourceInstance}, {@link importInstance};
 * - the plan model ({@link PlannedInstanceChange}, {@link Plan} with its identity), the
 *   apply walk ({@link applyPlan}), the module evaluator and the refresh guard.
 *
 * @packageDocumentation
 */

// Errors.
export { EngineError, EngineErrorCode, isEngineError } from "./engine-error.js";
export { EphemeralResources } from "./ephemeral/ephemeral-resources.js";
export type { EphemeralOpEvent, EphemeralOpenOutcome } from "./ephemeral/ephemeral-resources.js";
export { EPHEMERAL_MARK } from "./ephemeral/ephemeral-mark.js";
export type { EngineErrorOptions } from "./engine-error.js";

// The graph.
export { Graph } from "./dag/graph.js";
export { walkGraph, DEFAULT_PARALLELISM } from "./dag/walk.js";
export type { WalkOptions, WalkResult, SkippedNode, VisitContext } from "./dag/walk.js";

// Per-instance steps.
export type { InstanceTarget, InstanceObject } from "./instance/instance-target.js";
export { upgradeInstance } from "./instance/upgrade-instance.js";
export type { StoredInstance, UpgradeInstanceResult } from "./instance/upgrade-instance.js";
export { refreshInstance } from "./instance/refresh-instance.js";
export type { RefreshInstanceResult } from "./instance/refresh-instance.js";
export { planInstance } from "./instance/plan-instance.js";
export type { PlanInstanceInput } from "./instance/plan-instance.js";
export { planDestroy } from "./instance/plan-destroy.js";
export { applyInstance } from "./instance/apply-instance.js";
export type { ApplyInstanceOptions, ApplyInstanceResult } from "./instance/apply-instance.js";
export { toleratedLogMessage } from "./instance/tolerated-problems.js";
export type { ToleratedProblems } from "./instance/tolerated-problems.js";
export { readDataSourceInstance } from "./instance/read-data-source-instance.js";
export type { DataSourceInput, DataSourceOutcome } from "./instance/read-data-source-instance.js";
export { importInstance } from "./instance/import-instance.js";
export type { ImportedInstance, ImportInstanceResult } from "./instance/import-instance.js";
export { replacePaths } from "./instance/replace-paths.js";
export { unknownsToNull } from "./instance/unknowns-to-null.js";

// The plan model.
export { PlanAction, ReadReason, ReplaceReason, isReplace } from "./plan/plan-action.js";
export type { PlannedInstanceChange } from "./plan/planned-instance-change.js";
export { createPlan, planIdentity, withPlanIdentity } from "./plan/plan.js";
export type { DataReadSource, Plan, PlanInput, PlanPriorState, PlanMode, PlannedOutput, PlannedProvider } from "./plan/plan.js";
export { aggregateCheckStatus } from "./plan/planned-check.js";
export type { CheckStatus, PlannedCheck, PlannedCheckInstance } from "./plan/planned-check.js";

// Providers and the apply's view of configuration.
export type { ProviderSource, OpenedProvider, ProviderSourceOpenOptions } from "./provider-source.js";
export type { ApplyScope, AppliedValues, ApplyEphemeralResource, ApplyEphemeralInstance } from "./apply/apply-scope.js";
export type { CreateConflictHandler, CreateConflictInput, CreateConflictAdoption } from "./apply/create-conflict.js";
export type { RefreshOutcome } from "./refresh/refresh-outcome.js";
export { ProviderPool } from "./providers/provider-pool.js";
export type { ProviderPoolOptions } from "./providers/provider-pool.js";
export { prelaunchedProviderSource } from "./providers/prelaunched-provider-source.js";
export type { PrelaunchedProviderSource, PrelaunchedProviderSourceOptions } from "./providers/prelaunched-provider-source.js";
export { formatPlan, parsePlan, writePlanFile, readPlanFile, assertPlanCurrent, PLAN_FORMAT } from "./plan/plan-file.js";
export type { EncodedChange, EncodedValue } from "./plan/encode-change.js";

// APPLY: the apply walk (Plan → state) and the engine's events.
export { applyPlan } from "./apply/apply-plan.js";
export { savedPlanVariables } from "./apply/saved-plan-variables.js";
export type { SavedPlanVariables } from "./apply/saved-plan-variables.js";
export type { ApplyPlanOptions } from "./apply/apply-plan.js";
export type { ApplyResult, ApplyObjectRef, FailedObject, SkippedObject, AdoptionRecord } from "./apply/apply-result.js";
export { buildApplyGraph, destroyNodeId, ephemeralCloseNodeId, ephemeralOpenNodeId, providerNodeId } from "./apply/apply-graph.js";
export type { ApplyNode } from "./apply/apply-graph.js";
export { DEFAULT_PROGRESS_INTERVAL_MS } from "./events/object-progress.js";
export { changeReason } from "./events/change-reason.js";
export type { ChangeReason } from "./events/change-reason.js";
export type {
  EngineEvent,
  EngineEventType,
  HookAction,
  ApplyStartEvent,
  ApplyProgressEvent,
  ApplyCompleteEvent,
  ApplyErroredEvent,
  RefreshStartEvent,
  ImportStartEvent,
  ImportCompleteEvent,
  RefreshCompleteEvent,
  PlannedChangeEvent,
  ChangeSummaryEvent,
  DiagnosticEvent,
  ProviderConfiguredEvent,
  OutputsEvent,
  LogEvent,
  EphemeralOpStartEvent,
  EphemeralOpCompleteEvent,
} from "./events/engine-event.js";
// SAFETY: the refresh guard, import, import on create conflict.
export { judgeRefresh, assertRefreshSafe, DEFAULT_REFRESH_GUARD, RefreshVerdict, RefreshSuspicion } from "./refresh/refresh-guard.js";
export type { RefreshGuardOptions, RefreshJudgement, RefreshFinding, RefreshCounts } from "./refresh/refresh-guard.js";
export { refreshWithOutcome } from "./refresh/refresh-with-outcome.js";
export type { RefreshWithOutcome } from "./refresh/refresh-with-outcome.js";
export { importResource } from "./import/import-resource.js";
export type { ImportResourceInput, ImportResourceResult } from "./import/import-resource.js";
export { createImportOnConflict, isAlreadyExists, ALREADY_EXISTS_PATTERNS, DEFAULT_ID_RULES, DEFAULT_IDENTITY, DEFAULT_CONFLICT_RULES, ImportOnConflictOutcome } from "./import/import-on-conflict.js";
export type { ImportOnConflictOptions, ImportOnConflictDecision, IdRule, IdRuleInput, ConflictRule } from "./import/import-on-conflict.js";
// SHOW: renderings (`terraform show -json` of states and plans, plan summaries).
export { stateJson, STATE_JSON_FORMAT_VERSION } from "./render/state-json.js";
export { planJson, PLAN_JSON_FORMAT_VERSION } from "./render/plan-json.js";
export type { PlanJsonOptions, DeleteReason } from "./render/plan-json.js";
export type { RenderSchemas } from "./render/render-schemas.js";
export { RenderError, RenderErrorCode, isRenderError } from "./render/render-error.js";
export { planSummary, countPlanChanges } from "./render/plan-summary.js";
export type { PlanCounts, PlanSummaryOptions } from "./render/plan-summary.js";
export { configurationJson } from "./render/config-json.js";
export { relevantAttributes } from "./render/relevant-attributes.js";
export { refreshedPriorState } from "./render/refreshed-state.js";
export type { RelevantAttribute, RelevantAttributesInput } from "./render/relevant-attributes.js";
export { planText } from "./render/plan-text.js";
export type { PlanTextOptions } from "./render/plan-text.js";
export { colorize, COLOR_CODES } from "./render/colorstring.js";
// PLAN: configuration → Plan (evaluation scope, expansion, the plan walk, the engine facade).
export { createEngine, configDigest } from "./engine.js";
export { TARGETING_WARNING, TARGETED_APPLY_WARNING } from "./planner/plan-targets.js";
export type { Engine, EngineOptions, EnginePlanOptions, EnginePlanResult } from "./engine.js";
export { planConfiguration, resolveProviderConfig } from "./planner/plan-configuration.js";
export type { PlanConfigurationOptions, ConfigurationPlan, PlanScopeContext, PlannedProviderConfig } from "./planner/plan-configuration.js";
export { createConfigApplyScope } from "./planner/config-apply-scope.js";
export type { ConfigApplyScopeInput } from "./planner/config-apply-scope.js";
export { PlanDiagnosticsError, isPlanDiagnosticsError } from "./planner/plan-diagnostic.js";
export { inConfigBody } from "./planner/in-config-body.js";
export type { PlanDiagnostic } from "./planner/plan-diagnostic.js";
export { applyIgnoreChanges, traversalPath } from "./planner/ignore-changes.js";
export { resourceValue } from "./eval/eval-values.js";
export type { ResourceValues, InstanceRepetition } from "./eval/eval-values.js";
export { ModuleEvaluator, configPrefix, instancePrefix, childInstance } from "./eval/module-evaluator.js";
export type { InstanceValueSource, EvaluatorContext } from "./eval/module-evaluator.js";

// Provider-defined functions (provider::<local name>::<fn>) for the synchronous evaluator.
export { ProviderFunctionCalls, settleProviderCalls, MAX_SETTLE_ROUNDS, INCONSISTENT_FUNCTION_RESULT } from "./eval/provider-functions.js";
export type { FunctionResultHash } from "./eval/provider-functions.js";
export type { OpenUnconfigured } from "./eval/provider-functions.js";
export { validateExpressions } from "./eval/validate-expressions.js";
export type { ValidateExpressionsOptions, ResourceValidator, ProviderConfigValidation } from "./eval/validate-expressions.js";
export { providerResourceValidator, providerConfigValidator } from "./planner/provider-resource-validator.js";
export type { ValidatingProvider } from "./planner/provider-resource-validator.js";
export { evaluateExpansion, expansionInstances } from "./eval/expansion.js";
export type { Expansion, ExpandedInstance } from "./eval/expansion.js";
export { schemaSensitivePaths, markSensitive, splitSensitive, unionPaths } from "./eval/schema-sensitive.js";
export { operationGraph, OPERATION_GRAPH_TYPES } from "./planner/operation-graph.js";
export type { OperationGraph, OperationGraphNode, OperationGraphNodeKind, OperationGraphOptions, OperationGraphResource, OperationGraphType } from "./planner/operation-graph.js";
export { createConsoleScope } from "./console/console-scope.js";
export type { ConsoleScope, ConsoleScopeInput, ConsoleResult } from "./console/console-scope.js";

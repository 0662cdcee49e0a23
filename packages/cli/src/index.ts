/**
 * The `magma` command line as a library: {@link runCli} runs it with given streams, and
 * the pieces it is made of (plan rendering, schema views, the single-resource operations,
 * value JSON with `after_unknown` masks) are exported for programs that want the same
 * behaviour.
 *
 * ```ts
 * import { runCli } from "@magma/cli";
 * const code = await runCli(["plan", "random", "random_string", "--config", '{"length": 8}', "--json"]);
 * ```
 *
 * @packageDocumentation
 */

export { runCli } from "./run-cli.js";
export type { RunCliOptions } from "./run-cli.js";
export { earlyLaunchTargets, lockedProviders, startEarlyLaunch } from "./workdir/early-launch.js";
export type { EarlyLaunch, EarlyLaunchTargets } from "./workdir/early-launch.js";
export { processIo } from "./cli-io.js";
export type { CliIo, CliStream } from "./cli-io.js";
export { ExitCode } from "./exit-code.js";
export { CliError, CliErrorCode, isCliError } from "./cli-error.js";
export { runDemo } from "./demo.js";
export type { DemoOptions } from "./demo.js";
// The single-resource operations (`magma plan|apply|destroy|read|data|import|upgrade`).
export {
  ResourcePlanAction,
  planResource,
  applyResourcePlan,
  destroyResource,
  readResource,
  readData,
  importResourceById,
  upgradeResource,
  planAction,
  buildConfig,
  resourceEntry,
  dataSourceEntry,
} from "./operations.js";
export type { OperationTarget, PlanOutcome, StateOutcome, ImportedObject } from "./operations.js";
export { renderPlanDiff, renderState, formatInlineValue } from "./plan-diff.js";
export type { RenderPlanOptions } from "./plan-diff.js";
export { renderSchemaSummary, renderSchemaEntry } from "./schema-view.js";
export type { ProviderOrigin } from "./schema-view.js";
export { openProviderSession, nativeProviders, nativeRef, pluginDirsFrom, LogLevels } from "./provider-session.js";
export type { ProviderSession, ProviderSessionOptions, LogLevel } from "./provider-session.js";
export { reportError } from "./report-error.js";

// The working directory (for the working-directory commands, and plan/apply later).
export { openWorkingDir } from "./workdir/working-dir.js";
export type { WorkingDir, OpenWorkingDirOptions } from "./workdir/working-dir.js";
export { backendSettingsFromConfig } from "./workdir/backend-settings.js";
export type { BackendSettings, LocalBackendSettings, PgBackendSettings } from "./workdir/backend-settings.js";
export { acquireLock, changeState, parseDuration } from "./workdir/state-lock.js";
export type { LockSettings, ChangeStateOptions } from "./workdir/state-lock.js";
export { stateInstances, parseSelector, selectorMatches, compareInstanceAddrs } from "./workdir/state-objects.js";
export type { StateInstance, StateSelector } from "./workdir/state-objects.js";
export { providerRequirements, providerForDisplay } from "./workdir/provider-requirements.js";
export type { ProviderRequirement } from "./workdir/provider-requirements.js";
export { parseLockFile, formatLockFile, LOCK_FILE_NAME } from "./workdir/provider-lock-file.js";
export type { LockedProvider } from "./workdir/provider-lock-file.js";
// one implementation of the `h1:` hash: installation's (the CLI's own copy had drifted from it)
export { packageHashV1 } from "@magma/install";
export { versionConstraintsString } from "./workdir/version-constraints-string.js";
export { formatValue } from "./workdir/format-value.js";
export { formatDiagnostics } from "./workdir/format-diagnostic.js";
export type { ErrorReport } from "./report-error.js";

// Output plumbing the commands are built on (listed apart from the user API above, as
// connect-es lists its transport helpers): the progress spinner, cty values as Terraform's
// JSON, JSON text with Go's number and escaping rules. Most users need none of these.
export { Spinner } from "./spinner.js";
export type { SpinnerStream } from "./spinner.js";
export { valueToJson, valueFromJson, unknownMask, nullifyUnknowns, diagToJson } from "./value-json.js";
export { parseJsonText, jsonNodeToPlain, stringifyJson, compactJson, indentJson, RawJson } from "./json-text.js";
export type { JsonNode } from "./json-text.js";

// Deprecated names, kept for one release.
export { PlanAction, applyPlan, importResource } from "./operations.js";
export { inline } from "./plan-diff.js";
export { selects } from "./workdir/state-objects.js";

import type { Provider as InstanceProvider } from "@magma/provider-api";
import type { EphemeralOpEvent } from "./ephemeral/ephemeral-resources.js";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { convert, isPathError, nullVal, toJson, type Value } from "@magma/cty";
import { applyTypeDefaults, collectVariableValues, configFromSnapshot, VariableSource, loadConfig, loadConfigWithSnapshot, moduleFiles, walkConfig, type Config, type ConfigSnapshot, type VariableArg } from "@magma/config";
import { formatRange, terraformFunctions, type SourceRange } from "@magma/hcl";
import type { ProviderSchema, SchemaEntry } from "@magma/provider-api";
import { encodeSensitivePaths, formatProviderSource, loadState, newStateFile, parseProviderConfig, saveState, type StateFile, type StateStore } from "@magma/state";
import { applyPlan } from "./apply/apply-plan.js";
import type { ApplyResult } from "./apply/apply-result.js";
import type { ApplyScope } from "./apply/apply-scope.js";
import type { CreateConflictHandler } from "./apply/create-conflict.js";
import type { EngineEvent } from "./events/engine-event.js";
import { assertRefreshSafe } from "./refresh/refresh-guard.js";
import { ApplyState } from "./apply/apply-state.js";
import { importResource, type ImportResourceResult } from "./import/import-resource.js";
import { ProviderFunctionCalls } from "./eval/provider-functions.js";
import { DEFAULT_PARALLELISM } from "./dag/walk.js";
import { EngineError, EngineErrorCode } from "./engine-error.js";
import { createPlan, withPlanIdentity, type Plan, type PlanMode } from "./plan/plan.js";
import { configPrefix } from "./eval/module-evaluator.js";
import { createConfigApplyScope, plannedFromPlan } from "./planner/config-apply-scope.js";
import { planConfiguration, resolveResourceProviderConfig, type PlannedProviderConfig, type PlanScopeContext } from "./planner/plan-configuration.js";
import { planError, PlanDiagnosticsError, type PlanDiagnostic } from "./planner/plan-diagnostic.js";
import { validateBeforePlan } from "./planner/validate-before-plan.js";
import type { ProviderSource } from "./provider-source.js";
import { ProviderPool } from "./providers/provider-pool.js";
import type { RefreshOutcome } from "./refresh/refresh-outcome.js";
import { PlanAction } from "./plan/plan-action.js";
import { countPlanChanges } from "./render/plan-summary.js";
import { parsePlanTargets, TARGETED_APPLY_WARNING, TARGETING_WARNING } from "./planner/plan-targets.js";
import type { PlannedChangeEvent } from "./events/engine-event.js";
import { changeReason } from "./events/change-reason.js";
import { configResourceOf, destroyEphemerals, providerOfChange } from "./apply/apply-graph.js";
import { toleratedLogMessage } from "./instance/tolerated-problems.js";
import type { PlannedInstanceChange } from "./plan/planned-instance-change.js";
import { isEngineError } from "./engine-error.js";
import { sharedSignal } from "./shared-signal.js";

/** Options of {@link createEngine}. */
export interface EngineOptions {
  /** Where providers come from (by source address); `@magma/plugin`'s `ProviderFactory` fits. */
  readonly providers: ProviderSource;
  /** How many graph nodes are visited at once (default 10, as Terraform's `-parallelism`). */
  readonly parallelism?: number;
  /** `terraform.workspace` (default `"default"`). */
  readonly workspace?: string;
  /** The working directory: `path.cwd`, where relative file paths and `*.tfvars` are looked up (default `process.cwd()`). */
  readonly cwd?: string;
  /** The Terraform version reported to providers (default `"1.11.4"`). */
  readonly terraformVersion?: string;
  /**
   * How long, in milliseconds, the providers a plan opened stay open after it for an
   * {@link Engine.apply} of that plan's result in this engine (default 60 000; 0: closed when
   * the plan ends). The apply reuses an instance configured with the same, wholly known
   * configuration instead of launching and configuring the provider again; it configures a
   * fresh one otherwise. Kept providers are closed by `close()`, by the next plan, or when
   * the time runs out (the timer does not keep the process alive by itself); a plan with
   * errors or canceled keeps nothing.
   */
  readonly keepProvidersMs?: number;
}

/** Options of {@link Engine.plan}. */
export interface EnginePlanOptions {
  /**
   * Answers the provider calls of the instances it returns a provider for (`magma test`'s
   * override_resource/override_data blocks), given the instance address and the configured provider.
   */
  readonly instanceProvider?: (address: string, provider: InstanceProvider) => InstanceProvider | undefined;
  /**
   * `magma test`'s `override_module` blocks: the outputs (an object) given for a module
   * instance (`module.m`, `module.m[0]`) that is overridden, else undefined. Nothing in an
   * overridden instance is planned, applied or evaluated but its outputs, which take the
   * values given (null for an output the object lacks). The plan result's apply uses the same.
   */
  readonly moduleOverride?: (moduleInstance: string) => Value | undefined;
  /** The plan mode (default `normal`; see also {@link Engine.destroy}). */
  readonly mode?: PlanMode;
  /**
   * Run Terraform's validate walk first (default true, as its local backend does before every
   * plan, apply, destroy and refresh); its errors end the plan. `import` plans without it, as
   * terraform's import runs none.
   */
  readonly validate?: boolean;
  /** Refresh every object in state before planning (default true, as `-refresh=true`). */
  readonly refresh?: boolean;
  /** Instance addresses to replace (`-replace=ADDR`). */
  readonly replace?: readonly string[];
  /**
   * `-target` addresses (resources, resource instances, module instances), with Terraform
   * 1.11's semantics: a normal plan includes the targets and everything they depend on, a
   * destroy plan the targets and everything that depends on them; the plan warns "Resource
   * targeting is in effect" and records the targets.
   */
  readonly targets?: readonly string[];
  /** `-var` / `-var-file` arguments, in command-line order. */
  readonly variableArgs?: readonly VariableArg[];
  /** Root variable values given directly (they override every other source; converted to the declared type). */
  readonly variables?: Readonly<Record<string, Value>>;
  /** The environment `TF_VAR_*` values are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether `terraform.tfvars` and `*.auto.tfvars` of the working directory are read (default true; `terraform test` gives every value itself). */
  readonly variableFiles?: boolean;
  /**
   * Where each of {@link variables} was written (a test file's expression): the place of
   * its "Invalid value for input variable" and of its failed validations.
   */
  readonly variableRanges?: ReadonlyMap<string, SourceRange>;
  /** Cancels the plan. */
  readonly signal?: AbortSignal;
  /**
   * Writes the refresh even when the refresh guard finds it suspect (most reads failed, an
   * unusual share of objects gone): `assertRefreshSafe`'s `allowMassLoss`. Default false.
   */
  readonly allowMassLoss?: boolean;
  /** Receives the plan's events: `refresh_start`/`refresh_complete` per object, `planned_change` per change, `change_summary`. */
  readonly onEvent?: (e: EngineEvent) => void;
}

/** Options of {@link Engine.apply}. */
export interface EngineApplyOptions {
  /**
   * Answers the provider calls of the instances it returns a provider for (`magma test`'s
   * override_resource/override_data blocks), given the instance address and the configured provider.
   */
  readonly instanceProvider?: (address: string, provider: InstanceProvider) => InstanceProvider | undefined;
  /**
   * `magma test`'s `override_module` blocks: the outputs (an object) given for a module
   * instance (`module.m`, `module.m[0]`) that is overridden, else undefined. Nothing in an
   * overridden instance is planned, applied or evaluated but its outputs, which take the
   * values given (null for an output the object lacks). For a saved plan only: a plan result is applied with its plan's.
   */
  readonly moduleOverride?: (moduleInstance: string) => Value | undefined;
  /**
   * The prior state the plan was made against (null or absent for a plan made against no
   * state). With a {@link store} and no state, the store's state is read.
   */
  readonly state?: StateFile | null;
  /** Where every snapshot is saved (under `saveState`'s rules); the caller holds its lock. */
  readonly store?: StateStore;
  /** Persists every snapshot instead of a store (awaited before the object counts as done). */
  readonly persist?: (state: StateFile) => Promise<void>;
  /**
   * A saved plan's apply-time variables: the values of the ephemeral variables that were set
   * when planning ({@link Plan.applyTimeVariables}; see `savedPlanVariables`), each required.
   * Not used with a plan result, which keeps its own.
   */
  readonly variables?: Readonly<Record<string, Value>>;
  /**
   * The configuration a saved plan was made from, for its {@link ApplyScope}: needed only
   * for a plan without its configuration snapshot (a plan made from a `Config` object); a
   * plan carrying one ({@link Plan.configSnapshot}) is applied from it and this is ignored.
   */
  readonly config?: Config | string;
  /** How many objects are applied at once (default: the engine's parallelism). */
  readonly parallelism?: number;
  /** Per provider source address, how many of its objects are applied at once. */
  readonly providerParallelism?: Readonly<Record<string, number>>;
  /** Cancels the apply (StopProvider, calls in flight awaited and persisted). */
  readonly signal?: AbortSignal;
  /** Receives the apply's events. */
  readonly onEvent?: (e: EngineEvent) => void;
  /** Adopts an existing object when a create fails (see `createImportOnConflict`). */
  readonly onCreateConflict?: CreateConflictHandler;
}

/** The result of {@link Engine.plan}. */
export interface EnginePlanResult {
  /** The plan (usable only when {@link diagnostics} hold no error). */
  readonly plan: Plan;
  /** How the refresh of every object in state ended, for the refresh guard. */
  readonly refreshOutcomes: readonly RefreshOutcome[];
  /** Errors and warnings of loading, evaluating and planning. */
  readonly diagnostics: readonly PlanDiagnostic[];
  /** Whether any diagnostic is an error. */
  readonly hasErrors: boolean;
  /**
   * Set when the errors are ones Terraform meets while planning objects — a provider's error
   * about an object (PlanResourceChange, ReadResource, ReadDataSource: `inConfigBody`) or a
   * failed precondition or postcondition — and no others: {@link plan} holds what was
   * planned despite them, which Terraform still shows ("Terraform planned the following
   * actions, but then encountered a problem:", its errored plan). It cannot be applied.
   * Unset for errors Terraform finds before planning (loading, variables, its validation
   * walk); an expression's error found while planning is counted among those, as Terraform's
   * validation finds those whose values do not depend on variables or other objects.
   */
  readonly partial?: true;
  /**
   * The data sources read while planning, as Terraform's UI hook reports them during a plan
   * (`data.x.y: Reading...`, `Read complete after 0s [id=…]`; -json `apply_start` and
   * `apply_complete` with action `read`), in the order read.
   */
  readonly dataReadEvents?: readonly EngineEvent[];
  /**
   * The ephemeral resource instances opened and closed while planning, as Terraform's UI
   * hook reports them (`ephemeral.x.y: Opening...`, `Opening complete after 0s`,
   * `Closing...`, `Closing complete after 0s`; -json `ephemeral_op_start` and
   * `ephemeral_op_complete`), in order. Every instance opened was closed before the result.
   */
  readonly ephemeralEvents?: readonly EphemeralOpEvent[];
  /** How the apply re-evaluates this plan's configuration with now-known values. */
  readonly applyScope: ApplyScope;
  /** The schemas of the plan's providers by source address, for the renderers (`planText`, `planJson`). */
  readonly schemas: ReadonlyMap<string, ProviderSchema>;
}

/** The failures of conditions, which Terraform checks while planning (its validation does not). */
const CONDITION_FAILURES: ReadonlySet<string> = new Set(["Resource precondition failed", "Resource postcondition failed", "Module output value precondition failed", "Invalid value for variable"]);
/**
 * An expansion error the plan walk meets because a count or for_each is known only after
 * apply: terraform's validate walk passed it (unknown there), so its plan holds what the walk
 * planned beside it and is shown. (Other count and for_each errors are its validate walk's.)
 */
function isUnknownExpansionError(d: PlanDiagnostic): boolean {
  return (d.summary === "Invalid count argument" || d.summary === "Invalid for_each argument") && d.detail.includes("cannot be determined until apply");
}

/**
 * A root variable's value that does not suit its declaration: Terraform finds these in its
 * plan walk (its root variable nodes), so it prints its errored plan ("Planning failed.").
 */
const VARIABLE_VALUE_ERRORS: ReadonlySet<string> = new Set(["Invalid value for input variable", "Required variable not set"]);

/**
 * Terraform's own errors about a provider's answer for an object (an invalid plan, a result
 * holding a write-only value), which it meets while planning that object.
 */
const PROVIDER_ANSWER_FAILURES: ReadonlySet<string> = new Set(["Provider produced invalid plan", "Provider produced invalid object", "Import returned a non-null value for a write-only attribute", "Invalid resource state upgrade"]);

/** Whether a diagnostic is a warning or an error Terraform meets only while planning objects (see {@link EnginePlanResult.partial}). */
/** What makes two diagnostics the same one (severity, summary, detail and where). */
function diagnosticKey(d: PlanDiagnostic): string {
  const r = d.subject;
  return JSON.stringify([d.severity, d.summary, d.detail, r?.filename, r?.start.byte, r?.end.byte]);
}

function isPlanWalkError(d: PlanDiagnostic): boolean {
  return (
    d.severity !== "error" ||
    d.inConfigBody === true ||
    CONDITION_FAILURES.has(d.summary) ||
    isUnknownExpansionError(d) ||
    d.summary === "Self-referential block" ||
    (d.address !== undefined && PROVIDER_ANSWER_FAILURES.has(d.summary)) ||
    // a root output whose value turns out sensitive only once planned (its validation saw no mark)
    (d.summary === "Output refers to sensitive values" && d.address?.startsWith("output.") === true)
  );
}

/** Options of {@link Engine.import}: how the new state is persisted, and the plan options the provider configuration is evaluated with. */
export interface EngineImportOptions extends Pick<EnginePlanOptions, "variableArgs" | "variables" | "env" | "signal"> {
  /** Where the new state is saved (under `saveState`'s rules); the caller holds its lock. */
  readonly store?: StateStore;
  /** Persists the new state instead of a store. */
  readonly persist?: (state: StateFile) => Promise<void>;
}

/** The result of {@link Engine.import}. */
export interface EngineImportResult {
  /** The state with the imported object (as persisted). */
  readonly state: StateFile;
  /** The imported object, as `importResource` returned it. */
  readonly imported: ImportResourceResult;
  /** Warnings of planning the configuration (for the provider configuration) and of the import. */
  readonly diagnostics: readonly PlanDiagnostic[];
}

/** Terraform's core over magma's providers: plan a configuration against a state. */
export interface Engine {
  /**
   * Plans a configuration (a loaded {@link Config}, or a directory to load) against a prior
   * state (null for none). Never throws for configuration or provider problems: they are
   * in the result's diagnostics.
   */
  plan(config: Config | string, state: StateFile | null, options?: EnginePlanOptions): Promise<EnginePlanResult>;
  /**
   * The {@link ApplyScope} of a saved plan (read back from a plan file): re-evaluates the
   * configuration it was made from with the plan's variables, the instances it keeps and
   * the data sources it read, and the values of its apply-time (ephemeral) variables. Opens
   * the providers once for their schemas.
   */
  applyScope(config: Config | string, plan: Plan, applyTimeVariables?: Readonly<Record<string, Value>>): Promise<ApplyScope>;
  /**
   * Applies a plan: the result of {@link plan} (its apply scope is used), or a saved plan
   * with `options.config` (its scope is {@link applyScope}). The state is persisted after every
   * object through `options.store` or `options.persist` (one of them is required). Takes over
   * the providers the plan kept open (see {@link EngineOptions.keepProvidersMs}; an instance is
   * reused only when configured with the same, wholly known configuration) or opens its own,
   * and closes them at the end. Failures of objects do not reject: they are in the result.
   *
   * @throws {@link EngineError} `invalid_argument` for a plan with errors, no way to persist,
   * a saved plan without its configuration; `stale_plan` when the state is not the plan's.
   */
  apply(plan: EnginePlanResult | Plan, options: EngineApplyOptions): Promise<ApplyResult>;
  /**
   * `terraform import ADDRESS ID`: the configuration must declare the address (a resource
   * instance of the root or a child module); its provider configuration is evaluated as a
   * plan does (without refreshing), the object is imported and read (`importResource`), and
   * the state with it is persisted through `options.store` or `options.persist`.
   *
   * @throws {@link PlanDiagnosticsError} when the configuration does not plan, or does not
   * declare the address ("Configuration for import target does not exist"); `importResource`'s
   * errors (`already_managed`, `import_not_found`, …); `invalid_argument` without a way to persist.
   */
  import(config: Config | string, state: StateFile | null, address: string, id: string, options: EngineImportOptions): Promise<EngineImportResult>;
  /** A destroy plan: every object in state deleted (`terraform plan -destroy`). */
  destroy(config: Config | string, state: StateFile | null, options?: Omit<EnginePlanOptions, "mode">): Promise<EnginePlanResult>;
  /** Closes every provider the engine still holds open. */
  close(): Promise<void>;
}

/** A digest (hex SHA-256) over every configuration file of every module, by path and content. */
export function configDigest(config: Config): string {
  const h = createHash("sha256");
  for (const c of walkConfig(config)) {
    const dir = c.module.sourceDir;
    let files: string[];
    try {
      const f = moduleFiles(dir);
      files = [...f.primary, ...f.override];
    } catch {
      continue;
    }
    for (const f of files) {
      const p = f.startsWith("/") ? f : join(dir, f);
      h.update(`${c.path.join(".")}\0${f}\0`);
      try {
        h.update(readFileSync(p));
      } catch {
        h.update("\0missing\0");
      }
    }
  }
  return h.digest("hex");
}

/** `o` with its signal replaced by the operation's own {@link sharedSignal}. */
function withSharedSignal<T extends { readonly signal?: AbortSignal }>(o: T): T {
  const signal = sharedSignal(o.signal);
  return signal === undefined ? o : { ...o, signal };
}

/**
 * Makes an engine: `plan`, `destroy` (plans), `apply`, `import` and `close`. Each plan opens
 * its providers from the {@link ProviderSource} (one instance per provider configuration,
 * configured once); a successful plan keeps them open for a while for the apply of its result
 * (see {@link EngineOptions.keepProvidersMs}), any other closes them when it ends.
 */
export function createEngine(options: EngineOptions): Engine {
  const parallelism = options.parallelism ?? DEFAULT_PARALLELISM;
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new EngineError(EngineErrorCode.InvalidArgument, `parallelism must be an integer of at least 1, got ${parallelism}`);
  const cwd = resolve(options.cwd ?? process.cwd());
  const workspace = options.workspace ?? "default";
  const scope: PlanScopeContext = { cwd, workspace, functions: terraformFunctions({ baseDir: cwd, plan: true }) };
  /**
   * The functions of one plan and of its apply: `plantimestamp()` fixed to the plan's time in
   * both, the impure functions (`timestamp`, `uuid`, `bcrypt`) unknown while planning and
   * evaluated at apply, as Terraform's.
   */
  const functionsOf = (stamp: string): { plan: PlanScopeContext["functions"]; apply: PlanScopeContext["functions"] } => ({
    plan: terraformFunctions({ baseDir: cwd, plan: true, planTimestamp: stamp }),
    apply: terraformFunctions({ baseDir: cwd, plan: false, planTimestamp: stamp }),
  });
  const pools = new Set<ProviderPool>();
  let closed = false;
  // Provider-defined functions: one set of unconfigured provider instances per plan (kept by
  // its apply scope, reopened on demand by the apply and closed after it).
  const functionCalls = new WeakMap<ApplyScope, ProviderFunctionCalls>();
  const withFunctions = (stamp = planTimestamp(), moduleOverride?: (moduleInstance: string) => Value | undefined): { scope: PlanScopeContext; applyScope: PlanScopeContext; calls: ProviderFunctionCalls } => {
    const calls = new ProviderFunctionCalls((source) => options.providers.open(source));
    const fns = functionsOf(stamp);
    const base = moduleOverride !== undefined ? { ...scope, moduleOverride } : scope;
    return { scope: { ...base, functions: fns.plan, providerFunctions: calls }, applyScope: { ...base, functions: fns.apply, providerFunctions: calls }, calls };
  };
  const keepMs = options.keepProvidersMs ?? DEFAULT_KEEP_PROVIDERS_MS;
  if (!Number.isFinite(keepMs) || keepMs < 0) throw new EngineError(EngineErrorCode.InvalidArgument, `keepProvidersMs must be a number of at least 0, got ${keepMs}`);
  /** The providers of the last successful plan, kept for its apply. */
  let kept: { readonly result: EnginePlanResult; readonly pool: ProviderPool; readonly timer: NodeJS.Timeout } | undefined;
  const releaseKept = async (): Promise<void> => {
    const k = kept;
    if (k === undefined) return;
    kept = undefined;
    clearTimeout(k.timer);
    pools.delete(k.pool);
    await k.pool.close();
  };
  /** The kept providers of a plan result, taken out of the keep (undefined when not kept). */
  const takeKept = (result: EnginePlanResult | undefined): ProviderPool | undefined => {
    const k = kept;
    if (k === undefined || result === undefined || k.result !== result) return undefined;
    kept = undefined;
    clearTimeout(k.timer);
    pools.delete(k.pool);
    return k.pool;
  };

  const plan = async (configOrDir: Config | string, state: StateFile | null, planOptions: EnginePlanOptions = {}): Promise<EnginePlanResult> => {
    const o = withSharedSignal(planOptions);
    if (closed) throw new EngineError(EngineErrorCode.InvalidArgument, "the engine is closed");
    const diagnostics: PlanDiagnostic[] = [];
    let config: Config;
    // The files a configuration read from a directory was loaded from: a saved plan carries them and is applied from them, as terraform's.
    let snapshot: ConfigSnapshot | undefined;
    if (typeof configOrDir === "string") {
      const loaded = loadConfigWithSnapshot(resolve(cwd, configOrDir));
      diagnostics.push(...loaded.diags);
      config = loaded.config;
      snapshot = loaded.snapshot;
    } else config = configOrDir;
    const loadFailed = diagnostics.some((d) => d.severity === "error");
    const prior = { lineage: state?.lineage ?? "", serial: state?.serial ?? 0 };
    const digest = configDigest(config);
    const variables = new Map<string, Value>();
    const collected = collectVariableValues(config.module, { dir: cwd, ...(o.variableArgs !== undefined ? { args: o.variableArgs } : {}), ...(o.env !== undefined ? { env: o.env } : {}), ...(o.variableFiles === false ? { autoFiles: false } : {}) });
    // A value given directly satisfies a required variable.
    const given = new Set(Object.keys(o.variables ?? {}));
    diagnostics.push(...collected.diags.filter((d) => !(d.summary === "No value for required variable" && [...given].some((n) => d.detail.includes(`variable ${JSON.stringify(n)} is not set`)))));
    for (const [name, v] of collected.values) variables.set(name, v.value);
    for (const [name, raw] of Object.entries(o.variables ?? {})) {
      const decl = config.module.variables.get(name);
      if (decl === undefined) {
        diagnostics.push(planError("Value for undeclared variable", `A variable named "${name}" was assigned, but the root module does not declare a variable of that name.`, { address: `var.${name}` }));
        continue;
      }
      try {
        variables.set(name, convert(raw, decl.type));
      } catch (e) {
        if (!isPathError(e)) throw e;
        const subject = o.variableRanges?.get(name);
        diagnostics.push(planError("Invalid value for input variable", `The given value is not suitable for var.${name}${subject !== undefined ? ` declared at ${formatRange(decl.declRange)}` : ""}: ${e.message}.`, { address: `var.${name}`, ...(subject !== undefined ? { subject } : {}) }));
      }
    }
    const targeting = o.targets !== undefined && o.targets.length > 0 ? parsePlanTargets(o.targets) : undefined;
    if (targeting !== undefined) diagnostics.push(...targeting.diagnostics);
    const fns = withFunctions(undefined, o.moduleOverride);
    const applyScopeFor = (planned: Parameters<typeof createConfigApplyScope>[0]["planned"], outputs?: ReadonlySet<string>): ApplyScope => {
      const s = createConfigApplyScope({ config, variables, scope: fns.applyScope, planned, ...(outputs !== undefined ? { outputs } : {}) });
      functionCalls.set(s, fns.calls);
      return s;
    };
    const emptyPlanned = { expansions: new Map(), schemas: new Map(), providerConfigs: new Map(), dataValues: new Map() };
    const pool = new ProviderPool(options.providers, { ...(options.terraformVersion !== undefined ? { terraformVersion: options.terraformVersion } : {}), ...(o.signal !== undefined ? { signal: o.signal } : {}) });
    pools.add(pool);
    // Terraform's validate walk before planning (its local backend's Context.Validate): its errors end the operation.
    let invalid = false;
    let deprecatedReferences: readonly PlanDiagnostic[] = [];
    if (!loadFailed && o.validate !== false) {
      // Its warnings too (a provider passed to a module that never declares it, an empty provider block in a module), once each.
      const found = await validateBeforePlan(config, pool, fns.calls, { cwd, workspace });
      invalid = found.some((d) => d.severity === "error");
      const seen = new Set(diagnostics.map(diagnosticKey));
      diagnostics.push(...found.filter((d) => d.severity === "error" || !seen.has(diagnosticKey(d))));
      deprecatedReferences = found.filter((d) => d.summary === "Deprecated attribute");
    }
    if (diagnostics.some((d) => d.severity === "error")) {
      pools.delete(pool);
      await pool.close();
      // Only values unsuitable for their variables: Terraform's plan walk met them (magma plans nothing further).
      const walk = !invalid && diagnostics.every((d) => d.severity !== "error" || VARIABLE_VALUE_ERRORS.has(d.summary));
      return { plan: { ...createPlan({ changes: [], prior, configDigest: digest }), mode: o.mode ?? "normal" }, refreshOutcomes: [], diagnostics, hasErrors: true, ...(walk ? { partial: true as const } : {}), applyScope: applyScopeFor(emptyPlanned), schemas: new Map() };
    }
    let keep = false;
    try {
      const planned = await planConfiguration({
        config,
        state,
        providers: pool,
        variables,
        variableRanges: new Map([...[...collected.values].flatMap(([name, v]) => (v.range !== undefined ? [[name, v.range] as const] : [])), ...(o.variableRanges ?? [])]),
        mode: o.mode ?? "normal",
        refresh: o.refresh ?? true,
        ...(o.replace !== undefined ? { replace: o.replace } : {}),
        ...(targeting !== undefined ? { targets: targeting.targets } : {}),
        parallelism,
        scope: fns.scope,
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
        ...(o.instanceProvider !== undefined ? { instanceProvider: o.instanceProvider } : {}),
        ...(o.onEvent !== undefined ? { onRefresh: refreshEvents(o.onEvent) } : {}),
      });
      diagnostics.push(...planned.diagnostics);
      // Terraform's plan walk validates each reference again as it evaluates it: a reference to a deprecated attribute warns once more.
      diagnostics.push(...deprecatedReferences);
      // The refresh guard: a refresh that lost most reads or an unusual share of objects is refused (nothing is planned from it).
      if (o.refresh ?? true) {
        try {
          assertRefreshSafe(planned.refreshOutcomes, { allowMassLoss: o.allowMassLoss ?? false });
        } catch (e) {
          if (!isEngineError(e)) throw e;
          diagnostics.push(planError("Refusing to use the refresh", e.message));
        }
      }
      // An ephemeral variable's value is never kept in the plan: the names of those set are, and applying the saved plan needs them again (as terraform).
      const variableValues: Record<string, Value> = Object.create(null) as Record<string, Value>;
      const applyTimeVariables: string[] = [];
      const defaultedVariables: string[] = [];
      for (const [k, v] of variables) {
        const set = given.has(k) || (collected.values.get(k)?.source ?? VariableSource.Default) !== VariableSource.Default;
        if (config.module.variables.get(k)?.ephemeral !== true) {
          // As terraform's plan: the value as given (a `-var n=5` for a number is the string "5"), converted again when applied.
          variableValues[k] = (o.variables?.[k] ?? collected.values.get(k)?.given ?? v).unmarkDeep().value;
          if (!set) defaultedVariables.push(k);
        } else if (!v.isNull() && set) applyTimeVariables.push(k);
      }
      const functionResults = fns.calls.functionResults();
      // The identity is computed only if read (a plan file, a caller): not for a plan only shown or applied here.
      const result: Plan = withPlanIdentity({
        changes: planned.changes,
        prior,
        configDigest: digest,
        mode: o.mode ?? "normal",
        outputs: planned.outputs,
        providers: planned.providers,
        variables: variableValues,
        ...(applyTimeVariables.length > 0 ? { applyTimeVariables: applyTimeVariables.sort() } : {}),
        ...(defaultedVariables.length > 0 ? { defaultedVariables: defaultedVariables.sort() } : {}),
        dataReads: Object.fromEntries(planned.dataValues),
        ...(planned.dataSources.size > 0 ? { dataReadSources: Object.fromEntries(planned.dataSources) } : {}),
        ...(planned.dataRemovals.length > 0 ? { dataRemovals: planned.dataRemovals } : {}),
        drift: planned.drift,
        ...(planned.refreshedDependencies.size > 0 ? { refreshedDependencies: Object.fromEntries(planned.refreshedDependencies) } : {}),
        checks: planned.checks,
        ...(targeting !== undefined ? { targets: targeting.targets.map((t) => t.text) } : {}),
        ...(functionResults.length > 0 ? { functionResults } : {}),
        ...(snapshot !== undefined ? { configSnapshot: snapshot } : {}),
      });
      if (targeting !== undefined) diagnostics.push({ severity: "warning", ...TARGETING_WARNING });
      const hasErrors = diagnostics.some((d) => d.severity === "error");
      if (o.onEvent !== undefined) emitToleratedLogs(result.changes, o.onEvent);
      if (o.onEvent !== undefined && !hasErrors) emitPlanEvents(result, o.onEvent);
      const schemas = new Map<string, ProviderSchema>();
      for (const p of planned.providers) {
        if (schemas.has(p.source)) continue;
        try {
          schemas.set(p.source, await pool.schema(p.address, p.source));
        } catch {
          // A provider that could not be opened is in the diagnostics already.
        }
      }
      // A destroy plan's walk leaves the ephemeral resources out; its apply opens those that provider configurations need (as terraform's).
      const withEphemeralSchemas = async (p: typeof planned): Promise<typeof planned> => {
        if ((o.mode ?? "normal") !== "destroy" || hasErrors) return p;
        try {
          const more = await configSchemas(config, pool, new Set(["ephemeral"]));
          return { ...p, schemas: new Map([...more.schemas, ...p.schemas]), providerConfigs: new Map([...more.providerConfigs, ...p.providerConfigs]) };
        } catch {
          return p;
        }
      };
      const scope = applyScopeFor(await withEphemeralSchemas(planned), targeting !== undefined ? new Set(planned.outputs.map((x) => x.name)) : undefined);
      // terraform's destroy plan of a state that is not empty is two walks when it refreshes (a normal plan that refreshes,
      // then the destroy plan), each opening ephemeral resources: magma's one walk was the first; the second opens again
      // those the deletes need (terraform prunes the others), as the apply will.
      let reopenFailed = false;
      const priorEmpty = state === null || (state.resources.length === 0 && state.outputs.size === 0);
      if ((o.mode ?? "normal") === "destroy" && (o.refresh ?? true) && !priorEmpty && !hasErrors && o.signal?.aborted !== true) {
        const needed = new Set(destroyEphemerals(result, scope.ephemeralResources ?? []).map((e) => e.id));
        const failures = await planned.reopenEphemerals((address) => needed.has(configResourceOf(address)));
        diagnostics.push(...failures.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "" })));
        reopenFailed = failures.some((d) => d.severity === "error");
      }
      const failed = hasErrors || reopenFailed;
      const out: EnginePlanResult = { plan: result, refreshOutcomes: planned.refreshOutcomes, dataReadEvents: planned.dataReadEvents, ephemeralEvents: planned.ephemeralEvents, diagnostics, hasErrors: failed, ...(failed && diagnostics.every(isPlanWalkError) ? { partial: true as const } : {}), applyScope: scope, schemas };
      if (!failed && keepMs > 0 && o.signal?.aborted !== true && !closed) {
        await releaseKept();
        const timer = setTimeout(() => void releaseKept(), keepMs);
        timer.unref();
        kept = { result: out, pool, timer };
        keep = true;
      }
      return out;
    } finally {
      if (!keep) {
        pools.delete(pool);
        await pool.close();
      }
      await fns.calls.close();
    }
  };

  const applyScope = async (configOrDir: Config | string, saved: Plan, applyTime: Readonly<Record<string, Value>> = {}, moduleOverride?: (moduleInstance: string) => Value | undefined): Promise<ApplyScope> => {
    let config: Config;
    if (typeof configOrDir === "string") {
      const loaded = loadConfig(resolve(cwd, configOrDir));
      const errs = loaded.diags.filter((d) => d.severity === "error");
      if (errs.length > 0) throw new PlanDiagnosticsError(errs);
      config = loaded.config;
    } else config = configOrDir;
    const pool = new ProviderPool(options.providers);
    pools.add(pool);
    try {
      const { schemas, providerConfigs } = await configSchemas(config, pool);
      const variables = new Map<string, Value>();
      for (const [name, given] of Object.entries(saved.variables ?? {})) {
        // A plan keeps a value as it was given: converted to the variable's type as when planning.
        const decl = config.module.variables.get(name);
        variables.set(name, decl === undefined ? given : convert(decl.typeDefaults !== undefined ? applyTypeDefaults(given, decl.typeDefaults) : given, decl.type));
      }
      for (const [name, v] of config.module.variables) {
        // An ephemeral variable has this apply's value, or its default when it was not set when planning.
        if (v.ephemeral) variables.set(name, applyTime[name] ?? v.default ?? nullVal(v.type));
        const val = variables.get(name);
        if (val !== undefined && v.sensitive) variables.set(name, val.mark("sensitive"));
      }
      const fns = withFunctions(undefined, moduleOverride);
      const outputs = saved.targets !== undefined ? { outputs: new Set((saved.outputs ?? []).map((x) => x.name)) } : {};
      const s = createConfigApplyScope({ config, variables, scope: fns.applyScope, planned: { ...plannedFromPlan(saved, config), schemas, providerConfigs }, ...outputs });
      functionCalls.set(s, fns.calls);
      return s;
    } finally {
      pools.delete(pool);
      await pool.close();
    }
  };

  const apply = async (planOrResult: EnginePlanResult | Plan, applyOptions: EngineApplyOptions): Promise<ApplyResult> => {
    const o = withSharedSignal(applyOptions);
    if (closed) throw new EngineError(EngineErrorCode.InvalidArgument, "the engine is closed");
    const result = "applyScope" in planOrResult ? planOrResult : undefined;
    if (result?.hasErrors === true) throw new EngineError(EngineErrorCode.InvalidArgument, "the plan has errors (see its diagnostics); it cannot be applied");
    let plan = result?.plan ?? (planOrResult as Plan);
    const { store } = o;
    if (store === undefined && o.persist === undefined) throw new EngineError(EngineErrorCode.InvalidArgument, "apply needs a store or a persist callback: the state is saved after every object");
    let scope = result?.applyScope;
    if (scope === undefined) {
      // A saved plan carrying its configuration's files is applied from them (what was approved), whatever the files on disk hold now.
      const config = plan.configSnapshot !== undefined ? configFromSnapshot(plan.configSnapshot) : undefined;
      if (config !== undefined) {
        const errs = config.diags.filter((d) => d.severity === "error");
        if (errs.length > 0) throw new PlanDiagnosticsError(errs);
      } else if (o.config === undefined) throw new EngineError(EngineErrorCode.InvalidArgument, "a saved plan is applied with the configuration it was made from (options.config)");
      const missing = (plan.applyTimeVariables ?? []).filter((name) => o.variables?.[name] === undefined || o.variables[name]!.isNull());
      if (missing.length > 0) {
        throw new PlanDiagnosticsError(missing.map((name) => planError("No value for required variable", `The ephemeral input variable "${name}" was set during the plan phase, and so must also be set during the apply phase.`)));
      }
      scope = await applyScope(config?.config ?? o.config!, plan, o.variables, o.moduleOverride);
    }
    // The apply calls provider-defined functions again; a result that differs from the plan's is an error (as Terraform's).
    functionCalls.get(scope)?.checkAgainst(plan.functionResults ?? []);
    let state = o.state ?? null;
    if (o.state === undefined && store !== undefined) state = (await loadState(store)) ?? null;
    if (state === null) {
      // A plan made against no state: the first write starts a fresh lineage.
      if (plan.prior.lineage !== "" || plan.prior.serial !== 0) throw new EngineError(EngineErrorCode.StalePlan, `Saved plan is for a different state: the plan was made against lineage ${plan.prior.lineage}, there is no state`);
      state = newStateFile();
      plan = { ...plan, prior: { lineage: state.lineage, serial: state.serial } };
    }
    const persist = o.persist ?? (async (s: StateFile): Promise<void> => void (await saveState(store!, s)));
    const poolOptions = { ...(options.terraformVersion !== undefined ? { terraformVersion: options.terraformVersion } : {}), ...(o.signal !== undefined ? { signal: o.signal } : {}) };
    // The plan's providers when they were kept for this apply (each reused only when configured the same), else fresh ones.
    const pool = takeKept(result)?.handOver(poolOptions) ?? new ProviderPool(options.providers, poolOptions);
    pools.add(pool);
    try {
      const applied = await applyPlan(plan, {
        providers: pool,
        state,
        persist,
        scope,
        parallelism: o.parallelism ?? parallelism,
        ...(o.providerParallelism !== undefined ? { providerParallelism: o.providerParallelism } : {}),
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
        ...(o.onEvent !== undefined ? { onEvent: o.onEvent } : {}),
        ...(o.onCreateConflict !== undefined ? { onCreateConflict: o.onCreateConflict } : {}),
        ...(o.instanceProvider !== undefined ? { instanceProvider: o.instanceProvider } : {}),
      });
      // As terraform after applying a targeted plan.
      if (plan.targets !== undefined && plan.targets.length > 0) return { ...applied, diagnostics: [...applied.diagnostics, { severity: "warning", ...TARGETED_APPLY_WARNING }] };
      return applied;
    } finally {
      pools.delete(pool);
      await Promise.all([pool.close(), functionCalls.get(scope)?.close()]);
    }
  };

  const importOne = async (configOrDir: Config | string, state: StateFile | null, address: string, id: string, o: EngineImportOptions): Promise<EngineImportResult> => {
    const { store } = o;
    if (store === undefined && o.persist === undefined) throw new EngineError(EngineErrorCode.InvalidArgument, "import needs a store or a persist callback to save the state");
    const planOptions: EnginePlanOptions = {
      refresh: false,
      validate: false,
      ...(o.variableArgs !== undefined ? { variableArgs: o.variableArgs } : {}),
      ...(o.variables !== undefined ? { variables: o.variables } : {}),
      ...(o.env !== undefined ? { env: o.env } : {}),
      ...(o.signal !== undefined ? { signal: o.signal } : {}),
    };
    const planned = await plan(configOrDir, state, planOptions);
    const taken = takeKept(planned);
    try {
      return await importWith(planned, taken, state, address, id, o);
    } finally {
      await taken?.close(); // (closed already when handed over)
    }
  };

  const importWith = async (planned: EnginePlanResult, taken: ProviderPool | undefined, state: StateFile | null, address: string, id: string, o: EngineImportOptions): Promise<EngineImportResult> => {
    const { store } = o;
    if (planned.hasErrors) throw new PlanDiagnosticsError(planned.diagnostics.filter((d) => d.severity === "error"));
    const change = planned.plan.changes.find((c) => c.address === address && c.deposedKey === undefined && c.mode === "managed");
    if (change === undefined || change.providerConfig === undefined) {
      throw new PlanDiagnosticsError([planError("Configuration for import target does not exist", `The configuration for the given import target ${address} does not exist. All target instances must have an associated configuration to be imported.`, { address })]);
    }
    const providerConfig = change.providerConfig;
    const provider = planned.plan.providers?.find((p) => p.address === providerConfig);
    if (provider === undefined) throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: the plan has no provider ${providerConfig}`);
    const poolOptions = { ...(options.terraformVersion !== undefined ? { terraformVersion: options.terraformVersion } : {}), ...(o.signal !== undefined ? { signal: o.signal } : {}) };
    const pool = taken?.handOver(poolOptions) ?? new ProviderPool(options.providers, poolOptions);
    pools.add(pool);
    try {
      const providerValue = await planned.applyScope.providerConfig(providerConfig, { instance: () => undefined });
      if (!providerValue.isWhollyKnown()) throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: the configuration of ${providerConfig} depends on values not known before apply; import needs it known`);
      const opened = await pool.configure(providerConfig, provider.source, providerValue);
      const prior = state ?? newStateFile();
      const writer = new ApplyState(prior, o.persist ?? (async (s: StateFile): Promise<void> => void (await saveState(store!, s))));
      const target = { provider: opened.provider, schema: opened.schema, providerAddress: provider.source, providerConfig, ...(change.providerMeta !== undefined ? { providerMeta: change.providerMeta } : {}) };
      const imported = await importResource(target, { address, typeName: change.typeName, id, alreadyManaged: writer.get(address, undefined) !== undefined });
      const plain = imported.object.state.unmarkDeep();
      await writer.commit((w) =>
        w.set(address, providerConfig, undefined, {
          tainted: false,
          schemaVersion: imported.schemaVersion,
          attributesJson: toJson(plain.value, plain.value.type),
          attributesFlat: undefined,
          sensitiveAttributesJson: encodeSensitivePaths(plain.paths.filter((x) => x.marks.has("sensitive")).map((x) => x.path)),
          private: imported.object.private.length > 0 ? imported.object.private : undefined,
          dependencies: [...(change.dependencies ?? [])],
          createBeforeDestroy: change.createBeforeDestroy ?? false,
        }),
      );
      return { state: writer.snapshot(), imported, diagnostics: [...planned.diagnostics, ...imported.warnings.map((d) => ({ ...d, detail: d.detail ?? "", address }))] };
    } finally {
      pools.delete(pool);
      await pool.close();
    }
  };

  return {
    plan,
    apply,
    import: importOne,
    applyScope,
    destroy: (config, state, o = {}) => plan(config, state, { ...o, mode: "destroy" }),
    async close(): Promise<void> {
      closed = true;
      await releaseKept();
      await Promise.all([...pools].map((p) => p.close()));
      pools.clear();
    },
  };
}

/** How long a plan's providers are kept for its apply by default (ms). */
const DEFAULT_KEEP_PROVIDERS_MS = 60_000;

/** The refresh events, as each object's refresh starts and completes. */
function refreshEvents(onEvent: (e: EngineEvent) => void): (phase: "start" | "complete", address: string, id: string | undefined) => void {
  return (phase, address, id) => onEvent({ type: phase === "start" ? "refresh_start" : "refresh_complete", address, ...(id === undefined ? {} : { idKey: "id", idValue: id }) });
}

/**
 * The `log` events of the problems a legacy provider's plans were forgiven (Terraform logs
 * them naming the provider's source address).
 */
function emitToleratedLogs(changes: readonly PlannedInstanceChange[], onEvent: (e: EngineEvent) => void): void {
  for (const c of changes) {
    for (const t of c.tolerated ?? []) {
      try {
        onEvent({ type: "log", level: "warn", message: toleratedLogMessage(t, providerSourceOf(c)) });
      } catch {
        // A listener's failure must not break the plan.
      }
    }
  }
}

/** The provider source address of a change (`registry.terraform.io/hashicorp/aws`). */
function providerSourceOf(c: PlannedInstanceChange): string {
  try {
    return formatProviderSource(parseProviderConfig(providerOfChange(c)).provider);
  } catch {
    return providerOfChange(c);
  }
}

/** The plan-time events of a finished plan: each change, the summary. */
function emitPlanEvents(plan: Plan, onEvent: (e: EngineEvent) => void): void {
  const emit = (e: EngineEvent): void => {
    try {
      onEvent(e);
    } catch {
      // A listener's failure must not break the plan.
    }
  };
  for (const c of plan.changes) {
    const moved = c.previousAddress !== undefined && c.previousAddress !== c.address;
    let action: PlannedChangeEvent["action"];
    switch (c.action) {
      case PlanAction.NoOp:
        if (c.importId !== undefined) action = "import";
        else if (moved) action = "move";
        else continue;
        break;
      case PlanAction.DeleteThenCreate:
      case PlanAction.CreateThenDelete:
        action = "replace";
        break;
      case PlanAction.Delete:
        if (c.mode !== "managed") continue;
        action = "delete";
        break;
      default:
        action = c.action;
    }
    const reason = changeReason(c);
    emit({ type: "planned_change", address: c.address, action, ...(reason !== undefined ? { reason } : {}), ...(moved ? { previousAddress: c.previousAddress } : {}) });
  }
  const n = countPlanChanges(plan);
  emit({ type: "change_summary", operation: plan.mode === "destroy" ? "destroy" : "plan", add: n.add, change: n.change, import: n.import, remove: n.destroy, forget: n.forget });
}

/** The time of a plan as `plantimestamp()` gives it: RFC 3339 in UTC, whole seconds. */
function planTimestamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * The schema of every resource, data source and ephemeral resource of a configuration (by
 * configuration address) and every provider configuration they use, from the providers' schemas.
 *
 * @param only - the modes to look at (default all).
 * @throws PlanDiagnosticsError for a resource whose provider configuration is not present.
 */
async function configSchemas(config: Config, pool: ProviderPool, only?: ReadonlySet<string>): Promise<{ schemas: Map<string, SchemaEntry>; providerConfigs: Map<string, PlannedProviderConfig> }> {
  const schemas = new Map<string, SchemaEntry>();
  const providerConfigs = new Map<string, PlannedProviderConfig>();
  for (const c of walkConfig(config)) {
    for (const [key, r] of [...c.module.managedResources, ...c.module.dataResources, ...c.module.ephemeralResources]) {
      if (only !== undefined && !only.has(r.mode)) continue;
      const resolved = resolveResourceProviderConfig(config, c.path, r);
      if ("error" in resolved) throw new PlanDiagnosticsError([planError("Provider configuration not present", resolved.error, { address: `${configPrefix(c.path)}${key}` })]);
      const schema = await pool.schema(resolved.address, resolved.source);
      const entry = r.mode === "data" ? schema.dataSources.get(r.type) : r.mode === "ephemeral" ? schema.ephemeralResources?.get(r.type) : schema.resources.get(r.type);
      if (entry !== undefined) schemas.set(`${configPrefix(c.path)}${key}`, entry);
      providerConfigs.set(resolved.address, { source: resolved.source, block: schema.provider.block, modulePath: resolved.modulePath, ...(resolved.body !== undefined ? { body: resolved.body } : {}) });
    }
  }
  return { schemas, providerConfigs };
}

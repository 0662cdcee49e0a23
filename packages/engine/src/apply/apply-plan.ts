import type { Provider as InstanceProvider } from "@magma/provider-api";
import { randomBytes } from "node:crypto";
import { convert, fromJson, nullVal, toJson, type Type, type Value } from "@magma/cty";
import { msgpackNormalForm } from "@magma/cty/msgpack";
import { dataReadStateType } from "../plan/data-read-source.js";
import { dataSourceSchema, emptyBlockValue, ephemeralResourceSchema, errorDiag, isProviderError, resourceSchema, type Diag } from "@magma/provider-api";
import { encodeOutput, encodeSensitivePaths, formatProviderSource, parseProviderConfig, type OutputState, type StateFile } from "@magma/state";
import { walkGraph, type VisitContext } from "../dag/walk.js";
import { EngineError, EngineErrorCode, isEngineError } from "../engine-error.js";
import { EPHEMERAL_MARK } from "../ephemeral/ephemeral-mark.js";
import { EphemeralResources } from "../ephemeral/ephemeral-resources.js";
import { markSensitive, schemaSensitivePaths } from "../eval/schema-sensitive.js";
import type { EngineEvent, HookAction } from "../events/engine-event.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, startObjectProgress } from "../events/object-progress.js";
import { applyInstance, type ApplyInstanceResult } from "../instance/apply-instance.js";
import type { InstanceObject, InstanceTarget } from "../instance/instance-target.js";
import { readDataSourceInstance } from "../instance/read-data-source-instance.js";
import { unknownsToNull } from "../instance/unknowns-to-null.js";
import { toleratedLogMessage } from "../instance/tolerated-problems.js";
import { PlanAction, ReadReason } from "../plan/plan-action.js";
import { assertPlanCurrent } from "../plan/plan-file.js";
import type { Plan } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { diagnosticsErrorText, isPlanDiagnosticsError } from "../planner/plan-diagnostic.js";
import type { OpenedProvider } from "../provider-source.js";
import type { ProviderPool } from "../providers/provider-pool.js";
import { buildApplyGraph, plannedProviders, recordsNoOp, type ApplyNode } from "./apply-graph.js";
import type { AdoptionRecord, ApplyObjectRef, ApplyResult, FailedObject, SkippedObject } from "./apply-result.js";
import type { ApplyScope, AppliedValues, ConditionOutcome } from "./apply-scope.js";
import { ApplyState, type StoredObject } from "./apply-state.js";
import { checkResultsState } from "./check-results-state.js";
import type { CreateConflictHandler } from "./create-conflict.js";

/** Options of {@link applyPlan}. */
export interface ApplyPlanOptions {
  /**
   * Answers the provider calls of the instances it returns a provider for (`magma test`'s
   * override_resource/override_data blocks), given the instance address and the configured provider.
   */
  readonly instanceProvider?: (address: string, provider: InstanceProvider) => InstanceProvider | undefined;
  /** The providers, opened and configured per planned provider configuration (each once, before its first call). */
  readonly providers: ProviderPool;
  /** The prior state: it must be the one the plan was made against (same lineage and serial), else `stale_plan`. */
  readonly state: StateFile;
  /**
   * Persists a state snapshot (a `StateStore` write in practice). Called after every object
   * and awaited before the object counts as done; the snapshot's serial follows
   * `@magma/state`'s rules (one more than the last persisted one when the content changed).
   * Snapshots are read-only: their instance objects are frozen and shared with the next
   * snapshot when unchanged (so `saveState` formats only what changed).
   */
  readonly persist: (state: StateFile) => Promise<void>;
  /** Re-evaluates configuration with the values known so far; absent → the plan's values as they are (any still unknown is refused). */
  readonly scope?: ApplyScope;
  /** How many objects are applied at once at most (default 10, as Terraform's `-parallelism`). */
  readonly parallelism?: number;
  /** Per provider source address (`registry.terraform.io/hashicorp/aws`), how many of its objects are applied at once at most. */
  readonly providerParallelism?: Readonly<Record<string, number>>;
  /** Cancels: no object starts after it fires, StopProvider is sent, the calls in flight are awaited, the state persisted. */
  readonly signal?: AbortSignal;
  /** Receives the apply's events (start, progress, complete, errored, diagnostics, outputs, summary). */
  readonly onEvent?: (e: EngineEvent) => void;
  /** Called when a create fails: it may adopt an existing object in place of the create (import on create conflict). */
  readonly onCreateConflict?: CreateConflictHandler;
  /** How often `apply_progress` is reported for a running object, in milliseconds (default 10 000 as Terraform; 0: never). */
  readonly progressIntervalMs?: number;
}

/** Thrown by a tracked operation that ended without success or failure (a check block's data source that could not be read): no completion is reported. */
const QUIET = Symbol("quiet");

/** The failure of one node: its error, and the diagnostics to report for it. */
class NodeFailure extends Error {
  readonly error: unknown;
  readonly diagnostics: readonly Diag[];
  constructor(error: unknown, diagnostics: readonly Diag[]) {
    super(error instanceof Error ? error.message : String(error));
    this.error = error;
    this.diagnostics = diagnostics;
  }
}

/**
 * Applies a plan as Terraform's apply walk does (engine.md §5–6): a dependency-graph walk
 * (see {@link buildApplyGraph} for the order) with bounded parallelism, each provider
 * configured once before its first call, every instance re-evaluated when its planned
 * configuration held unknowns (the provider re-plans, and a plan incompatible with the
 * saved one fails: "Provider produced inconsistent final plan"), nothing unknown sent to a
 * provider, and the state persisted after every object, before the object counts as done.
 * An object's dependents start as soon as its apply returned, while the write holding it is
 * under way (the writes are group commits of the whole state, in commit order; see `finish`
 * for why that keeps the rule).
 *
 * Failures do not reject: a failed object keeps what it left in state (a failed create is
 * tainted), independent objects finish, its dependents are skipped, and all of it is in the
 * result. After a cancellation, StopProvider is sent to every provider, the calls in flight
 * finish and are persisted, and the objects not done are listed. Outputs are computed and
 * stored when everything was applied.
 *
 * A failed `persist` fails the object it was for (its diagnostics say "Failed to persist
 * state") and stops the walk as a cancellation does: nothing starts after it; a dependent
 * already started during that write ends by its own write.
 *
 * @throws {@link EngineError} `stale_plan` when `state` is not the state the plan was made
 * against (nothing is called); `cycle` / `invalid_argument` for a plan whose graph is
 * unusable.
 */
export async function applyPlan(plan: Plan, options: ApplyPlanOptions): Promise<ApplyResult> {
  assertPlanCurrent(plan, { lineage: options.state.lineage, serial: options.state.serial });
  const emit = (e: EngineEvent): void => {
    try {
      options.onEvent?.(e);
    } catch {
      // A listener's failure must not break the apply.
    }
  };
  const store = new ApplyState(options.state, options.persist);
  const ephemeralResources = options.scope?.ephemeralResources ?? [];
  const graph = buildApplyGraph(plan, (address, deposed) => store.get(address, deposed)?.dependencies, options.scope?.inCheckBlock?.bind(options.scope), ephemeralResources);
  const providers = plannedProviders(plan, ephemeralResources);
  const pool = options.providers;
  const intervalMs = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;

  // The values known so far, for the scope: planned values while pending, then applied ones.
  const values = new Map<string, Value>();
  for (const c of plan.changes) {
    if (c.action === PlanAction.Forget || c.deposedKey !== undefined) continue;
    // An object to delete keeps its prior value for what still refers to it (a destroy's ephemeral resources, as terraform's state).
    if (c.action === PlanAction.Delete) {
      if (!c.before.isNull()) values.set(c.address, c.before);
      continue;
    }
    const v = c.action === PlanAction.NoOp ? c.before : c.after;
    if (!v.isNull()) values.set(c.address, v);
  }
  const applied: AppliedValues = { instance: (address) => values.get(address) };

  // The ephemeral resource instances this walk opens: closed by their close nodes, and whatever is still open when the walk ends.
  const ephemerals = new EphemeralResources((e) =>
    emit(e.phase === "start" ? { type: "ephemeral_op_start", address: e.address, action: e.action } : { type: "ephemeral_op_complete", address: e.address, action: e.action, elapsedSeconds: e.elapsedSeconds ?? 0 }),
  );
  /** The instances each ephemeral open node opened, for its close node; and the instance a failed open node failed at. */
  const openedBy = new Map<string, string[]>();
  const failedOpenAt = new Map<string, string>();

  const configured = new Map<string, OpenedProvider>();
  const deposedKeys = new Map<string, string>();
  const adoptions: AdoptionRecord[] = [];
  const diagnostics: Diag[] = [];
  const appliedRefs: ApplyObjectRef[] = [];
  const summary: HookAction[] = []; // the actions done, for the change summary (moves without changes are not counted, as Terraform)
  const reported = new WeakSet<NodeFailure>(); // failures whose diagnostics were reported already
  /** The data sources scoped in `check` blocks whose read failed at apply, with the error's text (their checks fail). */
  const failedCheckData = new Map<string, string>();
  /** The resource instances with conditions (the plan's checks), and the outcomes of those the walk evaluated. */
  const conditioned = new Set((plan.checks ?? []).filter((c) => c.kind === "resource").flatMap((c) => c.instances.map((i) => i.address)));
  const evaluatedConditions = new Map<string, readonly ConditionOutcome[]>();
  const warn = (address: string | undefined, ws: readonly Diag[]): void => {
    for (const d of ws) {
      // The object's address goes with the diagnostic (the CLI places an object's diagnostics in its block, as terraform's).
      diagnostics.push(address === undefined || d.severity === "error" ? d : ({ ...d, address } as Diag));
      emit(address === undefined ? { type: "diagnostic", diagnostic: d } : { type: "diagnostic", diagnostic: d, address });
    }
  };

  /**
   * What a legacy provider was forgiven, as Terraform's log lines: the final plan's problems
   * name the provider's source address, the apply result's its configuration's address.
   */
  const logTolerated = (provider: string, r: { readonly tolerated?: ApplyInstanceResult["tolerated"] }): void => {
    for (const t of r.tolerated ?? []) {
      emit({ type: "log", level: "warn", message: toleratedLogMessage(t, t.kind === "invalid_plan" ? (providers.get(provider)?.source ?? provider) : provider) });
    }
  };

  // Cancellation: the caller's signal, or a failed persist (nothing may run ahead of state).
  const inner = new AbortController();
  let stopping: Promise<ReadonlyMap<string, string>> | undefined;
  const onAbort = (): void => {
    inner.abort(options.signal?.reason);
    stopping ??= pool.stopAll();
  };
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  let persistFailure: unknown;
  const commit = async (mutate: Parameters<ApplyState["commit"]>[0]): Promise<void> => {
    try {
      await store.commit(mutate);
    } catch (e) {
      persistFailure ??= e;
      inner.abort(e);
      throw new NodeFailure(e, [errorDiag("Failed to persist state", e instanceof Error ? e.message : String(e))]);
    }
  };

  /** The configured provider of a change, with the change's provider meta (sent again with every call, as at plan). */
  const targetOf = (provider: string, change?: PlannedInstanceChange): InstanceTarget => {
    const p = configured.get(provider);
    if (p === undefined) throw new EngineError(EngineErrorCode.InvalidArgument, `${provider} was not configured before its first call`);
    const hook = options.instanceProvider;
    const t = { provider: p.provider, schema: p.schema, providerAddress: providers.get(provider)?.source ?? provider, providerConfig: provider, ...(hook === undefined ? {} : { providerFor: (a: string) => hook(a, p.provider) ?? p.provider }) };
    return change?.providerMeta === undefined ? t : { ...t, providerMeta: change.providerMeta };
  };

  /** Each node's visit once it settled (never rejects), and the nodes whose visits have settled. */
  const settledVisits = new Map<string, Promise<void>>();
  const settledIds = new Set<string>();
  /**
   * Undefined when every dependency of the node has settled, else a promise of that. A node may
   * start while a dependency's write is still under way (see `finish`); its events wait for its
   * dependencies' own, so the events keep Terraform's order (a dependency's `apply_complete`
   * before its dependent's `apply_start`).
   */
  const dependenciesSettled = (id: string): Promise<void> | undefined => {
    const open = graph.dependencies(id).filter((d) => !settledIds.has(d));
    return open.length === 0 ? undefined : Promise.all(open.map((d) => settledVisits.get(d))).then(() => undefined);
  };

  /** Runs one object's operation with its events; the operation returns the object's `id` (for the events) or throws a NodeFailure. */
  const tracked = async (ref: ApplyObjectRef & { action: HookAction }, startId: string | undefined, after: Promise<void> | undefined, fn: () => Promise<string | undefined>): Promise<void> => {
    const base = ref.deposedKey === undefined ? { address: ref.address, action: ref.action } : { address: ref.address, action: ref.action, deposedKey: ref.deposedKey };
    let progress: ReturnType<typeof startObjectProgress> | undefined;
    const start = (): void => {
      emit({ type: "apply_start", ...base, ...(startId === undefined ? {} : { idKey: "id", idValue: startId }) });
      progress = startObjectProgress(intervalMs, (elapsedSeconds) => emit({ type: "apply_progress", ...base, elapsedSeconds }));
    };
    const started = after === undefined ? start() : after.then(start);
    try {
      const id = await fn();
      await started;
      emit({ type: "apply_complete", ...base, ...(id === undefined ? {} : { idKey: "id", idValue: id }), elapsedSeconds: progress!.stop() });
      appliedRefs.push(ref);
      summary.push(ref.action);
    } catch (e) {
      await started;
      if (e === QUIET) {
        progress!.stop();
        return;
      }
      const failure = e instanceof NodeFailure ? e : new NodeFailure(e, diagnosticsOf(e));
      const errors = failure.diagnostics.filter((d) => d.severity === "error");
      emit({ type: "apply_errored", ...base, elapsedSeconds: progress!.stop(), diagnostics: errors });
      warn(ref.address, errors);
      reported.add(failure);
      throw failure;
    }
  };

  /**
   * Records an object's outcome in state, and lets the node's dependents start (`release`)
   * once the change is in the in-memory state and the provider reported no error — while the
   * write that makes it durable is still under way. The node itself (its `apply_complete`
   * event, its place in the result) waits for that write.
   *
   * Why that keeps the reliability rule (an object counts as done only once a state write
   * holding it is durable): the dependent needs the object's applied value, not its
   * durability; every write is a snapshot of the whole in-memory state, and the writes are
   * made one after the other in commit order, so no durable state ever holds the dependent's
   * object without this one, and the dependent is acknowledged only after its own write (which
   * holds both). What a crash while the write is under way can lose is the same as without the
   * early start: the objects whose writes were not durable yet — this one, and whatever was in
   * flight beside it, which may now include its dependent (an object that any other branch of
   * the walk could equally have had in flight). A failed write fails this node and cancels the
   * walk, as before; a dependent already started finishes and is written or fails on its own.
   */
  const finish = async (change: PlannedInstanceChange, provider: string, deposed: string | undefined, r: ApplyInstanceResult, entryVersion: number, entryType: Parameters<typeof toJson>[1], release?: () => void): Promise<void> => {
    warn(change.address, r.warnings);
    logTolerated(provider, r);
    let recorded = false;
    const durable = commit((w) => {
      if (r.object === null) w.set(change.address, provider, deposed, null);
      else if (r.object.state !== change.before || change.previousAddress !== undefined || change.importId !== undefined) {
        w.set(change.address, provider, deposed, stored(change, r.object, entryVersion, entryType, store.get(change.previousAddress ?? change.address, deposed)));
      }
      if (deposed === undefined && change.previousAddress !== undefined && change.previousAddress !== change.address) w.set(change.previousAddress, provider, undefined, null);
      if (r.deposed !== undefined) w.set(change.address, provider, newDeposedKey(), stored(change, r.deposed, entryVersion, entryType, undefined));
      recorded = true;
    });
    if (deposed === undefined) {
      if (r.object === null) values.delete(change.address);
      else values.set(change.address, r.object.state);
    }
    if (recorded && r.error === undefined) release?.();
    await durable;
    if (r.error !== undefined) throw new NodeFailure(r.error, [...r.warnings, ...diagnosticsOf(r.error)]);
  };

  const visit = async (id: string, node: ApplyNode, ctx: VisitContext): Promise<void> => {
    switch (node.kind) {
      case "provider": {
        const { address, source } = node.provider;
        try {
          const opened = await pool.open(address, source);
          const config = options.scope === undefined ? emptyBlockValue(opened.schema.provider.block) : await options.scope.providerConfig(address, applied);
          if (!config.isWhollyKnown()) {
            throw new EngineError(EngineErrorCode.InvalidArgument, `the configuration of ${address} still holds unknown values at apply; nothing unresolved is sent to a provider`);
          }
          configured.set(address, await pool.configure(address, source, config));
        } catch (e) {
          throw new NodeFailure(e, diagnosticsOf(e));
        }
        emit({ type: "provider_configured", provider: address, source });
        return;
      }
      case "ephemeral-open": {
        const e = node.resource;
        const after = dependenciesSettled(id);
        if (after !== undefined) await after;
        const opened: string[] = [];
        openedBy.set(e.id, opened);
        const instances = await options.scope!.ephemeralInstances!(e.id, applied);
        const target = targetOf(e.provider.address);
        const entry = ephemeralResourceSchema(target.schema, e.typeName);
        const failures: NodeFailure[] = [];
        // Its preconditions before the open, its postconditions after (Terraform's open node, in every walk): a failed one fails the instance.
        const conditions = async (address: string, which: "precondition" | "postcondition"): Promise<void> => {
          const held = await options.scope?.ephemeralConditions?.(address, which, applied);
          if (held === undefined) return;
          // Without the address: terraform's warnings about a condition's error message name no object.
          warn(undefined, held.diagnostics.filter((d) => d.severity !== "error"));
          const errors = held.diagnostics.filter((d) => d.severity === "error");
          if (errors.length > 0) throw new NodeFailure(new Error(errors.map((d) => d.summary).join("; ")), errors);
        };
        await Promise.all(
          instances.map(async (inst) => {
            try {
              await conditions(inst.address, "precondition");
              const out = await ephemerals.open(target, inst.address, e.typeName, inst.config);
              if (out.kind === "opened") {
                opened.push(inst.address);
                warn(inst.address, out.warnings);
              }
              values.set(inst.address, markSensitive(out.value, schemaSensitivePaths(out.value, entry.block)).mark(EPHEMERAL_MARK));
              if (out.kind === "opened") await conditions(inst.address, "postcondition");
            } catch (err) {
              if (err instanceof NodeFailure) {
                failedOpenAt.set(id, inst.address);
                failures.push(err);
                return;
              }
              failedOpenAt.set(id, inst.address);
              failures.push(new NodeFailure(err, diagnosticsOf(err)));
            }
          }),
        );
        if (failures.length > 0) throw failures[0];
        return;
      }
      case "ephemeral-close": {
        const after = dependenciesSettled(id);
        if (after !== undefined) await after;
        warn(undefined, await ephemerals.close(openedBy.get(node.resource.id) ?? []));
        return;
      }
      case "forget": {
        // As terraform's forget node: no apply hooks (no start/complete events, not counted in the summary).
        const c = node.change;
        const after = dependenciesSettled(id);
        if (after !== undefined) await after;
        await commit((w) => w.set(c.address, "", undefined, null));
        values.delete(c.address);
        appliedRefs.push({ address: c.address, action: "forget" });
        return;
      }
      case "destroy": {
        const c = node.change;
        const deposed = node.half === "create-then-delete" ? deposedKeys.get(c.address) : c.deposedKey;
        if (node.half === "create-then-delete" && deposed === undefined) {
          // The create made nothing and the old object stayed current: there is nothing deposed to destroy.
          return;
        }
        const ref: ApplyObjectRef & { action: HookAction } = deposed === undefined ? { address: c.address, action: "delete" } : { address: c.address, action: "delete", deposedKey: deposed };
        await tracked(ref, idOf(c.before), dependenciesSettled(id), async () => {
          const target = targetOf(node.provider, c);
          const entry = resourceSchema(target.schema, c.typeName);
          const del: PlannedInstanceChange = node.half === "delete" ? c : { ...c, action: PlanAction.Delete, after: nullVal(entry.type), config: nullVal(entry.type), plannedPrivate: c.priorPrivate };
          const r = await applyInstance(target, del);
          // A destroy keeps the object's stored record when it survives unchanged.
          await finishDestroy(c, node.provider, deposed, r, entry.version, entry.type, node.half === "delete-then-create", ctx.release);
          return undefined;
        });
        return;
      }
      case "apply": {
        const c = node.change;
        // An imported object is adopted first (terraform's import hooks; the object is the plan's, read at plan).
        if (c.importId !== undefined) {
          emit({ type: "import_start", address: c.address, importId: c.importId });
          emit({ type: "import_complete", address: c.address, importId: c.importId });
        }
        if (c.action === PlanAction.NoOp) {
          // A moved or imported object without changes: written at its address, nothing called, nothing to report but in the result.
          const entry = resourceSchema(targetOf(node.provider).schema, c.typeName);
          await finish(c, node.provider, undefined, { object: { state: c.before, private: c.priorPrivate, tainted: c.priorTainted }, warnings: [] }, entry.version, entry.type, ctx.release);
          appliedRefs.push({ address: c.address, action: "update" });
          return;
        }
        const action: HookAction = c.action === PlanAction.Read ? "read" : c.action === PlanAction.Update ? "update" : "create";
        // As Terraform's apply (its resource's expand node): the resource is in the state from now on, with no instances if this one stores nothing.
        // (Managed resources only: a data source whose read fails at apply is not compared with terraform's state yet.)
        if (c.mode === "managed") store.ensureResource(c.address, node.provider);
        // An instance with conditions lets its dependents start only once they held (see after the apply).
        const conditions = options.scope?.instanceConditions !== undefined && conditioned.has(c.address) ? options.scope : undefined;
        const release = conditions === undefined ? ctx.release : undefined;
        // As Terraform's apply node, which plans the instance again first: its preconditions are evaluated with the
        // values now known before anything is applied or read (no "Creating..."); one that fails fails the instance.
        let preconditions: readonly ConditionOutcome[] = [];
        if (conditions !== undefined) {
          let held;
          try {
            held = await conditions.instanceConditions!(c, applied, "pre");
          } catch (e) {
            throw new NodeFailure(e, diagnosticsOf(e));
          }
          preconditions = held.outcomes;
          warn(c.address, held.diagnostics.filter((d) => d.severity !== "error"));
          const errors = held.diagnostics.filter((d) => d.severity === "error");
          if (errors.length > 0) {
            evaluatedConditions.set(c.address, preconditions);
            throw new NodeFailure(new Error(errors.map((d) => d.summary).join("; ")), errors);
          }
        }
        await tracked({ address: c.address, action }, action === "update" ? idOf(c.before) : undefined, dependenciesSettled(id), async () => {
          const target = targetOf(node.provider, c);
          let config = c.config;
          // Evaluated again when it held unknowns, or when the plan called provider-defined functions: the apply calls
          // them again (as Terraform, which always evaluates again) and a result that differs from the plan's is an error.
          // So is one that depends on an ephemeral resource: its write-only arguments take the values opened for this apply.
          if (options.scope !== undefined && (!config.isWhollyKnown() || (plan.functionResults?.length ?? 0) > 0 || dependsOnEphemeral(c))) config = await options.scope.instanceConfig(c, applied);
          if (!config.isWhollyKnown()) {
            throw new EngineError(EngineErrorCode.InvalidArgument, `the configuration of ${c.address} still holds unknown values at apply${options.scope === undefined ? " (no apply scope was given to evaluate it)" : ""}; nothing unresolved is sent to a provider`);
          }
          if (c.action === PlanAction.Read) {
            const entry = dataSourceSchema(target.schema, c.typeName);
            let out;
            try {
              out = await readDataSourceInstance(target, { address: c.address, typeName: c.typeName, config });
            } catch (e) {
              // A data source scoped in a check block only warns when it cannot be read (its value read at plan stays), and its check
              // fails; as Terraform's, its read is not reported complete.
              if (c.readReason !== ReadReason.CheckNested && options.scope?.inCheckBlock?.(c.address) !== true) throw e;
              const ds = diagnosticsOf(e);
              failedCheckData.set(c.address, diagnosticsErrorText(ds));
              // (Marked as a check block's, as terraform's CheckRuleDiagnosticExtra: its view never consolidates them.)
              warn(c.address, ds.map((d) => ({ ...d, severity: "warning" as const, fromCheckBlock: true })));
              throw QUIET;
            }
            if (out.kind !== "read") throw new EngineError(EngineErrorCode.InvalidArgument, `${c.address}: the data source read was deferred again at apply`);
            const r: ApplyInstanceResult = { object: { state: out.state, private: new Uint8Array(), tainted: false }, warnings: out.warnings };
            await finish(c, node.provider, undefined, r, entry.version, entry.type, release);
            return idOf(out.state);
          }
          const entry = resourceSchema(target.schema, c.typeName);
          let change = c;
          if (node.replace) {
            change = { ...c, action: PlanAction.Create, before: nullVal(entry.type), priorPrivate: new Uint8Array(), priorTainted: false };
            if (c.action === PlanAction.CreateThenDelete) {
              const key = newDeposedKey();
              deposedKeys.set(c.address, key);
              await commit((w) => w.depose(c.address, key));
            }
          }
          let r = await applyInstance(target, change, { config });
          if (r.error !== undefined && r.object === null && change.action === PlanAction.Create && options.onCreateConflict !== undefined) {
            r = await adopt(target, change, config, r);
          }
          if (node.replace && c.action === PlanAction.CreateThenDelete && r.object === null) {
            // Nothing was created: the old object is current again, and is not destroyed.
            const key = deposedKeys.get(c.address)!;
            deposedKeys.delete(c.address);
            await commit((w) => w.restore(c.address, key));
            warn(c.address, r.warnings);
            logTolerated(node.provider, r);
            throw new NodeFailure(r.error, [...r.warnings, ...diagnosticsOf(r.error)]);
          }
          await finish(change, node.provider, undefined, r, entry.version, entry.type, release);
          return r.object === null ? undefined : idOf(r.object.state);
        });
        // As Terraform's apply node: the instance's postconditions are evaluated with its new object
        // once it is applied and saved ("Creation complete" is printed); one that fails fails the instance, and its dependents do not start.
        if (conditions !== undefined && !failedCheckData.has(c.address)) {
          let held;
          try {
            held = await conditions.instanceConditions!(c, applied, "post");
          } catch (e) {
            throw new NodeFailure(e, diagnosticsOf(e));
          }
          evaluatedConditions.set(c.address, [...preconditions, ...held.outcomes]);
          warn(c.address, held.diagnostics.filter((d) => d.severity !== "error"));
          const errors = held.diagnostics.filter((d) => d.severity === "error");
          if (errors.length > 0) throw new NodeFailure(new Error(errors.map((d) => d.summary).join("; ")), errors);
        }
        return;
      }
    }
  };

  /** As {@link finish}, for a destroy: its dependents (what is destroyed after it, or the create of a delete-then-create) may start while the write removing it is under way. */
  const finishDestroy = async (c: PlannedInstanceChange, provider: string, deposed: string | undefined, r: ApplyInstanceResult, version: number, type: Parameters<typeof toJson>[1], keepValue: boolean, release?: () => void): Promise<void> => {
    warn(c.address, r.warnings);
    let recorded = false;
    const durable = commit((w) => {
      if (r.object === null) w.set(c.address, provider, deposed, null);
      else if (r.object.state !== c.before) w.set(c.address, provider, deposed, stored(c, r.object, version, type, store.get(c.address, deposed), true));
      recorded = true;
    });
    if (deposed === undefined && !keepValue && r.object === null) values.delete(c.address);
    if (recorded && r.error === undefined) release?.();
    await durable;
    if (r.error !== undefined) throw new NodeFailure(r.error, [...r.warnings, ...diagnosticsOf(r.error)]);
  };

  const adopt = async (target: InstanceTarget, change: PlannedInstanceChange, config: Value, failed: ApplyInstanceResult): Promise<ApplyInstanceResult> => {
    let adoption;
    try {
      adoption = await options.onCreateConflict!({ target, change, config, error: failed.error });
    } catch (e) {
      return { ...failed, warnings: [...failed.warnings, ...diagnosticsOf(e).map((d) => ({ ...d, severity: "warning" as const, summary: `Import on create conflict failed: ${d.summary}` }))] };
    }
    if (adoption === undefined) return failed;
    adoptions.push({ address: change.address, id: adoption.id, warnings: adoption.warnings });
    // Adopted but its remaining update failed: state records the object as the adoption left it
    // (not tainted: it existed before magma, and a replace would destroy it), and the instance fails.
    const warnings = [...failed.warnings, ...adoption.warnings];
    return adoption.error === undefined ? { object: adoption.object, warnings } : { object: adoption.object, error: adoption.error, warnings };
  };

  // The refreshed objects (drift) not otherwise changed by the plan are written as read, as
  // Terraform's apply starts from the plan's refreshed prior state (a refresh-only plan is only this).
  const changed = new Set<string>();
  for (const c of plan.changes) {
    // A deposed object found gone has a no-op change: its drift removes it.
    if (c.action === PlanAction.NoOp && c.deposedKey !== undefined) continue;
    changed.add(`${c.address}\0${c.deposedKey ?? ""}`);
    if (c.previousAddress !== undefined) changed.add(`${c.previousAddress}\0${c.deposedKey ?? ""}`);
  }
  const drift = (plan.drift ?? []).filter((d) => !changed.has(`${d.address}\0${d.deposedKey ?? ""}`));
  // The data sources read during the plan, as read (with the provider configuration they were read with); a
  // check block's data source is read again below. One whose read failed (a check block's) is written as Terraform's
  // refreshed state holds it: its planned object, the values not known null.
  const dataReads = Object.entries(plan.dataReads ?? {})
    .filter(([address]) => plan.dataReadSources?.[address] !== undefined)
    .map(([address, v]) => [address, v.isWhollyKnown() ? v : unknownsToNull(v.unmarkDeep().value)] as const);
  // The type an object is stored with is its schema's (a dynamic attribute, such as terraform_data's
  // `input`, is stored as {"value","type"}), not the value's own: fetched (a getSchema, no configure)
  // only for the objects that need it.
  const storedTypeOf = async (c: { readonly providerConfig?: string; readonly typeName: string }): Promise<Type> => {
    const address = c.providerConfig ?? "";
    return resourceSchema(await pool.schema(address, providers.get(address)?.source ?? formatProviderSource(parseProviderConfig(address).provider)), c.typeName).type;
  };
  const refreshedNoOps: { readonly c: PlannedInstanceChange; readonly type: Type }[] = [];
  for (const c of plan.changes) {
    if (c.action !== PlanAction.NoOp || c.mode !== "managed" || c.deposedKey !== undefined || recordsNoOp(c) || c.dependencies === undefined) continue;
    const previous = store.get(c.address, undefined);
    // The value's own type decodes what state stores unless a dynamic attribute holds a value: then the schema's.
    let type: Type = c.before.type;
    let differs = differsFromStored(c, previous, type);
    if (differs === undefined) {
      try {
        type = await storedTypeOf(c);
        differs = differsFromStored(c, previous, type) ?? true;
      } catch (e) {
        warn(c.address, diagnosticsOf(e));
        continue;
      }
    }
    if (differs) refreshedNoOps.push({ c, type });
  }
  // The drifted objects' schema types, likewise (only when there is drift).
  const driftTypes = new Map<string, Type>();
  for (const d of plan.drift ?? []) {
    if (d.after.isNull() || d.mode !== "managed") continue;
    try {
      driftTypes.set(`${d.address}\0${d.deposedKey ?? ""}`, await storedTypeOf(d));
    } catch (e) {
      warn(d.address, diagnosticsOf(e));
    }
  }
  const refreshedDeps = new Map(Object.entries(plan.refreshedDependencies ?? {}));
  const dataRemovals = plan.dataRemovals ?? [];
  if (drift.length > 0 || dataReads.length > 0 || dataRemovals.length > 0 || refreshedNoOps.length > 0 || refreshedDeps.size > 0) {
    try {
      await commit((w) => {
        // Orphaned data source instances: gone from the plan's refreshed state, so from the state written.
        for (const address of dataRemovals) {
          const provider = store.providerOf(address);
          if (provider !== undefined) w.set(address, provider, undefined, null);
        }
        for (const [address, v] of dataReads) {
          const source = plan.dataReadSources![address]!;
          const plain = v.unmarkDeep().value;
          w.set(address, source.provider, undefined, { tainted: false, schemaVersion: source.schemaVersion, attributesJson: toJson(plain, dataReadStateType(source, plain)), attributesFlat: undefined, sensitiveAttributesJson: source.sensitiveAttributesJson ?? "[]", private: undefined, dependencies: [], createBeforeDestroy: false });
        }
        // An object the plan leaves as it is: as refreshed, with the dependencies of the configuration (Terraform writes both into its refreshed state for a no-op).
        for (const { c, type } of refreshedNoOps) {
          const previous = store.get(c.address, undefined)!;
          w.set(c.address, c.providerConfig ?? "", undefined, stored(c, { state: c.before, private: c.priorPrivate, tainted: c.priorTainted }, previous.schemaVersion, type, previous));
        }
        for (const d of drift) {
          const previous = store.get(d.address, d.deposedKey);
          if (previous === undefined) continue;
          const provider = d.providerConfig ?? "";
          if (d.after.isNull()) w.set(d.address, provider, d.deposedKey, null);
          else {
            const deps = d.deposedKey === undefined ? refreshedDeps.get(d.address) : undefined;
            refreshedDeps.delete(d.address);
            w.set(d.address, provider, d.deposedKey, stored(deps === undefined ? d : { ...d, dependencies: [...deps] }, { state: d.after, private: d.plannedPrivate, tainted: d.priorTainted }, d.schemaVersion ?? previous.schemaVersion, driftTypes.get(`${d.address}\0${d.deposedKey ?? ""}`) ?? d.after.type, previous));
          }
        }
        // A refresh writes every refreshed object with its stored and configured dependencies merged.
        for (const [address, deps] of refreshedDeps) {
          const previous = store.get(address, undefined);
          const provider = store.providerOf(address);
          if (previous !== undefined && provider !== undefined) w.set(address, provider, undefined, { ...previous, dependencies: [...deps] });
        }
      });
    } catch (e) {
      const f = e instanceof NodeFailure ? e : new NodeFailure(e, diagnosticsOf(e));
      warn(undefined, f.diagnostics);
    }
  }

  let walk;
  try {
    const visitTracked = (id: string, node: ApplyNode, ctx: VisitContext): Promise<void> => {
      const p = visit(id, node, ctx);
      settledVisits.set(
        id,
        p.then(
          () => void settledIds.add(id),
          () => void settledIds.add(id),
        ),
      );
      return p;
    };
    walk = await walkGraph(graph, visitTracked, {
      parallelism: options.parallelism ?? 10,
      groupOf: (id) => {
        const n = graph.get(id);
        return n.kind === "apply" || n.kind === "destroy" ? providers.get(n.provider)?.source : undefined;
      },
      ...(options.providerParallelism === undefined ? {} : { groupLimits: options.providerParallelism }),
      signal: inner.signal,
    });
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    // Every ephemeral resource instance still open is closed, however the walk ended.
    warn(undefined, await ephemerals.closeAll());
  }
  const stops = stopping === undefined ? undefined : await stopping;
  for (const [address, text] of stops ?? []) if (text !== "") warn(undefined, [errorDiag(`StopProvider of ${address} failed`, text)]);

  const refOf = (id: string): ApplyObjectRef => {
    const n = graph.get(id);
    switch (n.kind) {
      case "provider":
        return { address: n.provider.address, action: "configure" };
      case "forget":
        return { address: n.change.address, action: "forget" };
      case "destroy": {
        const key = n.half === "create-then-delete" ? deposedKeys.get(n.change.address) : n.change.deposedKey;
        return key === undefined ? { address: n.change.address, action: "delete" } : { address: n.change.address, action: "delete", deposedKey: key };
      }
      case "apply":
        return { address: n.change.address, action: n.change.action === PlanAction.Read ? "read" : n.change.action === PlanAction.Update || n.change.action === PlanAction.NoOp ? "update" : "create" };
      case "ephemeral-open":
        return { address: failedOpenAt.get(id) ?? n.resource.id, action: "open" };
      case "ephemeral-close":
        return { address: n.resource.id, action: "close" };
    }
  };
  /** Whether a node is an ephemeral resource's (not a change of the plan: never listed as skipped or canceled). */
  const isEphemeralNode = (id: string): boolean => {
    const k = graph.get(id).kind;
    return k === "ephemeral-open" || k === "ephemeral-close";
  };
  const failed: FailedObject[] = [];
  for (const [id, e] of walk.failed) {
    const f = e instanceof NodeFailure ? e : new NodeFailure(e, diagnosticsOf(e));
    failed.push({ ...refOf(id), diagnostics: f.diagnostics, error: f.error });
    if (!reported.has(f)) warn(refOf(id).address, f.diagnostics.filter((d) => d.severity === "error"));
  }
  const skipped: SkippedObject[] = [...walk.skipped].filter(([id]) => !isEphemeralNode(id)).map(([id, s]) => ({ ...refOf(id), because: s.because }));
  const canceled = walk.canceled.filter((id) => !isEphemeralNode(id)).map(refOf);
  const interrupted = options.signal?.aborted === true;

  // Outputs, when everything was applied.
  let outputs: Record<string, { value: Value; sensitive: boolean }> = Object.create(null) as Record<string, { value: Value; sensitive: boolean }>;
  const complete = failed.length === 0 && skipped.length === 0 && canceled.length === 0 && persistFailure === undefined;
  if (complete) {
    try {
      // A refresh-only plan changes nothing: its planned outputs are the refreshed values.
      // A destroy plan deletes every output (re-evaluating them would find their resources gone).
      const outputScope = plan.mode === "refresh-only" || plan.mode === "destroy" ? undefined : options.scope;
      outputs = await computeOutputs(plan, outputScope, applied, store.outputs, warn);
      const encoded = new Map<string, OutputState>();
      for (const [name, o] of Object.entries(outputs)) {
        // As terraform's plan gives it back through msgpack (-0 is stored as 0).
        const plain = msgpackNormalForm(o.value.unmarkDeep().value);
        // Terraform removes an output whose value is null from the state.
        if (plain.isKnown() && plain.isNull()) continue;
        encoded.set(name, encodeOutput(plain, plain.type, o.sensitive));
      }
      const prior = store.outputs;
      // Outputs a plan did not evaluate keep their value: a refresh-only or targeted plan's (a destroy plan deletes them all).
      if (outputScope === undefined || plan.targets !== undefined) for (const [name, o] of prior) if (!encoded.has(name) && !(plan.outputs ?? []).some((p) => p.name === name && p.action === "delete")) encoded.set(name, o);
      await store.commit((w) => w.setOutputs(encoded));
      emit({
        type: "outputs",
        outputs: Object.fromEntries([...encoded].map(([name, o]) => [name, o.sensitive ? { sensitive: true, typeJson: o.typeJson } : { sensitive: false, typeJson: o.typeJson, valueJson: o.valueJson }])),
      });
    } catch (e) {
      warn(undefined, diagnosticsOf(e).map((d) => ({ ...d, summary: `Outputs: ${d.summary}` })));
      outputs = {};
    }
  }
  /** Writes the check results; a write the backend refuses is the state that could not be persisted (the result's state holds them). */
  const recordCheckResults = async (results: ReturnType<typeof checkResultsState>): Promise<void> => {
    try {
      await store.commit((w) => w.setCheckResults(results));
    } catch (e) {
      warn(undefined, [errorDiag("Failed to persist state", `${e instanceof Error ? e.message : String(e)}; the result's state holds what could not be saved`)]);
    }
  };
  // A normal or destroy apply's state keeps no resource without instances but those it was about to apply (terraform's).
  if (plan.mode !== "refresh-only") store.pruneOtherEmptyResources();
  // The checks evaluated again with what was applied, and their results recorded in state (Terraform's RecordCheckResults), however the walk ended.
  // A refresh-only plan's apply stores the plan's check results as they are (Terraform's, which evaluated them with the refreshed objects).
  if (plan.mode === "refresh-only" && plan.checks !== undefined) {
    await recordCheckResults(checkResultsState(plan.checks));
  } else if (options.scope?.checks !== undefined && plan.checks !== undefined && !interrupted) {
    const visited = new Set(appliedRefs.filter((r) => r.action !== "delete" && r.action !== "forget" && r.deposedKey === undefined).map((r) => r.address));
    for (const c of plan.changes) if (c.action === PlanAction.NoOp && c.deposedKey === undefined) visited.add(c.address);
    try {
      const checked = await options.scope.checks(applied, { planned: plan.checks, applied: (address) => visited.has(address), failedCheckData, evaluated: evaluatedConditions });
      warn(undefined, checked.diagnostics);
      await recordCheckResults(checkResultsState(checked.checks));
    } catch (e) {
      warn(undefined, diagnosticsOf(e));
    }
  }
  try {
    await store.flush();
  } catch (e) {
    warn(undefined, [errorDiag("Failed to persist state", `${e instanceof Error ? e.message : String(e)}; the result's state holds what could not be saved`)]);
  }

  const count = (action: HookAction): number => summary.filter((a) => a === action).length;
  emit({
    type: "change_summary",
    operation: plan.mode === "destroy" ? "destroy" : "apply",
    add: count("create"),
    change: count("update"),
    import: plan.changes.filter((c) => c.importId !== undefined && appliedRefs.some((r) => r.address === c.address)).length + adoptions.length,
    remove: count("delete"),
    forget: count("forget"),
  });

  return {
    success: complete && !diagnostics.some((d) => d.severity === "error"),
    state: store.snapshot(),
    applied: appliedRefs,
    failed,
    skipped,
    canceled,
    interrupted,
    adoptions,
    diagnostics,
    outputs,
  };
}

/**
 * The outputs to store: with a scope, the planned value of each output planned wholly known
 * and the scope's evaluation of the others; without one, the plan's wholly known planned
 * outputs (others keep their prior value, with a warning).
 */
async function computeOutputs(
  plan: Plan,
  scope: ApplyScope | undefined,
  values: AppliedValues,
  prior: ReadonlyMap<string, OutputState>,
  warn: (address: string | undefined, ds: readonly Diag[]) => void,
): Promise<Record<string, { value: Value; sensitive: boolean }>> {
  if (scope !== undefined) {
    // As Terraform's apply: an output planned wholly known keeps its planned value (it is not evaluated again).
    const kept = (plan.outputs ?? []).filter((o) => o.action !== "delete" && o.after.isWhollyKnown());
    const out = await scope.outputs(values, new Set(kept.map((o) => o.name)));
    const unknown = Object.entries(out).filter(([, o]) => !o.value.isWhollyKnown());
    if (unknown.length > 0) throw new EngineError(EngineErrorCode.InvalidArgument, `the outputs ${unknown.map(([n]) => n).join(", ")} are still unknown after apply`);
    const all: Record<string, { value: Value; sensitive: boolean }> = Object.create(null) as Record<string, { value: Value; sensitive: boolean }>;
    const keptByName = new Map(kept.map((o) => [o.name, o]));
    for (const o of plan.outputs ?? []) {
      const k = keptByName.get(o.name);
      const e = out[o.name];
      if (k !== undefined) all[o.name] = { value: k.after, sensitive: k.sensitive };
      else if (e !== undefined) all[o.name] = e;
    }
    return Object.assign(all, out);
  }
  const out: Record<string, { value: Value; sensitive: boolean }> = Object.create(null) as Record<string, { value: Value; sensitive: boolean }>;
  for (const o of plan.outputs ?? []) {
    if (o.action === "delete") continue;
    if (o.after.isWhollyKnown()) out[o.name] = { value: o.after, sensitive: o.sensitive };
    else warn(undefined, [{ severity: "warning", summary: `Output ${o.name} is not stored`, detail: `Its planned value depends on values known only after apply, and no apply scope was given to evaluate it.` }]);
  }
  return out;
}

/** The stored record of an applied object. */
function stored(change: PlannedInstanceChange, object: InstanceObject, schemaVersion: number, type: Parameters<typeof toJson>[1], previous: StoredObject | undefined, destroy = false): StoredObject {
  const plain = object.state.unmarkDeep();
  const sensitive = destroy ? (change.beforeSensitivePaths ?? []) : [...(change.afterSensitivePaths ?? []), ...plain.paths.filter((p) => p.marks.has("sensitive")).map((p) => p.path)];
  return {
    tainted: object.tainted,
    schemaVersion: change.schemaVersion ?? schemaVersion,
    attributesJson: toJson(plain.value, type),
    attributesFlat: undefined,
    sensitiveAttributesJson: encodeSensitivePaths(dedupePaths(sensitive)),
    private: object.private.length > 0 ? object.private : undefined,
    // A data source's object records no dependencies (as Terraform's).
    dependencies: change.mode === "data" ? [] : [...(change.dependencies ?? previous?.dependencies ?? [])],
    // An object imported with no change keeps the imported state's flag (none): Terraform sets
    // create_before_destroy only on the refresh path, which an import skips, and on apply.
    createBeforeDestroy: change.action === PlanAction.NoOp && change.importId !== undefined ? false : (change.createBeforeDestroy ?? previous?.createBeforeDestroy ?? false),
  };
}

/**
 * Whether a no-op's object (as refreshed, with the configuration's dependencies and
 * create_before_destroy) differs from what state stores, the stored JSON read as `type`; undefined when it does not read as `type`
 * (a dynamic attribute stored as {"value","type"} read with the value's own type: ask again
 * with the schema's).
 */
function differsFromStored(change: PlannedInstanceChange, previous: StoredObject | undefined, type: Type): boolean | undefined {
  if (previous === undefined || previous.attributesJson === undefined || change.before.isNull()) return false;
  const deps = (d: readonly string[]): string => [...d].sort().join("\n");
  const before = change.before.unmarkDeep().value;
  let same: boolean;
  try {
    const decoded = fromJson(previous.attributesJson, type);
    same = decoded.rawEquals(before) || (type !== before.type && sameAfterConversion(decoded, before));
  } catch {
    return undefined;
  }
  // create_before_destroy as planned (the resource's own or forced by a dependent's): Terraform
  // writes it into the refreshed state, so a dependent removed clears it (node_resource_plan_instance.go, updatedCBD).
  const cbdChanged = change.createBeforeDestroy !== undefined && change.createBeforeDestroy !== previous.createBeforeDestroy;
  return deps(previous.dependencies) !== deps(change.dependencies ?? []) || !same || cbdChanged;
}

/** Whether `stored` (decoded with the schema's type) and `value` (the value's own type) are the same value. */
function sameAfterConversion(stored: Value, value: Value): boolean {
  try {
    return stored.rawEquals(convert(value, stored.type));
  } catch {
    return false;
  }
}

function dedupePaths<P extends { toString(): string }>(paths: readonly P[]): P[] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    const k = p.toString();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A fresh deposed key: 8 hex digits, as Terraform's `states.NewDeposedKey`. */
function newDeposedKey(): string {
  return randomBytes(4).toString("hex");
}

/** Whether a change depends on an ephemeral resource (directly, or through its provider configuration). */
function dependsOnEphemeral(c: PlannedInstanceChange): boolean {
  return (c.dependencies ?? []).some((d) => d.replace(/^(module\.[^.]+\.)+/, "").startsWith("ephemeral."));
}

/** The object's known string `id`, for events (Terraform's `id_key`/`id_value`). */
function idOf(v: Value): string | undefined {
  if (v.isNull() || !v.isKnown() || v.type.kind !== "object" || !("id" in v.type.attributes)) return undefined;
  const id = v.getAttr("id").unmark();
  return id.isKnown() && !id.isNull() && id.type.kind === "string" ? id.asString() : undefined;
}

/** The diagnostics of a failure: a provider's, an engine error's, or one made from the message. */
export function diagnosticsOf(e: unknown): Diag[] {
  if (isProviderError(e)) {
    const d = (e.detail as { diagnostics?: readonly Diag[] }).diagnostics;
    if (d !== undefined && d.length > 0) return [...d];
    return [errorDiag(e.rawMessage)];
  }
  if (isEngineError(e) && e.diagnostics.length > 0) return [...e.diagnostics];
  if (e instanceof NodeFailure) return [...e.diagnostics];
  // The configuration evaluated again at apply: its diagnostics as they are (Terraform's words, with their source ranges).
  if (isPlanDiagnosticsError(e)) return e.diagnostics.map((d) => ({ ...d }));
  return [errorDiag(e instanceof Error ? e.message : String(e))];
}



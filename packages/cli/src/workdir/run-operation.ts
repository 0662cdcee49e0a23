import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Value } from "@magma/cty";
import { configFromSnapshot, loadConfig, providerConfigDiagnostics, type VariableArg } from "@magma/config";
import {
  assertRefreshSafe,
  createImportOnConflict,
  countPlanChanges,
  createEngine,
  isEngineError,
  readPlanFile,
  savedPlanVariables,
  TARGETED_APPLY_WARNING,
  writePlanFile,
  type ApplyResult,
  type Engine,
  type EngineEvent,
  type EnginePlanResult,
  type Plan,
  type PlanMode,
} from "@magma/engine";
import type { Diag } from "@magma/provider-api";
import { loadState, newStateFile, saveState, type StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "../commands/command-context.js";
import { ExitCode } from "../exit-code.js";
import { createOperationView } from "../views/create-operation-view.js";
import type { OperationKind, OperationView, PlannedImport, RefreshedObject } from "../views/operation-view.js";
import { ApplySnapshots } from "./apply-snapshots.js";
import { saveErroredState, type ErroredState } from "./errored-state.js";
import { applyFailureDiagnostics, EXECUTION_HALTED } from "./apply-failure-diagnostics.js";
import { workdirProviders } from "./engine-providers.js";
import type { AddressedDiagnostic } from "./format-diagnostic.js";
import { acquireLock, type LockSettings } from "./state-lock.js";
import { inconsistentLockFileDiagnostic } from "./dependency-selections.js";
import { onFatalInterrupt } from "../fatal-interrupt.js";
import { flushOutput } from "../flush-output.js";
import { terraformLogFor } from "../logging/terraform-log.js";
import { stateInstances } from "./state-objects.js";
import { LOCK_FILE_NAME, parseLockFile } from "./provider-lock-file.js";
import type { WorkingDir } from "./working-dir.js";

export type { OperationKind } from "../views/operation-view.js";

/** The options of a working-directory plan or apply, from Terraform's flags. */
export interface OperationOptions {
  readonly kind: OperationKind;
  /** The plan mode. */
  readonly mode: PlanMode;
  /** `-refresh=false` turns the refresh off. */
  readonly refresh: boolean;
  /** `-replace=ADDR`. */
  readonly replace: readonly string[];
  /** `-target=ADDR` (repeatable). */
  readonly targets: readonly string[];
  /** `-var` and `-var-file`, in order. */
  readonly variableArgs: readonly VariableArg[];
  /** `-parallelism=N`. */
  readonly parallelism: number;
  /** `-lock`, `-lock-timeout`. */
  readonly lock: LockSettings;
  /** `-allow-mass-loss`: accept a refresh the guard judges suspect. */
  readonly allowMassLoss: boolean;
  /**
   * `-import-on-conflict` (magma's, apply only): a create failing because the object already
   * exists adopts it when it matches the configuration (`createImportOnConflict` of the engine).
   */
  readonly importOnConflict?: boolean;
  /** `-out=FILE` (plan only). */
  readonly out?: string;
  /** A saved plan file to apply (apply only). */
  readonly planFile?: string;
  /** `-auto-approve` (apply, destroy). */
  readonly autoApprove: boolean;
  /** `-detailed-exitcode` (plan). */
  readonly detailedExitcode: boolean;
  /** `-input=false`: never prompt. */
  readonly input: boolean;
  /** `-json`: Terraform's machine-readable UI on stdout instead of the human output. */
  readonly json: boolean;
}

/** The summary of the engine's diagnostic about a state write that failed. */
const PERSIST_FAILED = "Failed to persist state";

function engineErrorToCli(e: unknown): never {
  if (isEngineError(e)) {
    const title = e.code === "refresh_suspect" ? "Refusing to trust this refresh" : e.code === "stale_plan" ? "Saved plan is stale" : e.code === "invalid_plan_file" ? "Failed to read plan file" : "Engine error";
    const hint = e.code === "refresh_suspect" ? "if these objects really are gone, run again with -allow-mass-loss" : undefined;
    throw new CliError(CliErrorCode.BadInput, title, { detail: e.message, ...(hint === undefined ? {} : { hint }), cause: e });
  }
  throw e;
}

/**
 * Runs `magma plan`, `apply`, `destroy` or `refresh` on a working directory, as terraform
 * does: the current workspace's state read under its lock, the configuration planned by the
 * engine, a suspect refresh refused, the plan shown (and saved with `-out`), and for the
 * applying commands a confirmation, the apply with live progress and the state persisted
 * through the backend after every object. What is shown goes through an {@link OperationView}
 * (human, or `-json`). Resolves to the exit code.
 */
export async function runOperation(ctx: CommandContext, wd: WorkingDir, o: OperationOptions): Promise<ExitCode> {
  if (o.json && o.kind !== "plan" && o.planFile === undefined && !o.autoApprove) {
    throw new CliError(CliErrorCode.Usage, "Plan file or auto-approve required", { detail: "Terraform cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option." });
  }
  const view = createOperationView(ctx, { kind: o.kind, json: o.json, dir: wd.dir });
  view.begin();
  return runOperationWith(ctx, wd, o, view);
}

/** The objects in state the plan refreshed: each current object and each deposed one (terraform refreshes those too); under -target only those the plan walked. */
function refreshedObjects(prior: StateFile, r: EnginePlanResult, targeted: boolean): RefreshedObject[] {
  // Targeted, or failed (an object whose upgrade failed is never refreshed, nor shown by terraform): the objects the walk refreshed.
  const walked = targeted || r.hasErrors ? new Set(r.refreshOutcomes.map((x) => x.address)) : undefined;
  const objects = stateInstances(prior).flatMap((i) => [
    ...(i.current === undefined ? [] : [{ i, object: i.current, shown: i.text, deposedKey: undefined }]),
    ...i.resource.instances.filter((x) => x.indexKey === i.addr.key && x.deposed !== undefined).map((x) => ({ i, object: x, shown: `${i.text} (deposed object ${x.deposed!})`, deposedKey: x.deposed! })),
  ]);
  // An object a `removed { destroy = false }` block forgets is not refreshed (terraform's orphan node).
  const forgotten = new Set(r.plan.changes.filter((c) => c.action === "forget" && c.deposedKey === undefined).map((c) => c.address));
  // A moved object (a `moved` block, or terraform's implied move between [0] and no key) is refreshed at its new address.
  const movedTo = new Map([...r.plan.changes, ...(r.plan.drift ?? [])].filter((c) => c.previousAddress !== undefined && c.deposedKey === undefined).map((c) => [c.previousAddress!, c.address]));
  const out: RefreshedObject[] = [];
  for (const { i, object, shown: stored, deposedKey } of objects) {
    if (i.resource.mode !== "managed" || object.attributesJson === undefined) continue;
    const address = movedTo.get(i.text) ?? i.text;
    const shown = deposedKey === undefined ? address : `${address} (deposed object ${deposedKey})`;
    if (walked !== undefined && !walked.has(shown) && !walked.has(stored)) continue;
    if (forgotten.has(shown)) continue;
    const id = (JSON.parse(object.attributesJson) as { id?: unknown }).id;
    out.push({ address, ...(deposedKey === undefined ? {} : { deposedKey }), ...(typeof id === "string" ? { id } : {}) });
  }
  return out;
}

/** The import blocks' objects of a plan, with the id of what each import returned. */
function plannedImports(plan: Plan): PlannedImport[] {
  const out: PlannedImport[] = [];
  for (const c of plan.changes) {
    if (c.importId === undefined) continue;
    const before = c.before.unmarkDeep().value;
    const idv = before.isKnown() && !before.isNull() && before.type.kind === "object" && "id" in before.type.attributes ? before.getAttr("id") : undefined;
    const id = idv !== undefined && idv.isKnown() && !idv.isNull() && idv.type.kind === "string" ? idv.asString() : undefined;
    out.push({ address: c.address, importId: c.importId, ...(id === undefined ? {} : { id }) });
  }
  return out;
}

async function runOperationWith(ctx: CommandContext, wd: WorkingDir, o: OperationOptions, view: OperationView): Promise<ExitCode> {
  const store = wd.store();
  const operation = o.kind === "plan" ? "OperationTypePlan" : o.kind === "refresh" ? "OperationTypeRefresh" : "OperationTypeApply";
  const release = await acquireLock(store, { operation }, o.lock, ctx.signal);
  // An applying command's snapshots: after a second interrupt the latest durable one is saved once more, as terraform's is.
  const snapshots = new ApplySnapshots(store);
  const uninstall = onFatalInterrupt(() => fatalInterrupt(view, snapshots, release));
  const providers = workdirProviders(wd.dataDir, ctx.io.env, ctx.earlyLaunch, wd.dir);
  const engine = createEngine({ providers: providers.source, parallelism: o.parallelism, workspace: wd.currentWorkspace(), cwd: wd.dir });
  try {
    const stored = await loadState(store);
    if (o.planFile !== undefined) return await applySaved(ctx, wd, snapshots, stored, engine, o, view);
    const prior = stored ?? newStateFile();
    // Terraform's local backend checks the lock file's selections against the configuration before anything else.
    const loaded = loadConfig(wd.dir);
    if (!loaded.diags.some((d) => d.severity === "error")) {
      const inconsistent = inconsistentLockFileDiagnostic(loaded.config, wd.dir);
      if (inconsistent !== undefined) {
        view.planFailed(undefined, [...loaded.diags, ...providerConfigDiagnostics(loaded.config), inconsistent]);
        return ExitCode.Error;
      }
    }
    const r = await engine
      .plan(wd.dir, prior, {
        mode: o.mode,
        refresh: o.refresh,
        replace: o.replace,
        ...(o.targets.length > 0 ? { targets: o.targets } : {}),
        variableArgs: o.variableArgs,
        env: ctx.io.env,
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
        // Only the core's log lines: the view shows the plan's other events, from the result.
        onEvent: (e) => logEvent(ctx, e),
      })
      .catch(engineErrorToCli);
    if (ctx.signal?.aborted === true) throw new CliError(CliErrorCode.BadInput, "interrupted");
    if (o.refresh) view.refreshed(refreshedObjects(prior, r, o.targets.length > 0));
    // An import block's object: terraform's "Preparing import..." and the refresh of what the import returned.
    view.importsPlanned(plannedImports(r.plan));
    // The data sources read while planning, as terraform's UI hook shows them (after the refreshes here; terraform's walk interleaves them).
    view.dataRead(r.dataReadEvents ?? []);
    // The ephemeral resources opened and closed while planning, as terraform's UI hook shows them.
    view.ephemeralOps(r.ephemeralEvents ?? []);
    const planned = { plan: r.plan, prior, schemas: providers.schemas };
    if (r.hasErrors) {
      // Terraform still shows what it did plan before the errors (its errored plan: "Terraform planned the following actions, but then
      // encountered a problem:"): `plan` always, `apply` and `destroy` when the plan holds any object's change or output. Nothing is applied.
      const partial = r.partial === true && o.kind !== "refresh" && (o.kind === "plan" || r.plan.changes.length > 0 || (r.plan.outputs ?? []).length > 0);
      view.planFailed(partial ? planned : undefined, r.diagnostics);
      return ExitCode.Error;
    }
    try {
      if (o.refresh) assertRefreshSafe(r.refreshOutcomes, { allowMassLoss: o.allowMassLoss });
    } catch (e) {
      engineErrorToCli(e);
    }
    // An applying command shows the plan's warnings at the end, before its summary, as terraform does.
    const applying = o.kind === "apply" || o.kind === "destroy";
    view.planned(planned, applying ? [] : r.diagnostics);
    const counts = countPlanChanges(r.plan);
    // An apply evaluates the checks again and reports them itself: terraform leaves the plan's `check` block diagnostics out (they were shown before its question, if it asked).
    // (A refresh-only apply stores the plan's check results as they are: its plan's diagnostics stay.)
    let deferred: EnginePlanResult["diagnostics"] = applying ? r.diagnostics.filter((d) => d.fromCheckBlock !== true || r.plan.mode === "refresh-only") : [];
    // Terraform's `Applyable`: an output planned as an update counts even when its renderer shows
    // no change (pow(2, 64) against the 18446744073709550000 its state holds: exit code 2, Note).
    const hasChanges = counts.shown > 0 || (r.plan.outputs ?? []).some((po) => po.action !== "no-op");
    if (o.kind === "plan") {
      if (o.out !== undefined) {
        // With the provider selections it was made with (and, from the engine, the configuration's files): the apply of the file checks them.
        const locks = readDependencyLocks(wd.dir);
        // And the state it was made from (an empty one when there was none): `show` renders the file against it, as terraform's.
        const withPrior = { ...r.plan, priorStateFile: prior };
        await writePlanFile(resolve(wd.dir, o.out), locks === undefined ? withPrior : { ...withPrior, dependencyLocks: locks });
      }
      view.planNextStep(o.out, hasChanges);
      return o.detailedExitcode && hasChanges ? ExitCode.Changes : ExitCode.Ok;
    }
    // apply, destroy, refresh.
    // Without changes the apply still runs when there are checks (they are evaluated again and their results stored)
    // or ephemeral resources (terraform opens and closes them), as terraform's.
    const walksEphemerals = o.kind === "apply" && (r.ephemeralEvents ?? []).length > 0;
    if (!hasChanges && o.kind !== "refresh" && (r.plan.checks ?? []).length === 0 && !walksEphemerals) {
      view.deferredWarnings(deferred);
      let after = prior;
      if (stored !== undefined) {
        // Terraform applies a plan without changes too (only the question is skipped): the plan's refreshed state is
        // written, so a deposed object the refresh found gone (a create_before_destroy replace killed while it destroyed
        // the old object) leaves the state, and a drifted object is stored as read.
        const applied = await applyRefreshedOnly(engine, snapshots, r, prior, o, view, wd.dir);
        if (typeof applied === "number") return applied;
        after = applied;
      }
      view.appliedNothing(after);
      if (stored === undefined && o.kind !== "destroy") await saveState(store, prior);
      return ExitCode.Ok;
    }
    if (!o.autoApprove && o.kind !== "refresh" && hasChanges) {
      // Terraform shows the plan's warnings before its question, and not again.
      view.warningsBeforeApproval(r.diagnostics);
      deferred = [];
      if (!o.input) throw new CliError(CliErrorCode.Usage, "cannot ask for approval with -input=false: add -auto-approve");
      const answer = await view.askApproval();
      if (answer === undefined) throw new CliError(CliErrorCode.Usage, "interrupted");
      if (answer.trim() !== "yes") {
        throw new CliError(CliErrorCode.BadInput, o.kind === "destroy" ? "Destroy cancelled." : "Apply cancelled.", { plain: true });
      }
    }
    return await runApply(ctx, engine, snapshots, r, prior, o, view, deferred, wd.dir);
  } finally {
    await engine.close();
    await Promise.all([...providers.open].map((p) => p.close().catch(() => undefined)));
    await providers.close();
    uninstall();
    await release();
  }
}

/**
 * A second interrupt during an operation, as terraform's: its words and an `operation
 * canceled` error (from the view), then — without waiting for the operation — during an
 * apply its latest durable state snapshot saved once more (after any write under way: the
 * prior state when no object was applied yet, so a working directory without a state gets an
 * empty one, as terraform's), the state lock released (at most 5 s for both), the output
 * flushed and exit 1.
 */
function fatalInterrupt(view: OperationView, snapshots: ApplySnapshots, release: () => Promise<void>): void {
  view.fatalInterrupt();
  const saved = snapshots.saveLatest().catch(() => undefined);
  const released = Promise.race([saved.then(() => release()).catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  void released.then(flushOutput).finally(() => process.exit(ExitCode.Error));
}

async function applySaved(ctx: CommandContext, wd: WorkingDir, snapshots: ApplySnapshots, stored: StateFile | undefined, engine: Engine, o: OperationOptions, view: OperationView): Promise<ExitCode> {
  const plan = await readPlanFile(resolve(ctx.cwd, o.planFile!)).catch(engineErrorToCli);
  if (!sameDependencyLocks(plan.dependencyLocks, readDependencyLocks(wd.dir))) {
    throw new CliError(CliErrorCode.BadInput, "Inconsistent dependency lock file", {
      detail: "The given plan file was created with a different set of external dependency selections than the current configuration. A saved plan can be applied only to the same configuration it was created from.\n\nCreate a new plan from the updated configuration.",
    });
  }
  // The variables given now: the ephemeral ones set when planning must be set again (terraform keeps no ephemeral value in a plan).
  const config = (plan.configSnapshot !== undefined ? configFromSnapshot(plan.configSnapshot) : loadConfig(wd.dir)).config;
  const vars = savedPlanVariables(config.module, plan, { dir: wd.dir, args: o.variableArgs, env: ctx.io.env });
  if (vars.diagnostics.some((d) => d.severity === "error")) {
    view.variablesInvalid(vars.diagnostics);
    return ExitCode.Error;
  }
  const prior = stored ?? { ...newStateFile(), lineage: plan.prior.lineage };
  view.savedPlan(plan);
  return runApply(ctx, engine, snapshots, plan, prior, o, view, vars.diagnostics, wd.dir, wd.dir, vars.values);
}

/** The working directory's dependency lock file text; undefined when there is none. */
function readDependencyLocks(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, LOCK_FILE_NAME), "utf8");
  } catch {
    return undefined;
  }
}

/** Whether two dependency lock files select the same providers (versions, constraints, hashes), as terraform's `Locks.Equal`. */
function sameDependencyLocks(a: string | undefined, b: string | undefined): boolean {
  const selections = (text: string | undefined): string => JSON.stringify([...parseLockFile(text ?? "")].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return selections(a) === selections(b);
}

/**
 * Applies a plan through `engine.apply` (the same apply path as the engine's API): the
 * state persisted through the backend after every object, live progress, Ctrl-C as a
 * graceful stop. A saved plan is applied with its configuration directory.
 */
async function runApply(
  ctx: CommandContext,
  engine: Engine,
  snapshots: ApplySnapshots,
  plan: EnginePlanResult | Plan,
  prior: StateFile,
  o: OperationOptions,
  view: OperationView,
  planWarnings: EnginePlanResult["diagnostics"],
  dir: string,
  configDir?: string,
  applyTimeVariables?: Readonly<Record<string, Value>>,
): Promise<ExitCode> {
  const mode = "applyScope" in plan ? plan.plan.mode : plan.mode;
  // The apply's warnings (e.g. "Applied changes may be incomplete" after a targeted plan) come from its result;
  // the JSON view shows them with the plan's, before the apply's change_summary, as terraform does.
  const targeted = ("applyScope" in plan ? plan.plan.targets : plan.targets) !== undefined;
  const applyWarnings: readonly Diag[] = targeted ? [{ severity: "warning", summary: TARGETED_APPLY_WARNING.summary, detail: TARGETED_APPLY_WARNING.detail }] : [];
  const controller = new AbortController();
  /** The objects whose apply is under way (`address\0deposed key`), and those that were when the stop came. */
  const inFlight = new Set<string>();
  let stoppedInFlight: number | undefined;
  const onAbort = (): void => {
    view.interrupted();
    stoppedInFlight = inFlight.size;
    controller.abort(ctx.signal?.reason);
  };
  view.applyStarting(mode);
  if (ctx.signal?.aborted === true) onAbort();
  else ctx.signal?.addEventListener("abort", onAbort, { once: true });
  snapshots.start(prior);
  // A saved plan's objects are placed in the configuration it carries (what was applied), not in the files as they are now.
  const snapshot = "applyScope" in plan ? undefined : plan.configSnapshot;
  const appliedConfig = (): ReturnType<typeof loadConfig>["config"] => (snapshot !== undefined ? configFromSnapshot(snapshot) : loadConfig(configDir ?? dir)).config;
  let result: ApplyResult;
  try {
    result = await engine
      .apply(plan, {
        state: prior,
        persist: (s) => snapshots.save(s),
        ...(configDir === undefined ? {} : { config: configDir }),
        ...(applyTimeVariables === undefined ? {} : { variables: applyTimeVariables }),
        parallelism: o.parallelism,
        signal: controller.signal,
        ...(o.importOnConflict === true
          ? {
              onCreateConflict: createImportOnConflict({
                all: true,
                // Tell the user about every conflict it looked at (adopted, or why not).
                onDecision: (d) => {
                  if (d.outcome !== "not-a-conflict") view.importOnConflict(d);
                },
              }),
            }
          : {}),
        onEvent: (e) => {
          if (logEvent(ctx, e)) return;
          if (e.type === "apply_start") inFlight.add(`${e.address}\0${e.deposedKey ?? ""}`);
          else if (e.type === "apply_complete" || e.type === "apply_errored") inFlight.delete(`${e.address}\0${e.deposedKey ?? ""}`);
          view.applyEvent(e);
        },
      })
      .catch(engineErrorToCli);
  } finally {
    ctx.signal?.removeEventListener("abort", onAbort);
  }
  // Terraform writes the state at the end of every apply, failed or stopped too: a working directory without a state gets an empty one (serial 1) even when no object was applied.
  // When a write of this apply failed, the apply's complete state is written once more, and if the backend still refuses it, it goes to errored.tfstate (or is printed).
  const errored = await saveFinalState(snapshots, result.state, view, dir);
  // A stop that came once everything was done changes nothing.
  const stopped = stoppedInFlight !== undefined && (stoppedInFlight > 0 || result.interrupted || !result.success);
  if (stopped || !result.success || errored !== undefined) {
    // Terraform's diagnostics after a failed or stopped apply: each failed object's, with its address and its place in the configuration, any other error,
    // and after a stop the "execution halted" errors of its stop hook (two for each object whose apply was under way: its post-apply and state-update hooks).
    // An object whose only failure is that its state could not be persisted is in errored.tfstate, and terraform's "Failed to save state" says why: no error of its own.
    const failed = errored === undefined ? result.failed : result.failed.filter((f) => !(f.diagnostics.length > 0 && f.diagnostics.every((d) => d.summary === PERSIST_FAILED)));
    const failures = applyFailureDiagnostics(failed, failed.length > 0 ? appliedConfig() : undefined);
    const accounted = new Set(result.failed.flatMap((f) => f.diagnostics).map((d) => `${d.summary}\n${d.detail ?? ""}`));
    // The engine's own word that the end-of-walk write failed is replaced by terraform's about errored.tfstate.
    const others = result.diagnostics
      .filter((d) => d.severity === "error" && !accounted.has(`${d.summary}\n${d.detail ?? ""}`) && !(errored !== undefined && d.summary === PERSIST_FAILED))
      .map((d) => ({ ...d, detail: d.detail ?? "" }));
    const halted = stopped ? Array.from({ length: Math.max(1, 2 * (stoppedInFlight ?? 0)) }, () => EXECUTION_HALTED) : [];
    view.applyFailed({ halted, failures, others, saving: errored?.diagnostics ?? [], warnings: { planWarnings, applyWarnings: result.diagnostics, config: appliedConfig } });
    // A stopped apply fails as terraform's does (exit 1); what was applied is in the state.
    return ExitCode.Error;
  }
  view.applied({ result, planWarnings, applyWarnings, config: appliedConfig });
  return ExitCode.Ok;
}

/**
 * The end of an apply: its complete state saved once more (see {@link ApplySnapshots.finish}),
 * and when the backend still refuses it, kept in errored.tfstate or printed (terraform's
 * "Emergency state dump"). Resolves to what was done then, undefined when the state is stored.
 */
async function saveFinalState(snapshots: ApplySnapshots, state: StateFile, view: OperationView, dir: string): Promise<ErroredState | undefined> {
  const unsaved = await snapshots.finish(state);
  // errored.tfstate keeps the serial the failed write would have had (state push takes it, as terraform's).
  const errored = unsaved === undefined ? undefined : saveErroredState({ ...state, serial: Math.max(state.serial, snapshots.unsavedSerial) }, unsaved, dir);
  if (errored?.dump !== undefined) view.emergencyDumpState(errored.dump);
  return errored;
}

/**
 * The apply of a plan without changes, as terraform's (it applies such a plan without asking):
 * no provider is called, but what the plan's refresh found is written — an object changed
 * outside stored as read, a deposed object found gone removed — through the engine's apply (so
 * the same writes and serials as any apply). Nothing is shown when it succeeds. Resolves to
 * the state written once it is stored; when a write failed, its diagnostics are shown (the
 * state kept in errored.tfstate as after any apply) and it resolves to exit code 1.
 */
async function applyRefreshedOnly(engine: Engine, snapshots: ApplySnapshots, plan: EnginePlanResult, prior: StateFile, o: OperationOptions, view: OperationView, dir: string): Promise<ExitCode | StateFile> {
  snapshots.start(prior);
  const result = await engine.apply(plan, { state: prior, persist: (s) => snapshots.save(s), parallelism: o.parallelism }).catch(engineErrorToCli);
  const errored = await saveFinalState(snapshots, result.state, view, dir);
  if (result.success && errored === undefined) return result.state;
  const errors: AddressedDiagnostic[] = [
    ...result.diagnostics.filter((d) => d.severity === "error" && !(errored !== undefined && d.summary === PERSIST_FAILED)).map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "" })),
    ...(errored?.diagnostics ?? []),
  ];
  view.stateWriteFailed(errors);
  return ExitCode.Error;
}

/**
 * Writes an engine `log` event to the run's log (`TF_LOG`), as terraform's core logs it
 * (e.g. what a provider on the legacy type system is forgiven); nothing without `TF_LOG`.
 * Whether the event was one.
 */
function logEvent(ctx: CommandContext, e: EngineEvent): boolean {
  if (e.type !== "log") return false;
  terraformLogFor(ctx.io.env)?.log(e.level, e.message);
  return true;
}

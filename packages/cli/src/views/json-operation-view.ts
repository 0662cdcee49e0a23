import { countPlanChanges, type EngineEvent, type EphemeralOpEvent, type ImportOnConflictDecision, type Plan, type PlanDiagnostic, type PlanMode } from "@magma/engine";
import type { StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { FATAL_INTERRUPT } from "../fatal-interrupt.js";
import { SourceCache, type AddressedDiagnostic } from "../workdir/format-diagnostic.js";
import { JsonUi, jsonUiResource } from "../workdir/json-ui.js";
import { INTERRUPT_NOTICE } from "./interrupt-notice.js";
import type { ApplyFailure, AppliedOperation, OperationKind, OperationView, PlannedImport, PlannedOperation, RefreshedObject } from "./operation-view.js";

/** What {@link JsonOperationView} writes to. */
export interface JsonOperationViewOptions {
  /** The operation shown. */
  readonly kind: OperationKind;
  /** The working directory: the diagnostics' file names are relative to it (for their snippets). */
  readonly dir: string;
  /** Writes one message (a line of JSON with its line end). */
  readonly write: (line: string) => void;
  /** The clock of the messages' `@timestamp` (default: now). */
  readonly now?: () => Date;
}

/**
 * Terraform's machine-readable view of an operation (`-json`; its `OperationJSON`,
 * `PlanJSON`, `ApplyJSON` and `jsonHook`): one JSON message a line on stdout, through
 * {@link JsonUi}, and no human text.
 */
export class JsonOperationView implements OperationView {
  readonly #kind: OperationKind;
  readonly #dir: string;
  readonly #ui: JsonUi;
  /** Whether the plan applied is a destroy (its summary says "Destroy complete!", it has no outputs). */
  #destroy = false;
  /** The apply's change summary and outputs, which wait for its result (terraform prints neither after a failed apply). */
  readonly #held: EngineEvent[] = [];

  /** A view writing its messages through `options.write`. */
  constructor(options: JsonOperationViewOptions) {
    this.#kind = options.kind;
    this.#dir = options.dir;
    this.#ui = new JsonUi(options.write, options.now);
  }

  /**
   * A plan diagnostic as terraform's `-json` view gives it: `address` only on a provider's
   * diagnostic about an object (those terraform elaborates from the object's configuration, the
   * ones its human view prints `with ADDR,` for), with its `range` and `snippet` when it has a
   * place in the configuration.
   */
  #planDiagnostics(diagnostics: readonly PlanDiagnostic[]): void {
    const sources = new SourceCache(this.#dir);
    for (const { address, inConfigBody, ...rest } of diagnostics) this.#ui.diagnostic(rest, inConfigBody === true ? address : undefined, sources);
  }

  #plan(plan: Plan): void {
    this.#ui.plannedChanges(plan);
    this.#ui.planSummary(countPlanChanges(plan));
    this.#ui.planOutputs(plan);
  }

  /** The `version` message. */
  begin(): void {
    this.#ui.version();
  }

  /** A `refresh_start` and a `refresh_complete` for each object (a deposed one under its instance's address). */
  refreshed(objects: readonly RefreshedObject[]): void {
    for (const { address, id } of objects) {
      const hook = { resource: jsonUiResource(address), ...(id === undefined ? {} : { id_key: "id", id_value: id }) };
      this.#ui.message("info", `${address}: Refreshing state...${id === undefined ? "" : ` [id=${id}]`}`, { hook, type: "refresh_start" });
      this.#ui.message("info", `${address}: Refresh complete${id === undefined ? "" : ` [id=${id}]`}`, { hook, type: "refresh_complete" });
    }
  }

  /** Nothing (terraform's JSON hook has no message for a planned import). */
  importsPlanned(_imports: readonly PlannedImport[]): void {}

  /** `apply_start` and `apply_complete` with action `read`. */
  dataRead(events: readonly EngineEvent[]): void {
    for (const e of events) this.#ui.event(e, false);
  }

  /** `ephemeral_op_start` and `ephemeral_op_complete`. */
  ephemeralOps(events: readonly EphemeralOpEvent[]): void {
    for (const e of events) this.#ui.ephemeralOp(e.address, e.phase, e.action, e.elapsedSeconds ?? 0);
  }

  /** The partial plan's `planned_change`s, `change_summary` and `outputs` when there is one, then the diagnostics. */
  planFailed(partial: PlannedOperation | undefined, diagnostics: readonly PlanDiagnostic[]): void {
    if (partial !== undefined) this.#plan(partial.plan);
    this.#planDiagnostics(diagnostics);
  }

  /** The `planned_change`s, the `change_summary` (always counted) and the `outputs` (also for `refresh`), then the diagnostics. */
  planned(planned: PlannedOperation, diagnostics: readonly PlanDiagnostic[]): void {
    this.#plan(planned.plan);
    this.#planDiagnostics(diagnostics);
  }

  /** Nothing. */
  planNextStep(_savedTo: string | undefined, _hasChanges: boolean): void {}

  /** The diagnostics. */
  variablesInvalid(diagnostics: readonly PlanDiagnostic[]): void {
    this.#planDiagnostics(diagnostics);
  }

  /** The saved plan's `planned_change`s. */
  savedPlan(plan: Plan): void {
    this.#ui.plannedChanges(plan);
  }

  /** The diagnostics. */
  deferredWarnings(diagnostics: readonly PlanDiagnostic[]): void {
    this.#planDiagnostics(diagnostics);
  }

  /** Nothing: with `-json` nothing is asked (an apply needs a saved plan or `-auto-approve`). */
  warningsBeforeApproval(_diagnostics: readonly PlanDiagnostic[]): void {}

  /** Rejects: terraform cannot ask for approval when -json is set. */
  askApproval(): Promise<string | undefined> {
    return Promise.reject(new CliError(CliErrorCode.Usage, "Plan file or auto-approve required", { detail: "Terraform cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option." }));
  }

  /** Notes whether the plan is a destroy. */
  applyStarting(mode: PlanMode | undefined): void {
    this.#destroy = mode === "destroy";
  }

  /** terraform's hook messages; the change summary and the outputs are held for the result, error diagnostics reported after the walk. */
  applyEvent(e: EngineEvent): void {
    if (e.type === "change_summary" || e.type === "outputs") this.#held.push(e);
    // Errors are reported after the walk, as terraform does (once, with their place in the configuration).
    else if (!(e.type === "diagnostic" && e.diagnostic.severity === "error")) this.#ui.event(e, this.#destroy);
  }

  /** An `import_on_conflict` message (`warn` unless the object was adopted). */
  importOnConflict(d: ImportOnConflictDecision): void {
    const text = `${d.address}: import on conflict: ${d.outcome}: ${d.detail}`;
    this.#ui.message(d.outcome === "adopted" ? "info" : "warn", text, { type: "import_on_conflict", address: d.address, outcome: d.outcome, ...(d.id === undefined ? {} : { id: d.id }) });
  }

  /** terraform -json: the notice as two log messages. */
  interrupted(): void {
    this.#ui.message("info", INTERRUPT_NOTICE.slice(0, INTERRUPT_NOTICE.indexOf("\nStopping operation...")), { type: "log" });
    this.#ui.message("info", "Stopping operation...", { type: "log" });
  }

  /** A log message with terraform's words, and an `operation canceled` error. */
  fatalInterrupt(): void {
    this.#ui.message("info", FATAL_INTERRUPT, { type: "log" });
    this.#ui.diagnostic({ severity: "error", summary: "operation canceled", detail: "" });
  }

  /** An "Emergency state dump" log message holding the state. */
  emergencyDumpState(dump: string): void {
    this.#ui.message("info", "Emergency state dump", { state: JSON.parse(dump) as unknown, type: "log" });
  }

  /** The diagnostics in the order the operation collected them (not sorted as the human view sorts them), and no change summary. */
  applyFailed(f: ApplyFailure): void {
    const sources = new SourceCache(this.#dir);
    for (const d of [...f.failures, ...f.others, ...f.halted, ...f.saving]) this.#ui.diagnostic(d, d.address, sources);
  }

  /** The errors. */
  stateWriteFailed(errors: readonly AddressedDiagnostic[]): void {
    for (const d of errors) this.#ui.diagnostic(d);
  }

  /** The plan's and the apply's warnings, the held `change_summary` and `outputs`, then the apply's other diagnostics. */
  applied(a: AppliedOperation): void {
    this.#planDiagnostics(a.planWarnings);
    for (const d of a.applyWarnings) this.#ui.diagnostic(d);
    for (const e of this.#held) this.#ui.event(e, this.#destroy);
    const isApplyWarning = (d: (typeof a.result.diagnostics)[number]): boolean => d.severity === "warning" && a.applyWarnings.some((w) => w.summary === d.summary);
    for (const d of a.result.diagnostics) if (!isApplyWarning(d)) this.#ui.diagnostic(d);
  }

  /** As terraform's apply: the outputs (none after a destroy) after the change summary of nothing. */
  appliedNothing(state: StateFile): void {
    const destroy = this.#kind === "destroy";
    const outputs = Object.fromEntries([...state.outputs].map(([name, x]) => [name, x.sensitive ? { sensitive: true, typeJson: x.typeJson } : { sensitive: false, typeJson: x.typeJson, valueJson: x.valueJson }]));
    this.#ui.event({ type: "outputs", outputs }, destroy);
    this.#ui.event({ type: "change_summary", operation: destroy ? "destroy" : "apply", add: 0, change: 0, import: 0, remove: 0, forget: 0 }, destroy);
  }
}

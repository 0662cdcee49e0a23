import type { Config } from "@magma/config";
import type { ApplyResult, EngineEvent, EphemeralOpEvent, ImportOnConflictDecision, Plan, PlanDiagnostic, PlanMode } from "@magma/engine";
import type { ProviderSchema, Diag } from "@magma/provider-api";
import type { StateFile } from "@magma/state";
import type { AddressedDiagnostic } from "../workdir/format-diagnostic.js";

/** What the user asked for: `plan`, `apply`, `destroy` or `refresh`. */
export type OperationKind = "plan" | "apply" | "destroy" | "refresh";

/** An object in state the plan refreshed (Terraform's `PreRefresh`/`PostRefresh` hooks). */
export interface RefreshedObject {
  /** The instance address (`aws_x.y[0]`). */
  readonly address: string;
  /** Set for a deposed object: its key. */
  readonly deposedKey?: string;
  /** The object's `id` attribute, when it has a string one. */
  readonly id?: string;
}

/** An import block's object the plan imported (Terraform's `PrePlanImport` hook and the refresh of what was imported). */
export interface PlannedImport {
  /** The instance address. */
  readonly address: string;
  /** The import id the block gave. */
  readonly importId: string;
  /** The imported object's `id` attribute, when it has a known string one. */
  readonly id?: string;
}

/** A plan with what a renderer needs beside it. */
export interface PlannedOperation {
  /** The plan. */
  readonly plan: Plan;
  /** The state the plan was made from. */
  readonly prior: StateFile;
  /** The providers' schemas by source address. */
  readonly schemas: ReadonlyMap<string, ProviderSchema>;
}

/** The diagnostics of an apply that failed or was stopped, in the groups the views order differently. */
export interface ApplyFailure {
  /** Terraform's stop-hook errors ("execution halted"), after a stop. */
  readonly halted: readonly AddressedDiagnostic[];
  /** Each failed object's diagnostics, with its address and place in the configuration. */
  readonly failures: readonly AddressedDiagnostic[];
  /** Any other error of the apply. */
  readonly others: readonly AddressedDiagnostic[];
  /** Why the state went to errored.tfstate (or was printed), when it did. */
  readonly saving: readonly AddressedDiagnostic[];
  /**
   * The warnings terraform still prints after a failed apply (before its errors): the plan's
   * held back until the apply's end and the apply's own, with the configuration to place an
   * object's warning in its block.
   */
  readonly warnings?: { readonly planWarnings: readonly PlanDiagnostic[]; readonly applyWarnings: readonly Diag[]; readonly config: () => Config };
}

/** A successful apply, with the warnings to show beside its result. */
export interface AppliedOperation {
  /** The engine's result. */
  readonly result: ApplyResult;
  /** The plan's warnings held back until the apply's end. */
  readonly planWarnings: readonly PlanDiagnostic[];
  /** The apply's own warnings that the engine reports (e.g. "Applied changes may be incomplete" after a targeted plan). */
  readonly applyWarnings: readonly Diag[];
  /** The configuration that was applied, for placing an object's warning in its block (read when needed). */
  readonly config: () => Config;
}

/**
 * How a working-directory operation (`plan`, `apply`, `destroy`, `refresh`) is shown, as
 * Terraform's `views.Operation`, `views.Plan`, `views.Apply` and its UI hook are: the runner
 * (`runOperation`) calls these with the engine's events and results as they come, and knows
 * nothing of colours, widths or JSON messages. {@link HumanOperationView} writes terraform's
 * text; {@link JsonOperationView} its machine-readable UI (`-json`).
 */
export interface OperationView {
  /** The operation begins (the JSON view's `version` message). */
  begin(): void;
  /** The objects the plan refreshed (all of them, also when there are none). */
  refreshed(objects: readonly RefreshedObject[]): void;
  /** The import blocks' objects the plan imported (all of them, also when there are none). */
  importsPlanned(imports: readonly PlannedImport[]): void;
  /** The data sources read while planning (apply events with action `read`). */
  dataRead(events: readonly EngineEvent[]): void;
  /** The ephemeral resources opened and closed while planning. */
  ephemeralOps(events: readonly EphemeralOpEvent[]): void;
  /** A plan that failed: what it did plan (`partial`, else undefined), then its diagnostics. */
  planFailed(partial: PlannedOperation | undefined, diagnostics: readonly PlanDiagnostic[]): void;
  /** The plan, with the diagnostics to show with it now (none when an apply shows them later). */
  planned(planned: PlannedOperation, diagnostics: readonly PlanDiagnostic[]): void;
  /** After `plan`: where the plan was saved (`-out`), or the note that it was not, when it has changes. */
  planNextStep(savedTo: string | undefined, hasChanges: boolean): void;
  /** The variables given for a saved plan's apply were not valid. */
  variablesInvalid(diagnostics: readonly PlanDiagnostic[]): void;
  /** A saved plan about to be applied. */
  savedPlan(plan: Plan): void;
  /** The plan's warnings shown at the apply of a plan without changes (nothing is asked). */
  deferredWarnings(diagnostics: readonly PlanDiagnostic[]): void;
  /** The plan's diagnostics shown before the question, and not again. */
  warningsBeforeApproval(diagnostics: readonly PlanDiagnostic[]): void;
  /** Asks whether to apply (or destroy); resolves to the answer, undefined when interrupted. */
  askApproval(): Promise<string | undefined>;
  /** The apply of a plan in `mode` (undefined: normal) starts. */
  applyStarting(mode: PlanMode | undefined): void;
  /** One event of the engine's apply (not a `log` one). */
  applyEvent(e: EngineEvent): void;
  /** `-import-on-conflict` looked at a conflicting create. */
  importOnConflict(decision: ImportOnConflictDecision): void;
  /** The first interrupt: the operation stops gracefully. */
  interrupted(): void;
  /** A second interrupt: the operation is abandoned. */
  fatalInterrupt(): void;
  /** The state could be stored neither by the backend nor in errored.tfstate: its text. */
  emergencyDumpState(dump: string): void;
  /** An apply that failed or was stopped. */
  applyFailed(failure: ApplyFailure): void;
  /** A write of the state failed at the apply of a plan without changes. */
  stateWriteFailed(errors: readonly AddressedDiagnostic[]): void;
  /** An apply that succeeded. */
  applied(applied: AppliedOperation): void;
  /** The apply of a plan without changes succeeded; `state` is the state after it. */
  appliedNothing(state: StateFile): void;
}

import type { Diag } from "@magma/provider-api";
import type { ChangeReason } from "./change-reason.js";

/**
 * The action of an object's apply as Terraform's `-json` UI messages name it: a replace is
 * reported as its two halves (`delete` and `create`), a deferred data source read as `read`.
 */
export type HookAction = "create" | "read" | "update" | "delete" | "forget";

/** An object's apply started (Terraform's `apply_start`). */
export interface ApplyStartEvent {
  /** The event type. */
  readonly type: "apply_start";
  /** The instance address, e.g. `aws_x.y[0]`. */
  readonly address: string;
  /** For a deposed object, its deposed key. */
  readonly deposedKey?: string;
  /** What is being done. */
  readonly action: HookAction;
  /** The `id` of the object acted on, when it is known (Terraform's `id_key`/`id_value`, for updates and deletes). */
  readonly idKey?: string;
  /** The value of {@link ApplyStartEvent.idKey}. */
  readonly idValue?: string;
}

/** An object's apply is still running (Terraform's `apply_progress`, every progress interval). */
export interface ApplyProgressEvent {
  /** The event type. */
  readonly type: "apply_progress";
  /** The instance address. */
  readonly address: string;
  /** For a deposed object, its deposed key. */
  readonly deposedKey?: string;
  /** What is being done. */
  readonly action: HookAction;
  /** Seconds since the object's apply started (whole seconds, as Terraform reports them). */
  readonly elapsedSeconds: number;
}

/** An object's apply finished (Terraform's `apply_complete`). */
export interface ApplyCompleteEvent {
  /** The event type. */
  readonly type: "apply_complete";
  /** The instance address. */
  readonly address: string;
  /** For a deposed object, its deposed key. */
  readonly deposedKey?: string;
  /** What was done. */
  readonly action: HookAction;
  /** `"id"` when the resulting object has a known string `id` attribute. */
  readonly idKey?: string;
  /** The value of {@link ApplyCompleteEvent.idKey}. */
  readonly idValue?: string;
  /** Seconds the apply took (whole seconds). */
  readonly elapsedSeconds: number;
}

/** An object's apply failed (Terraform's `apply_errored`); the error diagnostics follow as `diagnostic` events. */
export interface ApplyErroredEvent {
  /** The event type. */
  readonly type: "apply_errored";
  /** The instance address. */
  readonly address: string;
  /** For a deposed object, its deposed key. */
  readonly deposedKey?: string;
  /** What was attempted. */
  readonly action: HookAction;
  /** Seconds until the failure (whole seconds). */
  readonly elapsedSeconds: number;
  /** The failure's diagnostics. */
  readonly diagnostics: readonly Diag[];
}

/** An object's refresh started (Terraform's `refresh_start`). */
export interface RefreshStartEvent {
  /** The event type. */
  readonly type: "refresh_start";
  /** The instance address. */
  readonly address: string;
  /** `"id"` when the object has a known string `id`. */
  readonly idKey?: string;
  /** The value of {@link RefreshStartEvent.idKey}. */
  readonly idValue?: string;
}

/** An object's refresh finished (Terraform's `refresh_complete`). */
export interface RefreshCompleteEvent {
  /** The event type. */
  readonly type: "refresh_complete";
  /** The instance address. */
  readonly address: string;
  /** `"id"` when the object has a known string `id`. */
  readonly idKey?: string;
  /** The value of {@link RefreshCompleteEvent.idKey}. */
  readonly idValue?: string;
}

/** An `import` block's object is being adopted at apply (Terraform's UI hook `PreApplyImport`: "Importing... [id=…]"). */
export interface ImportStartEvent {
  /** The event type. */
  readonly type: "import_start";
  /** The instance address. */
  readonly address: string;
  /** The import id. */
  readonly importId: string;
}

/** An `import` block's object was adopted at apply (Terraform's UI hook `PostApplyImport`: "Import complete [id=…]"). */
export interface ImportCompleteEvent {
  /** The event type. */
  readonly type: "import_complete";
  /** The instance address. */
  readonly address: string;
  /** The import id. */
  readonly importId: string;
}

/** A change the plan holds (Terraform's `planned_change`). */
export interface PlannedChangeEvent {
  /** The event type. */
  readonly type: "planned_change";
  /** The instance address. */
  readonly address: string;
  /** Terraform's change action: `create`, `read`, `update`, `replace`, `delete`, `move`, `import`, `forget`, `noop`. */
  readonly action: "create" | "read" | "update" | "replace" | "delete" | "move" | "import" | "forget" | "noop";
  /** Why, as terraform's `-json` UI says it (e.g. `tainted`, `cannot_update`, `delete_because_no_resource_config`), when there is a reason. */
  readonly reason?: ChangeReason;
  /** For a moved instance, its previous address. */
  readonly previousAddress?: string;
}

/** The counts of a plan or an apply (Terraform's `change_summary`). */
export interface ChangeSummaryEvent {
  /** The event type. */
  readonly type: "change_summary";
  /** `plan`, `apply` or `destroy`. */
  readonly operation: "plan" | "apply" | "destroy";
  /** Objects created (a replace counts once here and once in `remove`). */
  readonly add: number;
  /** Objects updated in place. */
  readonly change: number;
  /** Objects imported. */
  readonly import: number;
  /** Objects destroyed. */
  readonly remove: number;
  /** Objects removed from state without being destroyed. */
  readonly forget: number;
}

/** A warning or an error (Terraform's `diagnostic`). */
export interface DiagnosticEvent {
  /** The event type. */
  readonly type: "diagnostic";
  /** The diagnostic. */
  readonly diagnostic: Diag;
  /** The instance address it concerns, when it concerns one. */
  readonly address?: string;
}

/** A provider configuration was configured (magma's; Terraform has no UI message for it). */
export interface ProviderConfiguredEvent {
  /** The event type. */
  readonly type: "provider_configured";
  /** The absolute provider configuration address. */
  readonly provider: string;
  /** Its source address. */
  readonly source: string;
}

/** The root module's outputs after an apply (Terraform's `outputs`); sensitive values are left out. */
export interface OutputsEvent {
  /** The event type. */
  readonly type: "outputs";
  /** By output name: whether it is sensitive, and its value as JSON text unless it is. */
  readonly outputs: Readonly<Record<string, { readonly sensitive: boolean; readonly valueJson?: string; readonly typeJson: string }>>;
}

/** An ephemeral resource instance's open, renew or close started (Terraform's `ephemeral_op_start`). */
export interface EphemeralOpStartEvent {
  /** The event type. */
  readonly type: "ephemeral_op_start";
  /** The instance address (`ephemeral.x.y`). */
  readonly address: string;
  /** What is done. */
  readonly action: "open" | "renew" | "close";
}

/** An ephemeral resource instance's open, renew or close succeeded (Terraform's `ephemeral_op_complete`). */
export interface EphemeralOpCompleteEvent {
  /** The event type. */
  readonly type: "ephemeral_op_complete";
  /** The instance address (`ephemeral.x.y`). */
  readonly address: string;
  /** What was done. */
  readonly action: "open" | "renew" | "close";
  /** Whole seconds the call took. */
  readonly elapsedSeconds: number;
}

/**
 * What the engine reports while it works, for user interfaces and logs: Terraform's
 * `-json` UI message types (`type` names them), so that a CLI can map them one to one,
 * plus `provider_configured`.
 */
/**
 * A line for the core's log, which Terraform writes with `log.Printf` and shows only under
 * `TF_LOG` (e.g. the problems a provider on the legacy type system is forgiven). Not a
 * diagnostic: nothing is printed for it otherwise.
 */
export interface LogEvent {
  /** The event type. */
  readonly type: "log";
  /** The log level (Terraform's `[WARN]` prefix). */
  readonly level: "warn";
  /** The message, without the level. */
  readonly message: string;
}

export type EngineEvent =
  | ApplyStartEvent
  | ApplyProgressEvent
  | ApplyCompleteEvent
  | ApplyErroredEvent
  | RefreshStartEvent
  | RefreshCompleteEvent
  | ImportStartEvent
  | ImportCompleteEvent
  | PlannedChangeEvent
  | ChangeSummaryEvent
  | DiagnosticEvent
  | ProviderConfiguredEvent
  | OutputsEvent
  | LogEvent
  | EphemeralOpStartEvent
  | EphemeralOpCompleteEvent;

/** The `type` of an {@link EngineEvent}. */
export type EngineEventType = EngineEvent["type"];

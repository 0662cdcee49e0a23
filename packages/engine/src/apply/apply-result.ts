import type { Value } from "@magma/cty";
import type { Diag } from "@magma/provider-api";
import type { StateFile } from "@magma/state";
import type { HookAction } from "../events/engine-event.js";

/**
 * One object the apply acted on (or a provider it configured: `action` `configure`; or an
 * ephemeral resource it opened or closed: `open`, `close`, only among the failures).
 */
export interface ApplyObjectRef {
  /** The instance address (`aws_x.y[0]`), for `configure` the provider configuration address, for `close` the ephemeral resource's configuration address. */
  readonly address: string;
  /** What was (to be) done: a replace shows as its `delete` and `create` halves. */
  readonly action: HookAction | "configure" | "open" | "close";
  /** For a deposed object, its deposed key. */
  readonly deposedKey?: string;
}

/** An object whose apply failed: whatever it left is in the result's state (a failed create tainted). */
export interface FailedObject extends ApplyObjectRef {
  /** The failure's error diagnostics (and the warnings of its calls). */
  readonly diagnostics: readonly Diag[];
  /** The failure as thrown (a `ProviderError`, an `EngineError`, …). */
  readonly error: unknown;
}

/** An object not applied because something it depends on failed or was skipped. */
export interface SkippedObject extends ApplyObjectRef {
  /** The node whose failure caused the skip (an instance address, `… (destroy)`, or `provider:…`). */
  readonly because: string;
}

/** An existing object adopted in place of a failed create (import on create conflict). */
export interface AdoptionRecord {
  /** The instance address. */
  readonly address: string;
  /** The import id it was adopted by. */
  readonly id: string;
  /** The warnings of the adoption's calls. */
  readonly warnings: readonly Diag[];
}

/** The outcome of `applyPlan`. Every change of the plan is in exactly one of applied, failed, skipped, canceled. */
export interface ApplyResult {
  /** Whether every change was applied (nothing failed, skipped or canceled). */
  readonly success: boolean;
  /** The state after the apply: as last persisted, unless a diagnostic says "Failed to persist state" (then it holds what could not be saved). */
  readonly state: StateFile;
  /** The objects applied, in completion order. */
  readonly applied: readonly ApplyObjectRef[];
  /** The objects (and provider configurations) whose apply failed. */
  readonly failed: readonly FailedObject[];
  /** The objects skipped because a dependency failed. */
  readonly skipped: readonly SkippedObject[];
  /** The objects not done because the apply was canceled. */
  readonly canceled: readonly ApplyObjectRef[];
  /** Whether the apply was canceled through its signal. */
  readonly interrupted: boolean;
  /** The objects adopted in place of a failed create. */
  readonly adoptions: readonly AdoptionRecord[];
  /** Every warning and error of the apply. */
  readonly diagnostics: readonly Diag[];
  /** The root module's outputs stored in state by this apply (empty when they were not computed: after a failure or cancellation). */
  readonly outputs: Readonly<Record<string, { readonly value: Value; readonly sensitive: boolean }>>;
}

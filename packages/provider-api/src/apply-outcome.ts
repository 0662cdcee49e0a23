import { nullVal, type Type, type Value } from "@magma/cty";
import { hasErrors, warningsOf, type Diag } from "./diagnostic.js";
import type { ApplyResult } from "./provider.js";
import { diagnosticsError, noNewStateError, partiallyAppliedError, type ProviderError } from "./provider-error.js";

/** What an apply returned, before it is judged by {@link classifyApplyOutcome}. */
export interface ApplyResponse {
  /** The returned new state; `undefined` or a null value when none came back. */
  readonly newState: Value | undefined;
  /** The returned private state (default empty). */
  readonly private?: Uint8Array;
  /** Every diagnostic returned (errors and warnings). */
  readonly diagnostics?: readonly Diag[];
  /** The legacy type system flag (default false). */
  readonly legacyTypeSystem?: boolean;
}

/** Facts about the call that the classification needs. */
export interface ApplyContext {
  /** The resource type, for messages. */
  readonly typeName: string;
  /** The resource type's implied type: a missing state on a delete becomes a null of it. */
  readonly type: Type;
  /** True when the planned state was null (a destroy). */
  readonly isDelete: boolean;
}

/** The verdict of {@link classifyApplyOutcome}: a result, or the error to reject with. */
export type ApplyOutcome = { readonly ok: true; readonly result: ApplyResult } | { readonly ok: false; readonly error: ProviderError<"partially_applied"> | ProviderError<"diagnostics"> | ProviderError<"no_new_state"> };

const EMPTY = new Uint8Array(0);

/**
 * Judges what an apply returned, the one rule every implementation uses:
 *
 * 1. error diagnostics and a non-null new state → `partially_applied` (the error carries
 *    the state, the private state and all diagnostics: the object exists and must be kept);
 * 2. error diagnostics and no state (absent or null) → `diagnostics`;
 * 3. no errors and no state on a create or update → `no_new_state`;
 * 4. otherwise success: the state (a null of `type` for a delete without one), the
 *    private state, and the warnings.
 *
 * A pure function: it never throws and never looks at anything but its arguments.
 */
export function classifyApplyOutcome(response: ApplyResponse, context: ApplyContext): ApplyOutcome {
  const diags = response.diagnostics ?? [];
  const priv = response.private ?? EMPTY;
  const state = response.newState;
  const hasState = state !== undefined && !state.isNull();
  if (hasErrors(diags)) {
    if (hasState) return { ok: false, error: partiallyAppliedError(state, priv, diags, context.typeName) };
    return { ok: false, error: diagnosticsError(diags, `apply of ${context.typeName}`) };
  }
  if (!hasState && !context.isDelete) return { ok: false, error: noNewStateError(context.typeName) };
  return {
    ok: true,
    result: {
      newState: state ?? nullVal(context.type),
      private: priv,
      legacyTypeSystem: response.legacyTypeSystem ?? false,
      warnings: warningsOf(diags),
    },
  };
}

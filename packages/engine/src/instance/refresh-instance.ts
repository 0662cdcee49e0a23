import { resourceSchema, type Diag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { callOptions, providerOf, type InstanceObject, type InstanceTarget } from "./instance-target.js";
import { writeOnlyDiags } from "./write-only-diags.js";

/** The result of {@link refreshInstance}. */
export interface RefreshInstanceResult {
  /** The object as it now is; null when it no longer exists (drift: the plan creates it again). */
  readonly object: InstanceObject | null;
  /** Whether the remote object differs from the prior (changed outside magma, or gone). */
  readonly drifted: boolean;
  /** The provider's warnings (also those sent with a "gone" answer). */
  readonly warnings: readonly Diag[];
}

/**
 * Refreshes an object as Terraform's plan does: `ReadResource` with the prior private
 * data. A "gone" answer is not an error: the object is null and the plan creates it anew.
 * Taint is kept; the private data is the provider's new one.
 *
 * @throws {@link EngineError} `invalid_provider_response` when the read returns unknown
 * values or a value for a write-only attribute (Terraform's "Provider produced invalid
 * object"), `unexpected_deferral` when it defers; the provider's `ProviderError` when the
 * read fails.
 */
export async function refreshInstance(target: InstanceTarget, address: string, typeName: string, prior: InstanceObject): Promise<RefreshInstanceResult> {
  const entry = resourceSchema(target.schema, typeName);
  const r = await providerOf(target, address).readResource(typeName, prior.state, { ...callOptions(target), private: prior.private });
  if (r.gone) return { object: null, drifted: true, warnings: r.warnings };
  if (r.deferred !== undefined) {
    throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the read (${r.deferred.reason}) though deferral was not allowed`);
  }
  if (!r.newState.isWhollyKnown()) {
    throw new EngineError(EngineErrorCode.InvalidProviderResponse, `${address}: the provider's read returned unknown values: ${r.newState.toString()}`);
  }
  const writeOnly = writeOnlyDiags(target, address, entry.block, r.newState, { kind: "refresh" });
  if (writeOnly.length > 0) throw new EngineError(EngineErrorCode.InvalidProviderResponse, `Provider produced invalid object for ${address}: ${writeOnly.map((d) => d.detail!).join("; ")}`, { diagnostics: writeOnly });
  const object: InstanceObject = { state: r.newState, private: r.private, tainted: prior.tainted };
  return { object, drifted: !r.newState.rawEquals(prior.state), warnings: r.warnings };
}

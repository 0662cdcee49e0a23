import { DeferredReason, invalidResponseError, type Deferred } from "@magma/provider-api";
import type { ProtoDeferred } from "./proto-shapes.js";

const REASON_OF_NUMBER: Readonly<Record<number, Deferred["reason"] | undefined>> = {
  0: DeferredReason.Unknown,
  1: DeferredReason.ResourceConfigUnknown,
  2: DeferredReason.ProviderConfigUnknown,
  3: DeferredReason.AbsentPrereq,
};

const NUMBER_OF_REASON = {
  unknown: 0,
  resource_config_unknown: 1,
  provider_config_unknown: 2,
  absent_prereq: 3,
} as const satisfies Record<Deferred["reason"], ProtoDeferred["reason"]>;

/** The wire `Deferred` of a contract deferral. */
export function deferredToProto(d: Deferred): ProtoDeferred {
  return { reason: NUMBER_OF_REASON[d.reason] };
}

/**
 * The contract's deferral of a received `Deferred` (`undefined` when absent).
 *
 * @param operation - the RPC, for the error
 * @throws `invalid_response` for a reason this version does not know
 */
export function deferredFromProto(d: ProtoDeferred | undefined, operation: string): Deferred | undefined {
  if (d === undefined) return undefined;
  const reason = REASON_OF_NUMBER[d.reason];
  if (reason === undefined) throw invalidResponseError(`unknown deferral reason ${d.reason}`, { operation });
  return { reason };
}

import type { ProtoTimestamp } from "./wire-client.js";

/**
 * A `google.protobuf.Timestamp` (ephemeral resources' `renew_at`) as a `Date`, to the
 * millisecond; `undefined` for an absent one.
 *
 * @internal
 */
export function timestampFromProto(ts: ProtoTimestamp | undefined): Date | undefined {
  if (ts === undefined) return undefined;
  return new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
}

/**
 * A `Date` as a `google.protobuf.Timestamp` (seconds and nanoseconds since the epoch;
 * nanoseconds never negative, as the well-known type requires).
 *
 * @internal
 */
export function timestampToProto(date: Date): ProtoTimestamp {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1e6 };
}

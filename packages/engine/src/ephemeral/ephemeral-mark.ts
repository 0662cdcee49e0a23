import type { Value } from "@magma/cty";

/**
 * The mark of an ephemeral value (Terraform's `marks.Ephemeral`): a value from an ephemeral
 * resource, an ephemeral input variable or an ephemeral output, and everything computed from
 * one. It may flow only where Terraform lets it (provider configurations, other ephemeral
 * resources, write-only attributes, locals, ephemeral variables and outputs), never into
 * state or plan files.
 */
export const EPHEMERAL_MARK = "ephemeral";

/** Whether `v` or any part of it carries {@link EPHEMERAL_MARK}. */
export function hasEphemeral(v: Value): boolean {
  return v.isMarked(EPHEMERAL_MARK) || v.unmarkDeep().paths.some((p) => p.marks.has(EPHEMERAL_MARK));
}

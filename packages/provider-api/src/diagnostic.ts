import type { Path } from "@magma/cty";

/**
 * How serious a {@link Diag} is. The wire's `INVALID` severity has no counterpart here: a
 * transport rejects it when decoding.
 */
export const Severity = {
  /** The operation failed; the provider could not do what was asked. */
  Error: "error",
  /** The operation succeeded, but something deserves the user's attention. */
  Warning: "warning",
} as const;

/** One of the {@link Severity} values. */
export type Severity = (typeof Severity)[keyof typeof Severity];

/**
 * A diagnostic: a problem in the user's configuration or the provider's domain, as a
 * provider reports it (tfplugin's `Diagnostic`).
 *
 * Warnings travel on the results of the {@link Provider} operations and are never
 * dropped; error-severity diagnostics make the operation reject with a `ProviderError` of
 * code `diagnostics` that carries all of them.
 */
export interface Diag {
  /** Error or warning. */
  readonly severity: Severity;
  /** A short, one-line description of the problem. */
  readonly summary: string;
  /** More detail, possibly several lines; may be absent. */
  readonly detail?: string;
  /**
   * The attribute the problem is about, when it is about one. Set elements are not
   * addressable, so a path stops at the set.
   */
  readonly attribute?: Path;
}

/** An error-severity {@link Diag}; `detail` and `attribute` are set only when given. */
export function errorDiag(summary: string, detail?: string, attribute?: Path): Diag {
  return makeDiag(Severity.Error, summary, detail, attribute);
}

/** A warning-severity {@link Diag}; `detail` and `attribute` are set only when given. */
export function warningDiag(summary: string, detail?: string, attribute?: Path): Diag {
  return makeDiag(Severity.Warning, summary, detail, attribute);
}

/** True when at least one of the diagnostics has error severity. */
export function hasErrors(diags: readonly Diag[] | undefined): boolean {
  return diags !== undefined && diags.some((d) => d.severity === Severity.Error);
}

/** The warning-severity diagnostics among `diags`, in order. */
export function warningsOf(diags: readonly Diag[] | undefined): Diag[] {
  return diags === undefined ? [] : diags.filter((d) => d.severity === Severity.Warning);
}

/** A one-line rendering for messages and logs: `error: summary (at tags["a"]): detail`. */
export function formatDiag(d: Diag): string {
  const at = d.attribute !== undefined && !d.attribute.isRoot() ? ` (at ${d.attribute.toString()})` : "";
  const detail = d.detail !== undefined && d.detail !== "" ? `: ${d.detail}` : "";
  return `${d.severity}: ${d.summary}${at}${detail}`;
}

function makeDiag(severity: Severity, summary: string, detail: string | undefined, attribute: Path | undefined): Diag {
  const d: { severity: Severity; summary: string; detail?: string; attribute?: Path } = { severity, summary };
  if (detail !== undefined) d.detail = detail;
  if (attribute !== undefined) d.attribute = attribute;
  return d;
}

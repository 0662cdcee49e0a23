import type { Resource } from "@magma/config";
import type { Diagnostic } from "@magma/hcl";
import { isProviderError, type Diag } from "@magma/provider-api";
import { isEngineError } from "../engine-error.js";
import { inConfigBody } from "./in-config-body.js";

/** A problem found while planning: HCL's diagnostic shape, plus the object it is about. */
export interface PlanDiagnostic extends Diagnostic {
  /** The address of the object the problem is about (`aws_x.y[0]`, `var.v`, `output.o`, a provider config address), when it is about one. */
  readonly address?: string;
  /**
   * A provider's diagnostic about the object at `address`, placed in its resource block (see
   * `inConfigBody`): Terraform prints the address with it (`with aws_x.y[0],`), and with
   * `-json` gives it as the diagnostic's `address`.
   */
  readonly inConfigBody?: boolean;
  /**
   * The diagnostic comes from a `check` block's assertion (Terraform's
   * `CheckRuleDiagnosticExtra`): `terraform apply` without a confirmation leaves the plan's out,
   * as the apply evaluates the checks again.
   */
  readonly fromCheckBlock?: boolean;
}

/**
 * An error that carries diagnostics (configuration problems, Terraform's wording): how a
 * planner node fails. Checked by shape (`name === "PlanDiagnosticsError"`).
 */
export class PlanDiagnosticsError extends Error {
  /** Always `"PlanDiagnosticsError"`. */
  override readonly name = "PlanDiagnosticsError" as const;
  /** The diagnostics (at least one error). */
  readonly diagnostics: readonly PlanDiagnostic[];

  /** Makes the error from its diagnostics; the message joins their summaries and details. */
  constructor(diagnostics: readonly PlanDiagnostic[]) {
    super(diagnostics.map((d) => `${d.address !== undefined ? `${d.address}: ` : ""}${d.summary}: ${d.detail}`).join("\n"));
    this.diagnostics = diagnostics;
  }
}

/** Whether `x` is a {@link PlanDiagnosticsError} (by shape). */
export function isPlanDiagnosticsError(x: unknown): x is PlanDiagnosticsError {
  return typeof x === "object" && x !== null && (x as { name?: unknown }).name === "PlanDiagnosticsError" && Array.isArray((x as { diagnostics?: unknown }).diagnostics);
}

/** An error diagnostic. */
export function planError(summary: string, detail: string, extra: { address?: string; subject?: Diagnostic["subject"] } = {}): PlanDiagnostic {
  return { severity: "error", summary, detail, ...(extra.subject !== undefined ? { subject: extra.subject } : {}), ...(extra.address !== undefined ? { address: extra.address } : {}) };
}

/** Throws when the diagnostics hold an error; returns the warnings otherwise. */
export function throwIfErrors(diags: readonly Diagnostic[], address?: string): PlanDiagnostic[] {
  const withAddr = diags.map((d) => (address !== undefined ? { ...d, address } : d));
  if (diags.some((d) => d.severity === "error")) throw new PlanDiagnosticsError(withAddr);
  return withAddr;
}

/**
 * The diagnostics of a failed node: its own diagnostics, an engine error's diagnostics (when
 * it has an error among them), or one error made from an engine or provider error.
 */
export function diagnosticsOfError(e: unknown, address: string): PlanDiagnostic[] {
  if (isPlanDiagnosticsError(e)) return [...e.diagnostics];
  // An engine error that carries Terraform's own diagnostics (an invalid plan or object, a
  // provider result with a write-only value): those, as Terraform prints them (no source).
  if (isEngineError(e) && e.diagnostics.some((d) => d.severity === "error")) return e.diagnostics.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "", address }));
  const message = e instanceof Error ? e.message : String(e);
  const summary = isEngineError(e) ? e.code : (e as { code?: unknown })?.code !== undefined ? String((e as { code: unknown }).code) : "error";
  return [{ severity: "error", summary, detail: message, address }];
}

/**
 * A provider's failure to plan an object, as Terraform reports it: the provider's
 * diagnostics, each with the object's address and its place in the resource's block (a
 * {@link PlanDiagnosticsError}); any other error as it is.
 */
export function providerDiagnosticsInBody(e: unknown, resource: Resource, address: string): unknown {
  if (!isProviderError(e) || e.code !== "diagnostics") return e;
  const diags = (e.detail as { diagnostics?: readonly Diag[] }).diagnostics ?? [];
  if (!diags.some((d) => d.severity === "error")) return e;
  return new PlanDiagnosticsError(providerDiagsInBody(diags, resource, address));
}

/**
 * A provider's diagnostics about the object at `address` (warnings that came back with a
 * result, or all of a failure's), as Terraform reports them (`InConfigBody`): each placed in
 * the resource's block at the attribute it names, with the object's address.
 */
export function providerDiagsInBody(diags: readonly Diag[], resource: Resource, address: string): PlanDiagnostic[] {
  return diags.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "", subject: inConfigBody(resource, d), address, inConfigBody: true }));
}

/**
 * The text of failing diagnostics as Terraform's `Diagnostics.Err().Error()`: one error's
 * summary and detail (`summary: detail`), or "N problems:" and a list.
 */
export function diagnosticsErrorText(diags: readonly Diag[]): string {
  const errs = diags.filter((d) => d.severity === "error");
  const one = (d: Diag): string => (d.detail === undefined || d.detail === "" ? d.summary : `${d.summary}: ${d.detail}`);
  if (errs.length === 1) return one(errs[0]!);
  return `${errs.length} problems:\n\n${errs.map((d) => `- ${one(d)}`).join("\n")}`;
}

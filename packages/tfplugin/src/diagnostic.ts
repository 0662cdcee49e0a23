import type { Path } from "@magma/cty";
import { Severity, invalidResponseError, type Diag } from "@magma/provider-api";
import { pathFromProto, pathToProto } from "./attribute-path.js";
import type { ProtoDiagnostic } from "./proto-shapes.js";

const ERROR = 1;
const WARNING = 2;

/**
 * Reads wire diagnostics. The wire's INVALID severity (0) or any unknown severity is a
 * broken response, not a diagnostic: it is rejected.
 *
 * @throws ProviderError `invalid_response`.
 * @internal
 */
export function diagsFromProto(diags: readonly ProtoDiagnostic[], operation: string): Diag[] {
  return diags.map((d) => {
    let severity: Severity;
    if (d.severity === ERROR) severity = Severity.Error;
    else if (d.severity === WARNING) severity = Severity.Warning;
    else {
      throw invalidResponseError(`diagnostic ${JSON.stringify(d.summary)} has invalid severity ${d.severity}`, { operation });
    }
    const out: { severity: Severity; summary: string; detail?: string; attribute?: Path } = {
      severity,
      summary: d.summary,
    };
    if (d.detail !== "") out.detail = d.detail;
    const attribute = pathFromProto(d.attribute, operation);
    if (attribute !== undefined) out.attribute = attribute;
    return out;
  });
}

/**
 * Writes diagnostics for the wire.
 *
 * @internal
 */
export function diagsToProto(diags: readonly Diag[]): ProtoDiagnostic[] {
  return diags.map((d) => {
    const out: ProtoDiagnostic = {
      severity: d.severity === Severity.Error ? ERROR : WARNING,
      summary: d.summary,
      detail: d.detail ?? "",
    };
    if (d.attribute !== undefined && !d.attribute.isRoot()) out.attribute = pathToProto(d.attribute);
    return out;
  });
}

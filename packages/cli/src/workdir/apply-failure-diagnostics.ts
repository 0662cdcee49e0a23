import { descendantConfig, type Config, type Resource } from "@magma/config";
import { inConfigBody, type FailedObject } from "@magma/engine";
import type { Diag } from "@magma/provider-api";
import { parseResourceInstance } from "@magma/state";
import type { AddressedDiagnostic } from "./format-diagnostic.js";

/** The configuration of the resource an instance address is about, or undefined (not in the configuration, or not a resource). */
function resourceConfig(config: Config | undefined, address: string): Resource | undefined {
  if (config === undefined) return undefined;
  let a;
  try {
    a = parseResourceInstance(address);
  } catch {
    return undefined;
  }
  const c = descendantConfig(config, a.module);
  if (c === undefined) return undefined;
  const key = `${a.mode === "data" ? "data." : a.mode === "ephemeral" ? "ephemeral." : ""}${a.type}.${a.name}`;
  return (a.mode === "managed" ? c.module.managedResources : a.mode === "ephemeral" ? c.module.ephemeralResources : c.module.dataResources).get(key);
}

/**
 * Terraform core's own errors about a provider's answer, which it reports without a source
 * location or address (`tfdiags.Sourceless`), unlike the provider's own diagnostics.
 */
const SOURCELESS: ReadonlySet<string> = new Set(["Provider produced invalid plan", "Provider produced invalid object"]);

/**
 * The diagnostics of an apply's failed objects as Terraform reports them after an apply
 * error: each with the object's address (`with aws_x.y,`) and, when the object's resource is
 * in the configuration, the place in its block the diagnostic is about — except Terraform
 * core's own errors about the provider's answer, which have neither.
 */
export function applyFailureDiagnostics(failed: readonly FailedObject[], config: Config | undefined): AddressedDiagnostic[] {
  const out: AddressedDiagnostic[] = [];
  for (const f of failed) {
    for (const d of f.diagnostics) out.push(placedDiagnostic(d, f.action === "configure" ? undefined : f.address, config));
  }
  return out;
}

/**
 * A diagnostic about an object (`address`; undefined for a provider configuration's) as
 * Terraform prints it: a diagnostic of the configuration (a failed postcondition) keeps its
 * own place and values, without the address; any other gets the address (`with aws_x.y,`)
 * and, when the object's resource is in the configuration, the place in its block it is about.
 */
export function placedDiagnostic(d: Diag, address: string | undefined, config: Config | undefined): AddressedDiagnostic {
  const own = d as AddressedDiagnostic;
  if (own.subject !== undefined) return { ...own, detail: own.detail ?? "" };
  if (SOURCELESS.has(d.summary)) return { severity: d.severity, summary: d.summary, detail: d.detail ?? "" };
  const r = address === undefined ? undefined : resourceConfig(config, address);
  return { severity: d.severity, summary: d.summary, detail: d.detail ?? "", ...(r !== undefined ? { subject: inConfigBody(r, d) } : {}), ...(address !== undefined && address !== "" ? { address } : {}), ...(own.fromCheckBlock === true ? { fromCheckBlock: true } : {}) };
}

/** The error Terraform's stop hook returns from every hook call once the operation is stopped (Ctrl-C). */
export const EXECUTION_HALTED: AddressedDiagnostic = { severity: "error", summary: "execution halted", detail: "" };


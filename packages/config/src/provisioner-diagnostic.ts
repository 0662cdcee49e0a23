/**
 * magma's refusal of provisioners (`provisioner` and `connection` blocks): magma does not run
 * them, a gap kept on purpose. Every command that plans or validates reports it; `init` does
 * not, as terraform's init installs what such a configuration needs.
 */
import type { Diagnostic } from "@magma/hcl";

/** The summary of the diagnostics refusing `provisioner` and `connection` blocks. */
export const PROVISIONERS_NOT_SUPPORTED = "Provisioners are not supported";

/** Whether `d` is magma's refusal of a provisioner or connection block (see {@link PROVISIONERS_NOT_SUPPORTED}). */
export function isProvisionerDiagnostic(d: Diagnostic): boolean {
  return d.summary === PROVISIONERS_NOT_SUPPORTED;
}

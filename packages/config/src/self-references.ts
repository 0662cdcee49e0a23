import type { Diagnostic } from "@magma/hcl";
import { bodyTraversals } from "./body-walk.js";
import { errorDiag } from "./diagnostics.js";
import type { Resource } from "./model.js";
import { parseRef, subjectString, type Reference } from "./references.js";

/** Meta-arguments and meta-blocks: not part of the configuration a self-reference is looked for in. */
const META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "_"]);

/**
 * Terraform's "Self-referential block" (`validateSelfRef`): references in a managed or data
 * resource's own configuration (its body, meta-arguments aside) to itself, one error at each.
 *
 * Without `instanceKey`, as Terraform's validate walk checks the resource: each reference to
 * the resource without an index (`random_string.a.result`). With the key of an instance
 * (`"[0]"`, `'["k"]'`, `""` for none), as Terraform's plan checks each instance: references
 * to that instance (`random_string.a[0].result` for `[0]`) and to the resource, each once
 * per matching name — so twice for an instance without a key, as Terraform reports it.
 * Ephemeral resources are not checked (Terraform does not either).
 */
export function selfReferenceDiagnostics(resource: Resource, instanceKey?: string): Diagnostic[] {
  if (resource.mode === "ephemeral") return [];
  const own = `${resource.mode === "data" ? "data." : ""}${resource.type}.${resource.name}`;
  const names = instanceKey === undefined ? [own] : [`${own}${instanceKey}`, own];
  const diags: Diagnostic[] = [];
  for (const t of bodyTraversals(resource.config, META)) {
    const ref = parseRef(t).ref;
    if (ref === undefined || ref.subject.kind !== "resource") continue;
    const text = referenceText(ref);
    for (const name of names) {
      if (text === name) diags.push(errorDiag("Self-referential block", `Configuration for ${name} may not refer to itself.`, ref.range));
    }
  }
  return diags;
}

/** The reference's subject as Terraform prints it: the resource, or its instance when an index follows. */
function referenceText(ref: Reference): string {
  const base = subjectString(ref.subject);
  const step = ref.remaining[0];
  if (step?.kind !== "index") return base;
  const key = step.key;
  if (!key.isKnown() || key.isNull()) return base;
  if (key.type.kind === "string") return `${base}[${JSON.stringify(key.asString())}]`;
  if (key.type.kind === "number") return `${base}[${key.asNumber().toString()}]`;
  return base;
}

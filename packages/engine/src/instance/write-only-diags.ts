import { formatErrorPath, type Path, type Value } from "@magma/cty";
import { errorDiag, nonNullWriteOnlyPaths, type Block, type Diag } from "@magma/provider-api";
import type { InstanceTarget } from "./instance-target.js";

/** How Terraform words one non-null write-only attribute, after `Provider "<provider>" …` or as the whole detail. */
type Detail = (who: string, address: string, path: string, id: string) => string;

const BUG = "Write-only attributes cannot be read back from the provider. This is a bug in the provider, which should be reported in the provider's own issue tracker.";

/**
 * Terraform's `ephemeral.ValidateWriteOnlyAttributes`, run on every plan, apply, refresh,
 * import and upgrade answer: one error per write-only attribute that `value` holds a value
 * for (a provider must answer null for them), worded as Terraform words it for `phase`.
 * None when the provider kept to the rule.
 *
 * @param address The instance address, as in `aws_ssm_parameter.p`.
 */
export function writeOnlyDiags(target: InstanceTarget, address: string, block: Block, value: Value, phase: WriteOnlyPhase): Diag[] {
  const paths = nonNullWriteOnlyPaths(block, value);
  if (paths.length === 0) return [];
  const [summary, detail] = PHASES[phase.kind];
  // Terraform names the provider configuration (`provider["…"]`), Go-quoted (%q: JSON's quoting for these ASCII
  // addresses); an upgrade names the provider itself.
  const source = target.providerAddress ?? "provider";
  const who = JSON.stringify(phase.kind === "upgrade" ? source : (target.providerConfig ?? `provider[${JSON.stringify(source)}]`));
  const id = phase.kind === "import-block" ? phase.id : "";
  return paths.map((p: Path) => errorDiag(summary, detail(who, address, formatErrorPath(p), id)));
}

/** Where the answer came from: its call, and for an `import` block the id it imported. */
export type WriteOnlyPhase =
  | { readonly kind: "plan" | "apply" | "refresh" | "import" | "upgrade" }
  | { readonly kind: "import-block"; readonly id: string };

const PHASES: Readonly<Record<WriteOnlyPhase["kind"], readonly [string, Detail]>> = {
  plan: ["Provider produced invalid plan", during("during planning")],
  apply: ["Provider produced invalid object", during("after apply")],
  refresh: ["Provider produced invalid object", during("during refresh")],
  import: ["Import returned a non-null value for a write-only attribute", during("during import")],
  "import-block": [
    "Import returned a non-null value for a write-only attribute",
    (who, address, path, id) => `While attempting to import with ID ${id}, the provider ${who} returned a value for the write-only attribute "${address}${path}". ${BUG}`,
  ],
  upgrade: [
    "Invalid resource state upgrade",
    (who, address, path) => `While attempting to upgrade state of resource ${address}, the provider ${who} returned a value for the write-only attribute "${address}${path}". ${BUG}`,
  ],
};

function during(when: string): Detail {
  return (who, address, path) => `Provider ${who} returned a value for the write-only attribute "${address}${path}" ${when}. ${BUG}`;
}

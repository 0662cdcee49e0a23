import { nullVal, type Path, type Value } from "@magma/cty";
import { errorDiag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";

/**
 * The `requiresReplace` paths whose value really differs between prior and planned, as
 * Terraform decides it: a path counts when the two values are not equal or their
 * equality is unknown; a path missing on one side reads as null there.
 *
 * @throws {@link EngineError} `invalid_plan` for a path that exists in neither value.
 */
export function replacePaths(address: string, prior: Value, planned: Value, requiresReplace: readonly Path[]): Path[] {
  const out: Path[] = [];
  for (const p of requiresReplace) {
    const a = at(prior, p);
    const b = at(planned, p);
    if (a === undefined && b === undefined) {
      const summary = "Provider produced invalid plan";
      throw new EngineError(EngineErrorCode.InvalidPlan, `${address}: ${summary}: the provider requires replacement for an attribute that exists in neither the prior nor the planned object (${p.toString()})`, {
        diagnostics: [errorDiag(summary, `The provider requires replacement for a nonexistent attribute of ${address}.`, p)],
      });
    }
    const pa = a ?? nullVal(b!.type);
    const pb = b ?? nullVal(a!.type);
    const eq = pa.equals(pb);
    if (!eq.isKnown() || !eq.asBool()) out.push(p);
  }
  return out;
}

function at(v: Value, p: Path): Value | undefined {
  try {
    return v.getPath(p);
  } catch {
    return undefined;
  }
}

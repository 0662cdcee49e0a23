// Test fixture: @magma/provider-random whose creates fail with an error diagnostic (and a
// warning) when the new object's `keepers` has `fail = "yes"`, so that an apply fails part-way
// with a provider error, as a real provider's would; and whose plan fails (PlanResourceChange
// returns an error diagnostic) when the configuration's `keepers` has `fail = "plan"`.
// Everything else is provider-random's.
import { createRandomProvider } from "@magma/provider-random";
import { ProviderError } from "@magma/provider-api";

/** provider-random with failing creates. */
export function createProvider() {
  const random = createRandomProvider();
  return {
    ...random,
    async planResourceChange(typeName, priorState, proposedNewState, config, options) {
      if (keeper(config, "fail") === "plan") {
        const diagnostics = [{ severity: "error", summary: "planning random_id: the plan is refused", detail: "This provider refuses to plan an object whose keepers say fail = plan." }];
        throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
      }
      return random.planResourceChange(typeName, priorState, proposedNewState, config, options);
    },
    async applyResourceChange(typeName, priorState, plannedState, config, options) {
      if (priorState.isNull() && !plannedState.isNull()) {
        const keepers = plannedState.getAttr("keepers");
        const fail = keepers.isKnown() && !keepers.isNull() ? keepers.entries().get("fail") : undefined;
        if (fail !== undefined && fail.isKnown() && !fail.isNull() && fail.asString() === "yes") {
          const diagnostics = [
            {
              severity: "error",
              summary: "creating random_id: operation error: AccessDenied",
              detail: "The caller is not allowed to create this object (a long detail that terraform wraps at its width, so that the wrapping of the detail text is part of what the test compares).",
            },
          ];
          throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
        }
      }
      return random.applyResourceChange(typeName, priorState, plannedState, config, options);
    },
  };
}

/** A known string value of `keepers` in an object value, or undefined. */
function keeper(value, key) {
  if (value.isNull() || !value.isKnown()) return undefined;
  const keepers = value.getAttr("keepers");
  const v = keepers.isKnown() && !keepers.isNull() ? keepers.entries().get(key) : undefined;
  return v !== undefined && v.isKnown() && !v.isNull() ? v.asString() : undefined;
}

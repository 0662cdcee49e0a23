// Test fixture: @magma/provider-random whose creates fail with an error diagnostic (and a
// warning) when the new object's `keepers` has `fail = "yes"`, so that an apply fails part-way
// with a provider error, as a real provider's would; and whose plan fails (PlanResourceChange
// returns an error diagnostic) when the configuration's `keepers` has `fail = "plan"`; whose
// creates fail with an error about an element when `keepers` has `fail = "element"` (the path
// keepers["fail"]) or random_shuffle's `input` has an element "fail" (the path input[i]); whose
// refresh fails (ReadResource) when the stored object's `keepers` has `fail = "refresh"`; and
// with one data source, `random_refusal` (`input` optional, `id` computed), whose read fails
// when `input` is "fail" (an error about the `input` attribute) or "fail-body" (an error about
// no attribute). Everything else is provider-random's.
import { objectVal, Path, stringType, stringVal } from "@magma/cty";
import { createRandomProvider } from "@magma/provider-random";
import { createSchemaEntry, ProviderError } from "@magma/provider-api";

const refusal = createSchemaEntry({ attributes: { input: { type: stringType, optional: true }, id: { type: stringType, computed: true } } });

/** provider-random with failing creates. */
export function createProvider() {
  const random = createRandomProvider();
  return {
    ...random,
    async getSchema(options) {
      const schema = await random.getSchema(options);
      return { ...schema, dataSources: new Map([["random_refusal", refusal]]) };
    },
    async readResource(typeName, currentState, options) {
      if (keeper(currentState, "fail") === "refresh") {
        const diagnostics = [{ severity: "error", summary: "reading random_id: the read is refused", detail: "This provider refuses to read an object whose keepers say fail = refresh." }];
        throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
      }
      return random.readResource(typeName, currentState, options);
    },
    async readDataSource(typeName, config, options) {
      if (typeName !== "random_refusal") return random.readDataSource(typeName, config, options);
      const input = config.getAttr("input");
      const text = input.isKnown() && !input.isNull() ? input.asString() : "";
      if (text === "fail" || text === "fail-body") {
        const diagnostics = [{ severity: "error", summary: "reading random_refusal: the read is refused", detail: `This data source refuses to read input = ${text}.`, ...(text === "fail" ? { attribute: Path.of([{ kind: "attr", name: "input" }]) } : {}) }];
        throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
      }
      return { state: objectVal({ input, id: stringVal(`refusal-${text}`) }), warnings: [] };
    },
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
        // An error about an element: the `fail` key of keepers, or the input list's "fail" element (random_shuffle).
        const element = elementFailure(typeName, plannedState);
        if (element !== undefined) {
          const diagnostics = [{ severity: "error", summary: "creating: an element is refused", detail: "The provider refuses an element of the configuration.", attribute: element }];
          throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
        }
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

/** The path of the element a create refuses: keepers["fail"] when it is "element", the index of an input element "fail" of random_shuffle. */
function elementFailure(typeName, planned) {
  if (keeper(planned, "fail") === "element") return Path.of([{ kind: "attr", name: "keepers" }, { kind: "key", key: "fail" }]);
  if (typeName !== "random_shuffle") return undefined;
  const input = planned.getAttr("input");
  if (!input.isKnown() || input.isNull()) return undefined;
  const i = input.elements().findIndex((v) => v.isKnown() && !v.isNull() && v.asString() === "fail");
  return i < 0 ? undefined : Path.of([{ kind: "attr", name: "input" }, { kind: "index", index: i }]);
}

/** A known string value of `keepers` in an object value, or undefined. */
function keeper(value, key) {
  if (value.isNull() || !value.isKnown()) return undefined;
  const keepers = value.getAttr("keepers");
  const v = keepers.isKnown() && !keepers.isNull() ? keepers.entries().get(key) : undefined;
  return v !== undefined && v.isKnown() && !v.isNull() ? v.asString() : undefined;
}

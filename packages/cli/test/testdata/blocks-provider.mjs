// Test fixture: a native provider (served by @magma/provider-server) whose one resource type,
// blocks_thing, has nested blocks of every nesting (single, list, set, map) and a list block
// inside a list block, plus a map and a sensitive attribute, for comparing how states are
// rendered with terraform's. The resource keeps its configuration (keep-config-provider.mjs;
// ids "bt-<name>"). A create whose name is one of FAILURES fails with an error about a path
// into the configuration (where terraform places an apply error).
import { mapType, Path, stringType } from "@magma/cty";
import { createSchemaEntry, ProviderError } from "@magma/provider-api";
import { createKeepConfigProvider } from "./keep-config-provider.mjs";

const opt = { type: stringType, optional: true };

const thing = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    note: opt,
    secret: { type: stringType, optional: true, sensitive: true },
    labels: { type: mapType(stringType), optional: true },
  },
  blockTypes: {
    one: { nesting: "single", block: { attributes: { a: opt, b: opt } } },
    rule: { nesting: "map", block: { attributes: { port: opt, proto: opt } } },
    many: { nesting: "set", block: { attributes: { v: opt } } },
    step: { nesting: "list", block: { attributes: { cmd: opt }, blockTypes: { arg: { nesting: "list", block: { attributes: { value: opt, hidden: { type: stringType, optional: true, sensitive: true } } } } } } },
  },
});

/**
 * The provider. A create whose `name` is one of FAILURES fails with an error about the path
 * it names (into nested blocks: by index, by map key), for comparing where terraform places
 * an apply error.
 */
export function createProvider() {
  const inner = createKeepConfigProvider({ typeName: "blocks_thing", entry: thing, idPrefix: "bt", label: "blocks" });
  return {
    ...inner,
    async applyResourceChange(typeName, prior, planned, config, options) {
      const name = planned.isNull() ? undefined : planned.getAttr("name");
      const steps = name !== undefined && name.isKnown() && !name.isNull() ? FAILURES[name.asString()] : undefined;
      if (prior.isNull() && steps !== undefined) {
        const diagnostics = [{ severity: "error", summary: "creating blocks_thing: a nested value is refused", detail: "The provider refuses a value inside a nested block.", attribute: Path.of(steps) }];
        throw new ProviderError({ code: "diagnostics", diagnostics }, diagnostics[0].summary);
      }
      return inner.applyResourceChange(typeName, prior, planned, config, options);
    },
  };
}

/** The paths a create fails about, by the object's name. */
const FAILURES = {
  "fail-one": [{ kind: "attr", name: "one" }, { kind: "attr", name: "a" }],
  "fail-step": [{ kind: "attr", name: "step" }, { kind: "index", index: 1 }, { kind: "attr", name: "cmd" }],
  "fail-arg": [{ kind: "attr", name: "step" }, { kind: "index", index: 0 }, { kind: "attr", name: "arg" }, { kind: "index", index: 1 }, { kind: "attr", name: "value" }],
  "fail-rule": [{ kind: "attr", name: "rule" }, { kind: "key", key: "https" }, { kind: "attr", name: "port" }],
  "fail-label": [{ kind: "attr", name: "labels" }, { kind: "key", key: "team" }],
};

/**
 * A documented example of a native provider: a `greeting` resource whose `text` is
 * computed from `name`, written with {@link createNativeProvider}.
 *
 * The implementation only does the domain work. The wrapper guarantees that `configure`
 * ran first (else `not_configured`), that `typeName` is in the schema (else
 * `unknown_type`) and that the values have the schema's types; it turns error
 * diagnostics into a `diagnostics` rejection and keeps warnings on the results.
 */
import { Path, nullVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, type Provider } from "../src/index.js";

/** Creates the example provider; greetings live in the returned map, keyed by name. */
export function createGreetingProvider(): { provider: Provider; greetings: Map<string, string> } {
  const greetings = new Map<string, string>();
  let salutation = "Hello";
  const greeting = createSchemaEntry({
    attributes: {
      name: { type: stringType, required: true },
      text: { type: stringType, computed: true },
    },
  });
  const provider = createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({ attributes: { salutation: { type: stringType, optional: true } } }),
      resources: new Map([["example_greeting", greeting]]),
      dataSources: new Map(),
    }),
    configure(config) {
      const s = config.getAttr("salutation");
      if (!s.isNull()) salutation = s.asString();
    },
    planResourceChange(_type, _prior, proposed) {
      if (proposed.isNull()) return { plannedState: proposed }; // destroy
      const name = proposed.getAttr("name");
      const text = name.isKnown() ? stringVal(`${salutation}, ${name.asString()}!`) : unknownVal(stringType);
      return { plannedState: objectVal({ name, text }), requiresReplace: [Path.root.attr("name")] };
    },
    applyResourceChange(_type, prior, planned) {
      if (planned.isNull()) {
        greetings.delete(prior.getAttr("name").asString());
        return { newState: planned };
      }
      const name = planned.getAttr("name").asString();
      if (name === "") return { diagnostics: [errorDiag("name must not be empty", undefined, Path.root.attr("name"))] };
      greetings.set(name, planned.getAttr("text").asString());
      return { newState: planned };
    },
    readResource(_type, current) {
      const text = greetings.get(current.getAttr("name").asString());
      return { newState: text === undefined ? null : objectVal({ name: current.getAttr("name"), text: stringVal(text) }) };
    },
    readDataSource: () => ({ diagnostics: [errorDiag("this provider has no data sources")] }),
    importResourceState(typeName, id) {
      const text = greetings.get(id);
      return { resources: text === undefined ? [] : [{ typeName, state: objectVal({ name: stringVal(id), text: stringVal(text) }) }] };
    },
    upgradeResourceState(_type, _version, rawJson) {
      const raw = JSON.parse(rawJson) as { name?: string; text?: string };
      return { upgradedState: objectVal({ name: stringVal(raw.name ?? ""), text: raw.text === undefined ? nullVal(stringType) : stringVal(raw.text) }) };
    },
  });
  return { provider, greetings };
}

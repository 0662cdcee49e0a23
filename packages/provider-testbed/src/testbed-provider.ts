import { utf8Bytes } from "./utf8.js";
import { Path, stringType, type Value } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, type FunctionCaller, type Provider } from "@magma/provider-api";
import { testbedFunctionSignatures, testbedFunctions } from "./testbed-functions.js";
import { testbedLegacy } from "./testbed-legacy.js";
import { lookupEntry, readLookup } from "./testbed-lookup.js";
import type { TestbedContext, TestbedResource } from "./testbed-resource.js";
import { decodeCurrentState, testbedThing } from "./testbed-thing.js";
import { testbedValue } from "./testbed-value.js";
import { isSet } from "./value-kit.js";

/** The resource types of the testbed provider. */
export const TestbedResourceType = {
  Thing: "testbed_thing",
  Value: "testbed_value",
  Legacy: "testbed_legacy",
} as const;

/** One of the {@link TestbedResourceType} names. */
export type TestbedResourceType = (typeof TestbedResourceType)[keyof typeof TestbedResourceType];

const RESOURCES: readonly TestbedResource[] = [testbedThing, testbedValue, testbedLegacy];

/** The private state a read expects: set by every plan, apply and import, and kept by Terraform. */
const PRIVATE_MISSING = "Missing private state";

/**
 * Creates the testbed provider: a deterministic provider for differential testing, whose
 * every id and computed value is a hash (FNV-1a) of the configuration and the provider's
 * `prefix`, so two tools driving it on the same configuration must reach the same values.
 *
 * - `testbed_thing` (schema version 1; version 0's `title` is upgraded to `name`): required,
 *   optional, optional+computed (provider defaults `size` 1, `props.weight` 10, `rule.proto`
 *   tcp), sensitive and computed attributes; nested attributes of nesting single, list, set
 *   and map; blocks of nesting list, single, set, map and group; `name` and `policy.effect`
 *   force replacement; `vanish = true` makes reads report the object gone; importable by name.
 * - `testbed_value`: `output` known at plan, `token` unknown until apply, a sensitive `key`, a
 *   provider default `keep`, a write-only `secret_wo`, `triggers` forcing replacement;
 *   importable by input.
 * - `testbed_legacy`: the legacy type system; `label` is stored lower-cased and a case-only
 *   change plans as no change.
 * - data source `testbed_lookup`; functions `digest` and `join_sorted`.
 *
 * Every plan, apply and import sets private state and every read checks it is still there
 * (an error diagnostic "Missing private state" otherwise). Errors: a negative `size` and a
 * bad `width` are error diagnostics naming the attribute.
 */
export function createTestbedProvider(): Provider & FunctionCaller {
  const byName = new Map(RESOURCES.map((r) => [r.typeName, r]));
  const resource = (typeName: string): TestbedResource => {
    const r = byName.get(typeName);
    if (r === undefined) throw new Error(`testbed: no resource type ${JSON.stringify(typeName)}`); // unreachable: the wrapper checks type names
    return r;
  };
  let ctx: TestbedContext = { prefix: "" };
  return createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({
        attributes: { prefix: { type: stringType, optional: true, description: "Put before every id; lets aliases be told apart." } },
      }),
      resources: new Map(RESOURCES.map((r) => [r.typeName, r.entry])),
      dataSources: new Map([["testbed_lookup", lookupEntry]]),
      functions: testbedFunctionSignatures,
    }),
    configure(config: Value) {
      const prefix = config.getAttr("prefix");
      if (!prefix.isKnown()) return { diagnostics: [errorDiag("Unknown prefix", "The provider's prefix must be known when it is configured.", Path.root.attr("prefix"))] };
      ctx = { prefix: isSet(prefix) ? prefix.asString() : "" };
      return undefined;
    },
    planResourceChange(typeName, prior, proposed, config) {
      if (proposed.isNull()) return { plannedState: proposed };
      return resource(typeName).plan(prior, proposed, config, ctx);
    },
    applyResourceChange(typeName, prior, planned) {
      if (planned.isNull()) return { newState: planned };
      const r = resource(typeName).apply(prior, planned, ctx);
      return { ...r, private: utf8Bytes(`{"applied":true}`) };
    },
    readResource(typeName, current, options) {
      if (options.private === undefined || options.private.length === 0) {
        return { diagnostics: [errorDiag(PRIVATE_MISSING, `The stored ${typeName} object has no private state: the testbed set it at plan, apply and import.`)] };
      }
      if (resource(typeName).gone?.(current) === true) return { newState: null };
      return { newState: current };
    },
    readDataSource: (_typeName, config) => readLookup(config, ctx),
    importResourceState(typeName, id) {
      const r = resource(typeName);
      if (r.importState === undefined) return { diagnostics: [errorDiag("Resource Import Not Implemented", `${typeName} does not support import.`)] };
      return r.importState(id, ctx);
    },
    upgradeResourceState(typeName, storedVersion, rawJson) {
      const r = resource(typeName);
      let raw: Record<string, unknown>;
      try {
        raw = JSON.parse(rawJson) as Record<string, unknown>;
      } catch (e) {
        return { diagnostics: [errorDiag("Unreadable stored state", `The stored ${typeName} state is not JSON: ${(e as Error).message}`)] };
      }
      if (storedVersion === r.entry.version) return { upgradedState: decodeCurrentState(raw, r.entry.type) };
      const up = r.upgradeFrom?.(storedVersion, raw);
      if (up !== undefined) return up;
      return { diagnostics: [errorDiag("Unable to Upgrade Resource State", `${typeName} has no state upgrader from schema version ${storedVersion} to ${r.entry.version}.`)] };
    },
    functions: testbedFunctions,
  });
}

/** The same as {@link createTestbedProvider}, under the name provider launchers call by default. */
export const createProvider = createTestbedProvider;

import {
  Path,
  listVal,
  listValEmpty,
  mapType,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  stringType,
  stringVal,
  unknownVal,
  type Value,
} from "@magma/cty";
import { configValue } from "../config-value.js";
import { errorDiag, warningDiag, type Diag } from "../diagnostic.js";
import { createNativeProvider, type NativeProviderImpl } from "../native-provider.js";
import type { Provider } from "../provider.js";
import { createSchemaEntry, impliedType, type Block, type SchemaEntry } from "../schema.js";

/** The block of the `memory_item` resource (schema version 1). */
export const memoryItemBlock: Block = Object.freeze<Block>({
  attributes: {
    id: { type: stringType, computed: true, description: "Assigned by the provider on create." },
    name: { type: stringType, required: true, description: "The item's name; changing it replaces the item." },
    value: { type: stringType, optional: true, description: 'The payload. `"fail"` makes apply fail without creating anything; `"fail-after-create"` makes it fail after storing the object (a partial apply); `"warn"` adds a warning.' },
    size: { type: numberType, optional: true, computed: true, description: "Defaults to the length of `name`." },
    tags: { type: mapType(stringType), optional: true },
  },
  blockTypes: {
    rule: {
      nesting: "list",
      block: {
        attributes: {
          port: { type: numberType, required: true },
          protocol: { type: stringType, optional: true, computed: true, description: 'Defaults to `"tcp"`.' },
        },
      },
    },
  },
});

/** The block of the `memory_lookup` data source: finds a stored item by name. */
export const memoryLookupBlock: Block = Object.freeze<Block>({
  attributes: {
    name: { type: stringType, required: true },
    id: { type: stringType, computed: true },
    value: { type: stringType, computed: true },
    tags: { type: mapType(stringType), computed: true },
  },
});

/** The block of the in-memory provider's own configuration. */
export const memoryProviderBlock: Block = Object.freeze<Block>({
  attributes: {
    id_prefix: { type: stringType, optional: true, description: 'Prefix of generated ids (default `"item-"`).' },
  },
});

/** The in-memory provider: a real {@link Provider} plus access to what it stores. */
export interface MemoryProvider extends Provider {
  /**
   * The stored `memory_item` objects by id. Tests may edit it to simulate drift (change
   * a state) or deletion outside Terraform (remove an entry).
   */
  readonly items: Map<string, Value>;
  /** How many times each operation was called, by name. */
  readonly calls: ReadonlyMap<string, number>;
}

/** Options of {@link createMemoryProvider}. */
export interface MemoryProviderOptions {
  /** Objects to start with, by id (states of `memory_item`). */
  readonly items?: Iterable<readonly [string, Value]>;
}

const PRIVATE = Uint8Array.from([...'{"memory":1}'].map((c) => c.charCodeAt(0)));

/**
 * A working provider that keeps its objects in memory, for tests of engines and other
 * packages. Schema:
 *
 * - provider config `{ id_prefix: optional string }`;
 * - resource `memory_item` (schema version 1): `id` computed, `name` required (changing
 *   it requires replacement), `value` optional, `size` optional+computed (defaults to the
 *   length of `name`), `tags` optional `map(string)`, and a `rule` list block
 *   `{ port: required number, protocol: optional+computed string, default "tcp" }`;
 *   `value = "fail"` / `"fail-after-create"` / `"warn"` inject an apply error, a partial
 *   apply and a warning;
 * - data source `memory_lookup` `{ name: required; id, value, tags: computed }`, an
 *   error diagnostic when no item has the name;
 * - import by id (null when absent); upgrade from version 0, whose state called `value`
 *   `data` and had no `size` or `rule`.
 *
 * It is built with {@link createNativeProvider}, so it enforces the contract's ordering,
 * type names and value types.
 */
export function createMemoryProvider(options: MemoryProviderOptions = {}): MemoryProvider {
  const items = new Map<string, Value>(options.items ?? []);
  const calls = new Map<string, number>();
  const count = (op: string): void => void calls.set(op, (calls.get(op) ?? 0) + 1);
  let prefix = "item-";
  let next = 1;

  const item: SchemaEntry = createSchemaEntry(memoryItemBlock, 1);
  const lookup: SchemaEntry = createSchemaEntry(memoryLookupBlock);
  const ruleType = impliedType(memoryItemBlock.blockTypes!["rule"]!.block);

  /** Fills in what the provider decides at plan time: size, rule protocols; id stays unknown until apply. */
  const plan = (proposed: Value, prior: Value): Value => {
    const a = proposed.attributes();
    const name = a["name"]!;
    let size = a["size"]!;
    if (size.isNull()) size = name.isKnown() ? numberVal([...name.asString()].length) : unknownVal(numberType, { notNull: true });
    const rules = a["rule"]!;
    const planned = rules.isKnown() && rules.length() > 0
      ? rules.elements().map((r) => {
          const ra = r.attributes();
          return objectVal({ port: ra["port"]!, protocol: ra["protocol"]!.isNull() ? stringVal("tcp") : ra["protocol"]! });
        })
      : undefined;
    return objectVal({
      ...a,
      id: prior.isNull() ? unknownVal(stringType, { notNull: true }) : prior.getAttr("id"),
      size,
      rule: planned === undefined ? (rules.isKnown() ? listValEmpty(ruleType) : rules) : listVal(planned),
    });
  };

  const impl: NativeProviderImpl = {
    getSchema() {
      count("getSchema");
      return {
        provider: createSchemaEntry(memoryProviderBlock),
        resources: new Map([["memory_item", item]]),
        dataSources: new Map([["memory_lookup", lookup]]),
        serverCapabilities: { planDestroy: true, getProviderSchemaOptional: true },
      };
    },

    configure(config) {
      count("configure");
      const p = config.getAttr("id_prefix");
      if (!p.isKnown()) return { diagnostics: [errorDiag("id_prefix must be known", undefined, Path.root.attr("id_prefix"))] };
      if (!p.isNull()) prefix = p.asString();
      return {};
    },

    planResourceChange(_typeName, prior, proposed) {
      count("planResourceChange");
      if (proposed.isNull()) return { plannedState: proposed };
      const planned = plan(proposed, prior);
      const requiresReplace: Path[] = [];
      if (!prior.isNull() && !prior.getAttr("name").rawEquals(planned.getAttr("name"))) requiresReplace.push(Path.root.attr("name"));
      return { plannedState: planned, requiresReplace, plannedPrivate: PRIVATE };
    },

    applyResourceChange(_typeName, prior, planned) {
      count("applyResourceChange");
      if (planned.isNull()) {
        items.delete(prior.getAttr("id").asString());
        return { newState: planned };
      }
      const a = planned.attributes();
      const value = a["value"]!;
      const payload = value.isKnown() && !value.isNull() ? value.asString() : undefined;
      if (payload === "fail") return { diagnostics: [errorDiag("memory_item refused the change", 'value is "fail"', Path.root.attr("value"))] };
      const id = a["id"]!.isKnown() ? a["id"]!.asString() : `${prefix}${next++}`;
      const state = objectVal({ ...a, id: stringVal(id) });
      if (!state.isWhollyKnown()) return { diagnostics: [errorDiag("memory_item cannot store unknown values", state.toString())] };
      items.set(id, state);
      const diagnostics: Diag[] = [];
      if (payload === "fail-after-create") diagnostics.push(errorDiag("memory_item failed after storing the object", 'value is "fail-after-create"'));
      if (payload === "warn") diagnostics.push(warningDiag("memory_item was asked to warn", undefined, Path.root.attr("value")));
      return { newState: state, private: PRIVATE, diagnostics };
    },

    readResource(_typeName, current, options) {
      count("readResource");
      const stored = items.get(current.getAttr("id").asString());
      if (stored === undefined) return { newState: null };
      return { newState: stored, private: options.private ?? PRIVATE };
    },

    readDataSource(_typeName, config) {
      count("readDataSource");
      const name = config.getAttr("name");
      if (!name.isKnown()) return { diagnostics: [errorDiag("name must be known", undefined, Path.root.attr("name"))] };
      for (const s of items.values()) {
        if (s.getAttr("name").rawEquals(name)) {
          return { state: objectVal({ name, id: s.getAttr("id"), value: s.getAttr("value"), tags: s.getAttr("tags").isNull() ? nullVal(mapType(stringType)) : s.getAttr("tags") }) };
        }
      }
      return { diagnostics: [errorDiag("no such item", `no memory_item is named ${JSON.stringify(name.isNull() ? null : name.asString())}`, Path.root.attr("name"))] };
    },

    importResourceState(typeName, id) {
      count("importResourceState");
      const s = items.get(id);
      return { resources: s === undefined ? [] : [{ typeName, state: s, private: PRIVATE }] };
    },

    upgradeResourceState(_typeName, version, rawJson) {
      count("upgradeResourceState");
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawJson);
      } catch (e) {
        return { diagnostics: [errorDiag("stored state is not JSON", e instanceof Error ? e.message : String(e))] };
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { diagnostics: [errorDiag("stored state is not a JSON object")] };
      const raw = { ...(parsed as Record<string, unknown>) };
      if (version === 0) {
        raw["value"] = raw["data"];
        delete raw["data"];
      }
      try {
        return { upgradedState: configValue(memoryItemBlock, raw) };
      } catch (e) {
        return { diagnostics: [errorDiag("stored state does not fit the schema", e instanceof Error ? e.message : String(e))] };
      }
    },
  };

  const provider = createNativeProvider(impl);
  return Object.assign(Object.create(null) as object, provider, { items, calls }) as MemoryProvider;
}


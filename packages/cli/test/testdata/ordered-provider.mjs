// Test fixture: @magma/provider-random whose creates and destroys are slowed (ORDERED_PROVIDER_MS
// milliseconds, default 300) and logged, one line each to ORDERED_PROVIDER_LOG when set:
// `create-start NAME`, `create-end NAME`, `delete-start NAME`, `delete-end NAME`, where NAME is
// the object's `keepers["name"]`; so that a test can see in which order an apply created and
// destroyed objects (a dependent started before its dependency ended shows in the log). It has
// one data source, `random_slow` (`input` optional, `id` computed: "slow-<input>", `secret`
// computed and sensitive: "s-<input>"), whose reads take ORDERED_PROVIDER_READ_MS milliseconds
// (default 0), for plan-time races on data reads. With ORDERED_PROVIDER_DRIFT=1, a refresh of
// a random_string finds its `id` changed outside (suffixed "-drifted"; a computed attribute, so
// the plan is a no-op). With ORDERED_PROVIDER_GONE set to names (comma-separated), a refresh of
// an object whose keepers["name"] is one of them finds it gone (deleted outside). Everything else
// is provider-random's.
import { appendFileSync } from "node:fs";
import { objectVal, stringType, stringVal } from "@magma/cty";
import { createSchemaEntry } from "@magma/provider-api";
import { createRandomProvider } from "@magma/provider-random";

const slow = createSchemaEntry({ attributes: { input: { type: stringType, optional: true }, id: { type: stringType, computed: true }, secret: { type: stringType, computed: true, sensitive: true } } });

/** The object's keepers["name"], or "?". */
function nameOf(v) {
  if (v.isNull() || !v.isKnown()) return "?";
  const keepers = v.getAttr("keepers");
  if (!keepers.isKnown() || keepers.isNull()) return "?";
  const name = keepers.entries().get("name");
  return name !== undefined && name.isKnown() && !name.isNull() ? name.asString() : "?";
}

function log(line) {
  const file = process.env.ORDERED_PROVIDER_LOG;
  if (file !== undefined && file !== "") appendFileSync(file, `${line}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** provider-random with logged, slowed creates and destroys, and a slow data source. */
export function createProvider() {
  const ms = Number(process.env.ORDERED_PROVIDER_MS ?? "300");
  const readMs = Number(process.env.ORDERED_PROVIDER_READ_MS ?? "0");
  const random = createRandomProvider();
  return {
    ...random,
    async getSchema(options) {
      const schema = await random.getSchema(options);
      return { ...schema, dataSources: new Map([["random_slow", slow]]) };
    },
    async readDataSource(typeName, config, options) {
      if (typeName !== "random_slow") return random.readDataSource(typeName, config, options);
      await sleep(readMs);
      const input = config.getAttr("input");
      const text = input.isKnown() && !input.isNull() ? input.asString() : "";
      return { state: objectVal({ input, id: stringVal(`slow-${text}`), secret: stringVal(`s-${text}`) }), warnings: [] };
    },
    async readResource(typeName, currentState, options) {
      const r = await random.readResource(typeName, currentState, options);
      if ((process.env.ORDERED_PROVIDER_GONE ?? "").split(",").includes(nameOf(currentState))) return { gone: true, warnings: r.warnings };
      if (process.env.ORDERED_PROVIDER_DRIFT !== "1" || typeName !== "random_string" || r.gone || r.newState.isNull()) return r;
      const id = r.newState.getAttr("id").asString();
      return id.endsWith("-drifted") ? r : { ...r, newState: objectVal({ ...r.newState.attributes(), id: stringVal(`${id}-drifted`) }) };
    },
    async applyResourceChange(typeName, priorState, plannedState, config, options) {
      const kind = plannedState.isNull() ? "delete" : priorState.isNull() ? "create" : undefined;
      if (kind === undefined) return random.applyResourceChange(typeName, priorState, plannedState, config, options);
      const name = nameOf(kind === "delete" ? priorState : plannedState);
      log(`${kind}-start ${name}`);
      await sleep(ms);
      const out = await random.applyResourceChange(typeName, priorState, plannedState, config, options);
      log(`${kind}-end ${name}`);
      return out;
    },
  };
}

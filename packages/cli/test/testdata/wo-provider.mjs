// Test fixture: a native provider (served by @magma/provider-server) with write-only
// attributes, for comparing how terraform and magma send, keep out of state and render them.
// One resource type, wo_secret:
//
// - `name` (required, forces replacement), `id` (computed: "wo-<name>");
// - `secret_wo` (write-only) and `secret_wo_version` (an ordinary number: changing it is
//   what makes the update, as with hashicorp/aws's value_wo_version);
// - `login`, a nested attribute (single) with `user`, a write-only `token_wo` and a
//   sensitive write-only `pin_wo`; `cred`, a list block with `user` and a write-only
//   `password_wo`.
//
// Plan and apply keep the configuration with every write-only attribute null
// (stripWriteOnlyAttributes); read returns the object as stored. Every plan and apply appends
// a line to `wo-calls.log` in the provider's working directory: the call, the name and the
// write-only values the configuration sent, so a test can tell they arrived.
//
// A `name` asks for a misbehaviour that the wrapped native provider would reject, injected
// after its checks so that terraform sees it: "leak-plan" plans `secret_wo` as configured,
// "leak-apply" returns it after apply, "leak-read" reads `secret_wo` back as "read-back".
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { Path, fromJson, numberType, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, nonNullWriteOnlyPaths, stripWriteOnlyAttributes } from "@magma/provider-api";

const str = { type: stringType, optional: true };

/** The wo_secret block. */
export const secretBlock = {
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    secret_wo: { type: stringType, optional: true, writeOnly: true },
    secret_wo_version: { type: numberType, optional: true },
    login: {
      optional: true,
      nestedType: { nesting: "single", attributes: { user: str, token_wo: { ...str, writeOnly: true }, pin_wo: { ...str, writeOnly: true, sensitive: true } } },
    },
  },
  blockTypes: {
    cred: { nesting: "list", block: { attributes: { user: str, password_wo: { ...str, writeOnly: true } } } },
  },
};
const entry = createSchemaEntry(secretBlock);

function nameOf(v) {
  return v.isNull() ? "" : v.getAttr("name").asString();
}

function withAttr(v, name, x) {
  return objectVal({ ...v.attributes(), [name]: x });
}

function record(call, config) {
  if (config.isNull()) return;
  const sent = nonNullWriteOnlyPaths(secretBlock, config).map((p) => `${p.toString()}=${config.getPath(p).isKnown() ? config.getPath(p).asString() : "(unknown)"}`);
  appendFileSync(join(process.cwd(), "wo-calls.log"), `${call} ${nameOf(config)} ${sent.join(" ")}\n`);
}

/** The provider. */
export function createProvider() {
  const native = createNativeProvider({
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map([["wo_secret", entry]]), dataSources: new Map() }),
    configure: () => ({}),
    planResourceChange: (_t, prior, proposed, config) => {
      record("plan", config);
      if (proposed.isNull()) return { plannedState: proposed };
      const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
      const planned = withAttr(stripWriteOnlyAttributes(secretBlock, proposed), "id", id);
      return { plannedState: planned, requiresReplace: !prior.isNull() && nameOf(prior) !== nameOf(proposed) ? [Path.root.attr("name")] : [] };
    },
    applyResourceChange: (_t, _prior, planned, config) => {
      record("apply", config);
      if (planned.isNull()) return { newState: planned };
      const id = planned.getAttr("id");
      return { newState: id.isKnown() ? planned : withAttr(planned, "id", stringVal(`wo-${nameOf(planned)}`)) };
    },
    readResource: (_t, current) => ({ newState: current }),
    readDataSource: () => {
      throw new Error("wo has no data sources");
    },
    importResourceState: () => ({}),
    upgradeResourceState: (_t, _v, raw, _o, ctx) => ({ upgradedState: fromJson(raw, ctx.entry.type) }),
  });

  return {
    ...native,
    getSchema: (...a) => native.getSchema(...a),
    configure: (...a) => native.configure(...a),
    readDataSource: (...a) => native.readDataSource(...a),
    importResourceState: (...a) => native.importResourceState(...a),
    upgradeResourceState: (...a) => native.upgradeResourceState(...a),
    async planResourceChange(typeName, prior, proposed, config, options) {
      const r = await native.planResourceChange(typeName, prior, proposed, config, options);
      if (nameOf(config) === "leak-plan") return { ...r, plannedState: withAttr(r.plannedState, "secret_wo", config.getAttr("secret_wo")) };
      return r;
    },
    async applyResourceChange(typeName, prior, planned, config, options) {
      const r = await native.applyResourceChange(typeName, prior, planned, config, options);
      if (nameOf(config) === "leak-apply") return { ...r, newState: withAttr(r.newState, "secret_wo", config.getAttr("secret_wo")) };
      return r;
    },
    async readResource(typeName, current, options) {
      const r = await native.readResource(typeName, current, options);
      if (!r.gone && nameOf(current) === "leak-read") return { ...r, newState: withAttr(r.newState, "secret_wo", stringVal("read-back")) };
      return r;
    },
  };
}

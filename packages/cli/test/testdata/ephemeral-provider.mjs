// Test fixture: a native provider (served by @magma/provider-server) that records every open,
// renew and close of its ephemeral resource to a file, so a test can prove that each instance
// opened was closed, whoever drives it (magma or terraform) and however the run ended.
//
// - provider configuration: `token` (optional, sensitive), typically fed by an ephemeral value;
// - ephemeral `eph_token`: `prefix` (optional), `fail` (optional: "open" fails the open),
//   `renew_ms` (optional: renewAt that many ms after each open or renew), `value` (computed:
//   prefix + 16 random hex digits). Each open gets an id ("<pid>-<n>") kept in the private data;
//   the record file (env EPH_RECORD_FILE) gets "open <id> <value>", "renew <id>", "close <id>"
//   lines, and "configure <token>" for each configuration with a token (so that a test knows
//   every secret it must not find elsewhere);
// - managed `eph_probe`: `name` (required), `fail` (optional: "apply" fails the create or
//   update), `token_length` (computed at apply: the length of the configured token, 0 without
//   one), `id` (computed: "probe-<name>"). A create takes env EPH_SLOW_MS milliseconds (default
//   0), so that a test can interrupt an apply while an ephemeral resource is open.
import { appendFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { fromJson, numberType, numberVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag } from "@magma/provider-api";

const opt = { type: stringType, optional: true };
const token = createSchemaEntry({
  attributes: {
    prefix: opt,
    fail: opt,
    renew_ms: { type: numberType, optional: true },
    value: { type: stringType, computed: true },
  },
});
const probe = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    fail: opt,
    token_length: { type: numberType, computed: true },
  },
});

function record(line) {
  const file = process.env.EPH_RECORD_FILE;
  if (file !== undefined && file !== "") appendFileSync(file, `${line}\n`);
}

function text(v) {
  return v.isKnown() && !v.isNull() ? v.asString() : undefined;
}

let opened = 0;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function createProvider() {
  let configuredToken = "";
  return createNativeProvider({
    getSchema() {
      return {
        provider: createSchemaEntry({ attributes: { token: { type: stringType, optional: true, sensitive: true } } }),
        resources: new Map([["eph_probe", probe]]),
        dataSources: new Map(),
        ephemeralResources: new Map([["eph_token", token]]),
      };
    },
    configure(config) {
      configuredToken = text(config.getAttr("token")) ?? "";
      if (configuredToken !== "") record(`configure ${configuredToken}`);
    },
    planResourceChange(_t, prior, proposed) {
      if (proposed.isNull()) return { plannedState: proposed };
      const same = !prior.isNull() && prior.getAttr("name").rawEquals(proposed.getAttr("name")) && prior.getAttr("fail").rawEquals(proposed.getAttr("fail"));
      return {
        plannedState: objectVal({
          ...proposed.attributes(),
          id: prior.isNull() ? unknownVal(stringType) : prior.getAttr("id"),
          token_length: same ? prior.getAttr("token_length") : unknownVal(numberType),
        }),
      };
    },
    async applyResourceChange(_t, prior, planned) {
      if (planned.isNull()) return { newState: planned };
      const ms = Number(process.env.EPH_SLOW_MS ?? "0");
      if (prior.isNull() && ms > 0) await new Promise((r) => setTimeout(r, ms));
      if (text(planned.getAttr("fail")) === "apply") return { diagnostics: [errorDiag("eph_probe: the apply is refused", "This provider refuses to apply an object whose fail = apply.")] };
      const name = planned.getAttr("name").asString();
      return { newState: objectVal({ ...planned.attributes(), id: stringVal(`probe-${name}`), token_length: numberVal(configuredToken.length) }) };
    },
    readResource(_t, current) {
      return { newState: current };
    },
    readDataSource() {
      throw new Error("eph has no data sources");
    },
    importResourceState() {
      throw new Error("eph imports nothing");
    },
    upgradeResourceState(_t, _v, rawJson, _o, ctx) {
      return { upgradedState: fromJson(rawJson, ctx.entry.type) };
    },
    ephemeralResources: {
      eph_token: {
        open(config) {
          if (text(config.getAttr("fail")) === "open") return { diagnostics: [errorDiag("eph_token: the open is refused", "This provider refuses to open an eph_token whose fail = open.")] };
          const id = `${process.pid}-${++opened}`;
          const renew = config.getAttr("renew_ms");
          const renewMs = renew.isNull() ? undefined : renew.asNumber().toNumber();
          const value = `${text(config.getAttr("prefix")) ?? ""}${randomBytes(8).toString("hex")}`;
          record(`open ${id} ${value}`);
          return {
            result: objectVal({ ...config.attributes(), value: stringVal(value) }),
            private: encoder.encode(JSON.stringify({ id, renewMs })),
            ...(renewMs !== undefined ? { renewAt: new Date(Date.now() + renewMs) } : {}),
          };
        },
        renew(privateData) {
          const p = JSON.parse(decoder.decode(privateData));
          record(`renew ${p.id}`);
          return { private: privateData, renewAt: new Date(Date.now() + p.renewMs) };
        },
        close(privateData) {
          const p = JSON.parse(decoder.decode(privateData));
          record(`close ${p.id}`);
        },
      },
    },
  });
}

import { nullVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, type Provider } from "@magma/provider-api";
import type { FaultMode, FaultOperation } from "./fault-mode.js";

/** The resource type of the fault provider. */
export const faultThingType = "fault_thing";
/** The data source of the fault provider. */
export const faultDataType = "fault_data";

/** The provider configuration: `secret_key` is sensitive. */
export const faultProviderEntry = createSchemaEntry({
  attributes: {
    access_key: { type: stringType, optional: true },
    secret_key: { type: stringType, optional: true, sensitive: true },
  },
});

/** `fault_thing`: `secret` is sensitive; `id` is computed. */
export const faultThingEntry = createSchemaEntry({
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    secret: { type: stringType, optional: true, sensitive: true },
  },
});

/** `fault_data`: `token` is a sensitive computed value derived from `name` and the configured secret key. */
export const faultDataEntry = createSchemaEntry({
  attributes: {
    name: { type: stringType, optional: true },
    token: { type: stringType, computed: true, sensitive: true },
  },
});

/** What the fault provider does when its faulty operation runs. */
export interface FaultHooks {
  /** Crash like a Go panic (never returns). */
  panic(operation: FaultOperation): never;
  /** Kill the own process with SIGKILL (never returns). */
  sigkill(operation: FaultOperation): never;
  /** Resolves once StopProvider has been received (whatever the call's own signal does). */
  stopped(): Promise<void>;
  /** Records an event (e.g. `hang:applyResourceChange`, `stop-received`). */
  record(event: string): void;
}

/** Settings of {@link createFaultProvider}. */
export interface FaultProviderSettings {
  /** The misbehaviour (only `panic`, `hang` and `sigkill` act inside a call). */
  readonly mode: FaultMode;
  /** The operation that misbehaves. */
  readonly operation: FaultOperation | undefined;
  /** The process-level actions. */
  readonly hooks: FaultHooks;
}

/**
 * A small native provider (one resource `fault_thing`, one data source `fault_data`, a
 * provider configuration with a sensitive `secret_key`) whose chosen operation panics,
 * hangs until StopProvider, or SIGKILLs the process, for the reliability tests.
 */
export function createFaultProvider(settings: FaultProviderSettings): Provider {
  const { mode, operation, hooks } = settings;
  let secretKey = "";
  const fault = async (op: FaultOperation): Promise<void> => {
    hooks.record(`call:${op}`);
    if (op !== operation) return;
    if (mode === "panic") hooks.panic(op);
    if (mode === "sigkill") hooks.sigkill(op);
    if (mode === "hang") {
      hooks.record(`hang:${op}`);
      await hooks.stopped(); // ignores the call's own cancellation: only StopProvider ends it
      hooks.record(`returned:${op}`);
    }
  };
  return createNativeProvider({
    async getSchema() {
      await fault("getSchema");
      return {
        provider: faultProviderEntry,
        resources: new Map([[faultThingType, faultThingEntry]]),
        dataSources: new Map([[faultDataType, faultDataEntry]]),
      };
    },
    async configure(config) {
      await fault("configure");
      const k = config.getAttr("secret_key");
      secretKey = k.isKnown() && !k.isNull() ? k.asString() : "";
      return {};
    },
    async planResourceChange(_t, prior, proposed) {
      await fault("planResourceChange");
      if (proposed.isNull()) return { plannedState: proposed };
      const id = prior.isNull() ? unknownVal(stringType) : prior.getAttr("id");
      return { plannedState: withAttr(proposed, "id", id) };
    },
    async applyResourceChange(_t, _prior, planned) {
      await fault("applyResourceChange");
      if (planned.isNull()) return { newState: planned };
      return { newState: withAttr(planned, "id", stringVal(`thing-${planned.getAttr("name").asString()}`)) };
    },
    async readResource(_t, current) {
      await fault("readResource");
      return { newState: current };
    },
    async readDataSource(_t, config) {
      await fault("readDataSource");
      const name = config.getAttr("name");
      return { state: objectVal({ name, token: stringVal(`token:${secretKey}:${name.isNull() ? "" : name.asString()}`) }) };
    },
    async importResourceState(typeName, id) {
      await fault("importResourceState");
      if (!id.startsWith("thing-")) return { diagnostics: [errorDiag("Cannot import", `ids start with thing-, got ${JSON.stringify(id)}`)] };
      return { resources: [{ typeName, state: objectVal({ id: stringVal(id), name: stringVal(id.slice(6)), secret: nullVal(stringType) }) }] };
    },
    async upgradeResourceState(_t, _v, rawJson) {
      await fault("upgradeResourceState");
      const raw = JSON.parse(rawJson) as { id?: string; name?: string; secret?: string | null };
      return {
        upgradedState: objectVal({
          id: raw.id === undefined ? nullVal(stringType) : stringVal(raw.id),
          name: stringVal(raw.name ?? ""),
          secret: raw.secret === undefined || raw.secret === null ? nullVal(stringType) : stringVal(raw.secret),
        }),
      };
    },
  });
}

function withAttr(v: Value, name: string, value: Value): Value {
  return objectVal({ ...v.attributes(), [name]: value });
}

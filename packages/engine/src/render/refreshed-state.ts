import { toJson } from "@magma/cty";
import { dataReadStateType } from "../plan/data-read-source.js";
import type { ProviderSchema } from "@magma/provider-api";
import { encodeOutput, formatModuleInstance, formatProviderConfig, parseResourceInstance, type StateFile } from "@magma/state";
import { ApplyState, type StoredObject } from "../apply/apply-state.js";
import type { Plan } from "../plan/plan.js";
import { PlanAction } from "../plan/plan-action.js";
import { unknownsToNull } from "../instance/unknowns-to-null.js";

/**
 * The prior state a plan was made from as Terraform's plan keeps it (its refreshed
 * `PriorState`): the stored state with the plan's moves applied, the objects the refresh
 * found changed written as read and those it found gone removed (`drift`), the objects
 * `import` blocks read added, the data sources read at plan written, and the root outputs the plan evaluated to known values set.
 * The given state is not changed.
 */
export function refreshedPriorState(plan: Plan, state: StateFile, schemas: ReadonlyMap<string, ProviderSchema>): StateFile {
  const s = new ApplyState(state, async () => undefined);
  const providerOf = (address: string): string | undefined => {
    const a = parseResourceInstance(address);
    const r = state.resources.find((x) => x.mode === a.mode && x.type === a.type && x.name === a.name && formatModuleInstance(x.module) === formatModuleInstance(a.module));
    return r === undefined ? undefined : formatProviderConfig(r.provider);
  };
  const versionOf = (type: string, mode: "managed" | "data"): number => {
    for (const p of schemas.values()) {
      const e = (mode === "managed" ? p.resources : p.dataSources).get(type);
      if (e !== undefined) return e.version;
    }
    return 0;
  };
  /** The default provider configuration of the one provider whose schema declares a data source type. */
  const dataProvider = (type: string): string | undefined => {
    const declaring = [...schemas].filter(([, p]) => p.dataSources.has(type)).map(([k]) => k);
    return declaring.length === 1 ? `provider[${JSON.stringify(declaring[0])}]` : undefined;
  };
  // The commits apply in memory at once; their (no-op) writes are not waited for.
  const commit = (mutate: Parameters<ApplyState["commit"]>[0]): void => void s.commit(mutate).catch(() => undefined);
  commit((w) => {
    const moved = new Set<string>();
    for (const c of [...plan.changes, ...(plan.drift ?? [])]) {
      if (c.deposedKey !== undefined || c.previousAddress === undefined || c.previousAddress === c.address || moved.has(c.address)) continue;
      moved.add(c.address);
      const o = s.get(c.previousAddress, undefined);
      const provider = c.providerConfig ?? providerOf(c.previousAddress);
      if (o === undefined || provider === undefined) continue;
      w.set(c.previousAddress, provider, undefined, null);
      w.set(c.address, provider, undefined, o);
    }
    for (const d of plan.drift ?? []) {
      const previous = s.get(d.address, d.deposedKey);
      const provider = d.providerConfig ?? providerOf(d.address);
      if (previous === undefined || provider === undefined) continue;
      if (d.after.isNull()) w.set(d.address, provider, d.deposedKey, null);
      else w.set(d.address, provider, d.deposedKey, { ...previous, attributesJson: toJson(d.after.unmarkDeep().value, d.after.type), attributesFlat: undefined });
    }
    for (const c of plan.changes) {
      if (c.importId === undefined || c.deposedKey !== undefined || c.before.isNull() || c.action === PlanAction.Forget) continue;
      const provider = c.providerConfig ?? providerOf(c.address);
      if (provider === undefined || s.get(c.address, undefined) !== undefined) continue;
      const object: StoredObject = {
        tainted: false,
        schemaVersion: c.schemaVersion ?? versionOf(c.typeName, "managed"),
        attributesJson: toJson(c.before.unmarkDeep().value, c.before.type),
        attributesFlat: undefined,
        sensitiveAttributesJson: "[]",
        private: c.priorPrivate.length > 0 ? c.priorPrivate : undefined,
        dependencies: [],
        createBeforeDestroy: false,
      };
      w.set(c.address, provider, undefined, object);
    }
    // Orphaned data source instances are not in the refreshed state …
    for (const address of plan.dataRemovals ?? []) {
      const provider = providerOf(address);
      if (provider !== undefined) w.set(address, provider, undefined, null);
    }
    // … nor is a data source whose read is planned for the apply …
    for (const c of plan.changes) {
      if (c.mode !== "data" || c.action !== PlanAction.Read || plan.dataReads?.[c.address] !== undefined) continue;
      const provider = c.providerConfig ?? providerOf(c.address) ?? dataProvider(c.typeName);
      if (provider !== undefined) w.set(c.address, provider, undefined, null);
    }
    // … and the data sources read during the plan are, as read.
    for (const [address, value] of Object.entries(plan.dataReads ?? {})) {
      const a = parseResourceInstance(address);
      const source = plan.dataReadSources?.[address];
      // Recorded under the provider configuration it was read with (an aliased one too).
      const provider = source?.provider ?? providerOf(address) ?? dataProvider(a.type);
      if (provider === undefined) continue;
      // A check block's data source whose read failed holds unknowns: stored as nulls (as Terraform's state JSON shows them).
      const v = unknownsToNull(value.unmarkDeep().value);
      const previous = s.get(address, undefined);
      w.set(address, provider, undefined, {
        tainted: false,
        schemaVersion: source?.schemaVersion ?? versionOf(a.type, "data"),
        attributesJson: toJson(v, source === undefined ? v.type : dataReadStateType(source, v)),
        attributesFlat: undefined,
        sensitiveAttributesJson: "[]",
        private: undefined,
        dependencies: previous?.dependencies ?? [],
        createBeforeDestroy: false,
      });
    }
    // The plan walk writes every root output it evaluated to a known value.
    const outputs = new Map(s.outputs);
    for (const o of plan.outputs ?? []) {
      if (o.action === "delete") continue;
      const v = o.after.unmarkDeep().value;
      if (v.isWhollyKnown()) outputs.set(o.name, encodeOutput(v, v.type, o.sensitive));
    }
    w.setOutputs(outputs);
  });
  return s.snapshot();
}

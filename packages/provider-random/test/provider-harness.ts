/**
 * Helpers for driving the random provider through the full contract in tests, as an engine
 * (or Terraform) would: the configuration value from plain data, Terraform's proposed new
 * state, plan, then apply.
 */
import { nullVal, type Value } from "@magma/cty";
import {
  configValue,
  isProviderError,
  proposedNewState,
  type Block,
  type Diag,
  type PlainConfig,
  type PlannedChange,
  type Provider,
  type SchemaEntry,
} from "@magma/provider-api";
import { createRandomProvider } from "../src/index.js";

/** A configured random provider and its resource schemas. */
export async function configuredProvider(): Promise<{
  provider: Provider;
  entry: (type: string) => SchemaEntry;
}> {
  const provider = createRandomProvider();
  const schema = await provider.getSchema();
  await provider.configure(configValue(schema.provider.block, {}), "1.11.4");
  return {
    provider,
    entry: (type) => {
      const e = schema.resources.get(type);
      if (e === undefined) throw new Error(`no schema for ${type}`);
      return e;
    },
  };
}

/** One plan against a prior state (null for a create), with the config built from plain data. */
export async function plan(
  provider: Provider,
  entry: SchemaEntry,
  prior: Value,
  plain: PlainConfig,
): Promise<{ config: Value; plan: PlannedChange }> {
  const config = configValue(entry.block, plain);
  const p = await provider.planResourceChange(
    typeNameOf(provider, entry),
    prior,
    proposedNewState(entry.block, prior, config),
    config,
  );
  return { config, plan: p };
}

const typeNames = new WeakMap<SchemaEntry, string>();

/** Registers the type name of a schema entry for {@link plan} and {@link create}. */
export function named(entry: SchemaEntry, typeName: string): SchemaEntry {
  typeNames.set(entry, typeName);
  return entry;
}

function typeNameOf(_provider: Provider, entry: SchemaEntry): string {
  const n = typeNames.get(entry);
  if (n === undefined) throw new Error("schema entry not registered with named()");
  return n;
}

/** Plans and applies a create; returns the plan and the new state. */
export async function create(
  provider: Provider,
  entry: SchemaEntry,
  plain: PlainConfig,
): Promise<{ plan: PlannedChange; state: Value; config: Value }> {
  const prior = nullVal(entry.type);
  const { config, plan: p } = await plan(provider, entry, prior, plain);
  const applied = await provider.applyResourceChange(
    typeNameOf(provider, entry),
    prior,
    p.plannedState,
    config,
  );
  return { plan: p, state: applied.newState, config };
}

/** The diagnostics of a call that must reject with `diagnostics`. */
export async function rejectedDiags(call: Promise<unknown>): Promise<readonly Diag[]> {
  try {
    await call;
  } catch (e) {
    if (isProviderError(e) && e.detail.code === "diagnostics") return e.detail.diagnostics;
    throw e;
  }
  throw new Error("the call succeeded but was expected to reject with diagnostics");
}

/** Diagnostics as `summary @ path` strings, for compact assertions. */
export function diagsAt(diags: readonly Diag[]): string[] {
  return diags.map((d) => `${d.severity}: ${d.summary} @ ${d.attribute?.toString() ?? "-"}`);
}

/** The block of an entry (shorthand). */
export function blockOf(entry: SchemaEntry): Block {
  return entry.block;
}

/** A state value as the plain JSON object Terraform stores. */
export function plainOf(v: Value): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v.attributes())) out[k] = toPlain(x);
  return out;
}

function toPlain(v: Value): unknown {
  if (v.isNull()) return null;
  switch (v.type.kind) {
    case "string":
      return v.asString();
    case "bool":
      return v.asBool();
    case "number":
      return Number(v.asNumber().toString());
    case "map":
      return Object.fromEntries([...v.entries()].map(([k, x]) => [k, toPlain(x)]));
    case "list":
      return v.elements().map(toPlain);
    default:
      throw new Error(`unexpected ${v.type.kind}`);
  }
}

import type { Value } from "@magma/cty";
import {
  diagnosticsError,
  errorDiag,
  stripWriteOnlyAttributes,
  unknownTypeError,
  type ApplyResult,
  type ConfigureResult,
  type ImportResult,
  type PlannedChange,
  type Provider,
  type ProviderSchema,
  type ReadDataSourceResult,
  type ReadResourceOptions,
  type ReadResourceResult,
  type SchemaEntry,
  type UpgradeResult,
} from "@magma/provider-api";
import { rangeText } from "./test-file-blocks.js";
import { MockProvider } from "./mock-provider.js";
import { populateComputedValues, type MockedData, type MockProblem } from "./mock-values.js";
import type { TestOverride } from "./test-override.js";

const EMPTY = new Uint8Array();

function raise(problems: readonly MockProblem[], operation: string): void {
  if (problems.length > 0) throw diagnosticsError(problems.map((p) => errorDiag(p.summary, p.detail)), operation);
}

/**
 * The provider of one overridden resource or data source instance (Terraform core's
 * handling of `override_resource`/`override_data`): it plans, applies and reads from the
 * override's `values` (computed attributes unknown while planning unless `override_during =
 * plan`, generated when not given) and never calls the provider for the instance; the
 * provider still answers for its schema and the instance's state upgrades.
 */
export class OverrideProvider implements Provider {
  readonly #real: Provider;
  readonly #override: TestOverride;

  constructor(real: Provider, override: TestOverride) {
    this.#real = real;
    this.#override = override;
  }

  #data(computedAsUnknown: boolean): MockedData {
    const o = this.#override;
    return { ...(o.values !== undefined ? { value: o.values } : {}), ...(o.valuesRange !== undefined ? { range: rangeText(o.valuesRange) } : {}), ...(computedAsUnknown ? { computedAsUnknown } : {}) };
  }

  getSchema(): Promise<ProviderSchema> {
    return this.#real.getSchema();
  }

  configure(): Promise<ConfigureResult> {
    return Promise.resolve({ warnings: [] });
  }

  async #resource(typeName: string): Promise<SchemaEntry> {
    const e = (await this.getSchema()).resources.get(typeName);
    if (e === undefined) throw unknownTypeError("resource", typeName);
    return e;
  }

  async planResourceChange(typeName: string, priorState: Value, proposedNewState: Value): Promise<PlannedChange> {
    const base = { requiresReplace: [], plannedPrivate: EMPTY, legacyTypeSystem: false, warnings: [] };
    if (proposedNewState.isNull()) return { ...base, plannedState: proposedNewState };
    const entry = await this.#resource(typeName);
    // Overrides only matter for a create: an update has no computed values to fill.
    if (!priorState.isNull()) return { ...base, plannedState: stripWriteOnlyAttributes(entry.block, proposedNewState) };
    const problems: MockProblem[] = [];
    const value = populateComputedValues(proposedNewState, this.#data(!this.#override.useForPlan), entry.block, (v) => v.isNull(), problems);
    raise(problems, "PlanResourceChange");
    return { ...base, plannedState: stripWriteOnlyAttributes(entry.block, value) };
  }

  async applyResourceChange(typeName: string, _priorState: Value, plannedState: Value): Promise<ApplyResult> {
    const base = { private: EMPTY, legacyTypeSystem: false, warnings: [] };
    if (plannedState.isNull()) return { ...base, newState: plannedState };
    const entry = await this.#resource(typeName);
    const problems: MockProblem[] = [];
    const value = populateComputedValues(plannedState, this.#data(false), entry.block, (v) => !v.isKnown(), problems);
    raise(problems, "ApplyResourceChange");
    return { ...base, newState: value };
  }

  readResource(_typeName: string, currentState: Value, options?: ReadResourceOptions): Promise<ReadResourceResult> {
    return Promise.resolve({ gone: false, newState: currentState, private: options?.private ?? EMPTY, warnings: [] });
  }

  async readDataSource(typeName: string, config: Value): Promise<ReadDataSourceResult> {
    const entry = (await this.getSchema()).dataSources.get(typeName);
    if (entry === undefined) throw unknownTypeError("data_source", typeName);
    const problems: MockProblem[] = [];
    const value = populateComputedValues(config, this.#data(false), entry.block, (v) => v.isNull(), problems);
    raise(problems, "ReadDataSource");
    return { state: stripWriteOnlyAttributes(entry.block, value), warnings: [] };
  }

  importResourceState(typeName: string, id: string): Promise<ImportResult | null> {
    return this.#real.importResourceState(typeName, id);
  }

  upgradeResourceState(typeName: string, storedVersion: number, rawJson: string): Promise<UpgradeResult> {
    return this.#real.upgradeResourceState(typeName, storedVersion, rawJson);
  }
}

/** `aws_x.y[0]` → `aws_x.y` (`module.m["a"]` → `module.m`); undefined for an address without an instance key. */
function containingResource(address: string): string | undefined {
  const m = /^(.*)\[[^\]]*\]$/.exec(address);
  return m?.[1];
}

/**
 * Terraform's `Overrides.GetResourceOverride`: the run's overrides (then the file's) for an
 * instance address or its resource; then those of the mock provider the instance uses.
 */
export function overrideFor(local: ReadonlyMap<string, TestOverride>, address: string, provider: Provider): TestOverride | undefined {
  const resource = containingResource(address);
  const inMock = provider instanceof MockProvider ? provider.overrides : undefined;
  for (const a of [address, resource]) {
    if (a === undefined) continue;
    const o = local.get(a) ?? inMock?.get(a);
    if (o !== undefined) return o;
  }
  return undefined;
}

/**
 * Terraform's `Overrides.GetModuleOverride`: the run's (then the file's) `override_module`
 * for a module instance (`module.m[0]`), else for its module call (`module.m`) when the
 * instance has a key. Mock providers cannot override modules.
 */
export function moduleOverrideFor(local: ReadonlyMap<string, TestOverride>, moduleInstance: string): TestOverride | undefined {
  const exact = local.get(moduleInstance);
  if (exact !== undefined) return exact;
  const call = containingResource(moduleInstance);
  return call === undefined ? undefined : local.get(call);
}

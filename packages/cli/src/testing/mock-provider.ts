import { fromJson, Path, type Value } from "@magma/cty";
import type { OpenedProvider, ProviderSource, ProviderSourceOpenOptions } from "@magma/engine";
import {
  diagnosticsError,
  errorDiag,
  impliedType,
  stripWriteOnlyAttributes,
  unknownTypeError,
  type ApplyOptions,
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
import type { MockData, MockResource } from "./mock-data.js";
import { rangeText } from "./test-file-blocks.js";
import type { TestOverride } from "./test-override.js";
import { populateComputedValues, type MockedData, type MockProblem } from "./mock-values.js";

const CREATE = new TextEncoder().encode("create");
const UPDATE = new TextEncoder().encode("update");
const DESTROY = new TextEncoder().encode("destroy");
const EMPTY = new Uint8Array();

function mocked(r: MockResource | undefined, computedAsUnknown = false): MockedData {
  if (r?.defaults === undefined) return computedAsUnknown ? { computedAsUnknown } : {};
  return { value: r.defaults, ...(r.defaultsRange !== undefined ? { range: rangeText(r.defaultsRange) } : {}), ...(computedAsUnknown ? { computedAsUnknown } : {}) };
}

function raise(problems: readonly MockProblem[], operation: string): void {
  if (problems.length > 0) throw diagnosticsError(problems.map((p) => errorDiag(p.summary, p.detail, p.path === undefined ? undefined : p.path.reduce((acc, n) => acc.attr(n), Path.root))), operation);
}

/**
 * A `mock_provider` of a test file (Terraform's `providers.Mock`): it wraps an opened instance
 * of the real provider only for its schema, and answers every resource and data source call
 * itself from the state and the mock data, never calling the real provider. Computed
 * attributes are unknown when a create is planned (or the `mock_resource` defaults with
 * `override_during = plan`), and on apply and read take the defaults or generated values
 * (strings of 8 random letters and digits, numbers 0, bools false, empty collections).
 */
export class MockProvider implements Provider {
  readonly #real: Provider;
  readonly #data: MockData;
  #schema: ProviderSchema | undefined;

  /** Mocks `real` (used for its schema only) with the given mock data. */
  constructor(real: Provider, data: MockData) {
    this.#real = real;
    this.#data = data;
  }

  /** The mock provider block's `override_resource`/`override_data` blocks by target address. */
  get overrides(): ReadonlyMap<string, TestOverride> {
    const out = new Map<string, TestOverride>();
    for (const o of this.#data.overrides) if (o.target !== undefined && !out.has(o.target)) out.set(o.target, o);
    return out;
  }

  /** The real provider's schema with an empty provider block (a mock takes no configuration). */
  async getSchema(): Promise<ProviderSchema> {
    if (this.#schema === undefined) {
      const s = await this.#real.getSchema();
      this.#schema = { ...s, provider: { ...s.provider, block: {}, type: impliedType({}) } };
    }
    return this.#schema;
  }

  /** Nothing to configure: the real provider is never configured. */
  configure(): Promise<ConfigureResult> {
    return Promise.resolve({ warnings: [] });
  }

  async #resource(typeName: string): Promise<SchemaEntry> {
    const e = (await this.getSchema()).resources.get(typeName);
    if (e === undefined) throw unknownTypeError("resource", typeName);
    return e;
  }

  async planResourceChange(typeName: string, priorState: Value, proposedNewState: Value): Promise<PlannedChange> {
    const base = { requiresReplace: [], legacyTypeSystem: false, warnings: [] };
    if (proposedNewState.isNull()) return { ...base, plannedState: proposedNewState, plannedPrivate: DESTROY };
    const entry = await this.#resource(typeName);
    if (priorState.isNull()) {
      const r = this.#data.resources.get(typeName);
      const problems: MockProblem[] = [];
      const value = populateComputedValues(proposedNewState, r?.useForPlan === true ? mocked(r) : { computedAsUnknown: true }, entry.block, (v) => v.isNull(), problems);
      raise(problems, "PlanResourceChange");
      return { ...base, plannedState: stripWriteOnlyAttributes(entry.block, value), plannedPrivate: CREATE };
    }
    return { ...base, plannedState: stripWriteOnlyAttributes(entry.block, proposedNewState), plannedPrivate: UPDATE };
  }

  async applyResourceChange(typeName: string, _priorState: Value, plannedState: Value, _config: Value, options?: ApplyOptions): Promise<ApplyResult> {
    const base = { private: EMPTY, legacyTypeSystem: false, warnings: [] };
    const kind = new TextDecoder().decode(options?.plannedPrivate ?? EMPTY);
    if (kind !== "create") return { ...base, newState: plannedState };
    const entry = await this.#resource(typeName);
    const problems: MockProblem[] = [];
    const value = populateComputedValues(plannedState, mocked(this.#data.resources.get(typeName)), entry.block, (v) => !v.isKnown(), problems);
    raise(problems, "ApplyResourceChange");
    return { ...base, newState: value };
  }

  /** Reading a mocked object is reading it from the state. */
  readResource(_typeName: string, currentState: Value, options?: ReadResourceOptions): Promise<ReadResourceResult> {
    return Promise.resolve({ gone: false, newState: currentState, private: options?.private ?? EMPTY, warnings: [] });
  }

  async readDataSource(typeName: string, config: Value): Promise<ReadDataSourceResult> {
    const entry = (await this.getSchema()).dataSources.get(typeName);
    if (entry === undefined) throw unknownTypeError("data_source", typeName);
    const problems: MockProblem[] = [];
    const value = populateComputedValues(config, mocked(this.#data.dataSources.get(typeName)), entry.block, (v) => v.isNull(), problems);
    raise(problems, "ReadDataSource");
    return { state: stripWriteOnlyAttributes(entry.block, value), warnings: [] };
  }

  importResourceState(): Promise<ImportResult | null> {
    return Promise.reject(
      diagnosticsError(
        [errorDiag("Invalid import request", "Cannot import resources from mock providers. Use an `override_resource` block to targeting the specific resource being imported instead.")],
        "ImportResourceState",
      ),
    );
  }

  /** The stored state unchanged (a mock cannot upgrade). */
  async upgradeResourceState(typeName: string, _storedVersion: number, rawJson: string): Promise<UpgradeResult> {
    const entry = await this.#resource(typeName);
    return { upgradedState: stripWriteOnlyAttributes(entry.block, fromJson(rawJson, entry.type)), warnings: [] };
  }
}


/**
 * A {@link ProviderSource} that opens the provider configurations `mocks` names (engine
 * configuration addresses such as `provider["registry.terraform.io/hashicorp/aws"].alt`) as
 * {@link MockProvider}s over the real provider's schema; the rest it opens from `inner`.
 * `mocks` is read on every open, so the test runner can change it between runs; `realSchemas`,
 * when given, collects the real providers' schemas by source address.
 */
export function mockingProviderSource(inner: ProviderSource, mocks: () => ReadonlyMap<string, MockData>, realSchemas?: Map<string, ProviderSchema>): ProviderSource {
  return {
    async open(source: string, options?: ProviderSourceOpenOptions): Promise<OpenedProvider> {
      const opened = await inner.open(source, options);
      realSchemas?.set(source, opened.schema);
      const data = options?.configAddress === undefined ? undefined : mocks().get(options.configAddress);
      if (data === undefined) return opened;
      const provider = new MockProvider(opened.provider, data);
      return { provider, schema: await provider.getSchema(), stop: () => opened.stop(), close: () => opened.close() };
    },
  };
}

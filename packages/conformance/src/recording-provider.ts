import type { Value } from "@magma/cty";
import type {
  ApplyOptions,
  ApplyResult,
  ConfigureOptions,
  ConfigureResult,
  GetSchemaOptions,
  ImportOptions,
  ImportResult,
  PlanOptions,
  PlannedChange,
  Provider,
  ProviderOperation,
  ProviderSchema,
  ReadDataSourceOptions,
  ReadDataSourceResult,
  ReadResourceOptions,
  ReadResourceResult,
  UpgradeOptions,
  UpgradeResult,
} from "@magma/provider-api";

/**
 * One call that went through a {@link RecordingProvider}: the private state bytes it sent
 * and received, and whether it succeeded. Values are not kept (tests read them from the
 * results they get).
 */
export interface RecordedCall {
  /** The operation. */
  readonly operation: ProviderOperation;
  /** The resource or data source type, when the operation has one. */
  readonly typeName?: string;
  /** The private state sent: `priorPrivate` (plan), `plannedPrivate` (apply) or `private` (read). */
  readonly sentPrivate?: Uint8Array;
  /** The private state returned: `plannedPrivate` (plan), `private` (apply, read, each import). */
  readonly returnedPrivate?: readonly Uint8Array[];
  /** Whether the prior/current state sent was null (a create plan or apply). */
  readonly priorNull?: boolean;
  /** Whether the config sent was null (a destroy plan or apply). */
  readonly configNull?: boolean;
  /** `ok`, or the error's `code` (or `error` for a non-provider error). */
  readonly outcome: string;
}

/**
 * A {@link Provider} that forwards every call to another one and records what private state
 * went in and out, so tests can follow private data from plan to apply and from apply or
 * import to read.
 */
export class RecordingProvider implements Provider {
  readonly #inner: Provider;
  readonly #calls: RecordedCall[] = [];

  /** Wraps `inner`. */
  constructor(inner: Provider) {
    this.#inner = inner;
  }

  /** Every call so far, in order. */
  get calls(): readonly RecordedCall[] {
    return this.#calls;
  }

  /** Forgets the recorded calls. */
  reset(): void {
    this.#calls.length = 0;
  }

  /** The calls of one operation. */
  callsOf(operation: ProviderOperation): RecordedCall[] {
    return this.#calls.filter((c) => c.operation === operation);
  }

  async #record<T>(base: Omit<RecordedCall, "outcome" | "returnedPrivate">, run: () => Promise<T>, privates: (r: T) => readonly Uint8Array[] | undefined): Promise<T> {
    try {
      const r = await run();
      const returned = privates(r);
      this.#calls.push({ ...base, outcome: "ok", ...(returned === undefined ? {} : { returnedPrivate: returned }) });
      return r;
    } catch (e) {
      const code = typeof e === "object" && e !== null && typeof (e as { code?: unknown }).code === "string" ? (e as { code: string }).code : "error";
      this.#calls.push({ ...base, outcome: code });
      throw e;
    }
  }

  /** {@inheritDoc @magma/provider-api#Provider.getSchema} */
  getSchema(options?: GetSchemaOptions): Promise<ProviderSchema> {
    return this.#record({ operation: "getSchema" }, () => this.#inner.getSchema(options), () => undefined);
  }

  /** {@inheritDoc @magma/provider-api#Provider.configure} */
  configure(config: Value, terraformVersion: string, options?: ConfigureOptions): Promise<ConfigureResult> {
    return this.#record({ operation: "configure" }, () => this.#inner.configure(config, terraformVersion, options), () => undefined);
  }

  /** {@inheritDoc @magma/provider-api#Provider.planResourceChange} */
  planResourceChange(typeName: string, priorState: Value, proposedNewState: Value, config: Value, options?: PlanOptions): Promise<PlannedChange> {
    return this.#record(
      { operation: "planResourceChange", typeName, sentPrivate: options?.priorPrivate ?? new Uint8Array(0), priorNull: priorState.isNull(), configNull: config.isNull() },
      () => this.#inner.planResourceChange(typeName, priorState, proposedNewState, config, options),
      (r) => [r.plannedPrivate],
    );
  }

  /** {@inheritDoc @magma/provider-api#Provider.applyResourceChange} */
  applyResourceChange(typeName: string, priorState: Value, plannedState: Value, config: Value, options?: ApplyOptions): Promise<ApplyResult> {
    return this.#record(
      { operation: "applyResourceChange", typeName, sentPrivate: options?.plannedPrivate ?? new Uint8Array(0), priorNull: priorState.isNull(), configNull: config.isNull() },
      () => this.#inner.applyResourceChange(typeName, priorState, plannedState, config, options),
      (r) => [r.private],
    );
  }

  /** {@inheritDoc @magma/provider-api#Provider.readResource} */
  readResource(typeName: string, currentState: Value, options?: ReadResourceOptions): Promise<ReadResourceResult> {
    return this.#record(
      { operation: "readResource", typeName, sentPrivate: options?.private ?? new Uint8Array(0) },
      () => this.#inner.readResource(typeName, currentState, options),
      (r) => (r.gone ? [] : [r.private]),
    );
  }

  /** {@inheritDoc @magma/provider-api#Provider.readDataSource} */
  readDataSource(typeName: string, config: Value, options?: ReadDataSourceOptions): Promise<ReadDataSourceResult> {
    return this.#record({ operation: "readDataSource", typeName }, () => this.#inner.readDataSource(typeName, config, options), () => undefined);
  }

  /** {@inheritDoc @magma/provider-api#Provider.importResourceState} */
  importResourceState(typeName: string, id: string, options?: ImportOptions): Promise<ImportResult | null> {
    return this.#record(
      { operation: "importResourceState", typeName },
      () => this.#inner.importResourceState(typeName, id, options),
      (r) => (r === null ? [] : r.resources.map((x) => x.private)),
    );
  }

  /** {@inheritDoc @magma/provider-api#Provider.upgradeResourceState} */
  upgradeResourceState(typeName: string, storedVersion: number, rawJson: string, options?: UpgradeOptions): Promise<UpgradeResult> {
    return this.#record({ operation: "upgradeResourceState", typeName }, () => this.#inner.upgradeResourceState(typeName, storedVersion, rawJson, options), () => undefined);
  }
}

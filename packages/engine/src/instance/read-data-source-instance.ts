import { nullVal, unknownVal, type Value } from "@magma/cty";
import { dataSourceSchema, proposedNewState, type Diag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction } from "../plan/plan-action.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import { callOptions, providerOf, type InstanceTarget } from "./instance-target.js";

/** The input of {@link readDataSourceInstance}. */
export interface DataSourceInput {
  /** The instance address, e.g. `data.aws_ami.ubuntu`. */
  readonly address: string;
  /** The data source type. */
  readonly typeName: string;
  /** The evaluated configuration (possibly with unknowns during plan). */
  readonly config: Value;
  /** The data source depends on a managed resource with pending changes: its read waits for the apply. */
  readonly dependsOnPendingChanges?: boolean;
}

/** The outcome of {@link readDataSourceInstance}: read now, or deferred to apply. */
export type DataSourceOutcome =
  | {
      /** The data source was read. */
      readonly kind: "read";
      /** The value read, wholly known. */
      readonly state: Value;
      /** The provider's warnings. */
      readonly warnings: readonly Diag[];
    }
  | {
      /** The read waits for the apply. */
      readonly kind: "deferred";
      /** The planned read: action `read`, `after` with unknowns where the result is not yet known. */
      readonly change: PlannedInstanceChange;
    };

/**
 * Reads a data source as Terraform's plan does: now, when the configuration is wholly
 * known and it depends on no managed resource with pending changes; otherwise the read is
 * planned for the apply, its result `ProposedNew(unknown prior, config)` — configured
 * values known, computed ones unknown. At apply, call it again with the known
 * configuration.
 *
 * @throws {@link EngineError} `invalid_provider_response` when the provider returns a null
 * or partly unknown value, `unexpected_deferral` when it defers; the provider's
 * `ProviderError` when the read fails.
 */
export async function readDataSourceInstance(target: InstanceTarget, input: DataSourceInput): Promise<DataSourceOutcome> {
  const { address, typeName, config } = input;
  const entry = dataSourceSchema(target.schema, typeName);
  if (input.dependsOnPendingChanges === true || !config.isWhollyKnown()) {
    const after = proposedNewState(entry.block, unknownVal(entry.type), config);
    const empty = new Uint8Array();
    return {
      kind: "deferred",
      change: { address, mode: "data", typeName, action: PlanAction.Read, before: nullVal(entry.type), after, config, requiresReplace: [], priorPrivate: empty, plannedPrivate: empty, priorTainted: false, legacyTypeSystem: false, warnings: [] },
    };
  }
  const r = await providerOf(target, address).readDataSource(typeName, config, callOptions(target));
  if (r.deferred !== undefined) {
    throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the read (${r.deferred.reason}) though deferral was not allowed`);
  }
  if (r.state.isNull() || !r.state.isWhollyKnown()) {
    throw new EngineError(EngineErrorCode.InvalidProviderResponse, `${address}: the provider's read returned ${r.state.isNull() ? "a null value" : "unknown values"}: ${r.state.toString()}`);
  }
  return { kind: "read", state: r.state, warnings: r.warnings };
}

import { resourceSchema, type Diag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { callOptions, type InstanceObject, type InstanceTarget } from "./instance-target.js";
import { writeOnlyDiags } from "./write-only-diags.js";

/** A stored object as state holds it (the fields of `@magma/state`'s `InstanceObjectState` it needs). */
export interface StoredInstance {
  /** The schema version the attributes were written with. */
  readonly schemaVersion: number;
  /** The attributes as JSON text; undefined for legacy flatmap-only objects. */
  readonly attributesJson: string | undefined;
  /** The provider's private data, or undefined. */
  readonly private: Uint8Array | undefined;
  /** Whether the object is tainted. */
  readonly tainted: boolean;
}

/** The result of {@link upgradeInstance}. */
export interface UpgradeInstanceResult {
  /** The object in the current schema version. */
  readonly object: InstanceObject;
  /** The provider's warnings. */
  readonly warnings: readonly Diag[];
}

/**
 * Decodes a stored object as Terraform does before anything else: `UpgradeResourceState`
 * with the state's raw JSON, always (even at the current schema version, where it
 * normalises the JSON). Private data and taint are kept.
 *
 * @param address The instance address, for messages.
 * @throws {@link EngineError} `unsupported_state` for an object with only legacy flatmap
 * attributes, `invalid_provider_response` when the upgraded object holds a value for a
 * write-only attribute (Terraform's "Invalid resource state upgrade"); the provider's `ProviderError` when the upgrade fails.
 */
export async function upgradeInstance(target: InstanceTarget, address: string, typeName: string, stored: StoredInstance): Promise<UpgradeInstanceResult> {
  const entry = resourceSchema(target.schema, typeName);
  if (stored.attributesJson === undefined) {
    throw new EngineError(EngineErrorCode.UnsupportedState, `${address}: the stored object has only legacy flatmap attributes (state format 3); run \`terraform apply\` once with Terraform 0.12 or later to convert it`);
  }
  const opts = callOptions(target);
  const r = await target.provider.upgradeResourceState(typeName, stored.schemaVersion, stored.attributesJson, opts.signal === undefined ? undefined : { signal: opts.signal });
  const writeOnly = writeOnlyDiags(target, address, entry.block, r.upgradedState, { kind: "upgrade" });
  if (writeOnly.length > 0) throw new EngineError(EngineErrorCode.InvalidProviderResponse, `Invalid resource state upgrade for ${address}: ${writeOnly.map((d) => d.detail!).join("; ")}`, { diagnostics: writeOnly });
  return { object: { state: r.upgradedState, private: stored.private ?? new Uint8Array(), tainted: stored.tainted }, warnings: r.warnings };
}

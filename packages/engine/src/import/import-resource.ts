import { resourceSchema, type Diag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { callOptions, type InstanceObject, type InstanceTarget } from "../instance/instance-target.js";
import { refreshInstance } from "../instance/refresh-instance.js";
import { writeOnlyDiags } from "../instance/write-only-diags.js";

/** The input of {@link importResource}. */
export interface ImportResourceInput {
  /** The instance address the object is imported to, e.g. `aws_ssm_parameter.db["a"]` (for messages and the result). */
  readonly address: string;
  /** The resource type (the address's type). */
  readonly typeName: string;
  /** The import id, as the provider's documentation for the type defines it. */
  readonly id: string;
  /**
   * Whether state already holds an object at {@link address}: Terraform then refuses
   * before calling the provider ("Resource already managed by Terraform"). Default false.
   */
  readonly alreadyManaged?: boolean;
}

/** What {@link importResource} adopts: the object as state records it. */
export interface ImportResourceResult {
  /** The address imported to. */
  readonly address: string;
  /** The resource type. */
  readonly typeName: string;
  /** The import id. */
  readonly id: string;
  /** The object after the confirming read: its state, the private data the read returned, not tainted. */
  readonly object: InstanceObject;
  /** The resource type's current schema version: the `schema_version` state writes with the object. */
  readonly schemaVersion: number;
  /** The warnings of the import and of the read. */
  readonly warnings: readonly Diag[];
}

/**
 * What `terraform import ADDR ID` does for one instance, given the provider configured
 * for it (Terraform 1.11's `importState` in `node_resource_plan_instance.go`):
 *
 * 1. an address state already holds is refused ("Resource already managed by Terraform");
 * 2. `ImportResourceState(type, id)` (deferral not allowed);
 * 3. exactly one object must come back: none is "Import returned no resources", several is
 *    "Multiple import states not supported", and (magma's explicit check; Terraform would
 *    fail later, less clearly) one of another type is refused;
 * 4. a confirming `ReadResource` with the import's private data; an object the read finds
 *    gone is "Cannot import non-existent remote object";
 * 5. the result is the read object with the read's private data and the type's schema
 *    version: exactly what state's instance object records.
 *
 * It writes nothing: the caller stores the object (the CLI's `import` command, or the
 * planner for an `import` block, which then plans against it). Compared with the lower-level
 * {@link importInstance} (which accepts several objects, as legacy imports could produce,
 * and leaves the choice to its caller), this is Terraform's single-instance import.
 *
 * @throws {@link EngineError} `already_managed`; `import_not_found` (no object, or the read
 * finds it gone, with Terraform's summaries); `import_multiple`; `import_type_mismatch`;
 * `invalid_provider_response` (a null imported object); `unexpected_deferral`; the
 * provider's `ProviderError` when a call fails (`unknown_type` for a type the provider does
 * not have).
 */
export async function importResource(target: InstanceTarget, input: ImportResourceInput): Promise<ImportResourceResult> {
  const { address, typeName, id } = input;
  const entry = resourceSchema(target.schema, typeName);
  if (input.alreadyManaged === true) {
    throw new EngineError(
      EngineErrorCode.AlreadyManaged,
      `Resource already managed by Terraform: Terraform is already managing a remote object for ${address}. To import to this address you must first remove the existing object from the state.`,
    );
  }

  const opts = callOptions(target);
  const r = await target.provider.importResourceState(typeName, id, opts.signal === undefined ? undefined : { signal: opts.signal });
  if (r?.deferred !== undefined) {
    throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the import (${r.deferred.reason}) though deferral was not allowed`);
  }
  const found = r?.resources ?? [];
  if (found.length === 0) {
    throw new EngineError(EngineErrorCode.ImportNotFound, `Import returned no resources: While attempting to import with ID ${id}, the provider returned no instance states (${address}).`);
  }
  if (found.length > 1) {
    const types = found.map((x) => x.typeName).join(", ");
    throw new EngineError(
      EngineErrorCode.ImportMultiple,
      `Multiple import states not supported: While attempting to import with ID ${id}, the provider returned multiple resource instance states (${found.length}: ${types}) for ${address}. This is not currently supported.`,
    );
  }
  const imported = found[0]!;
  if (imported.typeName !== typeName) {
    throw new EngineError(
      EngineErrorCode.ImportTypeMismatch,
      `${address}: While attempting to import with ID ${id}, the provider returned an object of type ${imported.typeName}, but the import target has type ${typeName}.`,
    );
  }
  if (imported.state.isNull()) {
    throw new EngineError(EngineErrorCode.InvalidProviderResponse, `Import returned null resource: While attempting to import with ID ${id}, the provider returned an instance with no state (${address}).`);
  }
  const writeOnly = writeOnlyDiags(target, address, entry.block, imported.state, { kind: "import" });
  if (writeOnly.length > 0) throw new EngineError(EngineErrorCode.InvalidProviderResponse, `Import returned a non-null value for a write-only attribute: ${writeOnly.map((d) => d.detail!).join("; ")}`, { diagnostics: writeOnly });

  const read = await refreshInstance(target, address, typeName, { state: imported.state, private: imported.private, tainted: false });
  const warnings = [...(r?.warnings ?? []), ...read.warnings];
  if (read.object === null) {
    throw new EngineError(
      EngineErrorCode.ImportNotFound,
      `Cannot import non-existent remote object: While attempting to import an existing object to "${address}", the provider detected that no object exists with the given id. ` +
        `Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, ` +
        `or use "terraform apply" to create a new remote object for this resource.`,
    );
  }
  return { address, typeName, id, object: read.object, schemaVersion: entry.version, warnings };
}

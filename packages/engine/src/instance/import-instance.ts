import { resourceSchema, type Diag } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { callOptions, type InstanceObject, type InstanceTarget } from "./instance-target.js";
import { refreshInstance } from "./refresh-instance.js";
import { writeOnlyDiags } from "./write-only-diags.js";

/** One object adopted by {@link importInstance}. */
export interface ImportedInstance {
  /** Its resource type (a legacy import may return objects of other types). */
  readonly typeName: string;
  /** The object after its confirming read. */
  readonly object: InstanceObject;
}

/** The result of {@link importInstance}. */
export interface ImportInstanceResult {
  /** The objects found, each read back; at least one. */
  readonly objects: readonly ImportedInstance[];
  /** The warnings of the import and of the reads. */
  readonly warnings: readonly Diag[];
}

/**
 * Imports an existing object by id as Terraform does: `ImportResourceState`, then a
 * confirming `ReadResource` of each object found with the import's private data (no
 * upgrade). Terraform's `import` blocks take exactly one object; the caller decides.
 *
 * @throws {@link EngineError} `import_not_found` when nothing has the id or the read finds
 * it gone ("Cannot import non-existent remote object"), `unexpected_deferral`,
 * `invalid_provider_response` when the (first) object holds a value for a write-only
 * attribute (as Terraform checks an `import` block's); the
 * provider's `ProviderError` when a call fails.
 */
export async function importInstance(target: InstanceTarget, address: string, typeName: string, id: string): Promise<ImportInstanceResult> {
  const entry = resourceSchema(target.schema, typeName);
  const opts = callOptions(target);
  const r = await target.provider.importResourceState(typeName, id, opts.signal === undefined ? undefined : { signal: opts.signal });
  if (r?.deferred !== undefined) {
    throw new EngineError(EngineErrorCode.UnexpectedDeferral, `${address}: the provider deferred the import (${r.deferred.reason}) though deferral was not allowed`);
  }
  if (r === null || r.resources.length === 0) {
    throw new EngineError(EngineErrorCode.ImportNotFound, `Cannot import non-existent remote object: ${address} (${typeName} with id ${JSON.stringify(id)}): the provider found nothing with that id`);
  }
  const writeOnly = writeOnlyDiags(target, address, entry.block, r.resources[0]!.state, { kind: "import-block", id });
  if (writeOnly.length > 0) throw new EngineError(EngineErrorCode.InvalidProviderResponse, `Import returned a non-null value for a write-only attribute: ${writeOnly.map((d) => d.detail!).join("; ")}`, { diagnostics: writeOnly });
  const warnings: Diag[] = [...r.warnings];
  const objects: ImportedInstance[] = [];
  for (const res of r.resources) {
    const read = await refreshInstance(target, address, res.typeName, { state: res.state, private: res.private, tainted: false });
    warnings.push(...read.warnings);
    if (read.object === null) {
      throw new EngineError(EngineErrorCode.ImportNotFound, `Cannot import non-existent remote object: ${address} (${res.typeName} with id ${JSON.stringify(id)}): the read after the import found it gone`);
    }
    objects.push({ typeName: res.typeName, object: read.object });
  }
  return { objects, warnings };
}

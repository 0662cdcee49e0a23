import type { Value } from "@magma/cty";
import type { Diag } from "./diagnostic.js";
import type { Deferred } from "./plan.js";
import type { CallOptions } from "./provider.js";
import { unknownTypeError } from "./provider-error.js";
import type { ProviderSchema, SchemaEntry } from "./schema.js";

/** Options of {@link EphemeralResourceOpener.openEphemeralResource}. */
export interface OpenEphemeralOptions extends CallOptions {
  /** The provider may answer with a deferral (default false). */
  readonly deferralAllowed?: boolean;
}

/** Options of the other {@link EphemeralResourceOpener} calls. */
export type EphemeralCallOptions = CallOptions;

/** The result of {@link EphemeralResourceOpener.openEphemeralResource}. */
export interface OpenEphemeralResult {
  /**
   * The ephemeral object, of the type's implied type: wholly known (a deferred open may
   * carry unknowns, or a null). It must never be stored.
   */
  readonly result: Value;
  /** Opaque private data the provider needs to renew or close what it opened (empty when none). */
  readonly private: Uint8Array;
  /** When the provider wants {@link EphemeralResourceOpener.renewEphemeralResource} called; absent: never. */
  readonly renewAt?: Date;
  /** Set when the provider deferred the open. */
  readonly deferred?: Deferred;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/** The result of {@link EphemeralResourceOpener.renewEphemeralResource}. */
export interface RenewEphemeralResult {
  /** The private data for the next renew or the close (the one passed in, when the provider sent none). */
  readonly private: Uint8Array;
  /** When to renew next; absent: never again. */
  readonly renewAt?: Date;
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/** The result of {@link EphemeralResourceOpener.validateEphemeralResourceConfig} and {@link EphemeralResourceOpener.closeEphemeralResource}. */
export interface EphemeralWarnings {
  /** Warning diagnostics. */
  readonly warnings: readonly Diag[];
}

/**
 * The optional capability of opening ephemeral resources (tfplugin's
 * ValidateEphemeralResourceConfig, OpenEphemeralResource, RenewEphemeralResource and
 * CloseEphemeralResource, protocol 5.7/6.7 and later), kept apart from the 8 operations of
 * {@link Provider} as {@link FunctionCaller} is: a provider offers it or not, and
 * {@link isEphemeralResourceOpener} tells which. The types are the schema's
 * `ephemeralResources`.
 *
 * Terraform's rules, which every implementation follows:
 *
 * - **Order.** `validateEphemeralResourceConfig` needs no `configure`; `open`, `renew` and
 *   `close` reject with `not_configured` until `configure` has succeeded.
 * - **Names.** A type that is not in the schema's `ephemeralResources` rejects with
 *   `unknown_type` (kind `ephemeral_resource`).
 * - **Values.** The configuration must fit the type's implied type (`schema` otherwise);
 *   the result must too (`invalid_response`), and must be wholly known unless deferred.
 *   Callers never open with a configuration that is not wholly known: Terraform makes the
 *   whole result unknown instead, without calling the provider.
 * - **Lifetime.** What `open` returned is valid until `renewAt` (if set), when the caller
 *   calls `renew` with the latest private data; the caller calls `close` exactly once when
 *   nothing needs the object any more (also after errors and interrupts), with the latest
 *   private data. A close of an object the provider no longer knows is not an error.
 * - **Secrecy.** Neither the result nor the private data is ever written to state, plan
 *   files or logs.
 * - **Diagnostics.** Error diagnostics reject with `diagnostics`; warnings come back on the
 *   results.
 */
export interface EphemeralResourceOpener {
  /** Validates the configuration of an ephemeral resource (no `configure` needed). */
  validateEphemeralResourceConfig(typeName: string, config: Value, options?: EphemeralCallOptions): Promise<EphemeralWarnings>;
  /** Opens an ephemeral resource: the provider creates or fetches what it describes. */
  openEphemeralResource(typeName: string, config: Value, options?: OpenEphemeralOptions): Promise<OpenEphemeralResult>;
  /** Renews what an earlier open returned (called at or after its `renewAt`). */
  renewEphemeralResource(typeName: string, privateData: Uint8Array, options?: EphemeralCallOptions): Promise<RenewEphemeralResult>;
  /** Closes what an earlier open returned: the provider releases it. */
  closeEphemeralResource(typeName: string, privateData: Uint8Array, options?: EphemeralCallOptions): Promise<EphemeralWarnings>;
}

/** Whether `x` (a {@link Provider}, typically) offers {@link EphemeralResourceOpener}'s calls, by shape. */
export function isEphemeralResourceOpener(x: unknown): x is EphemeralResourceOpener {
  if (typeof x !== "object" || x === null) return false;
  const o = x as Record<string, unknown>;
  return (
    typeof o["validateEphemeralResourceConfig"] === "function" &&
    typeof o["openEphemeralResource"] === "function" &&
    typeof o["renewEphemeralResource"] === "function" &&
    typeof o["closeEphemeralResource"] === "function"
  );
}

/**
 * The schema of an ephemeral resource type.
 *
 * @throws {@link ProviderError} `unknown_type` (kind `ephemeral_resource`) when the schema has no such type.
 */
export function ephemeralResourceSchema(schema: ProviderSchema, typeName: string): SchemaEntry {
  const e = schema.ephemeralResources?.get(typeName);
  if (e === undefined) throw unknownTypeError("ephemeral_resource", typeName);
  return e;
}

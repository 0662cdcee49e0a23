import type { CallFunctionOptions, ConfigValidator, Diag, EphemeralResourceOpener, FunctionCaller, FunctionSignature, Provider, ProviderSchema } from "@magma/provider-api";

/** Options of a {@link ProviderConn} (set through `dialProvider`). */
export interface ProviderConnOptions {
  /**
   * Validate configurations as Terraform does before using them: ValidateProviderConfig /
   * PrepareProviderConfig before Configure, ValidateResourceConfig before each plan,
   * ValidateDataResourceConfig before each data-source read (and the `ConfigValidator`
   * calls; with `false` they answer with no warnings). A successful validation of
   * the same type and configuration bytes is remembered (by a SHA-256 digest of the bytes;
   * up to 1,000 entries and 4 MiB), so repeated calls with one configuration validate
   * once. Default `true`.
   */
  readonly validate?: boolean;
  /**
   * A time limit for each call in milliseconds, counted from the call's start (time spent
   * waiting for a free slot included); when it passes, that call alone is cancelled (its
   * HTTP/2 stream is reset; the provider is not asked to stop) and it rejects with
   * `deadline_exceeded`. Default: none, as in Terraform.
   */
  readonly callTimeoutMs?: number;
  /**
   * The most calls sent to the provider at once (default 128); later calls wait in arrival
   * order. Unbounded, hashicorp/aws left calls unsettled from ~12,000 concurrent calls on.
   */
  readonly maxConcurrentCalls?: number;
  /**
   * A schema already known for this exact binary (from a cache). It is used without a
   * GetSchema call only when it says the provider has `getProviderSchemaOptional`;
   * otherwise the provider is asked anyway, as Terraform does.
   */
  readonly cachedSchema?: ProviderSchema;
  /** A name for messages, such as the binary's file name. */
  readonly label?: string;
}

/**
 * The {@link Provider} contract over a tfplugin5 or tfplugin6 connection to a provider
 * binary (the `provider` of the `LiveProvider` that `dialProvider` returns): one
 * implementation for both protocol versions. A type only: connections are made by
 * `dialProvider`.
 *
 * Values are encoded and decoded with the schema's implied types; private state is passed
 * through as given; warnings are returned on results; error diagnostics reject with
 * `diagnostics`; the apply outcome comes from the contract's shared classifier (so a
 * partial apply rejects with `partially_applied` carrying the new state); gRPC failures map
 * to `transport`, `plugin_exited`, `canceled` or `deadline_exceeded`. Every call but
 * `getSchema` rejects with `not_configured` before `configure` has succeeded, without
 * reaching the provider. Calls may run concurrently.
 *
 * It is also a {@link FunctionCaller}: `callFunction` over CallFunction (protocol 5.5/6.5
 * and later), with no `configure` needed, as in Terraform; and an
 * {@link EphemeralResourceOpener}: ValidateEphemeralResourceConfig, OpenEphemeralResource,
 * RenewEphemeralResource and CloseEphemeralResource (protocol 5.7/6.7 and later); and a
 * {@link ConfigValidator}: ValidateProviderConfig, ValidateResourceConfig and
 * ValidateDataResourceConfig with no `configure` needed (a plan of a configuration validated
 * so reuses the result instead of asking again).
 */
export interface ProviderConn extends Provider, FunctionCaller, EphemeralResourceOpener, ConfigValidator {
  /** The negotiated protocol version (5 or 6). */
  readonly protocolVersion: 5 | 6;
  /** Whether `configure` has succeeded. */
  readonly configured: boolean;
  /** How many calls are under way: sent and not yet answered, or waiting to be sent. */
  readonly inflight: number;
  /**
   * Asks the provider to stop every operation under way (StopProvider / Stop): the one
   * provider-wide cancellation, as Terraform sends it when the whole operation is
   * interrupted. Per-call signals and time limits never send it. Beware: SDKv2 providers
   * (hashicorp/aws among them) cancel every call in flight and keep their stop context
   * cancelled afterwards, so later calls on this process may fail too; close it after.
   * Not queued behind other calls. Resolves once the provider answered, with its error
   * text (empty when it stopped cleanly).
   */
  stop(): Promise<string>;
  /**
   * The provider's function signatures as GetFunctions returns them (protocol 5.5/6.5 and
   * later), without the rest of the schema. The schema's `functions` carry the same
   * signatures, and Terraform itself never calls GetFunctions: prefer them. Beware:
   * providers built with terraform-plugin-mux (hashicorp/aws 5.x among them) register their
   * functions a second time on GetFunctions, and from then on answer every CallFunction of
   * that process with "Duplicate function" errors.
   *
   * @throws ProviderError `diagnostics` when the reply carries errors, `schema` when a
   * signature does not decode, `transport` (gRPC `unimplemented`) from an older provider.
   */
  getFunctions(options?: CallFunctionOptions): Promise<{ readonly functions: ReadonlyMap<string, FunctionSignature>; readonly warnings: readonly Diag[] }>;
}

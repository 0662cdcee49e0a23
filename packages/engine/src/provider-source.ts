import type { Provider, ProviderSchema } from "@magma/provider-api";

/** A provider the engine opened: the contract, its schema, and how to stop and close it. */
export interface OpenedProvider {
  /**
   * The contract; the engine calls `configure` before any other call but `getSchema` — and
   * `callFunction`: provider-defined functions are called on an instance opened for them and
   * never configured, as Terraform does (the contract's `FunctionCaller` needs no `configure`).
   */
  readonly provider: Provider;
  /** The provider's schema. */
  readonly schema: ProviderSchema;
  /** Provider-wide cancellation (StopProvider); resolves with the provider's error text, `""` when it stopped cleanly. */
  stop(): Promise<string>;
  /** Shuts the provider down. */
  close(): Promise<void>;
}

/** Options of {@link ProviderSource.open}. */
export interface ProviderSourceOpenOptions {
  /** A version constraint from `required_providers` (`~> 5.0`). */
  readonly version?: string;
  /** Cancels the launch. */
  readonly signal?: AbortSignal;
  /**
   * The provider configuration the instance is opened for (`provider["registry.terraform.io/hashicorp/aws"].alt`),
   * when the engine opens one for a configuration; a source may answer per configuration (`magma test`'s mock providers).
   */
  readonly configAddress?: string;
}

/**
 * Where the engine gets providers: by source address (`registry.terraform.io/hashicorp/aws`),
 * each `open` returning a new, unconfigured provider that the engine configures and closes.
 * `@magma/plugin`'s `ProviderFactory` implements it (binaries and native providers alike);
 * so does any object with this shape.
 */
export interface ProviderSource {
  /** Opens an unconfigured provider. */
  open(source: string, options?: ProviderSourceOpenOptions): Promise<OpenedProvider>;
}

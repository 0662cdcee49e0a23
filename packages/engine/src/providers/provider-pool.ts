import type { Value } from "@magma/cty";
import type { ProviderSchema } from "@magma/provider-api";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import type { OpenedProvider, ProviderSource } from "../provider-source.js";

/** Options of {@link ProviderPool}. */
export interface ProviderPoolOptions {
  /** The Terraform version reported to providers by `configure` (default `"1.11.4"`). */
  readonly terraformVersion?: string;
  /** Cancels opens and configures. */
  readonly signal?: AbortSignal;
}

interface Entry {
  readonly source: string;
  readonly opened: Promise<OpenedProvider>;
  configured?: Promise<OpenedProvider>;
  /** The configuration it was configured with (unmarked). */
  config?: Value;
  /** Taken over from another pool ({@link ProviderPool.handOver}): its configuration is checked once before reuse. */
  inherited?: boolean;
}

/**
 * The providers of one plan or apply: one provider instance per provider configuration
 * address (`provider["registry.terraform.io/hashicorp/aws"].west`), opened from a
 * {@link ProviderSource} on first use and configured exactly once, before any call but
 * `getSchema` (the contract's ordering rule). Concurrent callers share the same open and
 * the same configure. Schemas are fetched once per source address.
 */
export class ProviderPool {
  readonly #source: ProviderSource;
  readonly #terraformVersion: string;
  readonly #signal: AbortSignal | undefined;
  readonly #entries = new Map<string, Entry>();
  readonly #versions = new Map<string, string>();
  #closed = false;
  #reused = 0;

  /** Makes an empty pool over a provider source. */
  constructor(source: ProviderSource, options: ProviderPoolOptions = {}) {
    this.#source = source;
    this.#terraformVersion = options.terraformVersion ?? "1.11.4";
    this.#signal = options.signal;
  }

  /** Records the version constraint of a source address (from `required_providers`), used when it is opened. */
  setVersion(source: string, constraint: string): void {
    this.#versions.set(source, constraint);
  }

  /**
   * The provider instance of a configuration address, opened (not configured) on first use.
   *
   * @throws {@link EngineError} `provider_unavailable` naming the address when it cannot be opened.
   */
  open(address: string, source: string): Promise<OpenedProvider> {
    if (this.#closed) return Promise.reject(new EngineError(EngineErrorCode.InvalidArgument, `the provider pool is closed; cannot open ${address}`));
    const known = this.#entries.get(address);
    if (known !== undefined) {
      if (known.source !== source) return Promise.reject(new EngineError(EngineErrorCode.InvalidArgument, `${address} is ${known.source}, not ${source}`));
      return known.opened;
    }
    const version = this.#versions.get(source);
    const options: { version?: string; signal?: AbortSignal; configAddress: string } = { configAddress: address };
    if (version !== undefined) options.version = version;
    if (this.#signal !== undefined) options.signal = this.#signal;
    const opened = this.#source.open(source, options).catch((e: unknown) => {
      throw new EngineError(EngineErrorCode.ProviderUnavailable, `${address}: cannot open provider ${source}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    });
    opened.catch(() => undefined);
    this.#entries.set(address, { source, opened });
    return opened;
  }

  /** The schema of a source address (from the first instance of it opened under `address`). */
  async schema(address: string, source: string): Promise<ProviderSchema> {
    const own = this.#entries.get(address);
    if (own !== undefined && own.source === source) return (await own.opened).schema;
    for (const e of this.#entries.values()) if (e.source === source) return (await e.opened).schema;
    return (await this.open(address, source)).schema;
  }

  /**
   * The provider instance of a configuration address, configured with `config` on first
   * use; later calls return the same configured instance (their `config` is ignored).
   *
   * @throws {@link EngineError} `provider_configure_failed` with the provider's diagnostics.
   */
  configure(address: string, source: string, config: Value): Promise<OpenedProvider> {
    const inherited = this.#entries.get(address);
    if (inherited?.inherited === true) {
      inherited.inherited = false;
      const same = inherited.source === source && inherited.configured !== undefined && inherited.config !== undefined && config.isWhollyKnown() && inherited.config.rawEquals(config.unmarkDeep().value);
      if (!same) {
        // Configured otherwise (or not at all) before: a fresh instance, configured with this configuration.
        this.#entries.delete(address);
        void inherited.opened.then((p) => p.close()).catch(() => undefined);
      } else {
        this.#reused++;
        return inherited.configured!;
      }
    }
    const opened = this.open(address, source);
    const entry = this.#entries.get(address)!;
    if (entry.configured !== undefined) return entry.configured;
    entry.config = config.unmarkDeep().value;
    entry.configured = opened.then(async (p) => {
      try {
        await p.provider.configure(config, this.#terraformVersion, this.#signal === undefined ? undefined : { signal: this.#signal });
      } catch (e) {
        const diagnostics = (e as { detail?: { diagnostics?: unknown } }).detail?.diagnostics;
        throw new EngineError(EngineErrorCode.ProviderConfigureFailed, `${address}: configuring the provider failed: ${(e as Error)?.message ?? String(e)}`, Array.isArray(diagnostics) ? { cause: e, diagnostics } : { cause: e });
      }
      return p;
    });
    entry.configured.catch(() => undefined);
    return entry.configured;
  }

  /** Whether the provider of a configuration address has been configured successfully. */
  async isConfigured(address: string): Promise<boolean> {
    const c = this.#entries.get(address)?.configured;
    if (c === undefined) return false;
    return c.then(() => true, () => false);
  }

  /** The configuration addresses opened so far. */
  get addresses(): readonly string[] {
    return [...this.#entries.keys()];
  }

  /** Sends StopProvider to every opened provider (the provider-wide cancellation); resolves with their error texts by address. */
  async stopAll(): Promise<ReadonlyMap<string, string>> {
    const out = new Map<string, string>();
    await Promise.all(
      [...this.#entries].map(async ([address, e]) => {
        const p = await e.opened.catch(() => undefined);
        if (p !== undefined) out.set(address, await p.stop().catch((err: unknown) => String(err)));
      }),
    );
    return out;
  }

  /** How many configured instances taken over from another pool were reused as they were (same, wholly known configuration). */
  get reused(): number {
    return this.#reused;
  }

  /**
   * Hands this pool's provider instances over to a new pool (with its own options), e.g. a
   * plan's to the apply that follows: the new pool reuses a configured instance when it is
   * configured again with the same, wholly known configuration, and replaces it with a fresh
   * one (closing the old) otherwise. This pool is left closed and empty; closing it again does
   * nothing to the instances handed over.
   */
  handOver(options: ProviderPoolOptions = {}): ProviderPool {
    const next = new ProviderPool(this.#source, { ...(options.terraformVersion !== undefined ? { terraformVersion: options.terraformVersion } : { terraformVersion: this.#terraformVersion }), ...(options.signal !== undefined ? { signal: options.signal } : {}) });
    for (const [address, e] of this.#entries) next.#entries.set(address, { ...e, inherited: true });
    for (const [source, v] of this.#versions) next.#versions.set(source, v);
    this.#entries.clear();
    this.#closed = true;
    return next;
  }

  /** Closes every opened provider; the pool refuses later opens. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#entries.values()].map(async (e) => {
        const p = await e.opened.catch(() => undefined);
        if (p !== undefined) await p.close().catch(() => undefined);
      }),
    );
  }
}

import { readFileSync } from "node:fs";
import type { Value } from "@magma/cty";
import type { ConfigureOptions, Provider, ProviderSchema } from "@magma/provider-api";
import type { LiveProvider } from "./dial-provider.js";

/**
 * When a long-lived provider process is replaced by a fresh one (see
 * `ProviderFactoryOptions.recycle`). hashicorp/aws's own heap grows with use (about
 * 17 KiB per ReadDataSource, the same with a bare gRPC client), so a process serving
 * hundreds of thousands of calls is best restarted now and then.
 */
export interface RecycleOptions {
  /** Replace the process after this many calls (the calls of the 7 operations but `getSchema`). */
  readonly afterCalls?: number;
  /**
   * Replace the process once its resident set is larger than this many bytes (read from
   * `/proc/<pid>/status`, at most once a second; ignored where `/proc` is missing).
   */
  readonly afterRssBytes?: number;
}

/**
 * Checks {@link RecycleOptions}.
 *
 * @throws TypeError naming a limit that is not a positive integer.
 * @internal
 */
export function checkRecycleOptions(limits: RecycleOptions): void {
  for (const [name, v] of Object.entries(limits)) {
    if (v !== undefined && !(typeof v === "number" && Number.isSafeInteger(v) && v > 0)) throw new TypeError(`recycle.${name} must be a positive integer, got ${String(v)}`);
  }
}

/** How often the provider's resident set is read, at most. */
const RSS_CHECK_MS = 1_000;

/**
 * A {@link LiveProvider} that replaces its provider process when a {@link RecycleOptions}
 * limit is reached: new calls then wait for the calls under way to finish (so the process
 * is idle), a new process is opened (the schema is not fetched again when the provider
 * allows it) and configured exactly as the old one was, the old one is closed, and the
 * calls go on. The `provider` object stays the same; `pid` names the current process. If
 * the new process cannot be opened or configured, the old one stays in use and the limit
 * counts anew.
 *
 * @internal
 */
export class RecyclingLiveProvider implements LiveProvider {
  readonly kind = "plugin" as const;
  readonly provider: Provider;
  readonly schema: ProviderSchema;
  readonly #open: () => Promise<LiveProvider>;
  readonly #limits: RecycleOptions;
  #current: LiveProvider;
  #calls = 0;
  #inflight = 0;
  #idle: (() => void) | undefined;
  #recycling: Promise<void> | undefined;
  #lastRssCheck = Date.now();
  #configured: { readonly config: Value; readonly terraformVersion: string; readonly options: ConfigureOptions } | undefined;
  #closed = false;
  #recycles = 0;

  constructor(first: LiveProvider, open: () => Promise<LiveProvider>, limits: RecycleOptions) {
    this.#current = first;
    this.#open = open;
    this.#limits = limits;
    this.schema = first.schema;
    const run = <T>(fn: (p: Provider) => Promise<T>): Promise<T> => this.#run(fn);
    this.provider = {
      getSchema: (o) => this.#current.provider.getSchema(o),
      configure: async (config, terraformVersion, options) => {
        const r = await run((p) => p.configure(config, terraformVersion, options));
        this.#configured = { config, terraformVersion, options: options?.deferralAllowed === undefined ? {} : { deferralAllowed: options.deferralAllowed } };
        return r;
      },
      planResourceChange: (...a) => run((p) => p.planResourceChange(...a)),
      applyResourceChange: (...a) => run((p) => p.applyResourceChange(...a)),
      readResource: (...a) => run((p) => p.readResource(...a)),
      readDataSource: (...a) => run((p) => p.readDataSource(...a)),
      importResourceState: (...a) => run((p) => p.importResourceState(...a)),
      upgradeResourceState: (...a) => run((p) => p.upgradeResourceState(...a)),
    };
  }

  get protocolVersion(): 5 | 6 | undefined {
    return this.#current.protocolVersion;
  }

  get pid(): number | undefined {
    return this.#current.pid;
  }

  get binary(): string | undefined {
    return this.#current.binary;
  }

  /** How many times the process was replaced. */
  get recycles(): number {
    return this.#recycles;
  }

  stop(): Promise<string> {
    return this.#current.stop();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#recycling?.catch(() => undefined);
    await this.#current.close();
  }

  async #run<T>(fn: (p: Provider) => Promise<T>): Promise<T> {
    if (!this.#closed && this.#recycling === undefined && this.#due()) {
      this.#recycling = this.#recycle().finally(() => {
        this.#recycling = undefined;
      });
    }
    while (this.#recycling !== undefined) await this.#recycling;
    this.#calls++;
    this.#inflight++;
    try {
      return await fn(this.#current.provider);
    } finally {
      this.#inflight--;
      if (this.#inflight === 0) this.#idle?.();
    }
  }

  #due(): boolean {
    const { afterCalls, afterRssBytes } = this.#limits;
    if (afterCalls !== undefined && this.#calls >= afterCalls) return true;
    if (afterRssBytes === undefined) return false;
    const now = Date.now();
    if (now - this.#lastRssCheck < RSS_CHECK_MS) return false;
    this.#lastRssCheck = now;
    const rss = residentBytes(this.#current.pid);
    return rss !== undefined && rss > afterRssBytes;
  }

  async #recycle(): Promise<void> {
    // Let the calls under way finish: the old process is replaced only when idle.
    if (this.#inflight > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    this.#idle = undefined;
    const old = this.#current;
    this.#calls = 0;
    this.#lastRssCheck = Date.now();
    let next: LiveProvider;
    try {
      next = await this.#open();
    } catch {
      return; // keep the old process; the limits count anew
    }
    try {
      const c = this.#configured;
      if (c !== undefined) await next.provider.configure(c.config, c.terraformVersion, c.options);
    } catch {
      await next.close();
      return;
    }
    if (this.#closed) {
      await next.close();
      return;
    }
    this.#current = next;
    this.#recycles++;
    this.#lastRssCheck = Date.now();
    await old.close();
  }
}

/** The resident set of a process in bytes (Linux `/proc`), or `undefined`. */
function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? undefined : Number(m[1]) * 1024;
  } catch {
    return undefined;
  }
}

import type { OpenedProvider, ProviderSource, ProviderSourceOpenOptions } from "../provider-source.js";

/** Options of {@link prelaunchedProviderSource}. */
export interface PrelaunchedProviderSourceOptions {
  /**
   * Whether the instance launched early for `source` may serve an open with these options
   * (e.g. it runs the binary the version constraint selects). Default: always. A refused
   * instance is closed at once and the open goes to the underlying source.
   */
  readonly accept?: (source: string, options: ProviderSourceOpenOptions) => boolean | Promise<boolean>;
  /**
   * Called for an early launch closed without being used, before waiting for it: lets a
   * launch still under way be abandoned (e.g. by aborting its signal) instead of finishing.
   */
  readonly cancel?: (source: string) => void;
}

/** A {@link ProviderSource} that hands out providers launched before it existed; see {@link prelaunchedProviderSource}. */
export interface PrelaunchedProviderSource<P extends OpenedProvider = OpenedProvider> extends ProviderSource {
  /** An early instance, or one opened from the underlying source. */
  open(source: string, options?: ProviderSourceOpenOptions): Promise<P>;
  /** The source addresses launched early and not handed out (yet). */
  readonly unclaimed: readonly string[];
  /**
   * Closes every early instance not handed out (waiting for a launch under way to finish);
   * later opens go to the underlying source. Instances handed out belong to whoever opened
   * them. Never rejects; calling it again does nothing more.
   */
  close(): Promise<void>;
}

interface Early<P> {
  readonly launched: Promise<P | undefined>;
  state: "waiting" | "claimed" | "closed";
}

/**
 * Wraps a {@link ProviderSource} so that the first `open` of a source address returns the
 * instance launched for it ahead of time (`launched`: e.g. started at process start-up, while
 * the rest of the program was still loading), and every other open goes to `source`. An
 * early launch that failed (rejected, or resolved to undefined: not launched), or is refused
 * by `options.accept`, is not used: the open goes to
 * `source` (so its errors are the usual ones), and an instance nobody opens is closed by
 * {@link PrelaunchedProviderSource.close} — a provider launched early and not needed never
 * outlives the command.
 */
export function prelaunchedProviderSource<P extends OpenedProvider = OpenedProvider>(
  source: { open(source: string, options?: ProviderSourceOpenOptions): Promise<P> },
  launched: Iterable<readonly [string, Promise<P | undefined>]>,
  options: PrelaunchedProviderSourceOptions = {},
): PrelaunchedProviderSource<P> {
  const early = new Map<string, Early<P>>();
  for (const [address, p] of launched) {
    if (early.has(address)) continue;
    early.set(address, { launched: p.then((x) => x, () => undefined), state: "waiting" });
  }
  let closed = false;
  const discard = (address: string, e: Early<P>): Promise<void> => {
    e.state = "closed";
    try {
      options.cancel?.(address);
    } catch {
      // The launch is waited for and closed regardless.
    }
    return e.launched.then((p) => p?.close()).catch(() => undefined);
  };
  const claim = async (address: string, e: Early<P>, o: ProviderSourceOpenOptions): Promise<P | undefined> => {
    e.state = "claimed";
    let accepted = false;
    try {
      accepted = options.accept === undefined || (await options.accept(address, o));
    } catch {
      accepted = false;
    }
    if (!accepted) {
      void discard(address, e);
      return undefined;
    }
    const { signal } = o;
    if (signal === undefined) return e.launched;
    if (signal.aborted) {
      void discard(address, e);
      return undefined;
    }
    // Canceled while the early launch is still under way: the open goes to the source (which
    // fails as canceled) and the early instance is closed when it arrives.
    return new Promise<P | undefined>((resolve) => {
      const onAbort = (): void => {
        void discard(address, e);
        resolve(undefined);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      void e.launched.then((p) => {
        signal.removeEventListener("abort", onAbort);
        if (e.state === "closed") return;
        resolve(p);
      });
    });
  };
  return {
    get unclaimed() {
      return [...early].filter(([, e]) => e.state === "waiting").map(([a]) => a);
    },
    async open(address: string, o: ProviderSourceOpenOptions = {}): Promise<P> {
      const e = early.get(address);
      if (!closed && e !== undefined && e.state === "waiting") {
        const p = await claim(address, e, o);
        if (p !== undefined) return p;
      }
      return source.open(address, o);
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...early].filter(([, e]) => e.state === "waiting").map(([address, e]) => discard(address, e)));
    },
  };
}

/**
 * Carries what the process writes to stdout after the handshake to the
 * `plugin.GRPCStdio/StreamStdio` stream (as go-plugin does with os.Stdout), so stray
 * output never reaches the handshake pipe as garbage and ends up in Terraform's logs.
 *
 * @internal
 */
export class StdioForwarder {
  readonly #queue: Uint8Array[] = [];
  #queued = 0;
  #waiting: ((chunk: Uint8Array | undefined) => void) | undefined;
  #ended = false;
  readonly #limit: number;

  /** @param limit - bytes kept while nobody reads the stream; beyond it, output is dropped. */
  constructor(limit = 1 << 20) {
    this.#limit = limit;
  }

  /** Queues a chunk (dropped when the buffer is full or the forwarder ended). */
  push(chunk: Uint8Array): void {
    if (this.#ended || chunk.length === 0) return;
    const w = this.#waiting;
    if (w !== undefined) {
      this.#waiting = undefined;
      w(chunk);
      return;
    }
    if (this.#queued + chunk.length > this.#limit) return;
    this.#queue.push(chunk);
    this.#queued += chunk.length;
  }

  /** The next chunk, or `undefined` once ended or when `signal` fires. */
  next(signal: AbortSignal): Promise<Uint8Array | undefined> {
    const head = this.#queue.shift();
    if (head !== undefined) {
      this.#queued -= head.length;
      return Promise.resolve(head);
    }
    if (this.#ended || signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        if (this.#waiting === done) this.#waiting = undefined;
        resolve(undefined);
      };
      const done = (chunk: Uint8Array | undefined): void => {
        signal.removeEventListener("abort", onAbort);
        resolve(chunk);
      };
      this.#waiting = done;
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Ends every reader. */
  end(): void {
    this.#ended = true;
    const w = this.#waiting;
    this.#waiting = undefined;
    w?.(undefined);
  }
}

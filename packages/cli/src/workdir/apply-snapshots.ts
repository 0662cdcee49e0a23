import { saveState, type StateFile, type StateStore } from "@magma/state";

/**
 * The state snapshots of one apply, saved through the backend one after another (never two
 * writes at once, so never an older snapshot after a newer one), and the latest durable one
 * saved once more on demand: terraform's local state manager writes the state at the end of
 * every apply and again when a second interrupt ends one, so that a working directory without
 * a state has an empty one (serial 1) even when no object was applied.
 */
export class ApplySnapshots {
  readonly #store: StateStore;
  /** The last snapshot the backend stored, as stored (its serial the one written); the prior state until one is. */
  #durable: StateFile | undefined;
  /** The writes under way, in order. */
  #chain: Promise<unknown> = Promise.resolve();

  /** Snapshots saved into `store` (the caller holds its lock). */
  constructor(store: StateStore) {
    this.#store = store;
  }

  /** The apply starts from `prior`: what {@link saveLatest} saves until a snapshot is stored. */
  start(prior: StateFile): void {
    this.#durable = prior;
  }

  /**
   * Saves an apply's snapshot after the writes before it; resolves once it is stored.
   *
   * @throws StateError as `saveState`.
   */
  save(state: StateFile): Promise<void> {
    return this.#enqueue(state);
  }

  /**
   * Saves the latest durable snapshot once more, after the writes under way (unchanged
   * content is not written again); nothing before {@link start}.
   *
   * @throws StateError as `saveState`.
   */
  saveLatest(): Promise<void> {
    const write = this.#chain.then(async () => {
      if (this.#durable !== undefined) this.#durable = await saveState(this.#store, this.#durable);
    });
    this.#chain = write.catch(() => undefined);
    return write.then(() => undefined);
  }

  #enqueue(state: StateFile): Promise<void> {
    const write = this.#chain.then(async () => {
      this.#durable = await saveState(this.#store, state);
    });
    this.#chain = write.catch(() => undefined);
    return write;
  }
}

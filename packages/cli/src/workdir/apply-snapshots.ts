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
  /** The first error of a write of this apply, if one failed. */
  #failure: { readonly error: unknown } | undefined;

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
    return write.catch((e: unknown) => {
      this.#failure ??= { error: e };
      throw e;
    });
  }

  /**
   * The serial a state that could not be stored is kept with (in errored.tfstate): one more
   * than the last stored snapshot's, the serial its write would have had, as terraform's
   * remote state manager counts it before the upload. So `state push` of it is accepted.
   */
  get unsavedSerial(): number {
    return (this.#durable?.serial ?? 0) + 1;
  }

  /** The first error of a write of this apply (a snapshot or the latest one), if one failed. */
  get failure(): { readonly error: unknown } | undefined {
    return this.#failure;
  }

  /**
   * The end of an apply, as terraform's (its final `WriteAndPersist`): when a write of this
   * apply failed, `final` (the apply's complete state, which holds what could not be saved)
   * is written once more; otherwise the latest durable snapshot is saved once more, as
   * {@link saveLatest}. Resolves to the error when the state could not be stored (the caller
   * must keep `final` elsewhere), undefined once it is.
   */
  async finish(final: StateFile): Promise<unknown> {
    try {
      if (this.#failure !== undefined) await this.#enqueue(final);
      else await this.saveLatest();
      return undefined;
    } catch (e) {
      return e;
    }
  }

  #enqueue(state: StateFile): Promise<void> {
    const write = this.#chain.then(async () => {
      this.#durable = await saveState(this.#store, state);
    });
    this.#chain = write.catch(() => undefined);
    return write.catch((e: unknown) => {
      this.#failure ??= { error: e };
      throw e;
    });
  }
}

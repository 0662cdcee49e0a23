import { formatModuleInstance, parseProviderConfig, parseResourceInstance, type InstanceObjectState, type ResourceInstanceAddress, type StateFile } from "@magma/state";
import { EngineError, EngineErrorCode } from "../engine-error.js";

/** What the apply writes for one object: an instance object of state without its key and deposed key. */
export type StoredObject = Omit<InstanceObjectState, "indexKey" | "deposed">;

/**
 * The apply's in-memory state and its persistence: every change to an object goes through
 * {@link ApplyState.commit}, which applies it in memory at once and resolves only when a
 * `persist` of a snapshot holding it has completed, so that nothing the apply reports as
 * done is ahead of the persisted state.
 *
 * Writes are group commits: one write at a time, and the commits that arrive while a write
 * is under way all go into the next one. Under load (many objects finishing together) this
 * writes the state far fewer times than once per object, and never acknowledges an object
 * before a write holding it is durable. The serial follows `@magma/state`'s rules
 * (`saveState`): it goes up by one for every persisted snapshot; a state no commit changed
 * is not written again.
 */
export class ApplyState {
  readonly #state: StateFile;
  readonly #persist: (state: StateFile) => Promise<void>;
  /** The write under way or last finished (never rejects). */
  #writing: Promise<void> = Promise.resolve();
  /** The next write, which takes every commit made before it starts. */
  #next: Promise<void> | undefined;
  #dirty = false;
  #persistedSerial: number;
  #persists = 0;

  /** Starts from a copy of the prior state (the caller's object is never changed). */
  constructor(prior: StateFile, persist: (state: StateFile) => Promise<void>) {
    this.#state = structuredClone(prior);
    this.#persist = persist;
    this.#persistedSerial = prior.serial;
  }

  /** A copy of the state as it is now. */
  snapshot(): StateFile {
    return structuredClone(this.#state);
  }

  /** How many times `persist` was called. */
  get persists(): number {
    return this.#persists;
  }

  /** The stored object of an instance (`deposed` undefined: its current object). */
  get(address: string, deposed: string | undefined): StoredObject | undefined {
    const a = parseResourceInstance(address);
    const r = this.#find(a);
    const o = r?.instances.find((i) => sameKey(i.indexKey, a.key) && i.deposed === deposed);
    return o === undefined ? undefined : structuredClone(o);
  }

  /**
   * Applies `mutate` to the state now and resolves once a write holding the change has
   * been persisted (the write after every one under way). A failed write rejects every
   * commit it held; their changes stay in memory and go with the next write.
   */
  commit(mutate: (w: StateWriter) => void): Promise<void> {
    try {
      mutate(this.#writer());
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#scheduleWrite();
  }

  /** Persists the state as it is (after every write under way) when a commit changed it since the last write, e.g. at the end of a walk. */
  flush(): Promise<void> {
    return this.#scheduleWrite();
  }

  #scheduleWrite(): Promise<void> {
    if (this.#next === undefined) {
      const next = this.#writing.then(() => this.#write());
      this.#next = next;
      this.#writing = next.catch(() => undefined);
    }
    return this.#next;
  }

  async #write(): Promise<void> {
    this.#next = undefined; // commits from now on go into the following write
    if (!this.#dirty) return; // nothing changed: nothing to write, the serial stays
    this.#dirty = false;
    const serial = this.#persistedSerial + 1;
    this.#state.serial = serial;
    const snap = structuredClone(this.#state);
    this.#persists++;
    try {
      await this.#persist(snap);
    } catch (e) {
      this.#dirty = true;
      this.#state.serial = this.#persistedSerial;
      throw e;
    }
    this.#persistedSerial = serial;
  }

  #find(a: ResourceInstanceAddress): StateFile["resources"][number] | undefined {
    const module = formatModuleInstance(a.module);
    return this.#state.resources.find((r) => r.mode === a.mode && r.type === a.type && r.name === a.name && formatModuleInstance(r.module) === module);
  }

  #writer(): StateWriter {
    const set = (address: string, provider: string, deposed: string | undefined, object: StoredObject | null): void => {
      const a = parseResourceInstance(address);
      let r = this.#find(a);
      if (object === null) {
        if (r === undefined) return;
        const kept = r.instances.filter((i) => !(sameKey(i.indexKey, a.key) && i.deposed === deposed));
        if (kept.length === r.instances.length) return;
        this.#dirty = true;
        r.instances = kept;
        if (r.instances.length === 0) this.#state.resources = this.#state.resources.filter((x) => x !== r);
        return;
      }
      if (a.mode === "ephemeral") throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: ephemeral resources are not kept in state`);
      if (r === undefined) {
        r = { module: a.module, mode: a.mode, type: a.type, name: a.name, provider: parseProviderConfig(provider), instances: [] };
        this.#state.resources.push(r);
      } else {
        r.provider = parseProviderConfig(provider);
      }
      this.#dirty = true;
      const full: InstanceObjectState = { ...object, indexKey: a.key, deposed };
      const i = r.instances.findIndex((x) => sameKey(x.indexKey, a.key) && x.deposed === deposed);
      if (i >= 0) r.instances[i] = full;
      else r.instances.push(full);
    };
    return {
      set,
      depose: (address, key) => {
        const a = parseResourceInstance(address);
        const o = this.#find(a)?.instances.find((i) => sameKey(i.indexKey, a.key) && i.deposed === undefined);
        if (o !== undefined) {
          o.deposed = key;
          this.#dirty = true;
        }
      },
      restore: (address, key) => {
        const a = parseResourceInstance(address);
        const r = this.#find(a);
        if (r === undefined || r.instances.some((i) => sameKey(i.indexKey, a.key) && i.deposed === undefined)) return;
        const o = r.instances.find((i) => sameKey(i.indexKey, a.key) && i.deposed === key);
        if (o !== undefined) {
          o.deposed = undefined;
          this.#dirty = true;
        }
      },
      setOutputs: (outputs) => {
        const next = new Map(outputs);
        if (JSON.stringify([...this.#state.outputs]) !== JSON.stringify([...next])) this.#dirty = true;
        this.#state.outputs = next;
      },
    };
  }
}

/** The changes a commit may make. */
export interface StateWriter {
  /** Sets (or with null removes) the current object (`deposed` undefined) or a deposed object of an instance; `provider` is the absolute provider configuration address. */
  set(address: string, provider: string, deposed: string | undefined, object: StoredObject | null): void;
  /** Makes the current object of an instance deposed under `key`. */
  depose(address: string, key: string): void;
  /** Makes the deposed object `key` current again, when the instance has no current object. */
  restore(address: string, key: string): void;
  /** Replaces the root module's outputs. */
  setOutputs(outputs: Iterable<readonly [string, StateFile["outputs"] extends Map<string, infer O> ? O : never]>): void;
}

function sameKey(a: number | string | undefined, b: number | string | undefined): boolean {
  return a === b;
}

import {
  compareInstanceKeys,
  formatModuleInstance,
  formatProviderConfig,
  parseProviderConfig,
  parseResourceInstance,
  type InstanceObjectState,
  type OutputState,
  type ResourceInstanceAddress,
  type ResourceState,
  type StateFile,
} from "@magma/state";
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
  /** The resources by module, mode, type and name (see {@link resourceKey}). */
  readonly #resources = new Map<string, ResourceState>();
  /** The write under way or last finished (never rejects). */
  #writing: Promise<void> = Promise.resolve();
  /** The next write, which takes every commit made before it starts. */
  #next: Promise<void> | undefined;
  #dirty = false;
  #persistedSerial: number;
  #persists = 0;
  /** The resources {@link ensureResource} put into the state (see {@link resourceKey}). */
  readonly #ensured = new Set<string>();

  /**
   * Starts from a copy of the prior state (the caller's object is never changed). Its
   * instance objects are kept frozen and replaced, never changed in place, so that every
   * snapshot handed to `persist` shares the unchanged ones with the one before (a
   * `StateFormatter`, as in `saveState`, then formats only what changed).
   */
  constructor(prior: StateFile, persist: (state: StateFile) => Promise<void>) {
    this.#state = structuredClone(prior);
    this.#persist = persist;
    this.#persistedSerial = prior.serial;
    for (const r of this.#state.resources) {
      r.instances = r.instances.map(freezeObject).sort(compareObjects);
      this.#resources.set(resourceKey(r.module, r.mode, r.type, r.name), r);
    }
  }

  /** A copy of the state as it is now. */
  snapshot(): StateFile {
    return structuredClone(this.#state);
  }

  /** The root module's outputs as they are now (read-only). */
  get outputs(): ReadonlyMap<string, OutputState> {
    return this.#state.outputs;
  }

  /** How many times `persist` was called. */
  get persists(): number {
    return this.#persists;
  }

  /** The stored object of an instance (`deposed` undefined: its current object). */
  get(address: string, deposed: string | undefined): StoredObject | undefined {
    const a = parseResourceInstance(address);
    const r = this.#find(a);
    if (r === undefined) return undefined;
    const i = findObject(r.instances, a.key, deposed);
    return i < 0 ? undefined : structuredClone(r.instances[i]!);
  }

  /** The provider configuration address of an instance's resource in the state, if it is there. */
  providerOf(address: string): string | undefined {
    const r = this.#find(parseResourceInstance(address));
    return r === undefined ? undefined : formatProviderConfig(r.provider);
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

  /**
   * Puts the resource of an instance into the state with its provider configuration, with no
   * instances if it has none yet, as Terraform's apply does for each resource it is about to
   * apply (its expand node's `SetResourceProvider`): a resource whose instance then fails
   * before anything is written (a precondition failing at apply) stays in the state with
   * `"instances": []`; one whose create made nothing goes again (writing no object for an
   * instance of a resource without instances removes it, as Terraform's state does). Not
   * persisted by itself: the next write takes it.
   */
  ensureResource(address: string, provider: string): void {
    const a = parseResourceInstance(address);
    if (a.mode === "ephemeral") return;
    this.#ensured.add(resourceKey(a.module, a.mode, a.type, a.name));
    const r = this.#find(a);
    const config = parseProviderConfig(provider);
    if (r === undefined) {
      const created: ResourceState = { module: a.module, mode: a.mode, type: a.type, name: a.name, provider: config, instances: [] };
      this.#state.resources.push(created);
      this.#resources.set(resourceKey(a.module, a.mode, a.type, a.name), created);
      this.#dirty = true;
    } else if (formatProviderConfig(r.provider) !== provider) {
      r.provider = config;
      this.#dirty = true;
    }
  }

  /**
   * Removes the resources left with no instances that this apply did not put there with
   * {@link ensureResource} (one kept from an earlier failed apply whose resource this apply
   * did not apply, as Terraform's state after a normal apply holds none). Not persisted by itself.
   */
  pruneOtherEmptyResources(): void {
    for (const r of [...this.#state.resources]) {
      if (r.instances.length > 0 || this.#ensured.has(resourceKey(r.module, r.mode, r.type, r.name))) continue;
      this.#remove(r);
      this.#dirty = true;
    }
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
    // The snapshot: new arrays and records around the same (frozen) instance objects; O(objects) pointer copies, no object copied.
    const snap: StateFile = {
      ...this.#state,
      outputs: new Map(this.#state.outputs),
      resources: this.#state.resources.map((r) => ({ ...r, instances: [...r.instances] })),
    };
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

  #find(a: ResourceInstanceAddress): ResourceState | undefined {
    return this.#resources.get(resourceKey(a.module, a.mode, a.type, a.name));
  }

  #remove(r: ResourceState): void {
    this.#resources.delete(resourceKey(r.module, r.mode, r.type, r.name));
    this.#state.resources = this.#state.resources.filter((x) => x !== r);
  }

  #writer(): StateWriter {
    const set = (address: string, provider: string, deposed: string | undefined, object: StoredObject | null): void => {
      const a = parseResourceInstance(address);
      let r = this.#find(a);
      if (object === null) {
        if (r === undefined) return;
        // As Terraform's SetResourceInstanceCurrent(nil): a resource with no instances goes (a create that made nothing).
        if (r.instances.length === 0) {
          this.#remove(r);
          this.#dirty = true;
          return;
        }
        const i = findObject(r.instances, a.key, deposed);
        if (i < 0) return;
        this.#dirty = true;
        r.instances.splice(i, 1);
        if (r.instances.length === 0) this.#remove(r);
        return;
      }
      if (a.mode === "ephemeral") throw new EngineError(EngineErrorCode.InvalidArgument, `${address}: ephemeral resources are not kept in state`);
      if (r === undefined) {
        r = { module: a.module, mode: a.mode, type: a.type, name: a.name, provider: parseProviderConfig(provider), instances: [] };
        this.#state.resources.push(r);
        this.#resources.set(resourceKey(a.module, a.mode, a.type, a.name), r);
      } else {
        r.provider = parseProviderConfig(provider);
      }
      this.#dirty = true;
      insertObject(r.instances, freezeObject({ ...object, dependencies: [...object.dependencies], indexKey: a.key, deposed }));
    };
    /** Moves an instance's object from one deposed key to another (undefined: current). */
    const move = (address: string, from: string | undefined, to: string | undefined): void => {
      const a = parseResourceInstance(address);
      const r = this.#find(a);
      if (r === undefined) return;
      if (to === undefined && findObject(r.instances, a.key, undefined) >= 0) return;
      const i = findObject(r.instances, a.key, from);
      if (i < 0) return;
      const [o] = r.instances.splice(i, 1);
      insertObject(r.instances, freezeObject({ ...o!, deposed: to }));
      this.#dirty = true;
    };
    return {
      set,
      depose: (address, key) => move(address, undefined, key),
      restore: (address, key) => move(address, key, undefined),
      setOutputs: (outputs) => {
        const next = new Map(outputs);
        if (JSON.stringify([...this.#state.outputs]) !== JSON.stringify([...next])) this.#dirty = true;
        this.#state.outputs = next;
      },
      setCheckResults: (results) => {
        const next = results === undefined || results.length === 0 ? undefined : results;
        if (JSON.stringify(this.#state.checkResults ?? null) !== JSON.stringify(next ?? null)) this.#dirty = true;
        this.#state.checkResults = next;
      },
    };
  }
}

/** The index key of a resource: module instance, mode, type and name. */
function resourceKey(module: ResourceState["module"], mode: string, type: string, name: string): string {
  return `${formatModuleInstance(module)}\0${mode}\0${type}\0${name}`;
}

/** Instance objects in the order the state file writes them: key, then deposed key (current first). */
function compareObjects(a: InstanceObjectState, b: InstanceObjectState): number {
  return compareInstanceKeys(a.indexKey, b.indexKey) || compareText(a.deposed ?? "", b.deposed ?? "");
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The position of an object in a sorted list (binary search), or -1. */
function findObject(list: readonly InstanceObjectState[], key: InstanceObjectState["indexKey"], deposed: string | undefined): number {
  const i = lowerBound(list, key, deposed);
  const o = list[i];
  return o !== undefined && o.indexKey === key && o.deposed === deposed ? i : -1;
}

function lowerBound(list: readonly InstanceObjectState[], key: InstanceObjectState["indexKey"], deposed: string | undefined): number {
  const probe = { indexKey: key, deposed } as InstanceObjectState;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareObjects(list[mid]!, probe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Puts an object into a sorted list, replacing the one of the same key and deposed key. */
function insertObject(list: InstanceObjectState[], o: InstanceObjectState): void {
  const i = lowerBound(list, o.indexKey, o.deposed);
  const at = list[i];
  if (at !== undefined && at.indexKey === o.indexKey && at.deposed === o.deposed) list[i] = o;
  else list.splice(i, 0, o);
}

function freezeObject(o: InstanceObjectState): InstanceObjectState {
  Object.freeze(o.dependencies);
  return Object.freeze(o);
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
  /** Replaces the results of the checks (undefined or none: the state records none). */
  setCheckResults(results: StateFile["checkResults"]): void;
}

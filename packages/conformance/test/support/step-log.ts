/**
 * Test support: results of a background run (the terraform oracle) published step by step,
 * so that the magma side can run at the same time and each test awaits only the step it
 * compares with. A failure of the run rejects every step not yet published.
 */
export class StepLog<T> {
  readonly #waiting = new Map<string, { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void }>();
  #failure: unknown = undefined;
  #failed = false;

  #slot(name: string): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
    let s = this.#waiting.get(name);
    if (s === undefined) {
      let resolve!: (v: T) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => undefined); // observed by the test that awaits it
      s = { promise, resolve, reject };
      this.#waiting.set(name, s);
      if (this.#failed) reject(this.#failure);
    }
    return s;
  }

  /** Publishes the result of step `name`. */
  publish(name: string, value: T): void {
    this.#slot(name).resolve(value);
  }

  /** Fails every step not yet published. */
  fail(error: unknown): void {
    this.#failed = true;
    this.#failure = error;
    for (const s of this.#waiting.values()) s.reject(error);
  }

  /** The result of step `name`, once published. */
  get(name: string): Promise<T> {
    return this.#slot(name).promise;
  }
}

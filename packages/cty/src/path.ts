/**
 * One step of a {@link Path}: an object attribute (or nested block) by name, a map element
 * by string key, or a list or tuple element by index. The set is closed; set elements are
 * not addressable, as on the wire.
 */
export type PathStep =
  | { readonly kind: "attr"; readonly name: string }
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "index"; readonly index: number };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * An immutable path into a cty value, such as `rules[2].port` or `tags["Name"]`.
 *
 * Build one from {@link Path.root} with {@link Path.attr}, {@link Path.key} and
 * {@link Path.index}; each returns a new path.
 */
export class Path {
  /** The steps, outermost first. */
  readonly steps: readonly PathStep[];

  private constructor(steps: readonly PathStep[]) {
    this.steps = steps;
  }

  /** The empty path: the value itself. */
  static readonly root: Path = new Path(Object.freeze([]));

  /** A path made of the given steps. */
  static of(steps: readonly PathStep[]): Path {
    return steps.length === 0 ? Path.root : new Path(Object.freeze(steps.slice()));
  }

  /** This path followed by an attribute step. */
  attr(name: string): Path {
    return this.push({ kind: "attr", name });
  }

  /** This path followed by a map-key step. */
  key(key: string): Path {
    return this.push({ kind: "key", key });
  }

  /**
   * This path followed by a list or tuple index step.
   *
   * @throws RangeError when `index` is not a non-negative safe integer.
   */
  index(index: number): Path {
    if (!Number.isSafeInteger(index) || index < 0) {
      throw new RangeError(`path index must be a non-negative integer, got ${index}`);
    }
    return this.push({ kind: "index", index });
  }

  /** This path followed by the steps of another. */
  concat(other: Path): Path {
    if (other.steps.length === 0) return this;
    if (this.steps.length === 0) return other;
    return new Path(Object.freeze([...this.steps, ...other.steps]));
  }

  /** True for the empty path. */
  isRoot(): boolean {
    return this.steps.length === 0;
  }

  /** Step-by-step equality. */
  equals(other: Path): boolean {
    if (this.steps.length !== other.steps.length) return false;
    for (let i = 0; i < this.steps.length; i++) {
      const a = this.steps[i]!;
      const b = other.steps[i]!;
      if (a.kind !== b.kind) return false;
      if (a.kind === "attr" && a.name !== (b as typeof a).name) return false;
      if (a.kind === "key" && a.key !== (b as typeof a).key) return false;
      if (a.kind === "index" && a.index !== (b as typeof a).index) return false;
    }
    return true;
  }

  /**
   * The path as people write it: `rules[2].port`, `tags["Name"]`; an attribute whose name is
   * not an identifier is shown as `["odd name"]`. The root path is the empty string.
   */
  toString(): string {
    let out = "";
    for (const step of this.steps) {
      switch (step.kind) {
        case "attr":
          if (IDENTIFIER.test(step.name)) out += out === "" ? step.name : `.${step.name}`;
          else out += `[${JSON.stringify(step.name)}]`;
          break;
        case "key":
          out += `[${JSON.stringify(step.key)}]`;
          break;
        case "index":
          out += `[${step.index}]`;
          break;
      }
    }
    return out;
  }

  private push(step: PathStep): Path {
    return new Path(Object.freeze([...this.steps, step]));
  }
}

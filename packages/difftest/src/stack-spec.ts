/**
 * The model of a generated stack: the features of its first configuration and the
 * mutations that make each later step. Plain data (JSON-able), so a failing case is written to
 * a file as it is, and fast-check shrinks it by shrinking its parts.
 */

/** How a resource or module call repeats. */
export type Repeat =
  | { readonly kind: "one" }
  | { readonly kind: "count"; readonly n: number }
  | { readonly kind: "each"; readonly keys: readonly string[] };

/**
 * Where a string input comes from: a literal, the stack's first variable, an earlier local,
 * an earlier resource/module/data source (`pick` chooses among those before the user), or a
 * function of a literal.
 */
export type Source =
  | { readonly kind: "lit"; readonly s: string }
  | { readonly kind: "var" }
  | { readonly kind: "local"; readonly pick: number }
  | { readonly kind: "ref"; readonly pick: number; readonly attr: "output" | "token" | "id" }
  | { readonly kind: "fn"; readonly fn: "upper" | "digest" | "format" | "join_sorted"; readonly s: string };

/** A testbed_value resource. */
export interface ValueFeature {
  readonly kind: "value";
  readonly repeat: Repeat;
  readonly src: Source;
  readonly triggers: string | null;
  readonly cbd: boolean;
  readonly ignoreInput: boolean;
  readonly dependsOnPrev: boolean;
  readonly alias: boolean;
  readonly importIt: boolean;
  readonly secretWo: string | null;
  /** `lifecycle { replace_triggered_by = [<the resource before it>] }`. */
  readonly replaceOnPrev: boolean;
  /** A passing `lifecycle { postcondition { … } }` over `self` (a failing one fails terraform's plan when `self` is known: not a valid stack). */
  readonly postcondition: boolean;
}

/** A testbed_thing resource. */
export interface ThingFeature {
  readonly kind: "thing";
  readonly repeat: Repeat;
  readonly seed: string;
  readonly desc: string | null;
  readonly size: number | null;
  readonly tags: Readonly<Record<string, string>>;
  readonly rules: readonly number[];
  readonly dynamicRules: boolean;
  readonly effect: string | null;
  readonly targets: readonly string[];
  readonly slots: Readonly<Record<string, string>>;
  readonly owner: string | null;
  readonly nested: boolean;
  readonly vanish: boolean;
  readonly alias: boolean;
}

/** A testbed_legacy resource. */
export interface LegacyFeature {
  readonly kind: "legacy";
  readonly label: string;
}

/** A testbed_lookup data source. */
export interface LookupFeature {
  readonly kind: "lookup";
  readonly src: Source;
  readonly width: number;
}

/** A module call (a local module with a testbed_value and an output). */
export interface ModuleFeature {
  readonly kind: "module";
  readonly repeat: Repeat;
  readonly src: Source;
  readonly alias: boolean;
  /** Whether the module also reads a testbed_lookup data source. */
  readonly lookup: boolean;
}

/** A local value. */
export interface LocalFeature {
  readonly kind: "local";
  readonly src: Source;
}

/** An output over an earlier resource, module or data source. */
export interface OutputFeature {
  readonly kind: "output";
  readonly pick: number;
  readonly form: "direct" | "for" | "length" | "digest" | "cond" | "splat";
  readonly sensitive: boolean;
  /** A `precondition` over the same feature (always passing). */
  readonly precondition: boolean;
}

/** A check block asserting over an earlier resource (failing assertions are warnings). */
export interface CheckFeature {
  readonly kind: "check";
  readonly pick: number;
  readonly pass: boolean;
}

/** Any feature of a stack. */
export type Feature = ValueFeature | ThingFeature | LegacyFeature | LookupFeature | ModuleFeature | LocalFeature | OutputFeature | CheckFeature;

/** The stack's variable (at most one; `src.kind === "var"` reads it). */
export interface VariableSpec {
  readonly type: "string" | "number" | "list" | "object";
  readonly value: string;
  readonly sensitive: boolean;
  readonly validation: boolean;
}

/** One mutation of the previous step's configuration; `pick` chooses a feature modulo the eligible ones. */
export type Mutation =
  | { readonly op: "reseed"; readonly pick: number; readonly s: string }
  | { readonly op: "repeat"; readonly pick: number; readonly repeat: Repeat }
  | { readonly op: "rename"; readonly pick: number }
  | { readonly op: "remove"; readonly pick: number; readonly forget: boolean }
  | { readonly op: "add"; readonly feature: Feature }
  | { readonly op: "flip"; readonly pick: number }
  | { readonly op: "variable"; readonly value: string };

/** A generated stack: the first configuration and the mutations of each later step. */
export interface StackSpec {
  readonly variable: VariableSpec | null;
  /** Whether features that ask for it use the provider alias `testbed.alt` (the root declares it). */
  readonly alias: boolean;
  readonly features: readonly Feature[];
  readonly steps: readonly (readonly Mutation[])[];
}

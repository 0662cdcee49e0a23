import fc from "fast-check";
import type { Feature, Mutation, Repeat, Source, StackSpec, VariableSpec } from "./stack-spec.js";

/**
 * Constructs the generator can leave out (`avoid`): a long run uses them all; the CI batch
 * leaves out those with an open difference (docs/compatibility.md), so that it stays green
 * while it guards everything else.
 */
export const Construct = {
  /** v6 nested attributes (testbed_thing's props, endpoints, members, named). */
  NestedAttributes: "nested-attributes",
  /** The legacy type system's normalisation (testbed_legacy). */
  Legacy: "legacy",
  /** Objects reported gone on every read (testbed_thing's vanish). */
  Vanish: "vanish",
  /** Write-only attributes (testbed_value's secret_wo). */
  WriteOnly: "write-only",
  /** import blocks. */
  Import: "import",
  /** Module calls. */
  Modules: "modules",
  /** removed blocks. */
  Removed: "removed",
  /** Sensitive variables. */
  SensitiveVariable: "sensitive-variable",
  /** check blocks. */
  Checks: "checks",
  /** Provider-defined functions. */
  ProviderFunctions: "provider-functions",
  /** Data sources (testbed_lookup, in the root and in modules). */
  DataSources: "data-sources",
  /** Variable validation rules. */
  Validation: "validation",
  /** `lifecycle { ignore_changes }`. */
  IgnoreChanges: "ignore-changes",
  /** `lifecycle { create_before_destroy }` (and `depends_on`, which spreads it). */
  CreateBeforeDestroy: "create-before-destroy",
  /** Changing between no count and count (terraform's implied move of `[0]` and the no-key instance). */
  ImpliedMove: "implied-move",
  /** Outputs made by `for` expressions over resource objects. */
  ForOutputs: "for-outputs",
  /** Sensitive outputs (and steps that flip an output's `sensitive`). */
  SensitiveOutputs: "sensitive-outputs",
  /** Renames with `moved` blocks. */
  Moved: "moved",
  /** `lifecycle { replace_triggered_by }` naming an earlier resource. */
  ReplaceTriggeredBy: "replace-triggered-by",
  /** Custom conditions (passing): resource postconditions and output preconditions. */
  Conditions: "conditions",
} as const;

/** One of the {@link Construct} names. */
export type Construct = (typeof Construct)[keyof typeof Construct];

/** Options of {@link stackArbitrary}. */
export interface StackArbitraryOptions {
  /** Constructs to leave out (default none). */
  readonly avoid?: ReadonlySet<Construct>;
  /** The most features of the first configuration (default 6). */
  readonly maxFeatures?: number;
  /** The most steps after the first (default 2). */
  readonly maxSteps?: number;
  /** The fewest steps after the first (default 0; at most maxSteps). */
  readonly minSteps?: number;
}

const word = fc.constantFrom("alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta");
const key = fc.constantFrom("a", "b", "c", "d");

const repeat: fc.Arbitrary<Repeat> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "one" } as const) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 3 }).map((n) => ({ kind: "count", n }) as const) },
  { weight: 2, arbitrary: fc.uniqueArray(key, { maxLength: 3 }).map((keys) => ({ kind: "each", keys: [...keys].sort() }) as const) },
);

/** The arbitrary of a whole stack: a variable, an alias, features and each later step's mutations. */
export function stackArbitrary(options: StackArbitraryOptions = {}): fc.Arbitrary<StackSpec> {
  const avoid = options.avoid ?? new Set<Construct>();
  const has = (c: Construct): boolean => !avoid.has(c);

  const source: fc.Arbitrary<Source> = fc.oneof(
    { weight: 3, arbitrary: word.map((s) => ({ kind: "lit", s }) as const) },
    { weight: 1, arbitrary: fc.constant({ kind: "var" } as const) },
    { weight: 1, arbitrary: fc.nat(5).map((pick) => ({ kind: "local", pick }) as const) },
    { weight: 3, arbitrary: fc.record({ pick: fc.nat(5), attr: fc.constantFrom("output", "token", "id") }).map((r) => ({ kind: "ref", ...r }) as const) },
    {
      weight: 1,
      arbitrary: fc
        .record({ fn: has(Construct.ProviderFunctions) ? fc.constantFrom("upper", "digest", "format", "join_sorted") : fc.constantFrom("upper", "format"), s: word })
        .map((r) => ({ kind: "fn", ...r }) as const),
    },
  );

  const value: fc.Arbitrary<Feature> = fc.record({
    kind: fc.constant("value" as const),
    repeat,
    src: source,
    triggers: fc.option(word, { freq: 3, nil: null }),
    cbd: has(Construct.CreateBeforeDestroy) ? fc.boolean() : fc.constant(false),
    ignoreInput: has(Construct.IgnoreChanges) ? fc.boolean() : fc.constant(false),
    dependsOnPrev: has(Construct.CreateBeforeDestroy) ? fc.boolean() : fc.constant(false),
    alias: fc.boolean(),
    importIt: has(Construct.Import) ? fc.boolean() : fc.constant(false),
    secretWo: has(Construct.WriteOnly) ? fc.option(word, { freq: 3, nil: null }) : fc.constant(null),
    replaceOnPrev: has(Construct.ReplaceTriggeredBy) ? fc.boolean() : fc.constant(false),
    postcondition: has(Construct.Conditions) ? fc.boolean() : fc.constant(false),
  });
  const thing: fc.Arbitrary<Feature> = fc.record({
    kind: fc.constant("thing" as const),
    repeat,
    seed: word,
    desc: fc.option(word, { nil: null }),
    size: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
    tags: fc.dictionary(key, word, { maxKeys: 2 }),
    rules: fc.uniqueArray(fc.constantFrom(22, 80, 443, 8080), { maxLength: 3 }),
    dynamicRules: fc.boolean(),
    effect: fc.option(fc.constantFrom("allow", "deny"), { nil: null }),
    targets: fc.uniqueArray(word, { maxLength: 2 }),
    slots: fc.dictionary(key, word, { maxKeys: 2 }),
    owner: fc.option(word, { nil: null }),
    nested: has(Construct.NestedAttributes) ? fc.boolean() : fc.constant(false),
    vanish: has(Construct.Vanish) ? fc.integer({ min: 0, max: 7 }).map((n) => n === 0) : fc.constant(false),
    alias: fc.boolean(),
  });
  const legacy: fc.Arbitrary<Feature> = fc.record({ kind: fc.constant("legacy" as const), label: fc.constantFrom("Hello", "WORLD", "mixed", "Case") });
  const lookup: fc.Arbitrary<Feature> = fc.record({ kind: fc.constant("lookup" as const), src: source, width: fc.integer({ min: 0, max: 3 }) });
  const module: fc.Arbitrary<Feature> = fc.record({ kind: fc.constant("module" as const), repeat, src: source, alias: fc.boolean(), lookup: has(Construct.DataSources) ? fc.boolean() : fc.constant(false) });
  const local: fc.Arbitrary<Feature> = fc.record({ kind: fc.constant("local" as const), src: source });
  const output: fc.Arbitrary<Feature> = fc.record({
    kind: fc.constant("output" as const),
    pick: fc.nat(5),
    form: has(Construct.ForOutputs) ? fc.constantFrom("direct", "for", "length", "digest", "cond", "splat") : fc.constantFrom("direct", "length", "digest", "cond", "splat"),
    sensitive: has(Construct.SensitiveOutputs) ? fc.boolean() : fc.constant(false),
    precondition: has(Construct.Conditions) ? fc.boolean() : fc.constant(false),
  });
  const check: fc.Arbitrary<Feature> = fc.record({ kind: fc.constant("check" as const), pick: fc.nat(5), pass: fc.boolean() });

  const weighted: fc.WeightedArbitrary<Feature>[] = [
    { weight: 5, arbitrary: value },
    { weight: 3, arbitrary: thing },
    { weight: 1, arbitrary: local },
    { weight: 3, arbitrary: output },
  ];
  if (has(Construct.DataSources)) weighted.push({ weight: 2, arbitrary: lookup });
  if (has(Construct.Legacy)) weighted.push({ weight: 1, arbitrary: legacy });
  if (has(Construct.Modules)) weighted.push({ weight: 2, arbitrary: module });
  if (has(Construct.Checks)) weighted.push({ weight: 1, arbitrary: check });
  const feature = fc.oneof(...weighted);

  const variable: fc.Arbitrary<VariableSpec | null> = fc.option(
    fc.record({
      type: fc.constantFrom("string", "number", "list", "object"),
      value: word,
      sensitive: has(Construct.SensitiveVariable) ? fc.boolean() : fc.constant(false),
      validation: has(Construct.Validation) ? fc.boolean() : fc.constant(false),
    }),
    { freq: 3, nil: null },
  );

  const mutations: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 3, arbitrary: fc.record({ op: fc.constant("reseed" as const), pick: fc.nat(7), s: word }) },
    {
      weight: 2,
      // Without implied moves, a later step changes only for_each keys (never count ↔ no count).
      arbitrary: fc.record({ op: fc.constant("repeat" as const), pick: fc.nat(7), repeat: has(Construct.ImpliedMove) ? repeat : repeat.filter((r) => r.kind === "each") }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("remove" as const), pick: fc.nat(7), forget: has(Construct.Removed) ? fc.boolean() : fc.constant(false) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("add" as const), feature }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("flip" as const), pick: fc.nat(7) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("variable" as const), value: word }) },
  ];
  if (has(Construct.Moved)) mutations.push({ weight: 2, arbitrary: fc.record({ op: fc.constant("rename" as const), pick: fc.nat(7) }) });
  const mutation = fc.oneof(...mutations);

  return fc.record({
    variable,
    alias: fc.boolean(),
    features: fc.array(feature, { minLength: 1, maxLength: options.maxFeatures ?? 6 }),
    steps: fc.array(fc.array(mutation, { minLength: 1, maxLength: 2 }), { ...(options.minSteps !== undefined && options.minSteps > 0 ? { minLength: Math.min(options.minSteps, options.maxSteps ?? 2) } : {}), maxLength: options.maxSteps ?? 2 }),
  });
}

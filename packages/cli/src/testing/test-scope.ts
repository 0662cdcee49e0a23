import {
  dynamicType,
  dynamicVal,
  fromJson,
  Mark,
  markWithPaths,
  nullVal,
  objectVal,
  stringVal,
  unknownVal,
  type Value,
} from "@magma/cty";
import { checkExpressionReferences, nameSuggestion, parseRef, type Config, type Reference } from "@magma/config";
import { ModuleEvaluator, unknownsToNull, type Plan, type PlanDiagnostic } from "@magma/engine";
import {
  expressionTraversals,
  terraformFunctions,
  type EvalScope,
  type Expression,
} from "@magma/hcl";
import type { ProviderSchema } from "@magma/provider-api";
import {
  decodeOutput,
  decodeSensitivePaths,
  formatModuleInstance,
  formatProviderSource,
  formatResourceInstance,
  parseResourceInstance,
  type StateFile,
} from "@magma/state";

type Expansion =
  | { kind: "single" }
  | { kind: "count"; count: number }
  | { kind: "for_each"; entries: Map<string, Value> };

/** The values a run's assertions are evaluated against: the module's objects after its plan or apply. */
export interface RunValues {
  /** Resource and data source instances by absolute address. */
  readonly instances: ReadonlyMap<string, Value>;
  /** The root module's outputs as `output.NAME` sees them (unknown or null: unknown). */
  readonly outputs: ReadonlyMap<string, Value>;
}

/** Groups instance addresses into the expansions the evaluator needs (`module|type.name`). */
function expansionsOf(addresses: Iterable<string>): Map<string, Expansion> {
  const keys = new Map<string, (number | string | undefined)[]>();
  for (const address of addresses) {
    const a = parseResourceInstance(address);
    const id = `${formatModuleInstance(a.module)}|${a.mode === "data" ? "data." : ""}${a.type}.${a.name}`;
    const list = keys.get(id) ?? [];
    list.push(a.key);
    keys.set(id, list);
  }
  const out = new Map<string, Expansion>();
  for (const [id, ks] of keys) {
    if (ks.every((k) => k === undefined)) out.set(id, { kind: "single" });
    else if (ks.every((k) => typeof k === "number"))
      out.set(id, { kind: "count", count: Math.max(...(ks as number[])) + 1 });
    else
      out.set(id, {
        kind: "for_each",
        entries: new Map(
          ks.filter((k): k is string => typeof k === "string").map((k) => [k, stringVal(k)]),
        ),
      });
  }
  return out;
}

/** An output as the test scope reads it from the state: null or unknown is unknown (Terraform's `GetOutput`), sensitive marked. */
function outputValue(v: Value | undefined, sensitive: boolean): Value {
  const val = v === undefined || v.isNull() ? dynamicVal : v;
  return sensitive ? val.mark(Mark.Sensitive) : val;
}

/** The values after a plan: planned objects (unknowns where known only after apply), data sources read, outputs with unknowns as null. */
export function planValues(plan: Plan, config: Config): RunValues {
  const instances = new Map<string, Value>();
  for (const c of plan.changes) {
    if (c.deposedKey !== undefined || c.action === "delete" || c.action === "forget") continue;
    instances.set(c.address, c.after);
  }
  for (const [a, v] of Object.entries(plan.dataReads ?? {})) instances.set(a, v);
  const outputs = new Map<string, Value>();
  for (const o of plan.outputs ?? []) {
    if (o.action === "delete") continue;
    const sensitive = config.module.outputs.get(o.name)?.sensitive ?? o.sensitive;
    // A null output is not in the plan walk's state: Terraform's GetOutput gives it as null (cty.NilVal), not unknown.
    if (o.after.isKnown() && o.after.isNull()) {
      outputs.set(o.name, sensitive ? nullVal(dynamicType).mark(Mark.Sensitive) : nullVal(dynamicType));
      continue;
    }
    outputs.set(o.name, outputValue(o.after.isWhollyKnown() ? o.after : unknownsToNull(o.after), sensitive));
  }
  return { instances, outputs };
}

/** The values after an apply: every object of the state decoded with its provider's schema, and the stored outputs. */
export function stateValues(
  state: StateFile,
  schemas: ReadonlyMap<string, ProviderSchema>,
  config: Config,
): RunValues {
  const instances = new Map<string, Value>();
  for (const r of state.resources) {
    const schema = schemas.get(formatProviderSource(r.provider.provider));
    const entry =
      r.mode === "managed" ? schema?.resources.get(r.type) : schema?.dataSources.get(r.type);
    if (entry === undefined) continue;
    for (const obj of r.instances) {
      if (obj.deposed !== undefined) continue;
      let plain: Value;
      try {
        plain = fromJson(obj.attributesJson ?? "{}", entry.type);
      } catch {
        continue;
      }
      const paths = decodeSensitivePaths(obj.sensitiveAttributesJson);
      instances.set(
        formatResourceInstance({
          module: r.module,
          mode: r.mode,
          type: r.type,
          name: r.name,
          key: obj.indexKey,
        }),
        markWithPaths(
          plain,
          paths.map((path) => ({ path, marks: new Set([Mark.Sensitive]) })),
        ),
      );
    }
  }
  const outputs = new Map<string, Value>();
  for (const [name, o] of state.outputs) {
    let v: Value | undefined;
    try {
      v = decodeOutput(o).value;
    } catch {
      v = undefined;
    }
    outputs.set(
      name,
      outputValue(v, o.sensitive || (config.module.outputs.get(name)?.sensitive ?? false)),
    );
  }
  // A null output is not in the state: Terraform's GetOutput gives it as null (cty.NilVal).
  for (const [name, o] of config.module.outputs)
    if (!outputs.has(name)) outputs.set(name, o.sensitive ? nullVal(dynamicType).mark(Mark.Sensitive) : nullVal(dynamicType));
  return { instances, outputs };
}

/** The references an expression makes in the test scope: `run.NAME`, `output.NAME` and the module's own (Terraform's `ParseRefFromTestingScope`). */
export interface TestReference {
  readonly kind: "run" | "output" | "module";
  readonly name?: string;
  readonly ref?: Reference;
  readonly range: Expression["range"];
}

/** The references of expressions in the testing scope. */
export function testReferences(exprs: readonly Expression[]): {
  refs: TestReference[];
  diags: PlanDiagnostic[];
} {
  const refs: TestReference[] = [];
  const diags: PlanDiagnostic[] = [];
  for (const e of exprs) {
    for (const t of expressionTraversals(e)) {
      if (t.root === "run" || t.root === "output") {
        const s = t.steps[0];
        if (s === undefined || s.kind !== "attr") {
          diags.push({
            severity: "error",
            summary: "Invalid reference",
            detail:
              s === undefined
                ? `The ${JSON.stringify(t.root)} object cannot be accessed directly. Instead, access one of its attributes.`
                : `The ${JSON.stringify(t.root)} object does not support this operation.`,
            subject: s?.range ?? t.rootRange,
          });
          continue;
        }
        refs.push({
          kind: t.root,
          name: s.name,
          range: { filename: t.rootRange.filename, start: t.rootRange.start, end: s.range.end },
        });
        continue;
      }
      const p = parseRef(t);
      diags.push(...p.diags);
      if (p.ref !== undefined) refs.push({ kind: "module", ref: p.ref, range: p.ref.range });
    }
  }
  return { refs, diags };
}

/** What {@link runScope} evaluates with. */
export interface RunScopeInput {
  readonly config: Config;
  /** `path.cwd`. */
  readonly cwd: string;
  /** The root module's variables as the plan had them (declared ones). */
  readonly variables: ReadonlyMap<string, Value>;
  /** Variables the test gave that the module does not declare (test-only). */
  readonly extraVariables: ReadonlyMap<string, Value>;
  readonly values: RunValues;
  /** Every run block of the file by name: its outputs (an object) once it ran, else null. */
  readonly priorOutputs: ReadonlyMap<string, Value | null>;
  /** The run's `override_module` outputs by module instance (see the engine's `moduleOverride`). */
  readonly moduleOverride?: (moduleInstance: string) => Value | undefined;
}

/**
 * The scope of a run's assertions (Terraform's `moduletest.EvalContext`): the module's
 * variables (and the test-only ones), locals, resources, data sources and module outputs
 * evaluated from the run's results, `output.NAME` and `run.NAME.OUTPUT`, Terraform's functions.
 */
export function runScope(
  input: RunScopeInput,
  exprs: readonly Expression[],
): { scope: EvalScope; diags: PlanDiagnostic[] } {
  const { config } = input;
  const addresses = [...input.values.instances.keys()];
  const expansions = expansionsOf(addresses);
  const variables = new Map(input.variables);
  for (const [name, v] of config.module.variables)
    if (!variables.has(name)) variables.set(name, v.default ?? nullVal(v.type));
  const ctx = {
    cwd: input.cwd,
    workspace: "default",
    functions: terraformFunctions({ baseDir: input.cwd, plan: false }),
    ...(input.moduleOverride !== undefined ? { moduleOverride: input.moduleOverride } : {}),
  };
  const evaluator = new ModuleEvaluator(config, variables, ctx, {
    expansion: (m, k) => expansions.get(`${m}|${k}`),
    instance: (a) => input.values.instances.get(a),
  });
  const { refs, diags } = testReferences(exprs);
  diags.push(...referenceProblems(input, exprs));
  const moduleRefs = refs.flatMap((r) => (r.ref !== undefined ? [r.ref] : []));
  const base = evaluator.scope([], undefined, moduleRefs);
  const names = new Map<string, Value>(
    base.variables instanceof Map
      ? (base.variables as ReadonlyMap<string, Value>)
      : Object.entries(base.variables ?? {}),
  );
  // Test-only variables overlay the module's.
  const varObj = new Map<string, Value>();
  const declared = names.get("var");
  if (declared !== undefined && declared.type.kind === "object")
    for (const k of Object.keys(declared.type.attributes)) varObj.set(k, declared.getAttr(k));
  for (const r of refs) {
    if (r.ref?.subject.kind !== "var") continue;
    const extra = input.extraVariables.get(r.ref.subject.name);
    if (extra !== undefined) varObj.set(r.ref.subject.name, extra);
  }
  if (varObj.size > 0) names.set("var", objectVal(varObj));
  names.set("output", objectVal(new Map(input.values.outputs)));
  names.set("run", objectVal(new Map([...input.priorOutputs].flatMap(([k, v]) => (v === null ? [] : [[k, v] as const])))));
  return { scope: { ...base, variables: names }, diags };
}

/** An unknown of a variable's type, for values the test could not give. */
export function unknownOf(v: Value): Value {
  return unknownVal(v.type);
}

/** Terraform's `didyoumean.NameSuggestion` as a detail's tail: ` Did you mean "x"?`, or nothing. */
function suggestion(given: string, candidates: Iterable<string>): string {
  const best = nameSuggestion(given, candidates);
  return best === undefined ? "" : ` Did you mean ${JSON.stringify(best)}?`;
}

/**
 * The problems of the assertions' references, in their order, as Terraform's testing scope
 * finds them before evaluating: undeclared resources, variables (test-only ones allowed),
 * locals, module calls and run blocks; then, only when there are none of those (Terraform
 * reads the values after its static validation passed), undeclared outputs and run blocks
 * not run yet.
 */
function referenceProblems(input: RunScopeInput, exprs: readonly Expression[]): PlanDiagnostic[] {
  // Terraform validates statically first (declarations, run blocks in the file) and reads values only when that passed.
  const out: PlanDiagnostic[] = [];
  const dynamic: PlanDiagnostic[] = [];
  const outputs = input.config.module.outputs;
  for (const e of exprs) {
    for (const t of expressionTraversals(e)) {
      const s = t.steps[0];
      const range = s === undefined ? t.rootRange : { filename: t.rootRange.filename, start: t.rootRange.start, end: s.range.end };
      if (t.root === "output" && s?.kind === "attr") {
        if (!outputs.has(s.name)) dynamic.push({ severity: "error", summary: "Reference to undeclared output value", detail: `An output value with the name ${JSON.stringify(s.name)} has not been declared.${suggestion(s.name, [...outputs.keys()].sort())}`, subject: range });
        continue;
      }
      if (t.root === "run" && s?.kind === "attr") {
        if (!input.priorOutputs.has(s.name)) out.push({ severity: "error", summary: "Reference to undeclared run block", detail: `There is no run ${JSON.stringify(s.name)} declared in this test suite.${suggestion(s.name, [...input.priorOutputs.keys()].sort())}`, subject: range });
        else if (input.priorOutputs.get(s.name) === null) dynamic.push({ severity: "error", summary: "Reference to unevaluated run block", detail: `The run ${JSON.stringify(s.name)} block has not yet been evaluated, so its results are not available here.`, subject: range });
        continue;
      }
      if (t.root === "check" && s?.kind === "attr") {
        // Terraform's GetCheckBlock: a check block's status is not a value assertions can read.
        dynamic.push({ severity: "error", summary: 'Reference to "check" in invalid context', detail: 'The "check" object can only be referenced from an "expect_failures" attribute within a Terraform testing "run" block.', subject: range });
        continue;
      }
      if (t.root === "output" || t.root === "run") continue;
      if (t.root === "var" && s?.kind === "attr" && input.extraVariables.has(s.name)) continue;
      out.push(...checkExpressionReferences(input.config, { kind: "traversal", traversal: t, range: t.range }));
    }
  }
  return out.some((d) => d.severity === "error") ? out : [...out, ...dynamic];
}

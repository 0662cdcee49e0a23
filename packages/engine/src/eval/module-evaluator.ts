import { EPHEMERAL_MARK, hasEphemeral } from "../ephemeral/ephemeral-mark.js";
import { relative } from "node:path";
import { boolVal, convert, dynamicType, dynamicVal, nullVal, emptyObjectVal, emptyTupleVal, isPathError, Mark, markWithPaths, numberVal, objectVal, stringVal, tupleVal, type Value } from "@magma/cty";
import { applyTypeDefaults, bodyTraversals, descendantConfig, parseRef, providerAddrString, referencesInExpr, type Config, type Reference } from "@magma/config";
import { evaluate, formatRange, plainRange, variables, type Attribute, type Body, type Diagnostic, type EvalScope, type Expression, type HclFunction } from "@magma/hcl";
import { formatInstanceKey, formatModuleInstance, type ModuleInstanceAddress } from "@magma/state";
import { PlanDiagnosticsError, planError, throwIfErrors } from "../planner/plan-diagnostic.js";
import { resourceValue, type InstanceRepetition } from "./eval-values.js";
import { evaluateExpansion, expansionInstances, type Expansion } from "./expansion.js";
import type { ProviderFunctionCalls } from "./provider-functions.js";

/** Where a {@link ModuleEvaluator} gets resource instances from (the plan walk, or the apply). */
export interface InstanceValueSource {
  /** The expansion of a resource (`type.name`, `data.type.name`) in a module instance, once known. */
  expansion(moduleInstance: string, resourceKey: string): Expansion | undefined;
  /** The current value of a resource instance by absolute address (`module.m[0].aws_x.y["k"]`); undefined when unknown or absent. */
  instance(address: string): Value | undefined;
}

/** The parts of the scope that do not depend on the module. */
export interface EvaluatorContext {
  /** `path.cwd` (absolute) and the directory relative paths resolve against. */
  readonly cwd: string;
  /** `terraform.workspace`. */
  readonly workspace: string;
  /** `terraform.applying` (an ephemeral value): true while applying, false (the default) while planning. */
  readonly applying?: boolean;
  /** Terraform's functions. */
  readonly functions: ReadonlyMap<string, HclFunction>;
  /**
   * Provider-defined functions (`provider::<local name>::<fn>`), called on unconfigured
   * provider instances; without it every such call is "Unknown provider function".
   * Evaluations that may meet them run through {@link settleProviderCalls}.
   */
  readonly providerFunctions?: ProviderFunctionCalls;
  /**
   * `magma test`'s `override_module` (Terraform's `Overrides.GetModuleOverride`): the outputs
   * (an object) given for a module instance (`module.m`, `module.m[0]`, `module.a.module.b`)
   * that is overridden, else undefined. An overridden instance's objects (variables, locals,
   * resources, checks, module calls) are neither planned nor evaluated; its outputs are the
   * values given, null for an output the object lacks.
   */
  readonly moduleOverride?: (moduleInstance: string) => Value | undefined;
}

/** Meta-arguments of a module block that are not input variables. */
const MODULE_META = new Set(["source", "version", "count", "for_each", "depends_on", "providers", "_", "lifecycle", "locals", "provider"]);

/** The module instance address of a module instance's child. */
export function childInstance(parent: ModuleInstanceAddress, name: string, key: number | string | undefined): ModuleInstanceAddress {
  return [...parent, { name, key }];
}

/** `module.a.module.b.` style prefix of a configuration path (`""` for the root). */
export function configPrefix(path: readonly string[]): string {
  return path.map((n) => `module.${n}.`).join("");
}

/** The output a `module.m…` reference names (`module.m.out`, `module.m[0].out`), if any. */
export function moduleOutputName(ref: Reference): string | undefined {
  const steps = ref.traversal.steps;
  let i = 1;
  if (steps[i]?.kind === "index") i++;
  const s = steps[i];
  return s?.kind === "attr" ? s.name : undefined;
}

/** The instance prefix of a module instance (`module.m["a"].`, `""` for the root). */
export function instancePrefix(mi: ModuleInstanceAddress): string {
  const s = formatModuleInstance(mi);
  return s === "" ? "" : `${s}.`;
}

/**
 * Evaluates the named values of every module instance of a configuration on demand, as
 * Terraform's evaluator does for a `lang.Scope`: input variables (root values, or the
 * module call's arguments evaluated in the parent instance, converted, defaulted and
 * marked sensitive), locals, module call values (objects of outputs; tuples or objects of
 * them when repeated), outputs, and resources from an {@link InstanceValueSource}. Only
 * what an expression refers to is evaluated; results are memoized.
 */
export class ModuleEvaluator {
  readonly #root: Config;
  readonly #rootVariables: ReadonlyMap<string, Value>;
  readonly #ctx: EvaluatorContext;
  readonly #source: InstanceValueSource;
  readonly #memo = new Map<string, Value>();
  readonly #children = new Map<string, { expansion: Expansion; instances: { mi: ModuleInstanceAddress; rep: InstanceRepetition }[] }>();
  readonly #reps = new Map<string, InstanceRepetition>();
  readonly #callArgs = new Map<string, ReadonlyMap<string, Attribute>>();
  readonly #locals = new WeakMap<Config, ReadonlyMap<string, string>>();

  /** @param rootVariables the root module's variable values (sensitive ones marked). */
  constructor(root: Config, rootVariables: ReadonlyMap<string, Value>, ctx: EvaluatorContext, source: InstanceValueSource) {
    this.#root = root;
    this.#rootVariables = rootVariables;
    this.#ctx = ctx;
    this.#source = source;
  }

  /** The configuration of a module path (`[]` for the root). */
  configAt(path: readonly string[]): Config {
    const c = descendantConfig(this.#root, path);
    if (c === undefined) throw new PlanDiagnosticsError([planError("Module not installed", `The module ${configPrefix(path).slice(0, -1)} is not in the configuration.`)]);
    return c;
  }

  /**
   * The instances of a module path, expanding every module call on the way (root: `[[]]`).
   * Overridden module instances ({@link EvaluatorContext.moduleOverride}) and those inside them
   * are left out, as Terraform's expander leaves them out — but with `includeOverridden`, the
   * path's own overridden instances are kept (for their outputs, as Terraform's output nodes).
   */
  instancesOf(path: readonly string[], includeOverridden = false): ModuleInstanceAddress[] {
    let out: ModuleInstanceAddress[] = [[]];
    for (let i = 0; i < path.length; i++) {
      const name = path[i]!;
      const next: ModuleInstanceAddress[] = [];
      const keep = includeOverridden && i === path.length - 1;
      for (const mi of out) for (const c of this.childInstances(mi, name).instances) if (keep || this.moduleOverride(c.mi) === undefined) next.push(c.mi);
      out = next;
    }
    return out;
  }

  /** The outputs given for a module instance by `override_module` (see {@link EvaluatorContext.moduleOverride}); undefined when it is not overridden. */
  moduleOverride(mi: ModuleInstanceAddress): Value | undefined {
    const hook = this.#ctx.moduleOverride;
    return hook === undefined || mi.length === 0 ? undefined : hook(formatModuleInstance(mi));
  }

  /** The expansion of a module call in a parent instance, and its child instances. */
  childInstances(parent: ModuleInstanceAddress, name: string): { expansion: Expansion; instances: { mi: ModuleInstanceAddress; rep: InstanceRepetition }[] } {
    const id = `${formatModuleInstance(parent)}|${name}`;
    const known = this.#children.get(id);
    if (known !== undefined) return known;
    const call = this.configAt(parent.map((s) => s.name)).module.moduleCalls.get(name);
    if (call === undefined) throw new PlanDiagnosticsError([planError("Reference to undeclared module", `No module call named "${name}" is declared in ${formatModuleInstance(parent) || "the root module"}.`)]);
    const exprs = [call.count, call.forEach].filter((e): e is Expression => e !== undefined);
    const misses = this.#ctx.providerFunctions?.misses;
    const ex = evaluateExpansion(call.count, call.forEach, this.scope(parent, undefined, this.refsOfExprs(exprs)));
    throwIfErrors(ex.diags, `${instancePrefix(parent)}module.${name}`);
    const instances = expansionInstances(ex.expansion).map((inst) => {
      const mi = childInstance(parent, name, inst.key);
      const rep: InstanceRepetition = inst.eachValue !== undefined ? { key: inst.key, eachValue: inst.eachValue } : { key: inst.key };
      this.#reps.set(formatModuleInstance(mi), rep);
      return { mi, rep };
    });
    const r = { expansion: ex.expansion, instances };
    if (this.#ctx.providerFunctions?.misses === misses) this.#children.set(id, r);
    return r;
  }

  /** The references of expressions. */
  refsOfExprs(exprs: readonly (Expression | undefined)[]): Reference[] {
    const out: Reference[] = [];
    for (const e of exprs) out.push(...referencesInExpr(e).refs);
    return out;
  }

  /** The references of a body (dynamic iterators excluded), skipping the given meta-arguments. */
  refsOfBody(body: Body, skip: ReadonlySet<string> = new Set()): Reference[] {
    const out: Reference[] = [];
    for (const t of bodyTraversals(body, skip)) {
      const r = parseRef(t).ref;
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /**
   * The scope of a module instance for expressions making the given references: only the
   * referenced named values are evaluated. `rep` gives `count.index` / `each.*`.
   */
  scope(mi: ModuleInstanceAddress, rep: InstanceRepetition | undefined, refs: readonly Reference[]): EvalScope {
    const config = this.configAt(mi.map((s) => s.name));
    const module = config.module;
    // Maps, not plain objects: a name is any name (`var.__proto__`, `local.constructor`).
    const vars = new Map<string, Map<string, Value>>();
    const group = (root: string, name: string, v: Value): void => {
      let cur = vars.get(root);
      if (cur === undefined) vars.set(root, (cur = new Map()));
      cur.set(name, v);
    };
    const data = new Map<string, Map<string, Value>>();
    const ephemeral = new Map<string, Map<string, Value>>();
    /** Per module call referenced: the outputs the references name, or all of them (a reference to the whole call). */
    const calls = new Map<string, Set<string> | "all">();
    for (const ref of refs) {
      const s = ref.subject;
      switch (s.kind) {
        case "var":
          if (module.variables.has(s.name)) group("var", s.name, this.variable(mi, s.name));
          break;
        case "local":
          if (module.locals.has(s.name)) group("local", s.name, this.local(mi, s.name));
          break;
        case "module": {
          if (!module.moduleCalls.has(s.name)) break;
          const out = moduleOutputName(ref);
          const named = calls.get(s.name);
          if (out === undefined || named === "all") calls.set(s.name, "all");
          else if (named === undefined) calls.set(s.name, new Set([out]));
          else named.add(out);
          break;
        }
        case "resource": {
          if (s.mode === "managed" && module.managedResources.has(`${s.type}.${s.name}`)) group(s.type, s.name, this.resource(mi, `${s.type}.${s.name}`));
          else if (s.mode === "data" && module.dataResources.has(`data.${s.type}.${s.name}`)) {
            let byName = data.get(s.type);
            if (byName === undefined) data.set(s.type, (byName = new Map()));
            byName.set(s.name, this.resource(mi, `data.${s.type}.${s.name}`));
          }
          else if (s.mode === "ephemeral" && module.ephemeralResources.has(`ephemeral.${s.type}.${s.name}`)) {
            let byName = ephemeral.get(s.type);
            if (byName === undefined) ephemeral.set(s.type, (byName = new Map()));
            byName.set(s.name, this.resource(mi, `ephemeral.${s.type}.${s.name}`));
          }
          break;
        }
        default:
          break;
      }
    }
    for (const [name, outputs] of calls) group("module", name, this.moduleValue(mi, name, outputs === "all" ? undefined : outputs));
    const out = new Map<string, Value>();
    for (const [k, v] of vars) out.set(k, objectVal(v));
    if (data.size > 0) out.set("data", objectVal(new Map([...data].map(([t, m]) => [t, objectVal(m)]))));
    if (ephemeral.size > 0) out.set("ephemeral", objectVal(new Map([...ephemeral].map(([t, m]) => [t, objectVal(m)]))));
    const pathModule = mi.length === 0 ? "." : relative(this.#ctx.cwd, config.module.sourceDir) || ".";
    const pathRoot = relative(this.#ctx.cwd, this.#root.module.sourceDir) || ".";
    out.set("path", objectVal({ module: stringVal(pathModule), root: stringVal(pathRoot), cwd: stringVal(this.#ctx.cwd) }));
    out.set("terraform", objectVal({ workspace: stringVal(this.#ctx.workspace), applying: boolVal(this.#ctx.applying === true).mark(EPHEMERAL_MARK) }));
    if (rep !== undefined) {
      if (typeof rep.key === "number") out.set("count", objectVal({ index: numberVal(rep.key) }));
      else if (typeof rep.key === "string") out.set("each", objectVal({ key: stringVal(rep.key), value: rep.eachValue ?? stringVal(rep.key) }));
    }
    const pf = this.#ctx.providerFunctions;
    const localNames = this.#localNames(config);
    return {
      variables: out,
      functions: this.#ctx.functions,
      providerFunction: pf === undefined ? () => undefined : pf.resolver(localNames),
      hasProviderFunctions: (p) => pf?.hasFunctions(localNames, p) === true,
      baseDir: this.#ctx.cwd,
    };
  }

  /** The provider-defined function calls of this evaluation, if any. */
  get providerFunctions(): ProviderFunctionCalls | undefined {
    return this.#ctx.providerFunctions;
  }

  /** A module's `required_providers` local names and their source addresses (Terraform offers provider functions under these only). */
  #localNames(config: Config): ReadonlyMap<string, string> {
    let m = this.#locals.get(config);
    if (m === undefined) {
      m = new Map([...config.module.requiredProviders].map(([name, rp]) => [name, providerAddrString(rp.provider)]));
      this.#locals.set(config, m);
    }
    return m;
  }

  /** Evaluates an expression in a module instance. @throws PlanDiagnosticsError on errors. */
  evaluate(mi: ModuleInstanceAddress, rep: InstanceRepetition | undefined, expr: Expression, address: string): { value: Value; warnings: Diagnostic[] } {
    const r = evaluate(expr, this.scope(mi, rep, this.refsOfExprs([expr])));
    return { value: r.value, warnings: throwIfErrors(r.diags, address) };
  }

  #memoize(id: string, f: () => Value): Value {
    const v = this.#memo.get(id);
    if (v !== undefined) return v;
    const misses = this.#ctx.providerFunctions?.misses;
    const out = f();
    // Nothing computed from a provider function's placeholder is kept (see ProviderFunctionCalls).
    if (this.#ctx.providerFunctions?.misses === misses) this.#memo.set(id, out);
    return out;
  }

  /** A resource's value in a module instance: object, tuple (count) or object by key (for_each). */
  resource(mi: ModuleInstanceAddress, key: string): Value {
    const m = formatModuleInstance(mi);
    const expansion = this.#source.expansion(m, key);
    if (expansion === undefined) return dynamicVal;
    const prefix = instancePrefix(mi);
    const instances = new Map<number | string | undefined, Value>();
    for (const inst of expansionInstances(expansion)) {
      const v = this.#source.instance(`${prefix}${key}${formatInstanceKey(inst.key)}`);
      if (v !== undefined) instances.set(inst.key, v);
    }
    const mode = key.startsWith("data.") ? "data" : key.startsWith("ephemeral.") ? "ephemeral" : "managed";
    const [type, name] = (mode === "managed" ? key : key.slice(mode.length + 1)).split(".") as [string, string];
    return resourceValue({ mode, type, name, expansion, instances });
  }

  /** An input variable's value in a module instance (sensitive ones marked). */
  variable(mi: ModuleInstanceAddress, name: string): Value {
    return this.#memoize(`${formatModuleInstance(mi)}|var.${name}`, () => {
      const config = this.configAt(mi.map((s) => s.name));
      const decl = config.module.variables.get(name)!;
      const address = `${instancePrefix(mi)}var.${name}`;
      let value: Value | undefined;
      if (mi.length === 0) value = this.#rootVariables.get(name);
      else {
        const parent = mi.slice(0, -1);
        const call = config.call!;
        const args = this.#args(formatModuleInstance(parent), call.name, call.config);
        const attr = args.get(name);
        if (attr !== undefined) {
          const rep = this.#repetitionOf(mi);
          const r = evaluate(attr.expr, this.scope(parent, rep, this.refsOfExprs([attr.expr])));
          throwIfErrors(r.diags, address);
          value = r.value;
          try {
            const { value: plain, paths } = value.unmarkDeep();
            let converted = convert(plain, decl.type);
            if (decl.typeDefaults !== undefined) converted = applyTypeDefaults(converted, decl.typeDefaults);
            // Sensitive parts stay where they were, as terraform converts the marked value (a
            // map holding one sensitive element is not sensitive as a whole, so it can be a
            // for_each); when the conversion moved one (an object become a map), the whole value is.
            const sensitive = paths.filter((p) => p.marks.has(Mark.Sensitive)).map((p) => ({ path: p.path, marks: new Set([Mark.Sensitive]) }));
            const remarked = markWithPaths(converted, sensitive);
            const kept = remarked.unmarkDeep().paths.filter((p) => p.marks.has(Mark.Sensitive)).length === sensitive.length;
            value = sensitive.length === 0 ? converted : kept ? remarked : converted.mark(Mark.Sensitive);
          } catch (e) {
            if (!isPathError(e)) throw e;
            throw new PlanDiagnosticsError([planError("Invalid value for input variable", `The given value is not suitable for ${address} declared at ${formatRange(decl.declRange)}: ${e.message}.`, { address, subject: attr.expr.range })]);
          }
          if (value.isNull() && !decl.nullable) value = decl.default;
        }
      }
      value ??= decl.default;
      if (value === undefined) {
        throw new PlanDiagnosticsError([
          mi.length === 0
            ? planError("No value for required variable", `The root module input variable "${name}" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`, { address, subject: decl.declRange })
            : planError("Missing required argument", `The argument "${name}" is required, but no definition was found.`, { address, subject: this.configAt(mi.map((s) => s.name)).call!.declRange }),
        ]);
      }
      if (decl.ephemeral) value = value.mark(EPHEMERAL_MARK);
      return decl.sensitive ? value.mark(Mark.Sensitive) : value;
    });
  }

  /**
   * The `count.index` / `each.*` of a module instance, for its call's arguments: known once
   * the call was expanded in this evaluator, else expanded now (an apply-time evaluator
   * re-evaluating one instance's configuration has expanded nothing yet).
   */
  #repetitionOf(mi: ModuleInstanceAddress): InstanceRepetition | undefined {
    const id = formatModuleInstance(mi);
    const known = this.#reps.get(id);
    if (known !== undefined || mi.length === 0) return known;
    const last = mi[mi.length - 1]!;
    if (last.key === undefined) return undefined;
    return this.childInstances(mi.slice(0, -1), last.name).instances.find((i) => formatModuleInstance(i.mi) === id)?.rep;
  }

  #args(parent: string, name: string, body: Body): ReadonlyMap<string, Attribute> {
    const id = `${parent}|${name}`;
    let a = this.#callArgs.get(id);
    if (a === undefined) {
      const r = body.justAttributes();
      const all = new Map(r.attributes);
      for (const m of MODULE_META) all.delete(m);
      a = all;
      this.#callArgs.set(id, a);
    }
    return a;
  }

  /** Checks a module call's arguments: each must name an input variable of the module. */
  checkCallArguments(parent: ModuleInstanceAddress, name: string): void {
    const pc = this.configAt(parent.map((s) => s.name));
    const call = pc.module.moduleCalls.get(name);
    const child = pc.children.get(name);
    if (call === undefined || child === undefined) return;
    const args = this.#args(formatModuleInstance(parent), name, call.config);
    const bad = [...args.values()].filter((a) => !child.module.variables.has(a.name));
    if (bad.length > 0) throw new PlanDiagnosticsError(bad.map((a) => planError("Unsupported argument", `An argument named "${a.name}" is not expected here.`, { address: `${instancePrefix(parent)}module.${name}`, subject: a.nameRange })));
  }

  /** A local value in a module instance. */
  local(mi: ModuleInstanceAddress, name: string): Value {
    return this.#memoize(`${formatModuleInstance(mi)}|local.${name}`, () => {
      const l = this.configAt(mi.map((s) => s.name)).module.locals.get(name)!;
      // As terraform's validateSelfRef: `a = local.a` is an error at its reference, not a
      // recursion (a cycle through other locals is the graph's "Cycle").
      const self = variables(l.expr).find((t) => t.root === "local" && t.steps[0]?.kind === "attr" && t.steps[0].name === name);
      if (self !== undefined) {
        throw new PlanDiagnosticsError([
          planError("Self-referencing local value", `Local value local.${name} cannot use its own result as part of its expression.`, { address: `${instancePrefix(mi)}local.${name}`, subject: plainRange(self.range) }),
        ]);
      }
      return this.evaluate(mi, undefined, l.expr, `${instancePrefix(mi)}local.${name}`).value;
    });
  }

  /** An output's value in a module instance (marks kept). */
  output(mi: ModuleInstanceAddress, name: string): Value {
    return this.#memoize(`${formatModuleInstance(mi)}|output.${name}`, () => {
      // An overridden module instance's output is the value given, else null (Terraform's getOverrideValue).
      const given = this.moduleOverride(mi);
      if (given !== undefined) return given.type.kind === "object" && Object.hasOwn(given.type.attributes, name) ? given.getAttr(name) : nullVal(dynamicType);
      const o = this.configAt(mi.map((s) => s.name)).module.outputs.get(name)!;
      const address = `${instancePrefix(mi)}output.${name}`;
      // The sensitivity check comes before the expression's own errors: terraform validates
      // with unknown variables first, where `cidrhost(var.secret, 1)` is an unknown
      // sensitive value, so its error (which would quote the secret) is never reached. A
      // failed call keeps its arguments' marks (see @magma/hcl's evaluate).
      const r = evaluate(o.expr, this.scope(mi, undefined, this.refsOfExprs([o.expr])));
      const v = r.value;
      // Terraform requires `sensitive = true` of root module outputs only; a child module's outputs keep their marks.
      if (mi.length === 0 && !o.sensitive && v.unmarkDeep().paths.some((p) => p.marks.has(Mark.Sensitive))) {
        throw new PlanDiagnosticsError([
          planError(
            "Output refers to sensitive values",
            "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
            { address, subject: o.declRange },
          ),
        ]);
      }
      throwIfErrors(r.diags, address);
      if (!o.ephemeral && hasEphemeral(v)) {
        throw new PlanDiagnosticsError([
          planError(
            "Ephemeral value not allowed",
            "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
            { address, subject: o.expr.range },
          ),
        ]);
      }
      const out = o.ephemeral ? v.mark(EPHEMERAL_MARK) : v;
      // A child module's `sensitive = true` does not mark the value its caller reads: only the
      // value's own marks travel (Terraform 1.11 keeps child outputs as evaluated, namedvals,
      // and GetModule reads them unmarked by the declaration).
      return mi.length === 0 && o.sensitive ? out.mark(Mark.Sensitive) : out;
    });
  }

  /**
   * A module call's value in a parent instance: an object of the child's outputs, a tuple
   * (count) or object (for_each) of them. With `only`, just those outputs are evaluated (the
   * others are unknown, and not remembered): an expression naming `module.m.x` waits in the
   * walk for output `x` alone, so evaluating (and memoizing) the call's other outputs then
   * would read objects not planned yet (Terraform's outputs are graph nodes of their own).
   */
  moduleValue(parent: ModuleInstanceAddress, name: string, only?: ReadonlySet<string>): Value {
    const { expansion, instances } = this.childInstances(parent, name);
    const child = this.configAt([...parent.map((s) => s.name), name]);
    const objectOf = (mi: ModuleInstanceAddress): Value => {
      const outs: Record<string, Value> = Object.create(null) as Record<string, Value>;
      for (const o of child.module.outputs.keys()) outs[o] = only === undefined || only.has(o) ? this.output(mi, o) : dynamicVal;
      return Object.keys(outs).length === 0 ? emptyObjectVal : objectVal(outs);
    };
    switch (expansion.kind) {
      case "single":
        return objectOf(instances[0]!.mi);
      case "count":
        return instances.length === 0 ? emptyTupleVal : tupleVal(instances.map((i) => objectOf(i.mi)));
      case "for_each":
        return instances.length === 0 ? emptyObjectVal : objectVal(Object.fromEntries(instances.map((i) => [String(i.rep.key), objectOf(i.mi)])));
    }
  }
}

import { boolVal, convert, dynamicType, dynamicVal, isPathError, listType, Mark, mapType, numberType, objectType, objectVal, stringType, stringVal, unknownVal, type Type, type Value } from "@magma/cty";
import { bodyTraversals, decodeSchemaBody, evaluateSchemaBody, parseRef, providerAddrString, referencesInExpr, walkConfig, type CheckRule, type Config, type Reference, type Resource, type SchemaLookup } from "@magma/config";
import { evaluate, formatRange, terraformFunctions, type Attribute, type Block, type Body, type Diagnostic, type EvalScope, type Expression } from "@magma/hcl";
import type { Block as SchemaBlock } from "@magma/provider-api";
import { relative } from "node:path";
import { EPHEMERAL_MARK, hasEphemeral } from "../ephemeral/ephemeral-mark.js";
import { rejectEphemeralUse } from "../ephemeral/reject-ephemeral-use.js";
import { PlanDiagnosticsError } from "../planner/plan-diagnostic.js";
import { settleProviderCalls, type ProviderFunctionCalls } from "./provider-functions.js";

/** Options of {@link validateExpressions}. */
export interface ValidateExpressionsOptions {
  /** The working directory: `path.cwd`, and the base of `file`-like functions. */
  readonly cwd: string;
  /** `terraform.workspace` (default `default`). */
  readonly workspace?: string;
  /**
   * The schemas of resource types, data sources and ephemeral resource types: a resource's
   * body is evaluated against its schema (one without a schema is not evaluated).
   */
  readonly schemas?: SchemaLookup;
  /**
   * Whether a provider (by source address) can be opened for its functions. An expression
   * that calls a function of a provider that cannot is not evaluated (validate checks it
   * without that provider, as it checks resources without their schema).
   */
  readonly available?: (source: string) => boolean;
  /**
   * The provider's own validation of a resource's, data source's or ephemeral resource's
   * configuration (Terraform's ValidateResourceConfig and its kin, see
   * `providerResourceValidator`): called with the body's value, unmarked, once its evaluation
   * found no error; its diagnostics are reported with the walk's.
   */
  readonly validateResource?: ResourceValidator;
  /**
   * The provider's own validation of a `provider` block's configuration (Terraform's
   * ValidateProviderConfig, see `providerConfigValidator`): the block (`key` `aws` or
   * `aws.west` in module `c`) is evaluated against the provider's schema when the block is
   * not empty, and, once that found no error, the value (unmarked) is validated.
   */
  readonly validateProvider?: ProviderConfigValidation;
}

/** Validation of `provider` blocks by their providers (see {@link ValidateExpressionsOptions.validateProvider}). */
export interface ProviderConfigValidation {
  /** The schema of the provider configuration of block `key` of module `c`; undefined when not known (the block is not validated). */
  schema(c: Config, key: string): SchemaBlock | undefined;
  /** Validates the block's value; the provider's diagnostics, placed. */
  validate(c: Config, key: string, value: Value): Promise<readonly Diagnostic[]>;
  /**
   * The `provider` block a resource of module `c` uses (its module and key), when one is
   * declared: a resource whose provider block failed validation is not validated (Terraform's
   * walk skips what depends on a failed node).
   */
  blockOf(c: Config, r: Resource): { readonly module: Config; readonly key: string } | undefined;
}

/**
 * Validates one object's configuration with its provider: `c` is the module, `r` the
 * resource, `value` its body evaluated as the validate walk does (unknowns allowed, no marks).
 */
export type ResourceValidator = (c: Config, r: Resource, value: Value) => Promise<readonly Diagnostic[]>;

const MODULE_META = new Set(["source", "version", "count", "for_each", "depends_on", "providers", "_", "lifecycle", "locals", "provider"]);

/** What evaluating one object of the validate walk came to. */
interface Outcome {
  /** An expression of the object had an error: what refers to the object is not evaluated. */
  readonly failed: boolean;
  /** A local value's value. */
  readonly value?: Value;
}

/** How an expression is evaluated: the repetition its object has (unknown in validate) and `self`. */
interface ExprContext {
  readonly self?: boolean;
}

/**
 * The expression errors of `terraform validate`'s walk (context_validate.go): every module
 * once, unexpanded, every expression evaluated with every input variable an unknown value of
 * its type (marked as declared: sensitive, ephemeral), local values evaluated, each module
 * call an unknown object of its outputs (a list of them with `count`, a map with
 * `for_each`), resources unknown (`DynamicVal`), `count.index`, `each.key` and
 * `each.value` unknown, `path.*` and `terraform.workspace` known. So what fails whatever the
 * inputs is found: a call to an unknown function, wrong arguments, an invalid index on a known
 * value, an operator or a conversion that cannot work, a value of the wrong type for an
 * argument of a resource's schema or a module's input variable — and provider-defined
 * functions are called when their arguments are known (on unconfigured provider instances).
 * As terraform's graph walk, an object whose expression fails is reported once and what
 * refers to it is not evaluated (its own errors are not reported). Evaluated: locals, outputs
 * and their preconditions, resources' and data sources' `count`, `for_each`, bodies (with
 * their schema) and conditions, module calls' `count`, `for_each` and arguments, provider
 * configurations, variable validations, check assertions, import ids. References to
 * undeclared objects are not reported here (`@magma/config`'s `validateConfig` reports them;
 * they evaluate as unknown).
 */
export async function validateExpressions(config: Config, calls: ProviderFunctionCalls, options: ValidateExpressionsOptions): Promise<Diagnostic[]> {
  return new ValidateWalk(config, calls, options).run();
}

class ValidateWalk {
  readonly #root: Config;
  readonly #calls: ProviderFunctionCalls;
  readonly #options: ValidateExpressionsOptions;
  readonly #functions;
  readonly #outcomes = new Map<string, Promise<Outcome>>();
  readonly #diags: Diagnostic[] = [];
  readonly #seen = new Set<string>();
  readonly #inProgress = new Set<string>();

  constructor(root: Config, calls: ProviderFunctionCalls, options: ValidateExpressionsOptions) {
    this.#root = root;
    this.#calls = calls;
    this.#options = options;
    this.#functions = terraformFunctions({ baseDir: options.cwd, plan: true });
  }

  async run(): Promise<Diagnostic[]> {
    for (const c of walkConfig(this.#root)) {
      const m = c.module;
      for (const name of m.locals.keys()) await this.#object(c, `local.${name}`);
      for (const name of m.variables.keys()) {
        await this.#object(c, `var.${name}`);
        await this.#object(c, `validation.${name}`);
      }
      for (const name of m.outputs.keys()) await this.#object(c, `output.${name}`);
      for (const key of [...m.managedResources.keys(), ...m.dataResources.keys(), ...m.ephemeralResources.keys()]) await this.#object(c, key);
      for (const name of m.moduleCalls.keys()) await this.#object(c, `module.${name}`);
      for (const key of m.providerConfigs.keys()) await this.#object(c, `provider.${key}`);
      for (const name of m.checks.keys()) await this.#object(c, `check.${name}`);
      for (let i = 0; i < m.imports.length; i++) await this.#object(c, `import.${i}`);
    }
    return this.#diags;
  }

  /** Evaluates an object of a module once (what it refers to first); whether it failed. */
  #object(c: Config, id: string): Promise<Outcome> {
    const key = `${c.path.join(".")}|${id}`;
    // A cycle or a self-reference (reported elsewhere) meets this object in progress: not failed.
    if (this.#inProgress.has(key)) return Promise.resolve({ failed: false });
    let p = this.#outcomes.get(key);
    if (p === undefined) {
      this.#inProgress.add(key);
      p = this.#evaluateObject(c, id).finally(() => this.#inProgress.delete(key));
      this.#outcomes.set(key, p);
    }
    return p;
  }

  async #evaluateObject(c: Config, id: string): Promise<Outcome> {
    const m = c.module;
    const dot = id.indexOf(".");
    const kind = id.slice(0, dot);
    const name = id.slice(dot + 1);
    const rules = (rs: readonly CheckRule[]): Expression[] => rs.flatMap((r) => [r.condition, r.errorMessage]);
    switch (kind) {
      case "local": {
        const l = m.locals.get(name)!;
        const r = await this.#expressions(c, [l.expr]);
        if (r.value !== undefined) this.#values.set(`${c.path.join(".")}|local.${name}`, r.value);
        return r;
      }
      case "var": {
        // A child module's variable: its call's argument, evaluated in the parent (with unknown
        // count.index / each.*) and converted to the variable's type.
        if (c.path.length === 0 || c.call === undefined) return { failed: false };
        const parent = this.#parentOf(c);
        if (parent === undefined) return { failed: false };
        const attr = this.#arguments(c.call.config).get(name);
        if (attr === undefined) return { failed: false };
        const decl = m.variables.get(name)!;
        const r = await this.#expressions(parent, [attr.expr]);
        if (r.failed || r.value === undefined || !r.value.isWhollyKnown()) return r;
        try {
          convert(r.value.unmarkDeep().value, decl.type);
        } catch (e) {
          if (!isPathError(e)) throw e;
          const address = `${c.path.map((p) => `module.${p}.`).join("")}var.${name}`;
          const at = decl.declRange;
          this.#report({
            severity: "error",
            summary: "Invalid value for input variable",
            detail: `The given value is not suitable for ${address} declared at ${formatRange(at)}: ${e.message}.`,
            subject: attr.expr.range,
          });
          return { failed: true };
        }
        return r;
      }
      case "validation": {
        const v = m.variables.get(name)!;
        return this.#expressions(c, rules(v.validations));
      }
      case "output": {
        const o = m.outputs.get(name)!;
        const r = await this.#expressions(c, [o.expr, ...rules(o.preconditions)]);
        // A root output of a sensitive value must say so (its value's marks: a sensitive variable's are there in validate too).
        if (c.path.length === 0 && !o.sensitive && r.value !== undefined && r.value.unmarkDeep().paths.some((p) => p.marks.has(Mark.Sensitive))) {
          this.#report({
            severity: "error",
            summary: "Output refers to sensitive values",
            detail:
              "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, Terraform requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
            subject: o.declRange,
          });
          return { failed: true };
        }
        // A value derived from an ephemeral one (`terraform.applying`, an ephemeral variable or resource) needs `ephemeral = true`.
        if (!o.ephemeral && r.value !== undefined && hasEphemeral(r.value)) {
          this.#report({
            severity: "error",
            summary: "Ephemeral value not allowed",
            detail: "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
            subject: o.expr.range,
          });
          return { failed: true };
        }
        return r;
      }
      case "module": {
        const call = m.moduleCalls.get(name)!;
        return this.#expressions(c, [call.count, call.forEach]);
      }
      case "provider": {
        const p = m.providerConfigs.get(name)!;
        const r = await this.#expressions(c, nativeBodyExprs(p.config, new Set(["alias", "version"])));
        return r.failed ? r : this.#providerConfig(c, name, p.config);
      }
      case "check": {
        const ch = m.checks.get(name)!;
        return this.#expressions(c, rules(ch.asserts));
      }
      case "import": {
        const im = m.imports[Number(name)]!;
        return this.#expressions(c, [im.id, im.forEach]);
      }
      default:
        return this.#resource(c, id);
    }
  }

  async #resource(c: Config, key: string): Promise<Outcome> {
    const m = c.module;
    const r: Resource | undefined = m.managedResources.get(key) ?? m.dataResources.get(key) ?? m.ephemeralResources.get(key);
    if (r === undefined) return { failed: false };
    const rules = (rs: readonly CheckRule[]): Expression[] => rs.flatMap((x) => [x.condition, x.errorMessage]);
    const schema = this.#options.schemas?.(r.provider, r.mode, r.type);
    const bodyRefs: Reference[] = [];
    if (schema !== undefined) {
      for (const t of bodyTraversals(r.config, new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "_"]))) {
        const ref = parseRef(t).ref;
        if (ref !== undefined) bodyRefs.push(ref);
      }
    }
    const exprs = [r.count, r.forEach, ...rules(r.preconditions), ...rules(r.postconditions)];
    const block = this.#options.validateProvider?.blockOf(c, r);
    if (block !== undefined && (await this.#object(block.module, `provider.${block.key}`)).failed) return { failed: true };
    if (await this.#dependencyFailed(c, [...this.#refs(exprs), ...bodyRefs])) return { failed: true };
    // count and for_each first (their values: an ephemeral one cannot be persisted), then the conditions.
    const repetition = r.count ?? r.forEach;
    const rep = await this.#expressions(c, [repetition]);
    let failed = rep.failed;
    if (!rep.failed && repetition !== undefined && rep.value !== undefined && r.mode !== "ephemeral" && hasEphemeral(rep.value)) {
      const [arg, what] = r.count !== undefined ? ["count", "to specify the number of resource instances"] : ["for_each", "to specify a resource's instance keys"];
      this.#report({
        severity: "error",
        summary: `Invalid ${arg} argument`,
        detail: `The given "${arg}" is derived from an ephemeral value, which means that Terraform cannot persist it between plan/apply rounds. Use only non-ephemeral values ${what}.`,
        subject: repetition.range,
      });
      failed = true;
    }
    failed = (await this.#expressions(c, [r.count !== undefined ? r.forEach : undefined, ...rules(r.preconditions)])).failed || failed;
    failed = (await this.#expressions(c, rules(r.postconditions), { self: true })).failed || failed;
    if (schema !== undefined) {
      const decoded = decodeSchemaBody(r.config, schema).decoded;
      const scope = this.#scope(c, bodyRefs, {});
      const body = await settleProviderCalls(this.#calls, () => evaluateSchemaBody(decoded, schema, scope));
      for (const d of body.diags) this.#report(d);
      failed = failed || body.diags.some((d) => d.severity === "error");
      // An ephemeral value only in a write-only argument of a managed resource or data source (the rest is persisted).
      if (!body.diags.some((d) => d.severity === "error") && r.mode !== "ephemeral") {
        try {
          rejectEphemeralUse(body.value, schema, decoded, "");
        } catch (e) {
          if (!(e instanceof PlanDiagnosticsError)) throw e;
          // With the resource's address, as terraform's ("with random_string.x,").
          const address = `${c.path.map((p) => `module.${p}.`).join("")}${key}`;
          for (const d of e.diagnostics) this.#report({ severity: d.severity, summary: d.summary, detail: d.detail, address, inConfigBody: true, ...(d.subject === undefined ? {} : { subject: d.subject }) } as Diagnostic);
          failed = true;
        }
      }
      // Then the provider's own validation of the object (ValidateResourceConfig and the like).
      const validate = this.#options.validateResource;
      if (!failed && validate !== undefined) {
        const said = await validate(c, r, body.value.unmarkDeep().value);
        for (const d of said) this.#report(d);
        failed = said.some((d) => d.severity === "error");
      }
    }
    return { failed };
  }

  /**
   * Terraform's ValidateProvider: a `provider` block that is not empty, evaluated against the
   * provider's schema, and its value validated by the provider.
   */
  async #providerConfig(c: Config, key: string, body: Body): Promise<Outcome> {
    const v = this.#options.validateProvider;
    if (v === undefined) return { failed: false };
    // An empty block (only meta-arguments, or nothing) is not validated, as Terraform's.
    if (!body.content({ attributes: [], blocks: [] }).diags.some((d) => d.severity === "error")) return { failed: false };
    const schema = v.schema(c, key);
    if (schema === undefined) return { failed: false };
    const { decoded, diags: decodeDiags } = decodeSchemaBody(body, schema);
    if (decodeDiags.some((d) => d.severity === "error")) return { failed: false };
    const refs: Reference[] = [];
    for (const t of bodyTraversals(body, new Set(["alias", "version"]))) {
      const ref = parseRef(t).ref;
      if (ref !== undefined) refs.push(ref);
    }
    if (await this.#dependencyFailed(c, refs)) return { failed: true };
    const scope = this.#scope(c, refs, {});
    let value: Value | undefined;
    const found = await settleProviderCalls(this.#calls, () => {
      const r = evaluateSchemaBody(decoded, schema, scope);
      value = r.value;
      return r.diags;
    });
    for (const d of found) this.#report(d);
    if (found.some((d) => d.severity === "error") || value === undefined) return { failed: true };
    const said = await v.validate(c, key, value.unmarkDeep().value);
    for (const d of said) this.#report(d);
    return { failed: said.some((d) => d.severity === "error") };
  }

  /** The references of expressions. */
  #refs(exprs: readonly (Expression | undefined)[]): Reference[] {
    return exprs.flatMap((e) => referencesInExpr(e).refs);
  }

  /**
   * Evaluates an object's expressions (none when something they refer to failed, or when they
   * call a function of a provider that cannot be opened); the value of the first.
   */
  async #expressions(c: Config, exprs: readonly (Expression | undefined)[], ctx: ExprContext = {}): Promise<Outcome> {
    const present = exprs.filter((e): e is Expression => e !== undefined);
    const refs = this.#refs(present);
    if (await this.#dependencyFailed(c, refs)) return { failed: true };
    let failed = false;
    let value: Value | undefined;
    for (const [i, e] of present.entries()) {
      if (!this.#providersAvailable(c, e)) continue;
      const own = this.#refs([e]);
      // A reference to something undeclared (reported by the static checks): as terraform's
      // scope, the expression is not evaluated, and the object fails.
      if (own.some((ref) => this.#undeclared(c, ref))) {
        failed = true;
        continue;
      }
      const scope = this.#scope(c, own, ctx);
      const r = await settleProviderCalls(this.#calls, () => evaluate(e, scope));
      for (const d of r.diags) this.#report(d);
      if (r.diags.some((d) => d.severity === "error")) failed = true;
      if (i === 0) value = r.value;
    }
    return value === undefined ? { failed } : { failed, value };
  }

  /** Whether an object these references depend on failed (each evaluated first). */
  async #dependencyFailed(c: Config, refs: readonly Reference[]): Promise<boolean> {
    for (const ref of refs) {
      for (const [at, id] of this.#dependencies(c, ref)) if ((await this.#object(at, id)).failed) return true;
    }
    return false;
  }

  /** The objects a reference waits for: in its module, or a called module's outputs. */
  #dependencies(c: Config, ref: Reference): [Config, string][] {
    const m = c.module;
    const s = ref.subject;
    switch (s.kind) {
      case "var":
        return m.variables.has(s.name) ? [[c, `var.${s.name}`]] : [];
      case "local":
        return m.locals.has(s.name) ? [[c, `local.${s.name}`]] : [];
      case "resource": {
        const key = `${s.mode === "data" ? "data." : s.mode === "ephemeral" ? "ephemeral." : ""}${s.type}.${s.name}`;
        return m.managedResources.has(key) || m.dataResources.has(key) || m.ephemeralResources.has(key) ? [[c, key]] : [];
      }
      case "module": {
        const child = c.children.get(s.name);
        if (child === undefined || !m.moduleCalls.has(s.name)) return [];
        const steps = ref.traversal.steps;
        const i = steps[1]?.kind === "index" ? 2 : 1;
        const step = steps[i];
        const outs = step?.kind === "attr" ? (child.module.outputs.has(step.name) ? [step.name] : []) : [...child.module.outputs.keys()];
        return [[c, `module.${s.name}`], ...outs.map((o): [Config, string] => [child, `output.${o}`])];
      }
      default:
        return [];
    }
  }

  /** Whether a reference names something its module does not declare (or a called module's output it does not have). */
  #undeclared(c: Config, ref: Reference): boolean {
    const m = c.module;
    const s = ref.subject;
    switch (s.kind) {
      case "var":
        return !m.variables.has(s.name);
      case "local":
        return !m.locals.has(s.name);
      case "resource": {
        const key = `${s.mode === "data" ? "data." : s.mode === "ephemeral" ? "ephemeral." : ""}${s.type}.${s.name}`;
        return !(m.managedResources.has(key) || m.dataResources.has(key) || m.ephemeralResources.has(key));
      }
      case "terraform":
        return s.name !== "workspace" && s.name !== "applying";
      case "path":
        return !["cwd", "module", "root"].includes(s.name);
      case "module": {
        if (!m.moduleCalls.has(s.name)) return true;
        const child = c.children.get(s.name);
        const steps = ref.traversal.steps;
        const step = steps[steps[1]?.kind === "index" ? 2 : 1];
        return child !== undefined && step?.kind === "attr" && !child.module.outputs.has(step.name);
      }
      default:
        return false;
    }
  }

  /** Whether every provider whose functions the expression calls can be opened. */
  #providersAvailable(c: Config, e: Expression): boolean {
    const available = this.#options.available;
    if (available === undefined) return true;
    const found: string[] = [];
    providerCallNames(e, found);
    for (const local of found) {
      const rp = c.module.requiredProviders.get(local);
      if (rp !== undefined && !available(providerAddrString(rp.provider))) return false;
    }
    return true;
  }

  /** The scope of expressions of module `c` making the given references, with validate's values. */
  #scope(c: Config, refs: readonly Reference[], ctx: ExprContext): EvalScope {
    const m = c.module;
    const roots = new Map<string, Map<string, Value | Map<string, Value>>>();
    const set = (root: string, name: string, v: Value, sub?: string): void => {
      let r = roots.get(root);
      if (r === undefined) roots.set(root, (r = new Map()));
      if (sub === undefined) r.set(name, v);
      else {
        let inner = r.get(name);
        if (!(inner instanceof Map)) r.set(name, (inner = new Map()));
        inner.set(sub, v);
      }
    };
    for (const ref of refs) {
      const s = ref.subject;
      switch (s.kind) {
        case "var": {
          const decl = m.variables.get(s.name);
          let v = decl === undefined ? dynamicVal : unknownVal(decl.type);
          if (decl?.sensitive === true) v = v.mark(Mark.Sensitive);
          if (decl?.ephemeral === true) v = v.mark(EPHEMERAL_MARK);
          set("var", s.name, v);
          break;
        }
        case "local": {
          const known = this.#localValue(c, s.name);
          set("local", s.name, known ?? dynamicVal);
          break;
        }
        case "module": {
          const call = m.moduleCalls.get(s.name);
          const child = c.children.get(s.name);
          if (call === undefined || child === undefined) set("module", s.name, dynamicVal);
          else {
            const attrs: Record<string, Type> = {};
            for (const o of child.module.outputs.keys()) attrs[o] = dynamicType;
            const inst = objectType(attrs);
            set("module", s.name, unknownVal(call.count !== undefined ? listType(inst) : call.forEach !== undefined ? mapType(inst) : inst));
          }
          break;
        }
        case "resource":
          if (s.mode === "managed") set(s.type, s.name, dynamicVal);
          else set(s.mode, s.type, s.mode === "ephemeral" ? dynamicVal.mark(EPHEMERAL_MARK) : dynamicVal, s.name);
          break;
        default:
          break;
      }
    }
    const variables = new Map<string, Value>();
    for (const [root, names] of roots) {
      variables.set(root, objectVal(new Map([...names].map(([n, v]) => [n, v instanceof Map ? objectVal(v) : v]))));
    }
    const cwd = this.#options.cwd;
    variables.set("path", objectVal({ module: stringVal(c.path.length === 0 ? "." : relative(cwd, m.sourceDir) || "."), root: stringVal(relative(cwd, this.#root.module.sourceDir) || "."), cwd: stringVal(cwd) }));
    variables.set("terraform", objectVal({ workspace: stringVal(this.#options.workspace ?? "default"), applying: boolVal(false).mark(EPHEMERAL_MARK) }));
    variables.set("count", objectVal({ index: unknownVal(numberType) }));
    variables.set("each", objectVal({ key: unknownVal(stringType), value: dynamicVal }));
    if (ctx.self === true) variables.set("self", dynamicVal);
    const localNames = new Map([...m.requiredProviders].map(([n, rp]) => [n, providerAddrString(rp.provider)]));
    return {
      variables,
      functions: this.#functions,
      providerFunction: this.#calls.resolver(localNames),
      hasProviderFunctions: (p) => this.#calls.hasFunctions(localNames, p) === true,
      baseDir: cwd,
    };
  }

  /** A local value already evaluated (its dependencies are evaluated before its readers). */
  #localValue(c: Config, name: string): Value | undefined {
    return this.#values.get(`${c.path.join(".")}|local.${name}`);
  }

  readonly #values = new Map<string, Value>();

  #parentOf(c: Config): Config | undefined {
    let p: Config | undefined = this.#root;
    for (const n of c.path.slice(0, -1)) p = p?.children.get(n);
    return p;
  }

  #arguments(body: Body): ReadonlyMap<string, Attribute> {
    const all = new Map(body.justAttributes().attributes);
    for (const k of MODULE_META) all.delete(k);
    return all;
  }

  #report(d: Diagnostic): void {
    const r = d.subject;
    const id = `${d.severity}|${d.summary}|${d.detail}|${r?.filename ?? ""}|${r?.start.byte ?? ""}|${r?.end.byte ?? ""}`;
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.#diags.push(d);
  }
}

/** The local names of the providers whose functions an expression tree calls (`provider::<name>::fn`). */
function providerCallNames(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const x of node) providerCallNames(x, out);
    return;
  }
  if (typeof node !== "object" || node === null || Object.getPrototypeOf(node) !== Object.prototype) return;
  const n = node as Record<string, unknown>;
  if (n["kind"] === "literal") return;
  if (n["kind"] === "call" && typeof n["name"] === "string" && n["name"].startsWith("provider::")) out.push(n["name"].split("::")[1] ?? "");
  for (const [k, v] of Object.entries(n)) if (k !== "range") providerCallNames(v, out);
}

/** A native-syntax body's contents (HCL's `hclsyntax.Body`). */
interface RawNativeBody {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly blocks: readonly Block[];
}

/** Every argument expression of a native-syntax body and its nested blocks (a provider configuration's, evaluated without its schema). */
function nativeBodyExprs(body: Body, skip: ReadonlySet<string>): Expression[] {
  const out: Expression[] = [];
  const walk = (b: Body, s: ReadonlySet<string>): void => {
    if ("base" in b && "override" in b) {
      const mb = b as Body & { base: Body; override: Body };
      walk(mb.base, s);
      walk(mb.override, s);
      return;
    }
    if (b.syntax !== "native" || !("attributes" in b) || !("blocks" in b)) return;
    const raw = b as Body & RawNativeBody;
    for (const [name, a] of raw.attributes) if (!s.has(name)) out.push(a.expr);
    for (const blk of raw.blocks) if (!s.has(blk.type) && blk.type !== "dynamic") walk(blk.body, new Set());
  };
  walk(body, skip);
  return out;
}

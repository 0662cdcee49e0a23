import { dynamicVal, type Value } from "@magma/cty";
import { providerAddrString, walkConfig, type CheckRule, type Config } from "@magma/config";
import { evaluate, terraformFunctions, type Attribute, type Block, type Body, type Diagnostic, type EvalScope, type Expression, type SourceRange } from "@magma/hcl";
import { settleProviderCalls, type ProviderFunctionCalls } from "./provider-functions.js";

/** Options of {@link validateProviderFunctions}. */
export interface ValidateProviderFunctionsOptions {
  /** The working directory (the base of `file`-like functions; `path.*` is unknown here anyway). */
  readonly cwd: string;
  /**
   * Whether a provider (by source address) can be opened for its functions. An expression
   * that calls a function of a provider that cannot is not evaluated (validate checks it
   * without that provider, as it checks resources without their schema).
   */
  readonly available?: (source: string) => boolean;
}

const RESOURCE_META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner"]);
const MODULE_META = new Set(["source", "version", "count", "for_each", "depends_on", "providers"]);

/** Every variable is unknown: validate evaluates without values (Terraform's validate walk). */
class AllUnknown extends Map<string, Value> {
  override get(): Value {
    return dynamicVal;
  }
  override has(): boolean {
    return true;
  }
}

/**
 * What `terraform validate` finds in provider-defined function calls (`provider::<local
 * name>::<fn>(…)`): it evaluates every expression with every reference unknown, so a call
 * whose arguments are known (literals, built-in functions of them) is made — on an
 * unconfigured provider instance — and its errors are reported ("Error in function call",
 * "Invalid function argument"), and a function the provider does not offer (or a provider the
 * module does not require) is "Unknown provider function". Calls with an unknown argument are
 * not made. Each expression holding such a call (locals, outputs and their preconditions,
 * resource and data source arguments, `count`/`for_each`, conditions, module arguments,
 * provider configurations, variable validations, check assertions, import ids) is evaluated
 * so; only the diagnostics inside a provider function call are returned (the rest of
 * validate is `@magma/config`'s static checks). JSON-syntax bodies are not searched.
 */
export async function validateProviderFunctions(config: Config, calls: ProviderFunctionCalls, options: ValidateProviderFunctionsOptions): Promise<Diagnostic[]> {
  const functions = terraformFunctions({ baseDir: options.cwd, plan: true });
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const c of walkConfig(config)) {
    const m = c.module;
    const localNames = new Map([...m.requiredProviders].map(([name, rp]) => [name, providerAddrString(rp.provider)]));
    const scope: EvalScope = {
      variables: new AllUnknown(),
      functions,
      providerFunction: calls.resolver(localNames),
      hasProviderFunctions: (p) => calls.hasFunctions(localNames, p) === true,
      baseDir: options.cwd,
    };
    const exprs: Expression[] = [];
    const add = (...es: (Expression | undefined)[]): void => {
      for (const e of es) if (e !== undefined) exprs.push(e);
    };
    const rules = (rs: readonly CheckRule[]): void => {
      for (const r of rs) add(r.condition, r.errorMessage);
    };
    for (const l of m.locals.values()) add(l.expr);
    for (const o of m.outputs.values()) {
      add(o.expr);
      rules(o.preconditions);
    }
    for (const r of [...m.managedResources.values(), ...m.dataResources.values(), ...m.ephemeralResources.values()]) {
      add(r.count, r.forEach);
      bodyExprs(r.config, RESOURCE_META, exprs);
      rules(r.preconditions);
      rules(r.postconditions);
    }
    for (const mc of m.moduleCalls.values()) {
      add(mc.count, mc.forEach);
      bodyExprs(mc.config, MODULE_META, exprs);
    }
    for (const p of m.providerConfigs.values()) bodyExprs(p.config, new Set(["alias", "version"]), exprs);
    for (const v of m.variables.values()) rules(v.validations);
    for (const ch of m.checks.values()) rules(ch.asserts);
    for (const im of m.imports) add(im.id, im.forEach);

    for (const e of exprs) {
      const found: { range: SourceRange; local: string }[] = [];
      providerCalls(e, found);
      if (found.length === 0) continue;
      if (options.available !== undefined && found.some((f) => localNames.has(f.local) && !options.available!(localNames.get(f.local)!))) continue;
      const r = await settleProviderCalls(calls, () => evaluate(e, scope));
      for (const d of r.diags) {
        if (d.subject === undefined || !found.some((f) => within(d.subject!, f.range))) continue;
        const id = `${d.summary}|${d.detail}|${d.subject.filename}|${d.subject.start.byte}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(d);
      }
    }
  }
  return out;
}

function within(inner: SourceRange, outer: SourceRange): boolean {
  return inner.filename === outer.filename && inner.start.byte >= outer.start.byte && inner.end.byte <= outer.end.byte;
}

/** The provider-defined function calls in an expression tree (its plain-object nodes; values and JSON nodes are not searched). */
function providerCalls(node: unknown, out: { range: SourceRange; local: string }[]): void {
  if (Array.isArray(node)) {
    for (const x of node) providerCalls(x, out);
    return;
  }
  if (typeof node !== "object" || node === null || Object.getPrototypeOf(node) !== Object.prototype) return;
  const n = node as Record<string, unknown>;
  if (n["kind"] === "literal" || n["kind"] === "json") return;
  if (n["kind"] === "call" && typeof n["name"] === "string" && n["name"].startsWith("provider::")) {
    out.push({ range: n["range"] as SourceRange, local: n["name"].split("::")[1] ?? "" });
  }
  for (const [k, v] of Object.entries(n)) if (k !== "range") providerCalls(v, out);
}

/** A native-syntax body's contents (HCL's `hclsyntax.Body`). */
interface RawNativeBody {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly blocks: readonly Block[];
}

/** Every argument expression of a body and its nested blocks (`dynamic` blocks' too), native syntax only. */
function bodyExprs(body: Body, skip: ReadonlySet<string>, out: Expression[]): void {
  if ("base" in body && "override" in body) {
    const mb = body as Body & { base: Body; override: Body };
    bodyExprs(mb.base, skip, out);
    bodyExprs(mb.override, skip, out);
    return;
  }
  if (body.syntax !== "native" || !("attributes" in body) || !("blocks" in body)) return;
  const raw = body as Body & RawNativeBody;
  for (const [name, a] of raw.attributes) if (!skip.has(name)) out.push(a.expr);
  for (const b of raw.blocks) if (!skip.has(b.type)) bodyExprs(b.body, new Set(), out);
}

import type { Diagnostic, Expression, Traversal } from "@magma/hcl";
import { bodyTraversals } from "./body-walk.js";
import type { CheckRule, Module, Resource } from "./model.js";
import { parseRef, referencesInExpr, type Reference } from "./references.js";

/** Meta-arguments and meta-blocks taken out of a resource body before decoding. */
const RESOURCE_META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "_"]);
const MODULE_META = new Set(["source", "version", "count", "for_each", "depends_on", "providers", "_", "lifecycle", "locals", "provider"]);

/** The kind of a configuration object that is a node of the engine's graph. */
export type GraphNodeKind = "resource" | "data" | "ephemeral" | "local" | "output" | "module" | "provider" | "variable" | "check";

/** The references one configuration object makes, for the engine's dependency graph. */
export interface GraphInput {
  readonly kind: GraphNodeKind;
  /** `aws_x.y`, `data.aws_x.y`, `local.a`, `output.o`, `module.m`, `provider.aws.west`, `var.v`, `check.c`. */
  readonly address: string;
  /** Every reference its expressions make (including `depends_on`), in source order. */
  readonly references: readonly Reference[];
  /** For resources and data sources: the provider configuration it uses (`aws` or `aws.west`). */
  readonly providerConfig?: string;
  /** For module calls: the references of `count`, `for_each` and `depends_on`, which the call's expansion waits for (`references` has them too). */
  readonly expansionReferences?: readonly Reference[];
  /** For module calls: the references of each argument (the child's input variable it sets), by name (`references` has them too). */
  readonly arguments?: ReadonlyMap<string, readonly Reference[]>;
}

function refsOf(exprs: readonly (Expression | undefined)[], traversals: readonly Traversal[], diags: Diagnostic[]): Reference[] {
  const out: Reference[] = [];
  for (const e of exprs) {
    const r = referencesInExpr(e);
    out.push(...r.refs);
    diags.push(...r.diags);
  }
  for (const t of traversals) {
    const r = parseRef(t);
    diags.push(...r.diags);
    if (r.ref !== undefined) out.push(r.ref);
  }
  return out;
}

function ruleExprs(rules: readonly CheckRule[]): Expression[] {
  return rules.flatMap((r) => [r.condition, r.errorMessage]);
}

/** The provider configuration key (`aws`, `aws.west`) a resource uses. */
export function resourceProviderConfigKey(r: Resource): string {
  const ref = r.providerConfigRef;
  if (ref !== undefined) return ref.alias === undefined ? ref.name : `${ref.name}.${ref.alias}`;
  const i = r.type.indexOf("_");
  return i < 0 ? r.type : r.type.slice(0, i);
}

/** The references one resource makes (not counting `self` in postconditions). */
export function resourceReferences(r: Resource, diags: Diagnostic[] = []): Reference[] {
  const exprs: (Expression | undefined)[] = [r.count, r.forEach, ...ruleExprs(r.preconditions), ...ruleExprs(r.postconditions), ...(r.managed?.replaceTriggeredBy ?? [])];
  return refsOf(exprs, [...bodyTraversals(r.config, RESOURCE_META), ...r.dependsOn], diags).filter((x) => x.subject.kind !== "self");
}

/**
 * For every resource, data source, local, output, module call, provider configuration,
 * variable (its validations) and check block of a module, the references its expressions
 * make: what the engine builds its graph from.
 */
export function graphInputs(module: Module): { inputs: GraphInput[]; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const inputs: GraphInput[] = [];
  const res = (r: Resource, key: string, kind: GraphNodeKind): void => {
    inputs.push({ kind, address: key, references: resourceReferences(r, diags), providerConfig: resourceProviderConfigKey(r) });
  };
  for (const [k, r] of module.managedResources) res(r, k, "resource");
  for (const [k, r] of module.dataResources) res(r, k, "data");
  for (const [k, r] of module.ephemeralResources) res(r, k, "ephemeral");
  for (const [k, l] of module.locals) inputs.push({ kind: "local", address: `local.${k}`, references: refsOf([l.expr], [], diags) });
  for (const [k, o] of module.outputs) inputs.push({ kind: "output", address: `output.${k}`, references: refsOf([o.expr, ...ruleExprs(o.preconditions)], o.dependsOn, diags) });
  for (const [k, m] of module.moduleCalls) {
    const references = refsOf([m.count, m.forEach], [...bodyTraversals(m.config, MODULE_META), ...m.dependsOn], diags);
    // The same references again, apart (their diagnostics are in `diags` already).
    const expansionReferences = refsOf([m.count, m.forEach], m.dependsOn, []);
    const args = new Map<string, Reference[]>();
    for (const [name, a] of m.config.justAttributes().attributes) if (!MODULE_META.has(name)) args.set(name, refsOf([a.expr], [], []));
    inputs.push({ kind: "module", address: `module.${k}`, references, expansionReferences, arguments: args });
  }
  for (const [k, p] of module.providerConfigs) inputs.push({ kind: "provider", address: `provider.${k}`, references: refsOf([], bodyTraversals(p.config, new Set(["alias", "version"])), diags) });
  for (const [k, v] of module.variables) {
    if (v.validations.length > 0) inputs.push({ kind: "variable", address: `var.${k}`, references: refsOf(ruleExprs(v.validations), [], diags) });
  }
  for (const [k, c] of module.checks) inputs.push({ kind: "check", address: `check.${k}`, references: refsOf(ruleExprs(c.asserts), [], diags) });
  return { inputs, diags };
}

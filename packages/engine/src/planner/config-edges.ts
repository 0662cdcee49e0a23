import { graphInputs, impliedProvider, resourceProviderConfigKey, type Config, type Reference } from "@magma/config";
import type { Value } from "@magma/cty";
import type { Body } from "@magma/hcl";
import { formatInstanceKey, formatProviderConfig } from "@magma/state";
import { configPrefix, moduleOutputName } from "../eval/module-evaluator.js";
import { planError, type PlanDiagnostic } from "./plan-diagnostic.js";
import { resolveProviderConfig } from "./plan-configuration.js";

/**
 * One end of a {@link ConfigEdge}: a configuration object, or the part of one an edge is
 * about, named by its configuration address (`id`, as the planner's graph names its nodes):
 * - `resource` (managed or data: `module.a.aws_x.y`, `data.aws_z.w`), `variable`
 *   (`module.a.var.v`), `local`, `output`, `check`, `module` (a module call and its
 *   expansion: `module.a.module.b`), `provider` (`provider["…"].alias`, `module.a.provider[…]`);
 * - `validation`: the validation rules of the variable `id`;
 * - `argument`: the argument of module call `call` that sets the child's variable `id`;
 * - `module-value`: the module call `id` read as a value: one output (`module.a.o`,
 *   `whole` false) or the whole module object (`module.a`, `whole` true); `outputs` are the
 *   child's output addresses the reading waits for.
 */
export type ConfigVertex =
  | { readonly kind: "resource" | "variable" | "validation" | "local" | "output" | "check" | "module" | "provider"; readonly id: string }
  | { readonly kind: "argument"; readonly id: string; readonly call: string }
  | { readonly kind: "module-value"; readonly id: string; readonly whole: boolean; readonly outputs: readonly string[] };

/**
 * Why `from` waits for `to`: a `reference` (an expression or `depends_on`), the `provider`
 * configuration a resource uses, or the `module` call whose expansion everything declared
 * in the called module waits for.
 */
export type ConfigEdgeReason = "reference" | "provider" | "module";

/** `from` depends on `to`. */
export interface ConfigEdge {
  readonly from: ConfigVertex;
  readonly to: ConfigVertex;
  readonly why: ConfigEdgeReason;
  /**
   * For a `reference` to a resource written with a literal instance key (`aws_x.a[0]`,
   * `aws_x.a["k"]`): that key as an instance address writes it (`[0]`, `["k"]`). The planner
   * waits for the whole resource regardless; `terraform graph -plan` draws the reference to
   * that one instance's node.
   */
  readonly instanceKey?: string;
}

/** The provider configuration a resource resolves to (see resolveProviderConfig). */
export type ResolvedProviderConfig = { readonly address: string; readonly source: string; readonly body?: Body; readonly modulePath: readonly string[] } | { readonly error: string };

/** What {@link configEdges} finds, per module in configuration order (the root first, then each child depth first). */
export interface ConfigEdges {
  /** Every edge, in module order, then in each object's source order. */
  readonly edges: readonly ConfigEdge[];
  /** The references that name nothing declared (each with the object that makes it), and references that cannot be parsed. */
  readonly problems: readonly { readonly from?: ConfigVertex; readonly diagnostic: PlanDiagnostic }[];
  /** The provider configuration of every managed and data resource, by its address. */
  readonly providers: ReadonlyMap<string, ResolvedProviderConfig>;
}

/** The address of a module's `provider` block (`provider["…"]`, `module.a.provider["…"].west`). */
export function providerBlockAddress(c: Config, key: string): string | undefined {
  const pc = c.module.providerConfigs.get(key);
  if (pc === undefined) return undefined;
  return formatProviderConfig({ module: c.path, provider: c.module.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name), alias: pc.alias });
}

/**
 * What depends on what in a configuration, the rules the planner builds its graph with and
 * `terraform graph` draws (operationGraph): every reference of a resource, data source,
 * local, output (and its `depends_on`), check, provider configuration, variable validation
 * and module call (its `count`/`for_each`/`depends_on`; each argument for the child's
 * variable), resolved in the module it is written in; each managed and data resource's
 * provider configuration; and every object of a called module on the module call.
 * Ephemeral resources are not objects of the graph (references to them are problems).
 * Nothing is evaluated.
 */
export function configEdges(root: Config): ConfigEdges {
  const edges: ConfigEdge[] = [];
  const problems: { from?: ConfigVertex; diagnostic: PlanDiagnostic }[] = [];
  const providers = new Map<string, ResolvedProviderConfig>();
  const visit = (c: Config): void => {
    moduleEdges(root, c, edges, problems, providers);
    for (const child of c.children.values()) visit(child);
  };
  visit(root);
  return { edges, problems, providers };
}

function moduleEdges(root: Config, c: Config, edges: ConfigEdge[], problems: { from?: ConfigVertex; diagnostic: PlanDiagnostic }[], providers: Map<string, ResolvedProviderConfig>): void {
  const m = c.module;
  const prefix = configPrefix(c.path);
  const where = prefix === "" ? "the root module" : prefix.slice(0, -1);

  /** What a reference written in this module waits for, or why it names nothing. */
  const target = (ref: Reference): ConfigVertex | PlanDiagnostic | undefined => {
    const s = ref.subject;
    const subject = { subject: ref.range };
    switch (s.kind) {
      case "resource": {
        const key = `${s.mode === "data" ? "data." : s.mode === "ephemeral" ? "ephemeral." : ""}${s.type}.${s.name}`;
        if ((s.mode === "data" ? m.dataResources : s.mode === "ephemeral" ? m.ephemeralResources : m.managedResources).has(key)) return { kind: "resource", id: `${prefix}${key}` };
        return planError(
          "Reference to undeclared resource",
          `${s.mode === "data" ? "A data resource" : s.mode === "ephemeral" ? "An ephemeral resource" : "A managed resource"} "${s.type}" "${s.name}" has not been declared in ${where}.`,
          subject,
        );
      }
      case "var":
        if (m.variables.has(s.name)) return { kind: "variable", id: `${prefix}var.${s.name}` };
        return planError("Reference to undeclared input variable", `An input variable with the name "${s.name}" has not been declared. This variable can be declared with a variable "${s.name}" {} block.`, subject);
      case "local":
        if (m.locals.has(s.name)) return { kind: "local", id: `${prefix}local.${s.name}` };
        return planError("Reference to undeclared local value", `A local value with the name "${s.name}" has not been declared.`, subject);
      case "module": {
        if (!m.moduleCalls.has(s.name)) return planError("Reference to undeclared module", `No module call named "${s.name}" is declared in ${where}.`, subject);
        const child = c.children.get(s.name);
        // A module that is not loaded is reported where its call is (the planner's "Module not installed").
        if (child === undefined) return undefined;
        const call = `${prefix}module.${s.name}`;
        const out = moduleOutputName(ref);
        if (out !== undefined && !child.module.outputs.has(out)) return planError("Unsupported attribute", `This object does not have an attribute named "${out}".`, subject);
        const outs = out !== undefined ? [out] : [...child.module.outputs.keys()];
        return { kind: "module-value", id: call, whole: out === undefined, outputs: outs.map((o) => `${call}.output.${o}`) };
      }
      default:
        return undefined;
    }
  };
  const connect = (from: ConfigVertex, refs: readonly Reference[]): void => {
    for (const ref of refs) {
      const to = target(ref);
      if (to === undefined) continue;
      if ("severity" in to) problems.push({ from, diagnostic: to });
      else {
        const step = ref.remaining[0];
        const instanceKey = to.kind === "resource" && step?.kind === "index" ? instanceKeyText(step.key) : undefined;
        edges.push({ from, to, why: "reference", ...(instanceKey !== undefined ? { instanceKey } : {}) });
      }
    }
  };

  const inputs = graphInputs(m);
  for (const d of inputs.diags) problems.push({ diagnostic: d as PlanDiagnostic });
  for (const input of inputs.inputs) {
    switch (input.kind) {
      case "resource":
      case "data":
      case "ephemeral":
        connect({ kind: "resource", id: `${prefix}${input.address}` }, input.references);
        break;
      case "local":
      case "output":
      case "check":
        connect({ kind: input.kind, id: `${prefix}${input.address}` }, input.references);
        break;
      case "variable":
        connect({ kind: "validation", id: `${prefix}${input.address}` }, input.references);
        break;
      case "provider": {
        const id = providerBlockAddress(c, input.address.slice("provider.".length));
        if (id !== undefined) connect({ kind: "provider", id }, input.references);
        break;
      }
      case "module": {
        const call = m.moduleCalls.get(input.address.slice("module.".length));
        if (call === undefined) break;
        const id = `${prefix}${input.address}`;
        // The call's expansion waits for count, for_each and depends_on; each argument is the child's input variable, evaluated here.
        connect({ kind: "module", id }, input.expansionReferences ?? input.references);
        for (const [arg, refs] of input.arguments ?? []) connect({ kind: "argument", id: `${id}.var.${arg}`, call: id }, refs);
        break;
      }
    }
  }

  for (const [key, r] of [...m.managedResources, ...m.dataResources, ...m.ephemeralResources]) {
    const resolved = resolveProviderConfig(root, c.path, resourceProviderConfigKey(r), r.provider);
    providers.set(`${prefix}${key}`, resolved);
    if (!("error" in resolved)) edges.push({ from: { kind: "resource", id: `${prefix}${key}` }, to: { kind: "provider", id: resolved.address }, why: "provider" });
  }

  if (c.path.length === 0) return;
  // Everything declared in a called module waits for the module call's expansion.
  const call: ConfigVertex = { kind: "module", id: prefix.slice(0, -1) };
  const nested = (from: ConfigVertex): void => {
    edges.push({ from, to: call, why: "module" });
  };
  for (const key of m.providerConfigs.keys()) nested({ kind: "provider", id: providerBlockAddress(c, key)! });
  for (const [name, v] of m.variables) {
    nested({ kind: "variable", id: `${prefix}var.${name}` });
    if (v.validations.length > 0) nested({ kind: "validation", id: `${prefix}var.${name}` });
  }
  for (const name of m.locals.keys()) nested({ kind: "local", id: `${prefix}local.${name}` });
  for (const name of m.outputs.keys()) nested({ kind: "output", id: `${prefix}output.${name}` });
  for (const key of [...m.managedResources.keys(), ...m.dataResources.keys(), ...m.ephemeralResources.keys()]) nested({ kind: "resource", id: `${prefix}${key}` });
  for (const name of m.checks.keys()) nested({ kind: "check", id: `${prefix}check.${name}` });
  for (const name of c.children.keys()) nested({ kind: "module", id: `${prefix}module.${name}` });
}

/** An index step's key as an instance address writes it (`[0]`, `["a"]`), or undefined for a key that cannot be one. */
function instanceKeyText(key: Value): string | undefined {
  if (!key.isKnown() || key.isNull()) return undefined;
  if (key.type.kind === "string") return formatInstanceKey(key.asString());
  if (key.type.kind === "number" && key.asNumber().isInteger()) return `[${key.asNumber().toString()}]`;
  return undefined;
}

import { formatModuleInstance, formatProviderSource, formatResource, parseProviderConfig, parseResourceInstance } from "@magma/state";
import { Graph } from "../dag/graph.js";
import { EngineError, EngineErrorCode } from "../engine-error.js";
import { PlanAction, ReadReason } from "../plan/plan-action.js";
import type { Plan, PlannedProvider } from "../plan/plan.js";
import type { PlannedInstanceChange } from "../plan/planned-instance-change.js";
import type { ApplyEphemeralResource } from "./apply-scope.js";

/**
 * One node of the apply graph:
 * - `provider`: configure a provider configuration (once, before the calls that use it);
 * - `apply`: a create, an update, a deferred data source read, or the create half of a replace;
 * - `destroy`: a delete, the destroy half of a replace, or the destroy of a deposed object;
 * - `forget`: drop an instance from state without destroying it;
 * - `ephemeral-open`: open every instance of an ephemeral resource (Terraform opens them again during apply);
 * - `ephemeral-close`: close them, once everything that depends on them is done.
 */
export type ApplyNode =
  | { readonly kind: "provider"; readonly provider: PlannedProvider }
  | { readonly kind: "apply"; readonly change: PlannedInstanceChange; readonly provider: string; readonly replace: boolean }
  | {
      readonly kind: "destroy";
      readonly change: PlannedInstanceChange;
      readonly provider: string;
      /** `delete` (a plain delete, also of a deposed object), or which replace this is the destroy half of. */
      readonly half: "delete" | "delete-then-create" | "create-then-delete";
    }
  | { readonly kind: "forget"; readonly change: PlannedInstanceChange }
  | { readonly kind: "ephemeral-open"; readonly resource: ApplyEphemeralResource }
  | { readonly kind: "ephemeral-close"; readonly resource: ApplyEphemeralResource };

/** The id of the node opening an ephemeral resource's instances (`ephemeral.x.y (open)`). */
export function ephemeralOpenNodeId(id: string): string {
  return `${id} (open)`;
}

/** The id of the node closing an ephemeral resource's instances (`ephemeral.x.y (close)`, Terraform's name). */
export function ephemeralCloseNodeId(id: string): string {
  return `${id} (close)`;
}

/** The id of the configure node of a provider configuration. */
export function providerNodeId(address: string): string {
  return `provider:${address}`;
}

/** The id of the destroy node of an instance (`aws_x.y (destroy)`, `aws_x.y (deposed object 1a2b3c4d)`), as Terraform names them. */
export function destroyNodeId(address: string, deposedKey?: string): string {
  return deposedKey === undefined ? `${address} (destroy)` : `${address} (deposed object ${deposedKey})`;
}

/**
 * Where an instance is, as the apply graph's edges need it: its configuration resource
 * (`module.m.aws_x.y`, module instance keys dropped — what `dependencies` name), its module's
 * configuration path (`module.m.`) and its module instance (`module.m["a"].`).
 */
interface InstancePlace {
  readonly resource: string;
  readonly moduleConfig: string;
  readonly moduleInstance: string;
}

function placeOf(address: string): InstancePlace {
  const a = parseResourceInstance(address);
  const moduleConfig = a.module.map((m) => `module.${m.name}.`).join("");
  const absolute = formatResource(a);
  const moduleInstance = a.module.length === 0 ? "" : `${formatModuleInstance(a.module)}.`;
  return { resource: `${moduleConfig}${absolute.slice(moduleInstance.length)}`, moduleConfig, moduleInstance };
}

/** The configuration resource of an instance address (`module.m.ephemeral.x.y` for `module.m["a"].ephemeral.x.y[0]`), as `dependencies` name it. */
export function configResourceOf(address: string): string {
  return placeOf(address).resource;
}

/**
 * The ephemeral resources a destroy needs: those the provider configurations of the objects
 * it deletes depend on, and those these depend on in turn (their own providers' too). As
 * terraform's destroy graphs keep only the destroys and what they depend on
 * (`pruneUnusedNodesTransformer`), no other ephemeral resource is opened.
 */
export function destroyEphemerals(plan: Plan, ephemerals: readonly ApplyEphemeralResource[]): ApplyEphemeralResource[] {
  const byId = new Map(ephemerals.map((e) => [e.id, e]));
  const providers = plannedProviders(plan, ephemerals);
  const needed = new Set<string>();
  const stack: string[] = [];
  const viaProvider = (address: string): void => void stack.push(...(providers.get(address)?.dependencies ?? []));
  for (const c of plan.changes) if (c.action === PlanAction.Delete || c.action === PlanAction.DeleteThenCreate || c.action === PlanAction.CreateThenDelete) viaProvider(providerOfChange(c));
  while (stack.length > 0) {
    const id = stack.pop()!;
    const e = byId.get(id);
    if (e === undefined || needed.has(id)) continue;
    needed.add(id);
    stack.push(...e.dependencies);
    viaProvider(e.provider.address);
  }
  return ephemerals.filter((e) => needed.has(e.id));
}

/** The provider configuration address of a change: the planner's, else the implied default provider of its type in the root module. */
export function providerOfChange(change: PlannedInstanceChange): string {
  if (change.providerConfig !== undefined) return change.providerConfig;
  const local = change.typeName.split("_")[0]!;
  return `provider["registry.terraform.io/hashicorp/${local}"]`;
}

/**
 * The provider configurations a plan needs: its `providers`, those of the ephemeral
 * resources the apply opens, plus those only its changes name (opened by their source,
 * configured without dependencies).
 */
export function plannedProviders(plan: Plan, ephemerals: readonly ApplyEphemeralResource[] = []): Map<string, PlannedProvider> {
  const out = new Map<string, PlannedProvider>();
  for (const p of plan.providers ?? []) out.set(p.address, p);
  for (const e of ephemerals) if (!out.has(e.provider.address)) out.set(e.provider.address, e.provider);
  for (const c of plan.changes) {
    const address = providerOfChange(c);
    if (out.has(address)) continue;
    let source: string;
    try {
      source = formatProviderSource(parseProviderConfig(address).provider);
    } catch (e) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `${c.address}: invalid provider configuration address ${JSON.stringify(address)}: ${(e as Error).message}`, { cause: e });
    }
    out.set(address, { address, source, dependencies: [] });
  }
  return out;
}

/**
 * Builds the apply graph of a plan, as Terraform's apply graph orders it:
 *
 * - creates, updates and deferred reads run after the create/update nodes of every instance
 *   of the resources in their `dependencies`;
 * - destroys run in reverse: the destroy of a resource waits for the destroys of the
 *   instances that depend on it (from the change's `dependencies`, or the prior state's),
 *   and so do the creates and updates of what a destroyed object depended on — unless that
 *   object goes create-before-destroy (a replace's old half, a deposed object, an object
 *   stored with `create_before_destroy`), whose destroy then waits for them instead; an
 *   edge of these between two providers' nodes that would close a cycle is left out outside
 *   a destroy plan (Terraform's DestroyEdgeTransformer and CBDEdgeTransformer);
 * - a create or update waits for the destroys of what it depends on (an object being
 *   replaced delete-then-create is gone before its dependents change), except under
 *   create-before-destroy, where the edge is reversed: the new object is created, the
 *   dependents are updated, then the old (deposed) object is destroyed;
 * - a delete-then-create replace is split, the create half after the destroy half; a
 *   create-then-delete replace is split the other way round;
 * - every node using a provider waits for the provider's configure node, which waits for
 *   the creates and updates of the resources its configuration depends on.
 *
 * - a data source scoped in a `check` block is read after every create and update of a
 *   managed resource (Terraform's `checkStartTransformer`), except one that refers to it.
 *
 * - each ephemeral resource is opened after its provider is configured and the creates and
 *   updates of what it depends on, before anything that depends on it (a provider
 *   configuration, a resource, another ephemeral resource), and closed after all of those,
 *   as Terraform's apply graph (its `ephemeralResourceCloseTransformer`).
 *
 * No-op changes get no node (nothing is called for them), except those of a moved or an
 * imported object, whose node writes the object at its new address.
 *
 * @param stateDependencies - the prior state's `dependencies` of an instance (for deletes whose change carries none).
 * @param inCheckBlock - whether a data source instance is scoped in a `check` block (besides reads planned `check-nested`).
 * @param ephemerals - the configuration's ephemeral resources (none by default; a destroy plan's apply opens only those {@link destroyEphemerals} names).
 * @throws {@link EngineError} `invalid_argument` for an unusable address.
 */
export function buildApplyGraph(
  plan: Plan,
  stateDependencies: (address: string, deposedKey: string | undefined) => readonly string[] | undefined,
  inCheckBlock?: (address: string) => boolean,
  ephemerals: readonly ApplyEphemeralResource[] = [],
): Graph<ApplyNode> {
  const g = new Graph<ApplyNode>();
  // A destroy opens only the ephemeral resources its deletes need (terraform prunes the others from its graph).
  if (plan.mode === "destroy") ephemerals = destroyEphemerals(plan, ephemerals);
  const providers = plannedProviders(plan, ephemerals);
  const used = new Set<string>();
  const creators = new Map<string, string[]>(); // configuration resource → apply node ids
  const destroyers = new Map<string, string[]>(); // configuration resource → destroy node ids
  const push = (m: Map<string, string[]>, k: string, v: string): void => void (m.get(k) ?? m.set(k, []).get(k)!).push(v);
  const deps = new Map<string, readonly string[]>(); // node id → configuration resource dependencies
  const placeOfNode = new Map<string, InstancePlace>();
  /** Terraform's `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`: no destroy ordering between two instances of one module. */
  const otherInstanceOfModule = (a: string, b: string): boolean => {
    const x = placeOfNode.get(a)!;
    const y = placeOfNode.get(b)!;
    return x.moduleConfig === y.moduleConfig && x.moduleInstance !== y.moduleInstance;
  };
  /**
   * Terraform's `tryInterProviderDestroyEdge`: `from` waits for `to`, except outside a destroy
   * plan when their providers differ and the edge would close a cycle.
   */
  const interProvider = (from: string, to: string): void => {
    g.dependOn(from, to);
    const a = g.get(from);
    const b = g.get(to);
    const providerOf = (n: ApplyNode): string | undefined => (n.kind === "apply" || n.kind === "destroy" ? n.provider : undefined);
    if (plan.mode !== "destroy" && providerOf(a) !== providerOf(b) && g.ancestors(to).has(from)) g.removeDependency(from, to);
  };

  // Provider nodes first, so that the walk starts configures as soon as it can.
  for (const c of plan.changes) if ((c.action !== PlanAction.NoOp || recordsNoOp(c)) && c.action !== PlanAction.Forget) used.add(providerOfChange(c));
  for (const e of ephemerals) used.add(e.provider.address);
  for (const [address, p] of providers) if (used.has(address)) g.add(providerNodeId(address), { kind: "provider", provider: p });
  for (const e of ephemerals) {
    const id = ephemeralOpenNodeId(e.id);
    g.add(id, { kind: "ephemeral-open", resource: e });
    push(creators, e.id, id);
  }

  for (const c of plan.changes) {
    const provider = providerOfChange(c);
    let place: InstancePlace;
    try {
      place = placeOf(c.address);
    } catch (e) {
      throw new EngineError(EngineErrorCode.InvalidArgument, `invalid instance address ${JSON.stringify(c.address)} in the plan: ${(e as Error).message}`, { cause: e });
    }
    const addApply = (replace: boolean): string => {
      const id = c.address;
      if (g.has(id)) throw new EngineError(EngineErrorCode.InvalidArgument, `the plan has two changes for ${c.address}`);
      g.add(id, { kind: "apply", change: c, provider, replace });
      push(creators, place.resource, id);
      deps.set(id, c.dependencies ?? []);
      placeOfNode.set(id, place);
      return id;
    };
    const addDestroy = (half: "delete" | "delete-then-create" | "create-then-delete"): string => {
      const id = destroyNodeId(c.address, c.deposedKey);
      if (g.has(id)) throw new EngineError(EngineErrorCode.InvalidArgument, `the plan has two destroys for ${id}`);
      g.add(id, { kind: "destroy", change: c, provider, half });
      push(destroyers, place.resource, id);
      deps.set(id, c.dependencies ?? stateDependencies(c.address, c.deposedKey) ?? []);
      placeOfNode.set(id, place);
      return id;
    };
    switch (c.action) {
      case PlanAction.NoOp:
        // Nothing is called, but a moved or imported object is written at its new address.
        if (recordsNoOp(c)) addApply(false);
        break;
      case PlanAction.Forget:
        g.add(`${c.address} (forget)`, { kind: "forget", change: c });
        break;
      case PlanAction.Create:
      case PlanAction.Update:
      case PlanAction.Read:
        addApply(false);
        break;
      case PlanAction.Delete:
        addDestroy("delete");
        break;
      case PlanAction.DeleteThenCreate: {
        const d = addDestroy("delete-then-create");
        g.dependOn(addApply(true), d);
        break;
      }
      case PlanAction.CreateThenDelete: {
        const a = addApply(true);
        g.dependOn(addDestroy("create-then-delete"), a);
        break;
      }
    }
  }

  const destroyEdges: (() => void)[] = [];
  for (const [id, node] of [...g.ids().map((i) => [i, g.get(i)] as const)]) {
    if (node.kind === "provider") {
      for (const r of node.provider.dependencies) for (const a of creators.get(r) ?? []) g.dependOn(id, a);
      continue;
    }
    if (node.kind === "forget") continue;
    if (node.kind === "ephemeral-open" || node.kind === "ephemeral-close") {
      g.dependOn(id, providerNodeId(node.resource.provider.address));
      for (const r of node.resource.dependencies) for (const a of creators.get(r) ?? []) if (a !== id) g.dependOn(id, a);
      continue;
    }
    g.dependOn(id, providerNodeId(node.provider));
    const own = placeOfNode.get(id)!.resource;
    for (const r of deps.get(id) ?? []) {
      if (r === own) continue;
      if (node.kind === "apply") {
        // A reference waits for every instance of what it names, in every instance of its module (Terraform's ReferenceTransformer).
        for (const a of creators.get(r) ?? []) g.dependOn(id, a);
        for (const d of destroyers.get(r) ?? []) {
          if (otherInstanceOfModule(id, d)) continue;
          const dn = g.get(d);
          // Create-before-destroy: the old object goes after its dependents changed; otherwise it is gone first.
          if (dn.kind === "destroy" && dn.half === "create-then-delete") g.dependOn(d, id);
          else g.dependOn(id, d);
        }
      } else {
        // Drawn once every reference edge is in, as Terraform's DestroyEdgeTransformer comes after its ReferenceTransformer.
        destroyEdges.push(() => {
          // The dependency's destroy waits for this (dependent's) destroy.
          for (const d of destroyers.get(r) ?? []) if (!otherInstanceOfModule(id, d)) interProvider(d, id);
          // What this object depended on is created or updated after it is gone — or before,
          // when it goes create-before-destroy (Terraform's CBDEdgeTransformer).
          for (const a of creators.get(r) ?? []) {
            const an = g.get(a);
            if (an.kind !== "apply" || an.change.action === PlanAction.NoOp || otherInstanceOfModule(a, id)) continue;
            if (destroysCreateBeforeDestroy(node)) g.dependOn(id, a);
            else interProvider(a, id);
          }
        });
      }
    }
  }
  for (const draw of destroyEdges) draw();
  // A check block's data sources are read once the managed resources are applied.
  const nested = g.ids().filter((id) => {
    const n = g.get(id);
    return n.kind === "apply" && n.change.action === PlanAction.Read && (n.change.readReason === ReadReason.CheckNested || inCheckBlock?.(n.change.address) === true);
  });
  if (nested.length > 0) {
    const managed = g.ids().filter((id) => {
      const n = g.get(id);
      return n.kind === "apply" && n.change.mode === "managed";
    });
    for (const r of nested) {
      const resource = placeOfNode.get(r)!.resource;
      for (const m of managed) if (!(deps.get(m) ?? []).includes(resource)) g.dependOn(r, m);
    }
  }
  // Each ephemeral resource is closed after everything that depends on it (directly or not).
  const closes = ephemerals.map((e) => [e, g.descendants(ephemeralOpenNodeId(e.id))] as const);
  for (const [e, after] of closes) {
    const id = ephemeralCloseNodeId(e.id);
    g.add(id, { kind: "ephemeral-close", resource: e });
    g.dependOn(id, ephemeralOpenNodeId(e.id));
    for (const d of after) g.dependOn(id, d);
  }
  return g;
}

/**
 * Whether a destroy node runs create-before-destroy, as Terraform's destroy nodes answer
 * `CreateBeforeDestroy()`: the old half of a create_before_destroy replace, a deposed
 * object, or a delete of an object stored with `create_before_destroy`.
 */
function destroysCreateBeforeDestroy(n: ApplyNode & { readonly kind: "destroy" }): boolean {
  return n.half === "create-then-delete" || n.change.deposedKey !== undefined || (n.half === "delete" && n.change.createBeforeDestroy === true);
}

/** Whether a no-op change still writes state: the object moved (`moved` block) or is imported (`import` block). */
export function recordsNoOp(c: PlannedInstanceChange): boolean {
  return c.previousAddress !== undefined || c.importId !== undefined;
}

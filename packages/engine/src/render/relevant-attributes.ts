import type { Value } from "@magma/cty";
import { bodyTraversals, descendantConfig, parseRef, providerAddrString, referencesInExpr, type Config, type Reference, type Resource } from "@magma/config";
import type { Expression, TraversalStep } from "@magma/hcl";
import type { Block, ProviderSchema } from "@magma/provider-api";
import { formatModuleInstance, type ModuleInstanceAddress } from "@magma/state";

/** One entry of `terraform show -json`'s `relevant_attributes`: a resource instance and a path into it. */
export interface RelevantAttribute {
  /** The resource instance address as the reference names it (`module.m.aws_x.y[0]`; no key when the reference has none). */
  readonly resource: string;
  /** The path into the object, as far as the resource type's schema reaches (attribute names, block names and indexes). */
  readonly attribute: readonly (string | number)[];
}

/** What {@link relevantAttributes} starts from: the planned changes that are not no-ops. */
export interface RelevantAttributesInput {
  /** The resource instances with a change other than no-op: their module instance and resource. */
  readonly resources: readonly { readonly module: ModuleInstanceAddress; readonly mode: "managed" | "data"; readonly type: string; readonly name: string }[];
  /** The root module outputs with a change other than no-op. */
  readonly outputs: readonly string[];
}

const RESOURCE_META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "_"]);

/** A reference made in a module instance (`container` is the resource whose `count.index`/`each` it uses). */
interface AbsRef {
  readonly module: ModuleInstanceAddress;
  readonly ref: Reference;
  readonly container?: Resource;
}

/**
 * Terraform's `relevant_attributes` (`relevantResourceAttrsForPlan`): the resource attributes
 * that contribute, directly or through module variables, module outputs, `count`/`for_each`
 * and other resources' attributes, to the configuration of every resource instance and
 * root output whose planned action is not a no-op, and to every child module output (never
 * in state, so Terraform always plans them). Local values are followed to their expressions
 * (`metaReferencesLocalValue`). Sorted by resource, then path (Terraform's own order is not
 * stable).
 */
export function relevantAttributes(config: Config, input: RelevantAttributesInput, schemas: ReadonlyMap<string, ProviderSchema>): RelevantAttribute[] {
  const moduleConfig = (mi: ModuleInstanceAddress): Config | undefined => descendantConfig(config, mi);
  const resourceConfig = (mi: ModuleInstanceAddress, mode: "managed" | "data", type: string, name: string): Resource | undefined => {
    const m = moduleConfig(mi)?.module;
    return mode === "managed" ? m?.managedResources.get(`${type}.${name}`) : m?.dataResources.get(`data.${type}.${name}`);
  };
  const schemaOf = (r: Resource): Block | undefined => {
    const s = schemas.get(providerAddrString(r.provider));
    return (r.mode === "managed" ? s?.resources : r.mode === "data" ? s?.dataSources : undefined)?.get(r.type)?.block;
  };
  const exprRefs = (mi: ModuleInstanceAddress, exprs: readonly (Expression | undefined)[], container?: Resource): AbsRef[] =>
    exprs.flatMap((e) => referencesInExpr(e).refs).map((ref) => ({ module: mi, ref, ...(container !== undefined ? { container } : {}) }));
  const bodyRefs = (mi: ModuleInstanceAddress, r: Resource): AbsRef[] =>
    bodyTraversals(r.config, RESOURCE_META)
      .map((t) => parseRef(t).ref)
      .filter((x): x is Reference => x !== undefined && x.subject.kind !== "self")
      .map((ref) => ({ module: mi, ref, container: r }));

  /** The instance key a resource or module reference starts with, and the steps after it. */
  const splitKey = (steps: readonly TraversalStep[]): { key?: number | string; rest: readonly TraversalStep[] } => {
    const first = steps[0];
    if (first?.kind !== "index") return { rest: steps };
    const k = keyOf(first.key);
    return k === undefined ? { rest: steps } : { key: k, rest: steps.slice(1) };
  };

  /** Terraform's `MetaReferences`: the references made by what a reference refers to. */
  const metaReferences = (a: AbsRef): AbsRef[] => {
    const s = a.ref.subject;
    switch (s.kind) {
      case "var": {
        if (a.module.length === 0) return [];
        const parentMi = a.module.slice(0, -1);
        const call = moduleConfig(parentMi)?.module.moduleCalls.get(a.module[a.module.length - 1]!.name);
        if (call === undefined) return [];
        const attr = call.config.partialContent({ attributes: [{ name: s.name }] }).content.attributes.get(s.name);
        return attr === undefined ? [] : exprRefs(parentMi, [attr.expr]);
      }
      case "module": {
        const { key, rest } = splitKey(a.ref.remaining);
        const callee: ModuleInstanceAddress = [...a.module, { name: s.name, key }];
        const c = moduleConfig(callee);
        if (c === undefined) return [];
        const first = rest[0];
        if (first?.kind === "attr") {
          const o = c.module.outputs.get(first.name);
          return o === undefined ? [] : exprRefs(callee, [o.expr]);
        }
        return exprRefs(callee, [...c.module.outputs.values()].map((o) => o.expr));
      }
      case "local": {
        // metaReferencesLocalValue: the references of the local value's expression, in its module.
        const l = moduleConfig(a.module)?.module.locals.get(s.name);
        return l === undefined ? [] : exprRefs(a.module, [l.expr]);
      }
      case "count":
      case "each":
        return a.container === undefined ? [] : exprRefs(a.module, [a.container.count ?? a.container.forEach]);
      case "resource": {
        if (s.mode === "ephemeral") return [];
        const r = resourceConfig(a.module, s.mode, s.type, s.name);
        const block = r === undefined ? undefined : schemaOf(r);
        if (r === undefined || block === undefined) return [];
        const { rest } = splitKey(a.ref.remaining);
        const first = rest[0];
        const named = first === undefined ? undefined : first.kind === "attr" ? first.name : keyOf(first.key);
        if (named === undefined) return bodyRefs(a.module, r);
        if (typeof named !== "string") return [];
        const name = named;
        if (block.attributes?.[name] !== undefined) {
          const attr = r.config.partialContent({ attributes: [{ name }] }).content.attributes.get(name);
          return attr === undefined ? [] : exprRefs(a.module, [attr.expr], r);
        }
        // A nested block (or anything else the schema names): its references, conservatively the whole body's.
        return block.blockTypes?.[name] !== undefined ? bodyRefs(a.module, r) : [];
      }
      default:
        return [];
    }
  };

  const found = new Map<string, RelevantAttribute>();
  const visited = new Set<string>();
  const keyOfRef = (a: AbsRef): string => `${formatModuleInstance(a.module)}|${a.container !== undefined && (a.ref.subject.kind === "count" || a.ref.subject.kind === "each") ? `${a.container.type}.${a.container.name}` : ""}|${a.ref.subject.kind}|${JSON.stringify(a.ref.subject)}|${JSON.stringify(a.ref.remaining.map(stepKey))}`;
  const consider = (a: AbsRef): void => {
    const s = a.ref.subject;
    if (s.kind !== "resource" || s.mode === "ephemeral") return;
    const r = resourceConfig(a.module, s.mode, s.type, s.name);
    const block = r === undefined ? undefined : schemaOf(r);
    if (block === undefined) return;
    const { key, rest } = splitKey(a.ref.remaining);
    const path = walkBlock(block, rest);
    const prefix = formatModuleInstance(a.module);
    const resource = `${prefix === "" ? "" : `${prefix}.`}${s.mode === "data" ? "data." : ""}${s.type}.${s.name}${key === undefined ? "" : typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`}`;
    found.set(`${resource}\u0000${JSON.stringify(path)}`, { resource, attribute: path });
  };

  let pending: AbsRef[] = [];
  for (const r of input.resources) {
    const rc = resourceConfig(r.module, r.mode, r.type, r.name);
    if (rc === undefined || schemaOf(rc) === undefined) continue;
    pending.push(...bodyRefs(r.module, rc));
  }
  const root = config.module.outputs;
  for (const name of input.outputs) {
    const o = root.get(name);
    if (o !== undefined) pending.push(...exprRefs([], [o.expr]));
  }
  // Child modules' outputs are never in state, so Terraform always plans them (a change that
  // is not a no-op): the outputs of every module instance count. The instances are those the
  // changes are in, and every module reached through calls without count or for_each.
  const instances = new Map<string, ModuleInstanceAddress>();
  for (const r of input.resources) for (let n = 1; n <= r.module.length; n++) instances.set(formatModuleInstance(r.module.slice(0, n)), r.module.slice(0, n));
  const single = (c: Config, mi: ModuleInstanceAddress): void => {
    for (const [name, child] of c.children) {
      if (child.call?.count !== undefined || child.call?.forEach !== undefined) continue;
      const next: ModuleInstanceAddress = [...mi, { name, key: undefined }];
      instances.set(formatModuleInstance(next), next);
      single(child, next);
    }
  };
  single(config, []);
  for (const mi of instances.values()) {
    const c = moduleConfig(mi);
    if (c !== undefined) pending.push(...exprRefs(mi, [...c.module.outputs.values()].map((o) => o.expr)));
  }
  for (const a of pending) consider(a);
  while (pending.length > 0) {
    const next: AbsRef[] = [];
    for (const a of pending) {
      const k = keyOfRef(a);
      if (visited.has(k)) continue;
      visited.add(k);
      for (const m of metaReferences(a)) {
        consider(m);
        if (!visited.has(keyOfRef(m))) next.push(m);
      }
    }
    pending = next;
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

function keyOf(v: Value): number | string | undefined {
  if (!v.isKnown() || v.isNull()) return undefined;
  if (v.type.kind === "string") return v.asString();
  if (v.type.kind === "number") {
    const n = v.asNumber();
    return n.isInteger() ? n.toNumber() : undefined;
  }
  return undefined;
}

function stepKey(s: TraversalStep): string | number {
  return s.kind === "attr" ? `.${s.name}` : (keyOf(s.key) ?? "?");
}

/** Terraform's `walkBlock`: the part of a traversal the schema describes (down to an attribute). */
function walkBlock(block: Block, steps: readonly TraversalStep[]): (string | number)[] {
  const out: (string | number)[] = [];
  let b: Block = block;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const name = s.kind === "attr" ? s.name : keyOf(s.key);
    if (typeof name !== "string") break;
    if (b.attributes?.[name] !== undefined) {
      out.push(name);
      break;
    }
    const bt = b.blockTypes?.[name];
    if (bt === undefined) break;
    out.push(name);
    if (bt.nesting === "single" || bt.nesting === "group") {
      b = bt.block;
      continue;
    }
    const n = steps[i + 1];
    if (n === undefined) break;
    const k = n.kind === "attr" ? (bt.nesting === "map" ? n.name : undefined) : keyOf(n.key);
    if (k === undefined || (bt.nesting === "list" && typeof k !== "number") || (bt.nesting === "map" && typeof k !== "string") || bt.nesting === "set") break;
    out.push(k);
    i++;
    b = bt.block;
  }
  return out;
}

import { listVal, mapVal, mapValEmpty, nullVal, objectVal, Path, tupleVal, type Value } from "@magma/cty";
import type { Block } from "@magma/provider-api";
import type { Traversal } from "@magma/hcl";

/** An `ignore_changes` traversal (`tags["Name"]`, `rule[0].port`) as a path relative to the resource. */
export function traversalPath(t: Traversal): Path {
  let p = Path.root.attr(t.root);
  for (const s of t.steps) {
    if (s.kind === "attr") p = p.attr(s.name);
    else if (s.kind === "index") {
      const k = s.key;
      if (k.type.kind === "string") p = p.key(k.asString());
      else if (k.type.kind === "number") p = p.index(k.asNumber().toNumber());
    }
  }
  return p;
}

/**
 * Applies `ignore_changes` as Terraform's `processIgnoreChanges` does, before planning:
 * only when a prior object exists; `all` sends the prior object (computed-only attributes
 * nulled); otherwise the configuration value at each ignored path is replaced by the
 * prior's (a map key absent in the prior is removed from the configuration).
 */
export function applyIgnoreChanges(prior: Value | null, config: Value, block: Block, paths: readonly Path[], all: boolean): Value {
  if (prior === null || prior.isNull() || config.isNull()) return config;
  if (all) return withoutComputedOnly(prior, block);
  let out = config;
  for (const p of paths) out = replaceAt(out, prior, p.steps, 0);
  return out;
}

function withoutComputedOnly(v: Value, block: Block): Value {
  if (v.isNull() || !v.isKnown()) return v;
  const attrs: Record<string, Value> = { ...v.attributes() };
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const cur = attrs[name];
    if (cur !== undefined && a.computed === true && a.optional !== true) attrs[name] = nullVal(cur.type);
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const cur = attrs[name];
    if (cur === undefined || cur.isNull() || !cur.isKnown()) continue;
    if (nb.nesting === "single" || nb.nesting === "group") attrs[name] = withoutComputedOnly(cur, nb.block);
    else if (nb.nesting === "list" && cur.type.kind === "list" && cur.length() > 0) attrs[name] = listVal(cur.elements().map((e) => withoutComputedOnly(e, nb.block)));
    else if (nb.nesting === "map" && cur.type.kind === "map" && cur.length() > 0) attrs[name] = mapVal(Object.fromEntries([...cur.entries()].map(([k, e]) => [k, withoutComputedOnly(e, nb.block)])));
  }
  return objectVal(attrs);
}

type Step = Path["steps"][number];

function replaceAt(config: Value, prior: Value, steps: readonly Step[], i: number): Value {
  const step = steps[i];
  if (step === undefined) return prior;
  if (config.isNull() || !config.isKnown()) return i === 0 ? config : config;
  const t = config.type;
  if (step.kind === "attr" && t.kind === "object") {
    if (!config.hasAttr(step.name) || !prior.hasAttr(step.name)) return config;
    const attrs = { ...config.attributes() };
    attrs[step.name] = replaceAt(config.getAttr(step.name), prior.getAttr(step.name), steps, i + 1);
    return objectVal(attrs);
  }
  if (step.kind === "key" && t.kind === "map") {
    const entries = new Map(config.entries());
    const last = i === steps.length - 1;
    const priorHas = !prior.isNull() && prior.isKnown() && prior.entries().has(step.key);
    if (!priorHas) {
      if (!last) return config;
      entries.delete(step.key);
    } else {
      const cur = entries.get(step.key);
      const pv = prior.entries().get(step.key)!;
      entries.set(step.key, cur === undefined || last ? pv : replaceAt(cur, pv, steps, i + 1));
    }
    return entries.size === 0 ? mapValEmpty(t.element) : mapVal(Object.fromEntries(entries));
  }
  if (step.kind === "key" && t.kind === "object") {
    return replaceAt(config, prior, [...steps.slice(0, i), { kind: "attr", name: step.key }, ...steps.slice(i + 1)], i);
  }
  if (step.kind === "index" && (t.kind === "list" || t.kind === "tuple")) {
    const els = [...config.elements()];
    if (prior.isNull() || !prior.isKnown() || step.index >= els.length || step.index >= prior.length()) return config;
    els[step.index] = replaceAt(els[step.index]!, prior.elements()[step.index]!, steps, i + 1);
    return t.kind === "list" ? listVal(els) : tupleVal(els);
  }
  return config;
}

import { expressionTraversals, type Attribute, type Block, type Body, type Expression, type JsonNode, type Traversal } from "@magma/hcl";

/** Shape of a native-syntax body with its raw contents (HCL's `hclsyntax.Body`). */
interface RawNativeBody {
  readonly attributes: ReadonlyMap<string, Attribute>;
  readonly blocks: readonly Block[];
}

function isRawNative(b: Body): b is Body & RawNativeBody {
  return b.syntax === "native" && "attributes" in b && "blocks" in b;
}

/**
 * The references (traversals) every expression in a body makes, without a schema: every
 * argument and nested block, with `dynamic` blocks' iterator names not counted as
 * references. `skip` names meta-arguments and meta-blocks already taken out of the body.
 */
export function bodyTraversals(body: Body, skip: ReadonlySet<string> = new Set()): Traversal[] {
  const out: Traversal[] = [];
  walkBody(body, skip, new Set(), out);
  return out;
}

function push(expr: Expression, bound: ReadonlySet<string>, out: Traversal[]): void {
  for (const t of expressionTraversals(expr)) if (!bound.has(t.root)) out.push(t);
}

function walkBody(body: Body, skip: ReadonlySet<string>, bound: ReadonlySet<string>, out: Traversal[]): void {
  if ("base" in body && "override" in body) {
    const mb = body as Body & { base: Body; override: Body };
    walkBody(mb.base, skip, bound, out);
    walkBody(mb.override, skip, bound, out);
    return;
  }
  if (isRawNative(body)) {
    for (const [name, a] of body.attributes) if (!skip.has(name)) push(a.expr, bound, out);
    for (const b of body.blocks) {
      if (skip.has(b.type)) continue;
      if (b.type === "dynamic") {
        walkDynamicNative(b, bound, out);
        continue;
      }
      walkBody(b.body, new Set(), bound, out);
    }
    return;
  }
  // JSON syntax: every remaining property; "dynamic" objects are walked specially.
  const { attributes } = body.justAttributes();
  for (const [name, a] of attributes) {
    if (skip.has(name)) continue;
    if (name === "dynamic" && a.expr.kind === "json") {
      walkDynamicJson(a.expr.node, bound, out);
      continue;
    }
    push(a.expr, bound, out);
  }
}

function walkDynamicNative(b: Block, bound: ReadonlySet<string>, out: Traversal[]): void {
  const label = b.labels[0] ?? "";
  const raw = b.body;
  if (!isRawNative(raw)) return;
  let iterator = label;
  const it = raw.attributes.get("iterator");
  if (it !== undefined && it.expr.kind === "traversal" && it.expr.traversal.steps.length === 0) iterator = it.expr.traversal.root;
  const forEach = raw.attributes.get("for_each");
  if (forEach !== undefined) push(forEach.expr, bound, out);
  const inner = new Set(bound);
  inner.add(iterator);
  const labels = raw.attributes.get("labels");
  if (labels !== undefined) push(labels.expr, inner, out);
  for (const cb of raw.blocks) if (cb.type === "content") walkBody(cb.body, new Set(), inner, out);
}

function jsonExpr(n: JsonNode): Expression {
  return { kind: "json", node: n, range: n.range };
}

function walkDynamicJson(n: JsonNode, bound: ReadonlySet<string>, out: Traversal[]): void {
  const objs = n.type === "array" ? n.items : [n];
  for (const o of objs) {
    if (o.type !== "object") continue;
    for (const p of o.props) {
      if (p.name === "//") continue;
      const specs = p.value.type === "array" ? p.value.items : [p.value];
      for (const spec of specs) {
        if (spec.type !== "object") continue;
        let iterator = p.name;
        const itProp = spec.props.find((x) => x.name === "iterator");
        if (itProp !== undefined && itProp.value.type === "string") iterator = itProp.value.value;
        const inner = new Set(bound);
        inner.add(iterator);
        for (const sp of spec.props) {
          if (sp.name === "//" || sp.name === "iterator") continue;
          if (sp.name === "for_each") push(jsonExpr(sp.value), bound, out);
          else if (sp.name === "content") walkJsonContent(sp.value, inner, out);
          else push(jsonExpr(sp.value), inner, out);
        }
      }
    }
  }
}

function walkJsonContent(n: JsonNode, bound: ReadonlySet<string>, out: Traversal[]): void {
  if (n.type === "object") {
    for (const p of n.props) {
      if (p.name === "//") continue;
      if (p.name === "dynamic") walkDynamicJson(p.value, bound, out);
      else push(jsonExpr(p.value), bound, out);
    }
    return;
  }
  push(jsonExpr(n), bound, out);
}

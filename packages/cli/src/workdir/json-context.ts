import { parseJsonExpression, type JsonNode } from "@magma/hcl";

/**
 * The context HCL's JSON syntax gives a byte offset of a `.tf.json` file (its navigation's
 * `ContextString`, which Terraform prints as `on main.tf.json line 1, in
 * resource.terraform_data.e.lifecycle[0].postcondition[0]:`): the property names and array
 * indexes leading from the root to the innermost object or array holding the offset, joined
 * with dots and brackets; only values that are objects or arrays are stepped into (the first
 * property of a name that holds the offset, as HCL's walk). The walk is over the tree HCL's
 * parser recovers from malformed text: a value that failed to parse is stepped into by no
 * one. Undefined when the offset is in no nested object or array.
 */
export function jsonContext(text: string, offset: number): string | undefined {
  const root = parseJsonExpression(text, "context.json").expr;
  if (root.kind !== "json") return undefined;
  const steps: string[] = [];
  let cur: JsonNode = root.node;
  for (;;) {
    if (cur.type === "object") {
      const p = cur.props.find((q) => isNested(q.value) && contains(q.value, offset));
      if (p === undefined) break;
      steps.push(`.${p.name}`);
      cur = p.value;
    } else if (cur.type === "array") {
      const i = cur.items.findIndex((v) => isNested(v) && contains(v, offset));
      if (i < 0) break;
      steps.push(`[${i}]`);
      cur = cur.items[i]!;
    } else break;
  }
  const s = steps.join("");
  return s === "" ? undefined : s.replace(/^\./, "");
}

const isNested = (n: JsonNode): boolean => n.type === "object" || n.type === "array";
const contains = (n: JsonNode, offset: number): boolean => offset >= n.range.start.byte && offset < n.range.end.byte;

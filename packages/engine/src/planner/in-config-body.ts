import type { Resource } from "@magma/config";
import type { SourceRange } from "@magma/hcl";
import type { Diag } from "@magma/provider-api";

/**
 * Where in a resource's body Terraform puts a provider diagnostic about one of its objects
 * (its `InConfigBody`): an attribute's expression when the diagnostic names a top-level
 * attribute set in the body, else the body's missing-item range (the opening brace of a
 * native body, the closing brace of a JSON one). Deeper paths (into nested blocks, or an
 * element of an attribute) fall back to it too, where Terraform would follow them further.
 */
export function inConfigBody(r: Resource, d: Diag): SourceRange {
  const steps = d.attribute?.steps ?? [];
  const first = steps[0];
  const name = steps.length === 1 && first?.kind === "attr" ? first.name : undefined;
  const { content } = r.config.partialContent({ attributes: name === undefined ? [] : [{ name }] });
  const attr = name === undefined ? undefined : content.attributes.get(name);
  if (attr !== undefined) return attr.expr.range;
  // HCL's native bodies report missing items at their opening brace (a zero-width range, which Terraform's snippet widens to the brace); JSON bodies at the object's closing brace.
  if (r.config.syntax === "json") return content.missingItemRange;
  const start = r.config.range.start;
  return { filename: r.config.range.filename, start, end: { line: start.line, column: start.column + 1, byte: start.byte + 1 } };
}

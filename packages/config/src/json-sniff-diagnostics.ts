import type { Body, BodySchema, Diagnostic } from "@magma/hcl";

const ROOT: BodySchema = { blocks: [{ type: "terraform" }] };
const VERSION: BodySchema = { attributes: [{ name: "required_version" }] };
const EXPERIMENTS: BodySchema = { attributes: [{ name: "experiments" }, { name: "language" }] };

/**
 * The structural diagnostics of terraform's two passes over a JSON-syntax file before it
 * decodes it (`sniffCoreVersionRequirements` and `sniffActiveExperiments`: each takes the
 * file's `terraform` blocks, then their `required_version`, or `experiments` and
 * `language`). HCL's JSON body reports a mistyped value each time its content is asked for,
 * so terraform reports it once per pass too: a root array holding a number is four errors
 * (two passes, and `Content`, which collects the properties twice). Only the bodies' own
 * diagnostics: what the attributes hold is decoded once, with the `terraform` block.
 * @internal
 */
export function jsonSniffDiagnostics(body: Body): Diagnostic[] {
  if (body.syntax !== "json") return [];
  const diags: Diagnostic[] = [];
  for (const inner of [VERSION, EXPERIMENTS]) {
    const root = body.partialContent(ROOT);
    diags.push(...root.diags);
    for (const b of root.content.blocks) diags.push(...b.body.partialContent(inner).diags);
  }
  return diags;
}

import { bodyContent, bodyPartial } from "./hcl-fixups.js";
import { stringType } from "@magma/cty";
import { absTraversalForExpr, evaluate, exprList, type Block, type Diagnostic, type Expression } from "@magma/hcl";
import { defRange, errorDiag } from "./diagnostics.js";
import type { Backend, ProviderConfigRef, ProviderMeta, RequiredProvider } from "./model.js";
import { impliedProvider, parseProviderSource } from "./provider-addr.js";
import { staticString } from "./static-decode.js";
import { parseVersionConstraints, type VersionConstraint } from "./version-constraint.js";

/** What one `terraform` block declares. @internal */
export interface TerraformBlock {
  readonly requiredVersion: VersionConstraint[];
  readonly requiredProviders: RequiredProvider[];
  /** The `required_providers` blocks' ranges (a module may have only one). */
  readonly requiredProvidersRanges: Block["typeRange"][];
  readonly backends: Backend[];
  readonly providerMetas: ProviderMeta[];
}

/** Backends magma implements. */
export const SUPPORTED_BACKENDS: readonly string[] = ["local", "pg", "http", "s3"];

/** Decodes a `terraform` block (Terraform's `terraformBlockSchema`). @internal */
export function decodeTerraformBlock(block: Block, diags: Diagnostic[]): TerraformBlock {
  const { content, diags: d } = bodyContent(block.body, {
    attributes: [{ name: "required_version" }, { name: "experiments" }, { name: "language" }],
    blocks: [{ type: "required_providers" }, { type: "provider_meta", labelNames: ["provider"] }, { type: "backend", labelNames: ["type"] }, { type: "cloud" }],
  });
  diags.push(...d);
  const out: TerraformBlock = { requiredVersion: [], requiredProviders: [], requiredProvidersRanges: [], backends: [], providerMetas: [] };
  const rv = content.attributes.get("required_version");
  if (rv !== undefined) {
    const s = staticString(rv, stringType, diags);
    if (s !== undefined) {
      const cs = parseVersionConstraints(s, rv.range);
      if (cs === undefined) {
        diags.push(errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", rv.expr.range));
      } else out.requiredVersion.push(...cs);
    }
  }
  const exp = content.attributes.get("experiments");
  if (exp !== undefined) {
    const list = exprList(exp.expr);
    for (const item of list.items) {
      const t = absTraversalForExpr(item);
      const name = t.traversal?.root ?? "";
      diags.push(errorDiag("Unknown experiment keyword", `There is no current experiment with the keyword ${JSON.stringify(name)}.`, item.range));
    }
  }
  for (const b of content.blocks) {
    switch (b.type) {
      case "required_providers":
        out.requiredProviders.push(...decodeRequiredProviders(b, diags));
        out.requiredProvidersRanges.push(defRange(b));
        break;
      case "provider_meta": {
        diags.push(...staticProviderMeta(b));
        const { remain } = bodyPartial(b.body, {});
        out.providerMetas.push({ provider: b.labels[0]!, config: remain, declRange: defRange(b) });
        break;
      }
      case "backend":
        out.backends.push({ type: b.labels[0]!, config: b.body, typeRange: b.labelRanges[0]!, declRange: defRange(b) });
        break;
      case "cloud":
        diags.push(
          errorDiag(
            "Unsupported block type",
            "magma does not support HCP Terraform (the \"cloud\" block): use a \"local\" or \"pg\" backend instead.",
            b.typeRange,
          ),
        );
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * Terraform's load-time check of a `provider_meta` block (`decodeProviderMetaBlock`): its body
 * must be plain attributes (a nested block is "Unexpected … block"), each a static value —
 * evaluated without a context, so a reference is "Variables not allowed" and any function
 * call, a provider-defined one included, "Function calls not allowed".
 */
function staticProviderMeta(b: Block): Diagnostic[] {
  const { attributes, diags } = b.body.justAttributes();
  if (diags.some((d) => d.severity === "error")) return [...diags];
  const out = [...diags];
  for (const a of attributes.values()) out.push(...evaluate(a.expr).diags);
  return out;
}

/** Checks a backend type is one magma implements. @internal */
export function checkBackendSupported(b: Backend, diags: Diagnostic[]): void {
  if (!SUPPORTED_BACKENDS.includes(b.type)) {
    diags.push(
      errorDiag(
        "Unsupported backend type",
        `There is no backend type named ${JSON.stringify(b.type)} in magma: the supported backends are ${SUPPORTED_BACKENDS.slice(0, -1).map((t) => JSON.stringify(t)).join(", ")} and ${JSON.stringify(SUPPORTED_BACKENDS[SUPPORTED_BACKENDS.length - 1])}.`,
        b.typeRange,
      ),
    );
  }
}

/** Items of a static object expression (HCL's `ExprMap`) with their keys as strings. @internal */
export function exprMap(expr: Expression, diags: Diagnostic[]): { key: string; keyExpr: Expression; value: Expression }[] | undefined {
  let e = expr;
  while (e.kind === "paren") e = e.expr;
  if (e.kind === "object") {
    const out: { key: string; keyExpr: Expression; value: Expression }[] = [];
    for (const it of e.items) {
      let key: string | undefined;
      const k = it.key;
      if (k.kind === "traversal" && k.traversal.steps.length === 0) key = k.traversal.root;
      // A dotted key (`aws.east = aws` in a module call's providers) is a reference, which HCL's
      // ExprMap hands over unevaluated: its text is the key.
      else if (k.kind === "traversal" && k.traversal.steps.every((s) => s.kind === "attr")) key = [k.traversal.root, ...k.traversal.steps.map((s) => (s.kind === "attr" ? s.name : ""))].join(".");
      else {
        const v = evaluate(k).value;
        if (v.isKnown() && !v.isNull() && v.type.kind === "string") key = v.asString();
      }
      if (key === undefined) {
        diags.push(errorDiag("Invalid map key", "A static map key is required here.", k.range));
        continue;
      }
      out.push({ key, keyExpr: k, value: it.value });
    }
    return out;
  }
  if (e.kind === "json" && e.node.type === "object") {
    return e.node.props
      .filter((p) => p.name !== "//")
      .map((p) => ({
        key: p.name,
        keyExpr: { kind: "json", node: p.nameNode, range: p.nameNode.range } as Expression,
        value: { kind: "json", node: p.value, range: p.value.range } as Expression,
      }));
  }
  diags.push(errorDiag("Invalid expression", "A static map expression is required.", expr.range));
  return undefined;
}

function decodeRequiredProviders(block: Block, diags: Diagnostic[]): RequiredProvider[] {
  const { attributes, diags: d } = block.body.justAttributes();
  diags.push(...d);
  const out: RequiredProvider[] = [];
  for (const attr of attributes.values()) {
    let source: string | undefined;
    let sourceRange = attr.expr.range;
    let versionConstraints: VersionConstraint[] = [];
    const aliases: ProviderConfigRef[] = [];
    const v = evaluate(attr.expr);
    if (v.diags.length === 0 && v.value.type.kind === "string" && v.value.isKnown()) {
      // Legacy form: a version constraint string.
      versionConstraints = parseVersionConstraints(v.value.asString(), attr.expr.range) ?? [];
      out.push({ name: attr.name, provider: impliedProvider(attr.name), versionConstraints, configurationAliases: [], declRange: attr.range });
      continue;
    }
    const items = exprMap(attr.expr, []);
    if (items === undefined) {
      diags.push(errorDiag("Invalid required_providers object", "required_providers entries must be strings or objects.", attr.expr.range));
      continue;
    }
    for (const it of items) {
      switch (it.key) {
        case "source": {
          const sv = evaluate(it.value);
          if (sv.diags.length > 0 || sv.value.type.kind !== "string" || !sv.value.isKnown() || sv.value.isNull()) {
            diags.push(errorDiag("Invalid source", "Source must be specified as a string.", it.value.range));
          } else {
            source = sv.value.asString();
            sourceRange = it.value.range;
          }
          break;
        }
        case "version": {
          const vv = evaluate(it.value);
          if (vv.diags.length > 0 || vv.value.type.kind !== "string" || !vv.value.isKnown() || vv.value.isNull()) {
            diags.push(errorDiag("Invalid version constraint", "Version must be specified as a string.", it.value.range));
          } else {
            const cs = parseVersionConstraints(vv.value.asString(), it.value.range);
            if (cs === undefined) diags.push(errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", it.value.range));
            else versionConstraints = cs;
          }
          break;
        }
        case "configuration_aliases": {
          const list = exprList(it.value);
          diags.push(...list.diags);
          for (const item of list.items) {
            const t = absTraversalForExpr(item);
            diags.push(...t.diags);
            if (t.traversal === undefined) continue;
            const step = t.traversal.steps[0];
            if (t.traversal.steps.length !== 1 || step?.kind !== "attr") {
              diags.push(errorDiag("Invalid configuration_aliases value", "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias", item.range));
              continue;
            }
            aliases.push({ name: t.traversal.root, alias: step.name, nameRange: t.traversal.rootRange, aliasRange: step.range });
          }
          break;
        }
        default:
          diags.push(errorDiag("Invalid required_providers object", `required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.`, it.keyExpr.range));
      }
    }
    let provider = impliedProvider(attr.name);
    if (source !== undefined) {
      const p = parseProviderSource(source);
      if ("error" in p) diags.push(errorDiag("Invalid provider source string", p.error, sourceRange));
      else provider = p.addr;
    }
    out.push({
      name: attr.name,
      provider,
      ...(source !== undefined ? { source } : {}),
      versionConstraints,
      configurationAliases: aliases,
      declRange: attr.range,
    });
  }
  return out;
}

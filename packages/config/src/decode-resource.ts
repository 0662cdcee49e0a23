import { bodyContent, bodyPartial } from "./hcl-fixups.js";
import { PROVISIONERS_NOT_SUPPORTED } from "./provisioner-diagnostic.js";
import { boolType, stringType } from "@magma/cty";
import { exprAsKeyword, expressionTraversals, exprList, parseExpression, type Attribute, type Block, type BodySchema, type Diagnostic, type Expression, type Traversal } from "@magma/hcl";
import { BAD_IDENTIFIER_DETAIL, defRange, errorDiag, validIdentifier } from "./diagnostics.js";
import type { CheckRule, ManagedResourceSettings, ProviderConfigRef, Resource } from "./model.js";
import { impliedProvider, resourceTypeProviderName } from "./provider-addr.js";
import { referencesInExpr } from "./references.js";
import { staticBool, staticTraversal, traversalList } from "./static-decode.js";

const RESOURCE_SCHEMA: BodySchema = {
  attributes: [{ name: "count" }, { name: "for_each" }, { name: "provider" }, { name: "depends_on" }],
  blocks: [{ type: "lifecycle" }, { type: "connection" }, { type: "provisioner", labelNames: ["type"] }, { type: "_" }],
};

const MANAGED_LIFECYCLE: BodySchema = {
  attributes: [{ name: "create_before_destroy" }, { name: "prevent_destroy" }, { name: "ignore_changes" }, { name: "replace_triggered_by" }],
  blocks: [{ type: "precondition" }, { type: "postcondition" }],
};

const CHECK_RULE: BodySchema = { attributes: [{ name: "condition", required: true }, { name: "error_message", required: true }] };

/** Decodes a `precondition`/`postcondition`/`validation`/`assert` block. @internal */
export function decodeCheckRule(block: Block, diags: Diagnostic[]): CheckRule | undefined {
  const { content, diags: d } = bodyContent(block.body, CHECK_RULE);
  diags.push(...d);
  const condition = content.attributes.get("condition");
  const errorMessage = content.attributes.get("error_message");
  if (condition !== undefined && expressionTraversals(condition.expr).length === 0) {
    diags.push(
      errorDiag(
        `Invalid ${block.type} expression`,
        "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
        condition.expr.range,
      ),
    );
  }
  if (condition === undefined || errorMessage === undefined) return undefined;
  return { condition: condition.expr, errorMessage: errorMessage.expr, declRange: block.typeRange };
}

/** Decodes a `provider = aws.west` reference (Terraform's `decodeProviderConfigRef`). @internal */
export function decodeProviderConfigRef(attr: Attribute, diags: Diagnostic[]): ProviderConfigRef | undefined {
  const d: Diagnostic[] = [];
  const t = staticTraversal(attr.expr, d);
  if (t === undefined) {
    diags.push(
      errorDiag("Invalid provider configuration reference", "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.", attr.expr.range),
    );
    return undefined;
  }
  diags.push(...d);
  return providerRefFromTraversal(t, attr.expr.range, diags);
}

/** A provider configuration reference from a traversal. @internal */
export function providerRefFromTraversal(t: Traversal, range: Expression["range"], diags: Diagnostic[]): ProviderConfigRef | undefined {
  if (t.steps.length > 1) {
    diags.push(errorDiag("Invalid provider configuration reference", "Provider name must either stand alone or be followed by a period and then a configuration alias.", range));
    return undefined;
  }
  const step = t.steps[0];
  if (step === undefined) return { name: t.root, nameRange: t.rootRange };
  if (step.kind !== "attr") {
    diags.push(errorDiag("Invalid provider configuration reference", "Provider name must either stand alone or be followed by a period and then a configuration alias.", step.range));
    return undefined;
  }
  return { name: t.root, nameRange: t.rootRange, alias: step.name, aliasRange: step.range };
}

/** Decodes a `resource`, `data` or `ephemeral` block (Terraform's `decodeResourceBlock`). @internal */
export function decodeResourceBlock(block: Block, mode: Resource["mode"], diags: Diagnostic[], inCheck?: string): Resource {
  const type = block.labels[0]!;
  const name = block.labels[1]!;
  if (!validIdentifier(type)) diags.push(errorDiag("Invalid resource type name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  if (!validIdentifier(name)) diags.push(errorDiag(mode === "data" ? "Invalid data source name" : "Invalid resource name", BAD_IDENTIFIER_DETAIL, block.labelRanges[1]));
  const { content, remain, diags: d } = bodyPartial(block.body, RESOURCE_SCHEMA);
  diags.push(...d);
  const count = content.attributes.get("count");
  const forEach = content.attributes.get("for_each");
  if (count !== undefined && forEach !== undefined) {
    diags.push(
      errorDiag(
        `Invalid combination of "count" and "for_each"`,
        `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of ${mode === "data" ? "data" : "resources"} to be created.`,
        forEach.nameRange,
      ),
    );
  }
  const providerAttr = content.attributes.get("provider");
  const providerConfigRef = providerAttr !== undefined ? decodeProviderConfigRef(providerAttr, diags) : undefined;
  const dependsOn = traversalList(content.attributes.get("depends_on"), diags);
  const preconditions: CheckRule[] = [];
  const postconditions: CheckRule[] = [];
  let managed: ManagedResourceSettings | undefined =
    mode === "managed"
      ? { createBeforeDestroy: false, createBeforeDestroySet: false, preventDestroy: false, ignoreChanges: [], ignoreAllChanges: false, replaceTriggeredBy: [] }
      : undefined;
  let seenLifecycle: Block | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "lifecycle": {
        if (seenLifecycle !== undefined) {
          diags.push(errorDiag("Duplicate lifecycle block", `This resource already has a lifecycle block at ${fmt(seenLifecycle)}.`, b.typeRange));
          continue;
        }
        seenLifecycle = b;
        const lc = bodyContent(b.body, MANAGED_LIFECYCLE);
        diags.push(...lc.diags);
        for (const rb of lc.content.blocks) {
          const rule = decodeCheckRule(rb, diags);
          if (rule === undefined) continue;
          (rb.type === "precondition" ? preconditions : postconditions).push(rule);
        }
        if (mode !== "managed") {
          for (const a of lc.content.attributes.values()) {
            diags.push(
              errorDiag(
                "Invalid data resource lifecycle argument",
                `The lifecycle argument ${JSON.stringify(a.name)} is defined only for managed resources ("resource" blocks), and is not valid for data resources.`,
                a.nameRange,
              ),
            );
          }
          break;
        }
        managed = decodeManagedLifecycle(lc.content.attributes, diags);
        break;
      }
      case "connection":
        diags.push(errorDiag(PROVISIONERS_NOT_SUPPORTED, "magma does not support \"connection\" blocks: provisioners are not supported.", b.typeRange));
        break;
      case "provisioner":
        diags.push(
          errorDiag(
            PROVISIONERS_NOT_SUPPORTED,
            `magma does not run provisioners: remove the ${JSON.stringify(b.labels[0] ?? "")} provisioner, or use a resource such as terraform_data to run what it does.`,
            b.typeRange,
          ),
        );
        break;
      case "_":
        diags.push(errorDiag("Unsupported block type", "magma does not support the \"_\" escape block.", b.typeRange));
        break;
      default:
        break;
    }
  }
  const providerName = providerConfigRef?.name ?? resourceTypeProviderName(type);
  return {
    mode,
    type,
    name,
    config: remain,
    ...(count !== undefined ? { count: count.expr } : {}),
    ...(forEach !== undefined ? { forEach: forEach.expr } : {}),
    ...(providerConfigRef !== undefined ? { providerConfigRef } : {}),
    provider: impliedProvider(providerName),
    dependsOn,
    preconditions,
    postconditions,
    ...(managed !== undefined ? { managed } : {}),
    ...(inCheck !== undefined ? { inCheck } : {}),
    typeRange: block.labelRanges[0]!,
    declRange: defRange(block),
  };
}

function fmt(b: Block): string {
  const r = b.typeRange;
  return `${r.filename}:${r.start.line},${r.start.column}-${r.end.column}`;
}

function decodeManagedLifecycle(attrs: ReadonlyMap<string, Attribute>, diags: Diagnostic[]): ManagedResourceSettings {
  const cbd = attrs.get("create_before_destroy");
  const createBeforeDestroy = staticBool(cbd, boolType, diags) ?? false;
  const preventDestroy = staticBool(attrs.get("prevent_destroy"), boolType, diags) ?? false;
  const ignoreChanges: Traversal[] = [];
  let ignoreAllChanges = false;
  const ic = attrs.get("ignore_changes");
  if (ic !== undefined) {
    if (exprAsKeyword(ic.expr) === "all") ignoreAllChanges = true;
    else {
      const list = exprList(ic.expr);
      diags.push(...list.diags);
      for (const item of list.items) {
        if ((item.kind === "json" && item.node.type === "string" && item.node.value === "*") || (item.kind === "template" && item.parts.length === 1 && item.parts[0]!.kind === "lit" && item.parts[0]!.value === "*")) {
          diags.push(
            errorDiag(
              "Invalid ignore_changes ruleset",
              "Cannot mix wildcard string \"*\" with non-wildcard references.",
              item.range,
            ),
          );
          continue;
        }
        const t = staticTraversal(item, diags);
        if (t !== undefined) ignoreChanges.push(t);
      }
    }
  }
  const rtb = attrs.get("replace_triggered_by");
  const replaceTriggeredBy: Expression[] = [];
  if (rtb !== undefined) {
    const list = exprList(rtb.expr);
    diags.push(...list.diags);
    for (const raw of list.items) {
      // As Terraform's decodeReplaceTriggeredBy: a JSON string is parsed as native syntax from
      // its raw text (its errors reported, "${…}" is an invalid character), positioned at the
      // string's opening quote as terraform positions it.
      let expr: Expression = raw;
      if (raw.kind === "json" && raw.node.type === "string") {
        const p = parseExpression(raw.node.value, raw.node.range.filename, raw.node.range.start);
        diags.push(...p.diags);
        if (p.diags.some((d) => d.severity === "error")) continue;
        expr = p.expr;
      }
      replaceTriggeredBy.push(expr);
      const { refs, diags: rd } = referencesInExpr(expr);
      diags.push(...rd);
      let resources = 0;
      for (const ref of refs) {
        const s = ref.subject;
        if (s.kind === "resource") resources++;
        else if (s.kind === "each") {
          if (s.name !== "key") diags.push(errorDiag("Invalid each reference in replace_triggered_by expression", "Only each.key may be used in replace_triggered_by.", expr.range));
        } else if (s.kind === "count") {
          if (s.name !== "index") diags.push(errorDiag("Invalid count reference in replace_triggered_by expression", "Only count.index may be used in replace_triggered_by.", expr.range));
        } else {
          diags.push(errorDiag("Invalid reference in replace_triggered_by expression", "Only resources, count.index, and each.key may be used in replace_triggered_by.", expr.range));
        }
      }
      if (resources === 0) diags.push(errorDiag("Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.", expr.range));
      if (resources > 1) diags.push(errorDiag("Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression.", expr.range));
    }
  }
  void stringType;
  return { createBeforeDestroy, createBeforeDestroySet: cbd !== undefined, preventDestroy, ignoreChanges, ignoreAllChanges, replaceTriggeredBy };
}

import { bodyContent, bodyPartial } from "./hcl-fixups.js";
import { PROVISIONERS_NOT_SUPPORTED } from "./provisioner-diagnostic.js";
import { boolType, convert, dynamicType, isPathError, stringType, type Value } from "@magma/cty";
import { absTraversalForExpr, evaluate, expressionTraversals, type Block, type Diagnostic, type Expression, type SourceRange } from "@magma/hcl";
import { parseConfigAddress } from "./address.js";
import { BAD_IDENTIFIER_DETAIL, defRange, errorDiag, validIdentifier, warningDiag } from "./diagnostics.js";
import { decodeCheckRule, decodeProviderConfigRef, decodeResourceBlock, providerRefFromTraversal } from "./decode-resource.js";
import { exprMap } from "./decode-terraform.js";
import type { Check, CheckRule, Import, Local, ModuleCall, Moved, Output, PassedProviderConfig, ProviderConfig, ProviderConfigRef, Removed, Resource, Variable } from "./model.js";
import { shimJsonExpression, staticBool, staticString, staticTraversal, traversalList } from "./static-decode.js";
import { applyTypeDefaults, typeConstraint } from "./type-expr.js";
import { parseVersionConstraints, type VersionConstraint } from "./version-constraint.js";

const RESERVED_VARIABLE_NAMES = new Set(["source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals"]);

/** Decodes a `variable` block (Terraform's `decodeVariableBlock`). @internal */
export function decodeVariableBlock(block: Block, override: boolean, diags: Diagnostic[]): Variable & { readonly set: ReadonlySet<string> } {
  const name = block.labels[0]!;
  if (!validIdentifier(name)) diags.push(errorDiag("Invalid variable name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  if (RESERVED_VARIABLE_NAMES.has(name)) {
    diags.push(errorDiag("Invalid variable name", `The variable name ${JSON.stringify(name)} is reserved due to its special meaning inside module blocks.`, block.labelRanges[0]));
  }
  const { content, diags: d } = bodyContent(block.body, {
    attributes: [{ name: "description" }, { name: "default" }, { name: "type" }, { name: "sensitive" }, { name: "nullable" }, { name: "ephemeral" }],
    blocks: [{ type: "validation" }],
  });
  diags.push(...d);
  const set = new Set(content.attributes.keys());
  let type = dynamicType as Variable["type"];
  let typeDefaults: Variable["typeDefaults"];
  const typeAttr = content.attributes.get("type");
  if (typeAttr !== undefined) {
    const te = typeAttr.expr;
    if (te.kind === "template" || (te.kind === "literal" && te.value.type.kind === "string")) {
      diags.push(
        errorDiag(
          "Invalid quoted type constraints",
          "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of Terraform. Remove the quotes around \"" + quotedText(te) + "\".",
          te.range,
        ),
      );
    } else {
      const tc = typeConstraint(te);
      diags.push(...tc.diags);
      type = tc.type;
      typeDefaults = tc.defaults;
    }
  }
  const description = staticString(content.attributes.get("description"), stringType, diags);
  const sensitive = staticBool(content.attributes.get("sensitive"), boolType, diags) ?? false;
  const ephemeral = staticBool(content.attributes.get("ephemeral"), boolType, diags) ?? false;
  const nullable = staticBool(content.attributes.get("nullable"), boolType, diags) ?? true;
  let def: Value | undefined;
  const defAttr = content.attributes.get("default");
  if (defAttr !== undefined) {
    const r = evaluate(defAttr.expr);
    diags.push(...r.diags);
    if (r.diags.length === 0) {
      let v = r.value;
      if (typeDefaults !== undefined) v = applyTypeDefaults(v, typeDefaults);
      try {
        def = convert(v, type);
      } catch (err) {
        if (!isPathError(err)) throw err;
        diags.push(errorDiag("Invalid default value for variable", `This default value is not compatible with the variable's type constraint: ${err.message}.`, defAttr.expr.range));
        def = undefined;
      }
      if (def !== undefined && !nullable && def.isNull()) {
        diags.push(errorDiag("Invalid default value for variable", "A null default value is not valid when nullable=false.", defAttr.expr.range));
      }
    }
  }
  const validations: CheckRule[] = [];
  for (const b of content.blocks) {
    const rule = decodeCheckRule(b, diags);
    if (rule === undefined) continue;
    validations.push(rule);
    const refersToSelf = expressionTraversals(rule.condition).some((t) => t.root === "var" && t.steps[0]?.kind === "attr" && t.steps[0].name === name);
    if (!refersToSelf) {
      diags.push(
        errorDiag("Invalid variable validation condition", `The condition for variable ${JSON.stringify(name)} must refer to var.${name} in order to test incoming values.`, rule.condition.range),
      );
    }
  }
  void override;
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    ...(def !== undefined ? { default: def } : {}),
    type,
    typeSet: typeAttr !== undefined,
    ...(typeDefaults !== undefined ? { typeDefaults } : {}),
    sensitive,
    ephemeral,
    nullable,
    validations,
    declRange: defRange(block),
    set,
  };
}

function quotedText(e: Expression): string {
  const v = evaluate(e).value;
  return v.isKnown() && !v.isNull() && v.type.kind === "string" ? v.asString() : "";
}

/** Decodes an `output` block. @internal */
export function decodeOutputBlock(block: Block, override: boolean, diags: Diagnostic[]): Output & { readonly set: ReadonlySet<string> } {
  const name = block.labels[0]!;
  if (!validIdentifier(name)) diags.push(errorDiag("Invalid output name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  const { content, diags: d } = bodyContent(block.body, {
    attributes: [{ name: "description" }, { name: "value", required: !override }, { name: "sensitive" }, { name: "ephemeral" }, { name: "depends_on" }],
    blocks: [{ type: "precondition" }, { type: "postcondition" }],
  });
  diags.push(...d);
  const preconditions: CheckRule[] = [];
  for (const b of content.blocks) {
    if (b.type === "postcondition") {
      diags.push(errorDiag("Postconditions are not allowed", "Output values can only have preconditions, not postconditions.", b.typeRange));
      continue;
    }
    const rule = decodeCheckRule(b, diags);
    if (rule !== undefined) preconditions.push(rule);
  }
  const description = staticString(content.attributes.get("description"), stringType, diags);
  const value = content.attributes.get("value");
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    expr: value?.expr ?? { kind: "json", node: { type: "null", range: block.range }, range: block.range },
    sensitive: staticBool(content.attributes.get("sensitive"), boolType, diags) ?? false,
    ephemeral: staticBool(content.attributes.get("ephemeral"), boolType, diags) ?? false,
    dependsOn: traversalList(content.attributes.get("depends_on"), diags),
    preconditions,
    declRange: defRange(block),
    set: new Set(content.attributes.keys()),
  };
}

/** Decodes a `locals` block into its values. @internal */
export function decodeLocalsBlock(block: Block, diags: Diagnostic[]): Local[] {
  const { attributes, diags: d } = block.body.justAttributes();
  diags.push(...d);
  const out: Local[] = [];
  for (const a of attributes.values()) {
    if (!validIdentifier(a.name)) diags.push(errorDiag("Invalid local value name", BAD_IDENTIFIER_DETAIL, a.nameRange));
    out.push({ name: a.name, expr: a.expr, declRange: a.range });
  }
  return out;
}

/** Decodes a `provider` block. @internal */
export function decodeProviderBlock(block: Block, diags: Diagnostic[]): ProviderConfig {
  const name = block.labels[0]!;
  if (!validIdentifier(name)) diags.push(errorDiag("Invalid provider local name", `${JSON.stringify(name)} is an invalid provider local name: ${BAD_IDENTIFIER_DETAIL}`, block.labelRanges[0]));
  const { content, remain, diags: d } = bodyPartial(block.body, { attributes: [{ name: "alias" }, { name: "version" }], blocks: [{ type: "_" }] });
  diags.push(...d);
  let alias: string | undefined;
  let aliasRange: ProviderConfig["aliasRange"];
  const aliasAttr = content.attributes.get("alias");
  if (aliasAttr !== undefined) {
    const t = absTraversalForExpr(aliasAttr.expr);
    const kw = t.traversal !== undefined && t.traversal.steps.length === 0 ? t.traversal.root : staticString(aliasAttr, stringType, []);
    if (kw === undefined || !validIdentifier(kw)) {
      diags.push(errorDiag("Invalid provider configuration alias", `An alias must be a valid name. ${BAD_IDENTIFIER_DETAIL}`, aliasAttr.expr.range));
    } else {
      alias = kw;
      aliasRange = aliasAttr.expr.range;
    }
  }
  let versionConstraints: VersionConstraint[] = [];
  const versionAttr = content.attributes.get("version");
  if (versionAttr !== undefined) {
    diags.push(
      warningDiag(
        "Version constraints inside provider configuration blocks are deprecated",
        "Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.",
        versionAttr.expr.range,
      ),
    );
    const s = staticString(versionAttr, stringType, diags);
    if (s !== undefined) versionConstraints = parseVersionConstraints(s, versionAttr.expr.range) ?? [];
  }
  return {
    name,
    nameRange: block.labelRanges[0]!,
    ...(alias !== undefined ? { alias } : {}),
    ...(aliasRange !== undefined ? { aliasRange } : {}),
    versionConstraints,
    config: remain,
    declRange: defRange(block),
  };
}

/** Decodes a `module` block (Terraform's `decodeModuleBlock`). @internal */
export function decodeModuleBlock(block: Block, override: boolean, diags: Diagnostic[]): ModuleCall {
  const name = block.labels[0]!;
  if (!validIdentifier(name)) diags.push(errorDiag("Invalid module instance name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  const { content, remain, diags: d } = bodyPartial(block.body, {
    attributes: [{ name: "source", required: !override }, { name: "version" }, { name: "count" }, { name: "for_each" }, { name: "depends_on" }, { name: "providers" }],
    blocks: [{ type: "_" }, { type: "lifecycle" }, { type: "locals" }, { type: "provider", labelNames: ["type"] }],
  });
  diags.push(...d);
  for (const b of content.blocks) {
    diags.push(errorDiag("Reserved block type name in module block", `The block type name ${JSON.stringify(b.type)} is reserved for use by Terraform in a future version.`, b.typeRange));
  }
  const src = content.attributes.get("source");
  const sourceAddr = staticString(src, stringType, diags) ?? "";
  if (src !== undefined && sourceAddr !== "" && !plausibleModuleSource(sourceAddr)) {
    diags.push(
      errorDiag(
        "Invalid module source address",
        `Terraform failed to determine your intended installation method for remote module package ${JSON.stringify(sourceAddr)}.\n\nIf you intended this as a path relative to the current module, use "./${sourceAddr}" instead. The "./" prefix indicates that the address is a relative filesystem path.`,
        src.expr.range,
      ),
    );
  }
  let versionConstraints: VersionConstraint[] = [];
  const ver = content.attributes.get("version");
  if (ver !== undefined) {
    const s = staticString(ver, stringType, diags);
    if (s !== undefined) {
      const cs = parseVersionConstraints(s, ver.expr.range);
      if (cs === undefined) diags.push(errorDiag("Invalid version constraint", "This string does not use correct version constraint syntax.", ver.expr.range));
      else versionConstraints = cs;
    }
  }
  const count = content.attributes.get("count");
  const forEach = content.attributes.get("for_each");
  if (count !== undefined && forEach !== undefined) {
    diags.push(
      errorDiag(
        `Invalid combination of "count" and "for_each"`,
        `The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.`,
        forEach.nameRange,
      ),
    );
  }
  const providers: PassedProviderConfig[] = [];
  const pa = content.attributes.get("providers");
  if (pa !== undefined) {
    const items = exprMap(pa.expr, diags);
    for (const it of items ?? []) {
      const k = absTraversalForExpr(shimJsonExpression(it.keyExpr.kind === "json" ? it.keyExpr : it.keyExpr));
      const v = absTraversalForExpr(shimJsonExpression(it.value));
      diags.push(...v.diags);
      const parsedKey =
        k.traversal !== undefined ? providerRefFromTraversal(k.traversal, it.keyExpr.range, diags) : ({ name: it.key, nameRange: it.keyExpr.range } as const);
      // In JSON, HCL parses a string's traversal from the position of its opening quote (terraform's ranges are one to the left).
      const inChild = parsedKey !== undefined && it.keyExpr.kind === "json" && k.traversal !== undefined ? atOpeningQuote(parsedKey) : parsedKey;
      if (it.key.includes(".") && k.traversal === undefined) continue;
      const parsedValue = v.traversal !== undefined ? providerRefFromTraversal(v.traversal, it.value.range, diags) : undefined;
      const inParent = parsedValue !== undefined && it.value.kind === "json" ? atOpeningQuote(parsedValue) : parsedValue;
      if (inChild !== undefined && inParent !== undefined) providers.push({ inChild, inParent });
    }
  }
  return {
    name,
    sourceAddr,
    sourceAddrRange: src?.expr.range ?? defRange(block),
    versionConstraints,
    config: remain,
    ...(count !== undefined ? { count: count.expr } : {}),
    ...(forEach !== undefined ? { forEach: forEach.expr } : {}),
    providers,
    dependsOn: traversalList(content.attributes.get("depends_on"), diags),
    declRange: defRange(block),
  };
}

/** Decodes a `moved` block. @internal */
export function decodeMovedBlock(block: Block, diags: Diagnostic[]): Moved | undefined {
  const { content, diags: d } = bodyContent(block.body, { attributes: [{ name: "from", required: true }, { name: "to", required: true }] });
  diags.push(...d);
  const from = content.attributes.get("from");
  const to = content.attributes.get("to");
  if (from === undefined || to === undefined) return undefined;
  const f = staticTraversal(from.expr, diags, false);
  const t = staticTraversal(to.expr, diags, false);
  if (f === undefined || t === undefined) return undefined;
  const fa = parseConfigAddress(f, diags);
  const ta = parseConfigAddress(t, diags);
  if (fa !== undefined && ta !== undefined && (fa.resource === undefined) !== (ta.resource === undefined)) {
    diags.push(errorDiag(`Invalid "moved" addresses`, `The "from" and "to" addresses must either both refer to resources or both refer to modules.`, block.typeRange));
  }
  return { from: f, to: t, declRange: block.typeRange };
}

/** Decodes an `import` block. @internal */
export function decodeImportBlock(block: Block, diags: Diagnostic[]): Import | undefined {
  const { content, diags: d } = bodyContent(block.body, {
    attributes: [{ name: "provider" }, { name: "id" }, { name: "to", required: true }, { name: "for_each" }, { name: "identity" }],
  });
  diags.push(...d);
  const to = content.attributes.get("to");
  if (to === undefined) return undefined;
  const id = content.attributes.get("id");
  const identity = content.attributes.get("identity");
  if (id === undefined && identity === undefined) {
    diags.push(errorDiag("Invalid import block", "At least one of 'id' or 'identity' must be specified.", block.range));
  }
  if (id !== undefined && identity !== undefined) {
    diags.push(errorDiag("Invalid import block", "Only one of 'id' or 'identity' can be specified.", identity.range));
  }
  const providerAttr = content.attributes.get("provider");
  const providerConfigRef = providerAttr !== undefined ? decodeProviderConfigRef(providerAttr, diags) : undefined;
  const forEach = content.attributes.get("for_each");
  // The target: a managed resource instance (index keys may be expressions with for_each).
  const toTrav = staticTraversal(to.expr, [], false);
  if (toTrav !== undefined) {
    const ta = parseConfigAddress(toTrav, diags);
    if (ta === undefined || ta.resource === undefined || ta.resource.mode !== "managed") {
      diags.push(errorDiag("Invalid import address", "Only managed resources can be imported.", to.range));
    }
  }
  return {
    to: shimJsonExpression(to.expr),
    toRange: to.expr.range,
    ...(id !== undefined ? { id: id.expr } : {}),
    ...(identity !== undefined ? { identity: identity.expr } : {}),
    ...(forEach !== undefined ? { forEach: forEach.expr } : {}),
    ...(providerConfigRef !== undefined ? { providerConfigRef } : {}),
    declRange: block.typeRange,
  };
}

/** Decodes a `removed` block. @internal */
export function decodeRemovedBlock(block: Block, diags: Diagnostic[]): Removed | undefined {
  const { content, diags: d } = bodyContent(block.body, {
    attributes: [{ name: "from", required: true }],
    blocks: [{ type: "lifecycle" }, { type: "provisioner", labelNames: ["type"] }, { type: "connection" }],
  });
  diags.push(...d);
  let destroy = true;
  for (const b of content.blocks) {
    if (b.type === "lifecycle") {
      const lc = bodyContent(b.body, { attributes: [{ name: "destroy" }] });
      diags.push(...lc.diags);
      destroy = staticBool(lc.content.attributes.get("destroy"), boolType, diags) ?? true;
    } else {
      diags.push(errorDiag(PROVISIONERS_NOT_SUPPORTED, `magma does not run provisioners or support "${b.type}" blocks.`, b.typeRange));
    }
  }
  const from = content.attributes.get("from");
  if (from === undefined) return undefined;
  const f = staticTraversal(from.expr, diags, false);
  if (f === undefined) return undefined;
  const fa = parseConfigAddress(f, diags);
  const key = fa?.resource?.key ?? fa?.modules.find((m) => m.key !== undefined)?.key;
  if (key !== undefined) {
    diags.push(
      fa?.resource !== undefined
        ? errorDiag("Resource instance keys not allowed", `Resource address must be a resource (e.g. "test_instance.foo"), not a resource instance (e.g. "test_instance.foo[1]").`, key.range)
        : errorDiag("Module instance keys not allowed", `Module address must be a module (e.g. "module.foo"), not a module instance (e.g. "module.foo[1]").`, key.range),
    );
  }
  return { from: f, destroy, declRange: block.typeRange };
}

/** Decodes a `check` block. @internal */
export function decodeCheckBlock(block: Block, diags: Diagnostic[]): Check {
  const name = block.labels[0]!;
  if (!validIdentifier(name)) diags.push(errorDiag("Invalid check block name", BAD_IDENTIFIER_DETAIL, block.labelRanges[0]));
  const { content, diags: d } = bodyContent(block.body, { blocks: [{ type: "data", labelNames: ["type", "name"] }, { type: "assert" }] });
  diags.push(...d);
  let dataResource: Resource | undefined;
  const asserts: CheckRule[] = [];
  for (const b of content.blocks) {
    if (b.type === "data") {
      if (dataResource !== undefined) {
        diags.push(errorDiag("Multiple data resource blocks", `This check block already has a data resource defined at ${dataResource.declRange.filename}:${dataResource.declRange.start.line}.`, b.typeRange));
        continue;
      }
      dataResource = decodeResourceBlock(b, "data", diags, name);
    } else {
      // As terraform's decodeCheckBlock: an assert with any error is left out (and so a check
      // whose only assert is invalid is also "Zero assert blocks").
      const own: Diagnostic[] = [];
      const rule = decodeCheckRule(b, own);
      diags.push(...own);
      if (rule !== undefined && !own.some((x) => x.severity === "error")) asserts.push(rule);
    }
  }
  if (asserts.length === 0) {
    diags.push(errorDiag("Zero assert blocks", "Check blocks must have at least one assert block.", defRange(block)));
  }
  return { name, ...(dataResource !== undefined ? { dataResource } : {}), asserts, declRange: defRange(block) };
}

/**
 * Whether a module source has one of the forms Terraform installs from: a local path, a
 * registry address (`[host/]namespace/name/system`), or a go-getter address (a `x::`
 * forced getter, a URL, or a known host's shorthand).
 */
export function plausibleModuleSource(s: string): boolean {
  if (s.startsWith("./") || s.startsWith("../") || s.startsWith(".\\") || s.startsWith("..\\")) return true;
  if (/^[a-z0-9]+::/i.test(s) || /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /^git@/.test(s)) return true;
  if (/^(github\.com|bitbucket\.org|gitlab\.com)\//.test(s)) return true;
  if (/\.(zip|tar\.gz|tgz|tar\.bz2|tar\.xz)$/.test(s)) return true;
  const path = s.split("//")[0]!;
  const parts = path.split("/");
  return (parts.length === 3 || parts.length === 4) && parts.every((p) => /^[0-9A-Za-z][0-9A-Za-z._-]*$/.test(p));
}

function backOne(r: SourceRange): SourceRange {
  return { filename: r.filename, start: { line: r.start.line, column: r.start.column - 1, byte: r.start.byte - 1 }, end: { line: r.end.line, column: r.end.column - 1, byte: r.end.byte - 1 } };
}

function atOpeningQuote(ref: ProviderConfigRef): ProviderConfigRef {
  return { ...ref, nameRange: backOne(ref.nameRange), ...(ref.aliasRange !== undefined ? { aliasRange: backOne(ref.aliasRange) } : {}) };
}

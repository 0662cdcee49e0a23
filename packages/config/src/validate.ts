import { convert, isPathError, numberType, typeName } from "@magma/cty";
import { evaluate, type Diagnostic, type Expression, type Traversal } from "@magma/hcl";
import { bodyTraversals } from "./body-walk.js";
import { errorDiag, nameSuggestion } from "./diagnostics.js";
import { loadConfig, walkConfig, type LoadConfigOptions } from "./load-config.js";
import type { Block as SchemaBlock } from "@magma/provider-api";
import { decodeSchemaBody, ownEntry } from "./decode-schema-body.js";
import { impliedProvider } from "./provider-addr.js";
import { missingProviderError } from "./missing-provider-error.js";
import { providerConfigDiagnostics } from "./provider-config-diagnostics.js";
import type { CheckRule, Config, Module, ProviderAddr, Resource } from "./model.js";
import { parseRef, referencesInExpr, subjectString, type Reference } from "./references.js";
import { TERRAFORM_VERSION, versionSatisfies } from "./version-constraint.js";

const RESOURCE_META = new Set(["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner", "_"]);
const MODULE_META = new Set(["source", "version", "count", "for_each", "depends_on", "providers", "_", "lifecycle", "locals", "provider"]);

/** The context an expression is evaluated in, for the `count`/`each`/`self` rules. */
interface RefContext {
  readonly count: boolean;
  readonly forEach: boolean;
  readonly self: boolean;
  /** The object the expression belongs to, for self-reference checks. */
  readonly selfAddr?: string;
}

function displayModule(path: readonly string[]): string {
  return path.length === 0 ? "the root module" : path.map((p) => `module.${p}`).join(".");
}

/**
 * Checks `required_version` in every module against the Terraform version magma declares
 * (Terraform's `CheckCoreVersionRequirements`).
 */
export function checkCoreVersion(config: Config): Diagnostic[] {
  const diags: Diagnostic[] = [];
  for (const c of walkConfig(config)) {
    for (const vc of c.module.coreVersionConstraints) {
      if (!versionSatisfies(TERRAFORM_VERSION, [vc])) {
        diags.push(
          errorDiag(
            "Unsupported Terraform Core version",
            `This configuration does not support Terraform version ${TERRAFORM_VERSION}. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.`,
            vc.range,
          ),
        );
      }
    }
  }
  return diags;
}

/**
 * The static checks `terraform validate` makes on a loaded configuration beyond decoding:
 * references to undeclared objects (with "did you mean"), `count`/`each`/`self` used out of
 * context, `depends_on` naming attributes, self-references, cycles among local values,
 * module call arguments that are not the child's variables, and provider configurations
 * that are referred to but not declared.
 */
export function validateConfig(config: Config, options: ValidateOptions = {}): Diagnostic[] {
  const diags = providerSetupDiagnostics(config);
  if (diags.some((d) => d.severity === "error")) return diags;
  for (const c of walkConfig(config)) validateModule(c, options.schemas, diags);
  return diags;
}

/**
 * What Terraform reports about a configuration's provider configurations before its validate
 * walk: the diagnostics of its `validateProviderConfigs` (when the configuration is loaded)
 * and, when they have no error, the graph builder's "missing provider" error
 * ({@link missingProviderError}). An error here ends the command before any walk: no other
 * check of the configuration is made, no expression evaluated.
 */
export function providerSetupDiagnostics(config: Config): Diagnostic[] {
  const diags = providerConfigDiagnostics(config);
  if (diags.some((d) => d.severity === "error")) return diags;
  const missing = missingProviderError(config);
  return missing === undefined ? diags : [...diags, missing];
}

/** Finds the schema of a resource type, data source or ephemeral resource type of a provider. */
export type SchemaLookup = (provider: ProviderAddr, mode: Resource["mode"], type: string) => SchemaBlock | undefined;

/** Options of {@link validateConfig}. */
export interface ValidateOptions {
  /**
   * Provider schemas: with them, resource and data bodies are decoded against their schema
   * and references to their attributes are checked (as `terraform validate` does once
   * providers are installed).
   */
  readonly schemas?: SchemaLookup;
}

function validateModule(c: Config, schemas: SchemaLookup | undefined, diags: Diagnostic[]): void {
  const m = c.module;
  const schemaOf = (r: Resource | undefined): SchemaBlock | undefined => (r === undefined || schemas === undefined ? undefined : schemas(r.provider, r.mode, r.type));
  const check = (exprs: readonly (Expression | undefined)[], extra: readonly Reference[], ctx: RefContext): void => {
    for (const e of exprs) {
      const r = referencesInExpr(e);
      diags.push(...r.diags);
      for (const ref of r.refs) checkRef(c, ref, ctx, diags, schemaOf);
    }
    for (const ref of extra) checkRef(c, ref, ctx, diags, schemaOf);
  };
  const travRefs = (ts: readonly Traversal[]): Reference[] => {
    const out: Reference[] = [];
    for (const t of ts) {
      const r = parseRef(t);
      diags.push(...r.diags);
      if (r.ref !== undefined) out.push(r.ref);
    }
    return out;
  };
  const dependsOn = (ts: readonly Traversal[], ctx: RefContext): void => {
    for (const t of ts) {
      const p = parseRef(t);
      diags.push(...p.diags);
      if (p.ref === undefined) continue;
      const rem = p.ref.remaining;
      if (rem.length > 0) {
        const first = rem[0]!;
        const last = rem[rem.length - 1]!;
        diags.push(
          errorDiag(
            "Invalid depends_on reference",
            "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
            { filename: first.range.filename, start: first.range.start, end: last.range.end },
          ),
        );
        continue;
      }
      checkRef(c, p.ref, ctx, diags, schemaOf);
    }
  };
  const rules = (rs: readonly CheckRule[]): Expression[] => rs.flatMap((r) => [r.condition, r.errorMessage]);

  const resource = (r: Resource, addr: string): void => {
    const schema = schemaOf(r);
    if (schema !== undefined) diags.push(...decodeSchemaBody(r.config, schema).diags);
    const ctx: RefContext = { count: r.count !== undefined, forEach: r.forEach !== undefined, self: false, selfAddr: addr };
    check([r.count, r.forEach], [], { count: false, forEach: false, self: false });
    metaValues(r.count, r.forEach, diags);
    check(rules(r.preconditions), travRefs(bodyTraversals(r.config, RESOURCE_META)), ctx);
    check(rules(r.postconditions), [], { ...ctx, self: true });
    dependsOn(r.dependsOn, ctx);
    if (r.providerConfigRef?.alias !== undefined) {
      const key = `${r.providerConfigRef.name}.${r.providerConfigRef.alias}`;
      const declaredAlias = [...m.requiredProviders.values()].some((rp) => rp.configurationAliases.some((a) => a.name === r.providerConfigRef?.name && a.alias === r.providerConfigRef.alias));
      if (!m.providerConfigs.has(key) && !declaredAlias) {
        diags.push(
          errorDiag(
            "Provider configuration not present",
            `To work with ${addr} its original provider configuration at ${providerDisplay(c, r, key)} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${addr}, after which you can remove the provider configuration again.`,
          ),
        );
      }
    }
  };
  for (const [k, r] of m.managedResources) resource(r, k);
  for (const [k, r] of m.dataResources) resource(r, k);
  for (const [k, r] of m.ephemeralResources) resource(r, k);

  const plain: RefContext = { count: false, forEach: false, self: false };
  for (const [name, l] of m.locals) check([l.expr], [], { ...plain, selfAddr: `local.${name}` });
  for (const [name, o] of m.outputs) {
    check([o.expr, ...rules(o.preconditions)], [], { ...plain, selfAddr: `output.${name}` });
    dependsOn(o.dependsOn, plain);
  }
  for (const [name, mc] of m.moduleCalls) {
    const ctx: RefContext = { count: mc.count !== undefined, forEach: mc.forEach !== undefined, self: false, selfAddr: `module.${name}` };
    check([mc.count, mc.forEach], [], plain);
    metaValues(mc.count, mc.forEach, diags);
    check([], travRefs(bodyTraversals(mc.config, MODULE_META)), ctx);
    dependsOn(mc.dependsOn, plain);
    const child = c.children.get(name);
    if (child !== undefined) {
      checkModuleArgs(mc, child.module, diags);
      checkPassedProviders(c, mc, diags);
    }
  }
  for (const p of m.providerConfigs.values()) check([], travRefs(bodyTraversals(p.config, new Set(["alias", "version"]))), plain);
  for (const v of m.variables.values()) check(rules(v.validations), [], plain);
  for (const ch of m.checks.values()) check(rules(ch.asserts), [], plain);
  for (const im of m.imports) check([im.id, im.identity, im.forEach], [], { ...plain, forEach: im.forEach !== undefined });
  localCycles(m, diags);
}

function providerDisplay(c: Config, r: Resource, key: string): string {
  const alias = key.includes(".") ? key.slice(key.indexOf(".")) : "";
  const prefix = c.path.map((p) => `module.${p}.`).join("");
  return `${prefix}provider["${r.provider.hostname}/${r.provider.namespace}/${r.provider.type}"]${alias}`;
}

function checkModuleArgs(mc: Config["call"] & object, child: Module, diags: Diagnostic[]): void {
  const { attributes } = mc.config.justAttributes();
  for (const [name, a] of attributes) {
    if (MODULE_META.has(name)) continue;
    if (!child.variables.has(name)) {
      const s = nameSuggestion(name, child.variables.keys());
      diags.push(errorDiag("Unsupported argument", `An argument named ${JSON.stringify(name)} is not expected here.${s !== undefined ? ` Did you mean ${JSON.stringify(s)}?` : ""}`, a.nameRange));
    }
  }
  for (const [name, v] of child.variables) {
    if (v.default === undefined && v.nullable && !attributes.has(name)) {
      diags.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(name)} is required, but no definition was found.`, openBrace(mc.config.range)));
    } else if (v.default === undefined && !v.nullable && !attributes.has(name)) {
      diags.push(errorDiag("Missing required argument", `The argument ${JSON.stringify(name)} is required, but no definition was found.`, openBrace(mc.config.range)));
    }
  }
}

/**
 * The problems of the references one expression evaluated in a configuration's module makes
 * outside any block (no `count`, `each` or `self`), as terraform's console finds them: a
 * reference that does not parse, or names a variable, local, module call or resource the
 * module does not declare. Nothing is evaluated.
 */
export function checkExpressionReferences(config: Config, expr: Expression): Diagnostic[] {
  const r = referencesInExpr(expr);
  const diags = [...r.diags];
  for (const ref of r.refs) checkRef(config, ref, { count: false, forEach: false, self: false }, diags, () => undefined);
  return diags;
}

function checkRef(c: Config, ref: Reference, ctx: RefContext, diags: Diagnostic[], schemaOf: (r: Resource | undefined) => SchemaBlock | undefined): void {
  const m = c.module;
  const s = ref.subject;
  switch (s.kind) {
    case "var":
      if (!m.variables.has(s.name)) {
        const sug = nameSuggestion(s.name, m.variables.keys());
        diags.push(
          errorDiag(
            "Reference to undeclared input variable",
            `An input variable with the name ${JSON.stringify(s.name)} has not been declared.${sug !== undefined ? ` Did you mean ${JSON.stringify(sug)}?` : ` This variable can be declared with a variable ${JSON.stringify(s.name)} {} block.`}`,
            ref.range,
          ),
        );
      }
      return;
    case "local":
      if (!m.locals.has(s.name)) {
        const sug = nameSuggestion(s.name, m.locals.keys());
        diags.push(
          errorDiag("Reference to undeclared local value", `A local value with the name ${JSON.stringify(s.name)} has not been declared.${sug !== undefined ? ` Did you mean ${JSON.stringify(sug)}?` : ""}`, ref.range),
        );
      }
      return;
    case "module":
      const child = c.children.get(s.name);
      if (child !== undefined) {
        // module.m.out / module.m[k].out: the output must exist.
        let i = 1;
        if (ref.traversal.steps[i]?.kind === "index") i++;
        const step = ref.traversal.steps[i];
        if (step?.kind === "attr" && !child.module.outputs.has(step.name)) {
          diags.push(errorDiag("Unsupported attribute", `This object does not have an attribute named ${JSON.stringify(step.name)}.`, step.range));
        }
      }
      if (!m.moduleCalls.has(s.name)) {
        const sug = nameSuggestion(s.name, m.moduleCalls.keys());
        diags.push(
          errorDiag(
            "Reference to undeclared module",
            `No module call named ${JSON.stringify(s.name)} is declared in ${displayModule(c.path)}.${sug !== undefined ? ` Did you mean ${JSON.stringify(sug)}?` : ""}`,
            ref.range,
          ),
        );
      }
      return;
    case "resource": {
      const key = subjectString(s);
      const table = s.mode === "managed" ? m.managedResources : s.mode === "data" ? m.dataResources : m.ephemeralResources;
      if (!table.has(key)) {
        let sug = "";
        if (s.mode === "managed" && m.dataResources.has(`data.${key}`)) sug = `\n\nDid you mean the data resource data.${key}?`;
        diags.push(
          errorDiag(
            "Reference to undeclared resource",
            `A ${s.mode} resource ${JSON.stringify(s.type)} ${JSON.stringify(s.name)} has not been declared in ${displayModule(c.path)}.${sug}`,
            ref.range,
          ),
        );
        return;
      }
      const schema = schemaOf(table.get(key));
      if (schema !== undefined) {
        let rem = ref.remaining;
        if (rem[0]?.kind === "index") rem = rem.slice(1);
        const step = rem[0];
        // Terraform 0.11's special `count` attribute, refused whatever the schema has (its staticValidateResourceReference).
        if (step?.kind === "attr" && step.name === "count") {
          diags.push(
            errorDiag(
              "Invalid resource count attribute",
              `The special "count" attribute is no longer supported after Terraform v0.12. Instead, use length(${key}) to count resource instances.`,
              ref.range,
            ),
          );
          return;
        }
        if (step?.kind === "attr" && ownEntry(schema.attributes, step.name) === undefined && ownEntry(schema.blockTypes, step.name) === undefined) {
          const names = [...Object.keys(schema.attributes ?? {}), ...Object.keys(schema.blockTypes ?? {})];
          diags.push(
            errorDiag(
              "Unsupported attribute",
              `This object has no argument, nested block, or exported attribute named ${JSON.stringify(step.name)}.${suggest(step.name, names)}`,
              step.range,
            ),
          );
        } else diags.push(...deprecatedAttributeWarnings(schema, rem));
      }
      return;
    }
    case "count":
      if (!ctx.count) {
        diags.push(
          errorDiag(
            `Reference to "count" in non-counted context`,
            `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`,
            ref.range,
          ),
        );
      } else if (s.name !== "index") {
        diags.push(errorDiag(`Invalid "count" attribute`, `The "count" object does not have an attribute named ${JSON.stringify(s.name)}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, ref.range));
      }
      return;
    case "each":
      if (!ctx.forEach) {
        diags.push(
          errorDiag(
            `Reference to "each" in context without for_each`,
            `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`,
            ref.range,
          ),
        );
      } else if (s.name !== "key" && s.name !== "value") {
        diags.push(errorDiag(`Invalid "each" attribute`, `The "each" object does not have an attribute named ${JSON.stringify(s.name)}. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, ref.range));
      }
      return;
    case "path":
      if (!["cwd", "module", "root"].includes(s.name)) {
        diags.push(errorDiag(`Invalid "path" attribute`, `The "path" object does not have an attribute named ${JSON.stringify(s.name)}.${suggest(s.name, ["cwd", "module", "root"])}`, ref.range));
      }
      return;
    case "terraform":
      // Terraform's evaluator (evaluate_data.go): terraform.workspace, and terraform.applying (true only while applying).
      if (s.name === "env") {
        diags.push(errorDiag(`Invalid "terraform" attribute`, `The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.`, ref.range));
      } else if (s.name !== "workspace" && s.name !== "applying") {
        diags.push(errorDiag(`Invalid "terraform" attribute`, `The "terraform" object does not have an attribute named ${JSON.stringify(s.name)}. The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply.`, ref.range));
      }
      return;
    case "self":
      if (!ctx.self) {
        diags.push(errorDiag(`Invalid "self" reference`, `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`, ref.range));
      }
      return;
    case "check":
      return;
  }
}

/** Cycles among local values (Terraform reports them as graph cycles). */
function localCycles(m: Module, diags: Diagnostic[]): void {
  const deps = new Map<string, string[]>();
  for (const [name, l] of m.locals) {
    deps.set(
      name,
      referencesInExpr(l.expr)
        .refs.filter((r) => r.subject.kind === "local")
        .map((r) => (r.subject as { name: string }).name)
        .filter((n) => m.locals.has(n)),
    );
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const sccs: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of deps.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        on.delete(w);
        comp.push(w);
        if (w === v) break;
      }
      if (comp.length > 1 || (deps.get(v) ?? []).includes(v)) sccs.push(comp);
    }
  };
  for (const v of deps.keys()) if (!idx.has(v)) visit(v);
  for (const comp of sccs) {
    const names = comp.sort().map((n) => `local.${n} (expand)`);
    if (comp.length === 1) {
      const l = m.locals.get(comp[0]!)!;
      diags.push(errorDiag("Self-referencing local value", `Local value local.${comp[0]!} cannot use its own result as part of its expression.`, l.declRange));
      continue;
    }
    diags.push(errorDiag(`Cycle: ${names.join(", ")}`, ""));
  }
}

/**
 * Loads a configuration and validates it as `terraform validate` does (without provider
 * schemas): decoding diagnostics first; when there are none, the version check; then the
 * static checks of {@link validateConfig}.
 * `checked` is true when the configuration loaded and the static checks ran (terraform
 * then goes on to its validate walk: the engine's `validateExpressions`).
 */
export function validateDir(dir: string, options: LoadConfigOptions & ValidateOptions = {}): { config: Config; diags: Diagnostic[]; checked: boolean } {
  const { config, diags } = loadConfig(dir, options);
  const version = checkCoreVersion(config);
  if (version.length > 0) return { config, diags: version, checked: false };
  if (diags.some((d) => d.severity === "error")) return { config, diags, checked: false };
  const checks = validateConfig(config, options);
  // An error in the provider configurations ends validation before the walk.
  const setupFailed = checks.some((d) => d.severity === "error") && providerSetupDiagnostics(config).some((d) => d.severity === "error");
  return { config, diags: [...diags, ...checks], checked: !setupFailed };
}

function openBrace(r: Diagnostic["subject"] & object): Diagnostic["subject"] & object {
  return { filename: r.filename, start: r.start, end: { line: r.start.line, column: r.start.column + 1, byte: r.start.byte + 1 } };
}

/**
 * "Deprecated attribute" for a reference into a resource that reaches an attribute its
 * schema marks deprecated (Terraform's `staticValidateTraversal`: through nested blocks, single
 * or group ones directly and list or map ones past an index; not into nested attributes).
 */
function deprecatedAttributeWarnings(schema: SchemaBlock, rem: Reference["remaining"]): Diagnostic[] {
  const step = rem[0];
  if (step?.kind !== "attr") return [];
  const attr = ownEntry(schema.attributes, step.name);
  if (attr !== undefined) {
    return attr.deprecated === true
      ? [{ severity: "warning", summary: "Deprecated attribute", detail: `The attribute ${JSON.stringify(step.name)} is deprecated. Refer to the provider documentation for details.`, subject: step.range }]
      : [];
  }
  const nested = ownEntry(schema.blockTypes, step.name);
  if (nested === undefined) return [];
  const after = rem.slice(1);
  if (nested.nesting === "single" || nested.nesting === "group") return deprecatedAttributeWarnings(nested.block, after);
  if ((nested.nesting === "list" || nested.nesting === "map") && after[0]?.kind === "index") return deprecatedAttributeWarnings(nested.block, after.slice(1));
  return [];
}

function suggest(name: string, options: readonly string[]): string {
  const s = nameSuggestion(name, options);
  return s === undefined ? "" : ` Did you mean ${JSON.stringify(s)}?`;
}

/**
 * Checks constant `count` and `for_each` values as Terraform does when it evaluates them
 * (expressions with references or function calls are left to the engine).
 */
function metaValues(count: Expression | undefined, forEach: Expression | undefined, diags: Diagnostic[]): void {
  if (count !== undefined) {
    const r = evaluate(count, { variables: {} });
    if (r.diags.length === 0 && r.value.isKnown()) {
      let v = r.value;
      if (v.isNull()) {
        diags.push(errorDiag("Invalid count argument", `The given "count" argument value is null. An integer is required.`, count.range));
      } else {
        try {
          v = convert(v, numberType);
          const n = v.asNumber();
          if (!n.isInteger()) {
            diags.push(
              errorDiag("Invalid count argument", `The given "count" argument value is unsuitable: value must be a whole number, between -9223372036854775808 and 9223372036854775807.`, count.range),
            );
          } else if (n.sign() < 0) {
            diags.push(errorDiag("Invalid count argument", `The given "count" argument value is unsuitable: must be greater than or equal to zero.`, count.range));
          }
        } catch (err) {
          if (!isPathError(err)) throw err;
          diags.push(errorDiag("Incorrect value type", `Invalid expression value: ${err.message}.`, count.range));
        }
      }
    }
  }
  if (forEach !== undefined) {
    const r = evaluate(forEach, { variables: {} });
    if (r.diags.length === 0 && r.value.isKnown()) {
      const v = r.value;
      const bad = (detail: string): void => {
        diags.push(errorDiag("Invalid for_each argument", `The given "for_each" argument value is unsuitable: ${detail}`, forEach.range));
      };
      if (v.isNull()) bad(`the given "for_each" argument value is null. A map, or set of strings is allowed.`);
      else {
        const t = v.type;
        const ok = t.kind === "map" || t.kind === "object" || (t.kind === "set" && (t.element.kind === "string" || t.element.kind === "dynamic"));
        if (!ok) bad(`the "for_each" argument must be a map, or set of strings, and you have provided a value of type ${typeName(t)}.`);
      }
    }
  }
}

/**
 * The `providers` map of a module call: each parent-side aliased configuration must exist in
 * the parent (its warnings are {@link providerConfigDiagnostics}'s).
 */
function checkPassedProviders(parent: Config, mc: NonNullable<Config["call"]>, diags: Diagnostic[]): void {
  for (const p of mc.providers) {
    const pa = p.inParent;
    if (pa.alias === undefined) continue;
    const pm = parent.module;
    const declared =
      pm.providerConfigs.has(`${pa.name}.${pa.alias}`) ||
      [...pm.requiredProviders.values()].some((rp) => rp.name === pa.name && rp.configurationAliases.some((a) => a.alias === pa.alias));
    if (!declared) {
      const addr = pm.requiredProviders.get(pa.name)?.provider ?? impliedProvider(pa.name);
      const prefix = parent.path.map((x) => `module.${x}.`).join("");
      diags.push(errorDiag(`missing provider ${prefix}provider["${addr.hostname}/${addr.namespace}/${addr.type}"].${pa.alias}`, ""));
    }
  }
}

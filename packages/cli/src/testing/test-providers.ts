import type { Value } from "@magma/cty";
import { impliedProvider, providerAddrString, type Config, type ProviderConfig } from "@magma/config";
import type { PlanDiagnostic } from "@magma/engine";
import { parseConfig, type Attribute, type Block, type Body, type BodyContent, type BodySchema, type Diagnostic, type Expression } from "@magma/hcl";
import type { MockData } from "./mock-data.js";
import type { TestFile, TestRun } from "./test-file.js";

/** Evaluates a provider block's expression in the test file's context (its variables, earlier runs' outputs). */
export type ProviderExpressionEvaluator = (expr: Expression) => { value: Value | undefined; diags: Diagnostic[] };

/**
 * A test file's provider block body (Terraform's `hcltest.ProviderConfig`): its attributes are
 * evaluated in the test file's context when the engine decodes the body, and handed over as
 * literal values, so that `var.*` means the test's variables, not the module's.
 */
export class TestProviderBody implements Body {
  readonly #original: Body;
  readonly #evaluate: ProviderExpressionEvaluator;

  constructor(original: Body, evaluate: ProviderExpressionEvaluator) {
    this.#original = original;
    this.#evaluate = evaluate;
  }

  get syntax(): Body["syntax"] {
    return this.#original.syntax;
  }

  get range(): Body["range"] {
    return this.#original.range;
  }

  content(schema: BodySchema): { content: BodyContent; diags: Diagnostic[] } {
    const r = this.#original.content(schema);
    const t = this.#transform(r.content);
    return { content: t.content, diags: [...r.diags, ...t.diags] };
  }

  partialContent(schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
    const r = this.#original.partialContent(schema);
    const t = this.#transform(r.content);
    return { content: t.content, remain: new TestProviderBody(r.remain, this.#evaluate), diags: [...r.diags, ...t.diags] };
  }

  justAttributes(): { attributes: ReadonlyMap<string, Attribute>; diags: Diagnostic[] } {
    const r = this.#original.justAttributes();
    const t = this.#attributes(r.attributes);
    return { attributes: t.attributes, diags: [...r.diags, ...t.diags] };
  }

  #attributes(originals: ReadonlyMap<string, Attribute>): { attributes: Map<string, Attribute>; diags: Diagnostic[] } {
    const diags: Diagnostic[] = [];
    const attributes = new Map<string, Attribute>();
    for (const [name, a] of originals) {
      const r = this.#evaluate(a.expr);
      diags.push(...r.diags);
      if (r.value === undefined) continue;
      attributes.set(name, { ...a, expr: { kind: "literal", value: r.value, range: a.expr.range } });
    }
    return { attributes, diags };
  }

  #transform(content: BodyContent): { content: BodyContent; diags: Diagnostic[] } {
    const a = this.#attributes(content.attributes);
    const blocks: Block[] = content.blocks.map((b) => ({ ...b, body: new TestProviderBody(b.body, this.#evaluate) }));
    return { content: { attributes: a.attributes, blocks, missingItemRange: content.missingItemRange }, diags: a.diags };
  }
}

/** The provider configurations a module needs (Terraform's `gatherProviders`): `name` and `name.alias` keys. */
export function requiredProviderKeys(config: Config): Set<string> {
  const m = config.module;
  const out = new Set<string>();
  for (const [name, rp] of m.requiredProviders) {
    out.add(name);
    for (const a of rp.configurationAliases) out.add(a.alias === undefined ? a.name : `${a.name}.${a.alias}`);
  }
  for (const pc of m.providerConfigs.values()) out.add(pc.alias === undefined ? pc.name : `${pc.name}.${pc.alias}`);
  for (const r of [...m.managedResources.values(), ...m.dataResources.values()]) {
    const ref = r.providerConfigRef;
    out.add(ref === undefined ? r.type.split("_")[0]! : ref.alias === undefined ? ref.name : `${ref.name}.${ref.alias}`);
  }
  for (const call of m.moduleCalls.values()) for (const p of call.providers) out.add(p.inParent.alias === undefined ? p.inParent.name : `${p.inParent.name}.${p.inParent.alias}`);
  return out;
}

/**
 * The configuration a run executes with the test file's provider blocks in it (Terraform's
 * `TransformConfigForTest`): those the run's `providers` map names (under the module's names),
 * or else every one the module needs, each replacing the module's own of that name.
 */
export function withTestProviders(config: Config, file: TestFile, run: TestRun, evaluate: ProviderExpressionEvaluator): { config: Config; diags: PlanDiagnostic[]; mocks: Map<string, MockData> } {
  const diags: PlanDiagnostic[] = [];
  const mocks = new Map<string, MockData>();
  const next = new Map<string, ProviderConfig>(config.module.providerConfigs);
  const put = (key: string, name: string, alias: string | undefined, p: TestFile["providers"] extends ReadonlyMap<string, infer P> ? P : never): void => {
    // A mock provider's configuration is empty (Terraform's hcl.EmptyBody()); its engine address is mocked.
    const body = p.mock ? parseConfig("", p.declRange.filename).body : new TestProviderBody(p.config, evaluate);
    next.set(key, { name, nameRange: p.nameRange, ...(alias !== undefined ? { alias } : {}), versionConstraints: [], config: body, declRange: p.declRange });
    if (p.mock && p.mockData !== undefined) mocks.set(providerConfigAddress(config, name, alias), p.mockData);
  };
  if (run.providers.length > 0) {
    for (const ref of run.providers) {
      const p = file.providers.get(ref.inParent);
      if (p === undefined) {
        diags.push({ severity: "error", summary: `Missing provider definition for ${ref.inParent}`, detail: "This provider block references a provider definition that does not exist.", subject: ref.parentRange });
        continue;
      }
      const [name, alias] = ref.inChild.split(".") as [string, string | undefined];
      put(ref.inChild, name, alias, p);
    }
  } else {
    const needed = requiredProviderKeys(config);
    for (const [key, p] of file.providers) if (needed.has(key)) put(key, p.name, p.alias, p);
  }
  if (file.providers.size === 0 && run.providers.length === 0) return { config, diags, mocks };
  return { config: { ...config, module: { ...config.module, providerConfigs: next } }, diags, mocks };
}

/** The engine's address of a root module provider configuration (`provider["registry.terraform.io/hashicorp/aws"].alt`). */
export function providerConfigAddress(config: Config, name: string, alias: string | undefined): string {
  const addr = config.module.requiredProviders.get(name)?.provider ?? impliedProvider(name);
  return `provider[${JSON.stringify(providerAddrString(addr))}]${alias !== undefined ? `.${alias}` : ""}`;
}

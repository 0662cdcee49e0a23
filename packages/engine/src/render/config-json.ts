import { type CtyNumber, type Value } from "@magma/cty";
import { decodeSchemaBody, impliedProvider, parseRef, providerAddrString, referencesInExpr, resourceProviderConfigKey, subjectString, type Config, type DecodedBody, type ProviderAddr, type Resource, type VersionConstraint } from "@magma/config";
import { evaluate, hasErrors, type Body, type Expression, type Traversal } from "@magma/hcl";
import type { Block, ProviderSchema } from "@magma/provider-api";
import { compareUtf8, goEscape, jsonArray, jsonMap, jsonString, jsonStruct } from "./go-json.js";
import { entryFor, normaliseSchemas, type RenderSchemas } from "./render-schemas.js";
import { valueJson } from "./value-json.js";

/**
 * The `configuration` document of `terraform show -json` (Terraform's `jsonconfig`) for a
 * loaded configuration: `provider_config` (every provider configuration and required
 * provider, flattened over the module tree, keys `name`, `name.alias` or
 * `module.m:name`), and `root_module` with `outputs`, `resources` (expressions as
 * `constant_value` or `references`, nested blocks by the schema, `count_expression`,
 * `for_each_expression`, `depends_on`, `schema_version`), `module_calls` (with their
 * modules) and `variables`. Provisioners are not modelled by magma and never appear.
 *
 * @param config - the root module's configuration tree (`@magma/config`'s `loadConfig`).
 * @param schemas - the provider schemas, by provider source address.
 * @throws RenderError `missing_schema` for a resource type or provider without a schema.
 */
export function configurationJson(config: Config, schemas: RenderSchemas): string {
  return goEscape(configurationJsonText(config, normaliseSchemas(schemas)));
}

interface ProviderEntry {
  readonly name: string;
  readonly fullName: string;
  readonly alias?: string;
  readonly versionConstraint?: string;
  readonly moduleAddress: string;
  readonly expressions?: string | undefined;
  readonly parentKey: string;
}

/** @internal The unescaped document (a plan's `configuration`). */
export function configurationJsonText(config: Config, schemas: ReadonlyMap<string, ProviderSchema>): string {
  const pcs = new Map<string, ProviderEntry>();
  providerConfigs(config, undefined, schemas, pcs);
  const root = moduleJson(config, schemas, pcs);
  const kept = [...pcs].filter(([, p]) => p.parentKey === "");
  return jsonStruct([
    ["provider_config", kept.length === 0 ? undefined : jsonMap(kept.map(([k, p]) => [k, providerEntryJson(p)]))],
    ["root_module", root],
  ]);
}

function providerEntryJson(p: ProviderEntry): string {
  return jsonStruct([
    ["name", p.name === "" ? undefined : jsonString(p.name)],
    ["full_name", jsonString(p.fullName)],
    ["alias", p.alias === undefined ? undefined : jsonString(p.alias)],
    ["version_constraint", p.versionConstraint === undefined || p.versionConstraint === "" ? undefined : jsonString(p.versionConstraint)],
    ["module_address", p.moduleAddress === "" ? undefined : jsonString(p.moduleAddress)],
    ["expressions", p.expressions],
  ]);
}

function modulePath(c: Config): string {
  return c.path.map((n) => `module.${n}`).join(".");
}

function opaqueKey(provider: string, moduleAddr: string): string {
  return moduleAddr === "" ? provider : `${moduleAddr}:${provider}`;
}

function providerFor(c: Config, localName: string): ProviderAddr {
  return c.module.requiredProviders.get(localName)?.provider ?? impliedProvider(localName);
}

/** Terraform's `getproviders.VersionConstraintsString`: `~>` keeps the written precision, other versions are written in full. */
function constraintsString(cs: readonly VersionConstraint[]): string {
  return cs
    .map((c) => {
      const segs = c.op === "~>" ? c.segments : [0, 1, 2].map((i) => c.segments[i] ?? 0);
      const v = `${segs.join(".")}${c.prerelease === "" ? "" : `-${c.prerelease}`}`;
      return c.op === "=" ? v : `${c.op} ${v}`;
    })
    .join(", ");
}

/** The version constraints a module declares per provider (required_providers and provider blocks), and every provider it uses. */
function requirements(c: Config): Map<string, VersionConstraint[]> {
  const reqs = new Map<string, VersionConstraint[]>();
  const add = (p: ProviderAddr, cs: readonly VersionConstraint[]) => {
    const k = providerAddrString(p);
    reqs.set(k, [...(reqs.get(k) ?? []), ...cs]);
  };
  for (const rp of c.module.requiredProviders.values()) add(rp.provider, rp.versionConstraints);
  for (const pc of c.module.providerConfigs.values()) add(providerFor(c, pc.name), pc.versionConstraints);
  for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values()]) add(r.provider, []);
  return reqs;
}

function findSourceKey(start: string, fullName: string, m: ReadonlyMap<string, ProviderEntry>): string {
  let found = "";
  let key = start;
  while (key !== "") {
    const p = m.get(key);
    if (p === undefined || p.fullName !== fullName) break;
    found = key;
    key = p.parentKey;
  }
  return found;
}

function providerConfigs(c: Config, parent: Config | undefined, schemas: ReadonlyMap<string, ProviderSchema>, m: Map<string, ProviderEntry>): void {
  const addr = modulePath(c);
  const reqs = requirements(c);
  const constraintFor = (full: string): string | undefined => {
    const cs = reqs.get(full);
    return cs === undefined ? undefined : constraintsString(cs);
  };
  for (const [k, pc] of c.module.providerConfigs) {
    const full = providerAddrString(providerFor(c, pc.name));
    const schema = schemas.get(full);
    const e: ProviderEntry = {
      name: pc.name,
      fullName: full,
      ...(pc.alias !== undefined ? { alias: pc.alias } : {}),
      ...(constraintFor(full) !== undefined ? { versionConstraint: constraintFor(full)! } : {}),
      moduleAddress: addr,
      ...(schema !== undefined ? { expressions: expressionsOf(pc.config, schema.provider.block) } : {}),
      parentKey: "",
    };
    m.set(opaqueKey(k, addr), e);
  }
  for (const [k, rp] of c.module.requiredProviders) {
    const full = providerAddrString(rp.provider);
    for (const alias of rp.configurationAliases) {
      const key = opaqueKey(alias.alias === undefined ? alias.name : `${alias.name}.${alias.alias}`, addr);
      if (m.has(key)) continue;
      m.set(key, { name: rp.name, fullName: full, ...(constraintFor(full) !== undefined ? { versionConstraint: constraintFor(full)! } : {}), moduleAddress: addr, parentKey: "" });
    }
    const key = opaqueKey(k, addr);
    if (m.has(key)) continue;
    const parentKey = parent === undefined ? "" : findSourceKey(opaqueKey(rp.name, modulePath(parent)), full, m);
    m.set(key, { name: rp.name, fullName: full, ...(constraintFor(full) !== undefined ? { versionConstraint: constraintFor(full)! } : {}), moduleAddress: addr, parentKey });
  }
  // Providers implied by resources, in the root module too (terraform's marshalProviderConfigs).
  for (const full of reqs.keys()) {
    const type = full.split("/").pop()!;
    const key = opaqueKey(type, addr);
    if (m.has(key)) continue;
    m.set(key, { name: type, fullName: full, moduleAddress: addr, parentKey: parent === undefined ? "" : findSourceKey(opaqueKey(type, modulePath(parent)), full, m) });
  }
  for (const [name, mc] of c.module.moduleCalls) {
    const child = c.children.get(name);
    if (child === undefined) continue;
    const childAddr = modulePath(child);
    for (const ppc of mc.providers) {
      const inChild = ppc.inChild.alias === undefined ? ppc.inChild.name : `${ppc.inChild.name}.${ppc.inChild.alias}`;
      const inParent = ppc.inParent.alias === undefined ? ppc.inParent.name : `${ppc.inParent.name}.${ppc.inParent.alias}`;
      const full = providerAddrString(providerFor(child, ppc.inChild.name));
      m.set(opaqueKey(inChild, childAddr), { name: inChild, fullName: full, moduleAddress: childAddr, parentKey: findSourceKey(opaqueKey(inParent, addr), full, m) });
    }
    providerConfigs(child, c, schemas, m);
  }
}

function moduleJson(c: Config, schemas: ReadonlyMap<string, ProviderSchema>, pcs: ReadonlyMap<string, ProviderEntry>): string {
  const addr = modulePath(c);
  const resources = [...resourcesJson([...c.module.managedResources.values()], addr, schemas, pcs), ...resourcesJson([...c.module.dataResources.values()], addr, schemas, pcs)];
  const outputs = [...c.module.outputs.values()].map(
    (o) =>
      [
        o.name,
        jsonStruct([
          ["sensitive", o.sensitive ? "true" : undefined],
          ["expression", expressionJson(o.expr)],
          ["depends_on", dependsOnJson(o.dependsOn)],
          ["description", o.description === undefined || o.description === "" ? undefined : jsonString(o.description)],
        ]),
      ] as const,
  );
  const calls: (readonly [string, string])[] = [];
  for (const [name, mc] of c.module.moduleCalls) {
    const child = c.children.get(name);
    if (child === undefined) {
      calls.push([name, "{}"]);
      continue;
    }
    const count = mc.count === undefined ? undefined : nonEmpty(expressionJson(mc.count));
    const forEach = count !== undefined || mc.forEach === undefined ? undefined : nonEmpty(expressionJson(mc.forEach));
    const block: Block = { attributes: Object.fromEntries([...child.module.variables.keys()].map((v) => [v, { type: { kind: "dynamic" }, optional: true }])) };
    calls.push([
      name,
      jsonStruct([
        ["source", jsonString(mc.sourceAddr)],
        ["expressions", expressionsOf(mc.config, block)],
        ["count_expression", count],
        ["for_each_expression", forEach],
        ["module", moduleJson(child, schemas, pcs)],
        ["version_constraint", mc.versionConstraints.length === 0 ? undefined : jsonString(mc.versionConstraints.map((v) => v.text).join(", "))],
        ["depends_on", dependsOnJson(mc.dependsOn)],
      ]),
    ]);
  }
  const vars = [...c.module.variables.values()].map(
    (v) =>
      [
        v.name,
        jsonStruct([
          ["default", v.default === undefined ? undefined : v.default.isWhollyKnown() ? valueJson(v.default.unmarkDeep().value) : undefined],
          ["description", v.description === undefined || v.description === "" ? undefined : jsonString(v.description)],
          ["sensitive", v.sensitive ? "true" : undefined],
        ]),
      ] as const,
  );
  return jsonStruct([
    ["outputs", outputs.length === 0 ? undefined : jsonMap(outputs)],
    ["resources", resources.length === 0 ? undefined : jsonArray(resources)],
    ["module_calls", calls.length === 0 ? undefined : jsonMap(calls)],
    ["variables", vars.length === 0 ? undefined : jsonMap(vars)],
  ]);
}

function resourcesJson(list: readonly Resource[], addr: string, schemas: ReadonlyMap<string, ProviderSchema>, pcs: ReadonlyMap<string, ProviderEntry>): string[] {
  const out = list.map((r) => {
    const address = `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    let key = opaqueKey(resourceProviderConfigKey(r), addr);
    const pc = pcs.get(key);
    if (pc !== undefined && pcs.has(pc.parentKey)) key = pc.parentKey;
    const entry = entryFor(schemas, providerAddrString(r.provider), r.mode === "data" ? "data" : "managed", r.type, addr === "" ? address : `${addr}.${address}`);
    const count = r.count === undefined ? undefined : nonEmpty(expressionJson(r.count));
    const forEach = count !== undefined || r.forEach === undefined ? undefined : nonEmpty(expressionJson(r.forEach));
    return {
      address,
      json: jsonStruct([
        ["address", jsonString(address)],
        ["mode", jsonString(r.mode === "data" ? "data" : "managed")],
        ["type", jsonString(r.type)],
        ["name", jsonString(r.name)],
        ["provider_config_key", jsonString(key)],
        ["expressions", expressionsOf(r.config, entry.block)],
        ["schema_version", String(entry.version)],
        ["count_expression", count],
        ["for_each_expression", forEach],
        ["depends_on", dependsOnJson(r.dependsOn)],
      ]),
    };
  });
  return out.sort((a, b) => compareUtf8(a.address, b.address)).map((r) => r.json);
}

function nonEmpty(json: string): string | undefined {
  return json === "{}" ? undefined : json;
}

function dependsOnJson(deps: readonly Traversal[]): string | undefined {
  if (deps.length === 0) return undefined;
  return jsonArray(
    deps.map((d) => {
      const r = parseRef(d).ref;
      return jsonString(r === undefined ? "" : subjectString(r.subject));
    }),
  );
}

/** The expressions of a body as Terraform's `marshalExpressions`: arguments by name, nested blocks by the schema's nesting; `undefined` when empty. */
function expressionsOf(body: Body, block: Block): string | undefined {
  const { decoded } = decodeSchemaBody(body, block);
  const json = decodedJson(decoded, block);
  return json === "{}" ? undefined : json;
}

function decodedJson(d: DecodedBody, block: Block): string {
  const entries: [string, string][] = [];
  for (const [name, a] of d.attributes) entries.push([name, expressionJson(a.expr)]);
  for (const [type, blocks] of d.blocks) {
    const nb = block.blockTypes?.[type];
    if (nb === undefined || blocks.length === 0) continue;
    switch (nb.nesting) {
      case "single":
      case "group":
        entries.push([type, decodedJson(blocks[blocks.length - 1]!.body, nb.block)]);
        break;
      case "list":
      case "set":
        entries.push([type, jsonArray(blocks.map((b) => decodedJson(b.body, nb.block)))]);
        break;
      case "map":
        entries.push([type, jsonMap(blocks.map((b) => [b.labels[0] ?? "", decodedJson(b.body, nb.block)] as const))]);
        break;
    }
  }
  return jsonMap(entries);
}

/** Terraform's `marshalExpression`: the constant value when the expression evaluates without context, and its references unwrapped step by step. */
function expressionJson(expr: Expression): string {
  let constant: string | undefined;
  const { value, diags } = evaluate(expr);
  if (!hasErrors(diags) && isJsonable(value)) constant = valueJson(value.unmarkDeep().value);
  const refs: string[] = [];
  for (const r of referencesInExpr(expr).refs) {
    let rest = r.remaining;
    let subject = subjectString(r.subject);
    const extras: string[] = [];
    if (r.subject.kind === "module") {
      // magma's module subject names the call only: take the instance key and output from the traversal.
      rest = r.traversal.steps.slice(1);
      const call = subject;
      let inst = call;
      if (rest[0]?.kind === "index") {
        inst = `${call}${stepString(rest[0])}`;
        rest = rest.slice(1);
      }
      if (rest[0]?.kind === "attr") {
        subject = `${inst}.${rest[0].name}`;
        rest = rest.slice(1);
        extras.push(inst);
      } else {
        subject = inst;
        if (inst !== call) extras.push(call);
      }
    }
    for (let n = rest.length; n > 0; n--) refs.push(`${subject}${rest.slice(0, n).map(stepString).join("")}`);
    refs.push(subject, ...extras);
  }
  return jsonStruct([
    ["constant_value", constant],
    ["references", refs.length === 0 ? undefined : jsonArray(refs.map(jsonString))],
  ]);
}

function isJsonable(v: Value): boolean {
  return v.isWhollyKnown() && v.type.kind !== "dynamic";
}

function stepString(s: Traversal["steps"][number]): string {
  if (s.kind === "attr") return `.${s.name}`;
  const k = s.key;
  if (k.type.kind === "string" && k.isKnown() && !k.isNull()) return `[${JSON.stringify(k.asString())}]`;
  if (k.type.kind === "number" && k.isKnown() && !k.isNull()) return `[${formatG10(k.asNumber())}]`;
  return "[]";
}

/** Go's `big.Float.Text('g', 10)` for the numbers an index step holds. */
function formatG10(n: CtyNumber): string {
  const s = n.toString();
  if (/^-?\d{1,10}$/.test(s)) return s;
  return Number(s).toPrecision(10).replace(/\.?0+(e|$)/, "$1").replace(/e\+?(-?)(\d)$/, "e$1$2");
}

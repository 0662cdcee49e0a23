import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringType, toJson, typeString } from "@magma/cty";
import { formatRange, type Traversal } from "@magma/hcl";
import { graphInputs } from "./graph-inputs.js";
import { loadConfig } from "./load-config.js";
import type { Config } from "./model.js";
import { providerAddrString } from "./provider-addr.js";
import { subjectString } from "./references.js";
import { validateConfig } from "./validate.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata");

function trav(t: Traversal): string {
  return (
    t.root +
    t.steps.map((s) => (s.kind === "attr" ? `.${s.name}` : `[${toJson(s.key, s.key.type)}]`)).join("")
  );
}

/** A syntax-independent summary of the model, compared across the two syntaxes. */
function summary(c: Config): unknown {
  const m = c.module;
  return {
    core: m.coreVersionConstraints.map((v) => v.text),
    requiredProviders: [...m.requiredProviders.values()].map((rp) => ({
      name: rp.name,
      provider: providerAddrString(rp.provider),
      version: rp.versionConstraints.map((v) => v.text),
      aliases: rp.configurationAliases.map((a) => `${a.name}.${a.alias ?? ""}`),
    })),
    backend: m.backend?.type,
    providers: [...m.providerConfigs.keys()],
    variables: [...m.variables.values()].map((v) => ({
      name: v.name,
      type: typeString(v.type),
      default: v.default === undefined ? undefined : toJson(v.default, v.default.type),
      sensitive: v.sensitive,
      nullable: v.nullable,
      validations: v.validations.length,
    })),
    locals: [...m.locals.keys()],
    resources: [...m.managedResources.values(), ...m.dataResources.values()].map((r) => ({
      mode: r.mode,
      type: r.type,
      name: r.name,
      provider: providerAddrString(r.provider),
      providerRef: r.providerConfigRef === undefined ? undefined : `${r.providerConfigRef.name}.${r.providerConfigRef.alias ?? ""}`,
      count: r.count !== undefined,
      forEach: r.forEach !== undefined,
      dependsOn: r.dependsOn.map(trav),
      pre: r.preconditions.length,
      post: r.postconditions.length,
      managed:
        r.managed === undefined
          ? undefined
          : {
              ...r.managed,
              ignoreChanges: r.managed.ignoreChanges.map(trav),
              replaceTriggeredBy: r.managed.replaceTriggeredBy.length,
            },
      inCheck: r.inCheck,
    })),
    modules: [...m.moduleCalls.values()].map((mc) => ({
      name: mc.name,
      forEach: mc.forEach !== undefined,
      providers: mc.providers.map((p) => `${p.inChild.name}=${p.inParent.name}.${p.inParent.alias ?? ""}`),
      dependsOn: mc.dependsOn.map(trav),
    })),
    outputs: [...m.outputs.values()].map((o) => ({ name: o.name, description: o.description, dependsOn: o.dependsOn.map(trav), pre: o.preconditions.length })),
    moved: m.moved.map((x) => `${trav(x.from)} -> ${trav(x.to)}`),
    imports: m.imports.map((x) => ({ forEach: x.forEach !== undefined, id: x.id !== undefined })),
    removed: m.removed.map((x) => `${trav(x.from)} destroy=${String(x.destroy)}`),
    checks: [...m.checks.values()].map((x) => ({ name: x.name, data: x.dataResource?.type, asserts: x.asserts.length })),
    children: [...c.children.keys()],
    grandchildren: [...c.children.values()].flatMap((ch) => [...ch.children.keys()]),
  };
}

function graph(c: Config): Record<string, string[]> {
  const { inputs, diags } = graphInputs(c.module);
  expect(diags).toEqual([]);
  return Object.fromEntries(inputs.map((i) => [i.address, [...new Set(i.references.map((r) => subjectString(r.subject)))].sort()]));
}

describe("loadConfig", () => {
  const native = loadConfig(join(testdata, "all-blocks"));
  const json = loadConfig(join(testdata, "all-blocks-json"));

  it("loads every block kind of both syntaxes without diagnostics", () => {
    expect(native.diags).toEqual([]);
    expect(json.diags).toEqual([]);
    expect(validateConfig(native.config)).toEqual([]);
    expect(validateConfig(json.config)).toEqual([]);
  });

  it("gives the same model from native and JSON syntax", () => {
    const n = summary(native.config) as { variables: { name: string; default?: string }[] };
    const j = summary(json.config) as { variables: { name: string; default?: string }[] };
    // The native fixture's override.tf changes region's default.
    const region = n.variables.find((v) => v.name === "region")!;
    expect(region.default).toBe('"eu-central-1"');
    region.default = '"eu-west-1"';
    expect(j).toEqual(n);
  });

  it("decodes the model as written", () => {
    const m = native.config.module;
    const servers = m.variables.get("servers")!;
    expect(typeString(servers.type)).toBe("map(object({size=optional(string), tags=optional(map(string))}))");
    expect(toJson(servers.default!, servers.default!.type)).toBe('{"web":{"size":"small","tags":{}}}');
    const pet = m.managedResources.get("random_pet.name")!;
    expect(pet.managed).toMatchObject({ createBeforeDestroy: true, createBeforeDestroySet: true, preventDestroy: false, ignoreAllChanges: false });
    expect(m.managedResources.get("aws_instance.server")!.managed!.ignoreAllChanges).toBe(true);
    expect(providerAddrString(m.dataResources.get("data.terraform_remote_state.probe")!.provider)).toBe("terraform.io/builtin/terraform");
    expect(m.backend?.type).toBe("local");
    const def = m.variables.get("region")!.default!;
    expect(def.type).toBe(stringType);
    expect(formatRange(m.managedResources.get("terraform_data.trigger")!.declRange)).toBe("main.tf:99,1-36");
    const sub = native.config.children.get("net")!.children.get("sub")!;
    expect(sub.path).toEqual(["net", "sub"]);
    expect([...sub.module.managedResources.keys()]).toEqual(["aws_subnet.this"]);
  });

  it("lists the references every object makes, for the engine's graph", () => {
    const want = {
      "random_pet.name": ["count.index", "terraform_data.trigger", "var.region"],
      "aws_instance.server": ["each.key", "each.value", "local.names", "random_pet.name", "terraform_data.trigger", "var.servers"].filter((x) => x !== "each.key"),
      "terraform_data.trigger": ["local.prefix"],
      "data.aws_ami.ubuntu": [],
      "data.terraform_remote_state.probe": [],
      "local.prefix": ["var.region"],
      "local.names": ["local.prefix", "var.servers"],
      "output.names": ["local.names", "module.net", "random_pet.name"],
      "output.subnet": ["module.net"],
      "module.net": ["terraform_data.trigger"],
      "provider.aws": ["var.region"],
      "provider.aws.east": [],
      "var.servers": ["var.servers"],
      "check.health": ["data.terraform_remote_state.probe"],
    };
    expect(graph(json.config)).toEqual(want);
    const n = graph(native.config);
    expect(n).toEqual(want);
    // A module call's references apart: its expansion's (count, for_each, depends_on) and each argument's.
    for (const c of [native.config, json.config]) {
      const net = graphInputs(c.module).inputs.find((i) => i.address === "module.net")!;
      expect(net.expansionReferences?.map((r) => subjectString(r.subject))).toEqual(["terraform_data.trigger"]);
      expect([...(net.arguments ?? [])].map(([k, refs]) => [k, refs.length])).toEqual([["cidr", 0]]);
    }
  });
});

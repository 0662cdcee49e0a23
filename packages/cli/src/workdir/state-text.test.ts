// The schema-aware state rendering on what the golden tests against terraform
// (test/show-text.test.ts) do not reach: a block marked sensitive as a whole, a deposed
// object's header, legacy-SDK empty strings inside maps and lists, and show's order of
// objects across modules (map blocks are here too; the golden test also covers them). The expected texts follow Terraform 1.11's renderer rules
// (internal/command/jsonformat: ComputeDiffForBlock, the block, map and sensitive-block
// renderers, jsonstate's ordering).
import { listType, mapType, stringType } from "@magma/cty";
import { createSchemaEntry, type SchemaEntry } from "@magma/provider-api";
import { parseProviderConfig, type InstanceObjectState, type ResourceState } from "@magma/state";
import { stateInstances, type StateInstance } from "./state-objects.js";
import { schemaInstanceText, showOrder } from "./state-text.js";

function object(attributes: unknown, extra: Partial<InstanceObjectState> = {}): InstanceObjectState {
  return {
    indexKey: undefined,
    deposed: undefined,
    tainted: false,
    schemaVersion: 0,
    attributesJson: JSON.stringify(attributes),
    attributesFlat: undefined,
    sensitiveAttributesJson: "[]",
    private: undefined,
    dependencies: [],
    createBeforeDestroy: false,
    ...extra,
  };
}

function resource(type: string, name: string, instances: InstanceObjectState[], module: ResourceState["module"] = []): ResourceState {
  return { module, mode: "managed", type, name, provider: parseProviderConfig('provider["registry.terraform.io/hashicorp/x"]'), instances };
}

function instanceOf(r: ResourceState): StateInstance {
  return { addr: { module: r.module, mode: r.mode, type: r.type, name: r.name, key: undefined }, text: `${r.type}.${r.name}`, resource: r, current: r.instances.find((o) => o.deposed === undefined) };
}

const opt = { type: stringType, optional: true } as const;

describe("schemaInstanceText", () => {
  test("map blocks are labelled and sorted; a blank line precedes each block type after the attributes", () => {
    const entry: SchemaEntry = createSchemaEntry({
      attributes: { id: { type: stringType, computed: true } },
      blockTypes: {
        rule: { nesting: "map", block: { attributes: { port: opt } } },
        tag: { nesting: "list", block: { attributes: { k: opt } } },
      },
    });
    const r = resource("x_thing", "a", [object({ id: "i", rule: { web: { port: "80" }, db: { port: "5432" } }, tag: [{ k: "a" }, { k: "b" }] })]);
    expect(schemaInstanceText(instanceOf(r), r.instances[0]!, entry)).toBe(
      [
        "# x_thing.a:",
        'resource "x_thing" "a" {',
        '    id = "i"',
        "",
        '    rule "db" {',
        '        port = "5432"',
        "    }",
        '    rule "web" {',
        '        port = "80"',
        "    }",
        "",
        "    tag {",
        '        k = "a"',
        "    }",
        "    tag {",
        '        k = "b"',
        "    }",
        "}",
        "",
      ].join("\n"),
    );
  });

  test("a block list marked sensitive as a whole hides each block's contents; a deposed object says so", () => {
    const entry = createSchemaEntry({
      attributes: { id: { type: stringType, computed: true } },
      blockTypes: { cred: { nesting: "list", block: { attributes: { user: opt } } } },
    });
    const obj = object({ id: "i", cred: [{ user: "u" }] }, { deposed: "00000001", sensitiveAttributesJson: '[[{"type":"get_attr","value":"cred"}]]' });
    const r = resource("x_thing", "a", [obj]);
    const text = schemaInstanceText(instanceOf(r), obj, entry);
    expect(text).toBe(
      [
        "# x_thing.a: (deposed object 00000001)",
        'resource "x_thing" "a" {',
        '    id = "i"',
        "",
        "    cred {",
        "         # At least one attribute in this block is (or was) sensitive,",
        "         # so its contents will not be displayed.",
        "       }",
        "}",
        "",
      ].join("\n"),
    );
    expect(text).not.toContain('"u"');
  });

  test("in a schema the legacy SDK could declare, empty strings read as null, in maps and lists too", () => {
    const entry = createSchemaEntry({ attributes: { tags: { type: mapType(stringType), optional: true }, names: { type: listType(stringType), optional: true }, note: opt } });
    const r = resource("x_thing", "a", [object({ tags: { a: "", b: "x" }, names: ["", "n"], note: "" })]);
    expect(schemaInstanceText(instanceOf(r), r.instances[0]!, entry)).toBe(
      ["# x_thing.a:", 'resource "x_thing" "a" {', "    names = [", "        null,", '        "n",', "    ]", "    note  = null", "    tags  = {", '        "a" = null', '        "b" = "x"', "    }", "}", ""].join("\n"),
    );
  });
});

describe("showOrder", () => {
  test("root resources by address, then child modules depth first; current objects before deposed ones", () => {
    const state = {
      resources: [
        resource("z_thing", "a", [object({}, { deposed: "bbbbbbbb" }), object({}), object({}, { deposed: "aaaaaaaa" })]),
        resource("a_thing", "a", [object({})], [{ name: "m2", key: undefined }]),
        resource("a_thing", "a", [object({})], [{ name: "m1", key: undefined }, { name: "n", key: undefined }]),
        resource("a_thing", "a", [object({})], [{ name: "m1", key: undefined }]),
        resource("b_thing", "a", [object({})]),
      ],
    };
    const order = showOrder(stateInstances(state as unknown as Parameters<typeof stateInstances>[0])).map(({ inst, obj }) => `${inst.text}${obj.deposed === undefined ? "" : ` ${obj.deposed}`}`);
    expect(order).toEqual(["b_thing.a", "z_thing.a", "z_thing.a aaaaaaaa", "z_thing.a bbbbbbbb", "module.m1.a_thing.a", "module.m1.module.n.a_thing.a", "module.m2.a_thing.a"]);
  });
});

import { dynamicType, listType, mapType, numberType, objectType, setType, stringType, typeEquals, typeString, type Type } from "@magma/cty";
import { isProviderError } from "./provider-error.js";
import { attributeSpecType, attributeType, createSchemaEntry, emptyBlockValue, impliedType, resourceSchema, type Attribute, type Block } from "./schema.js";

const inner: Block = { attributes: { a: { type: stringType, optional: true } } };
const dyn: Block = { attributes: { d: { type: dynamicType, optional: true } } };

describe("impliedType (protocol D2)", () => {
  test.each<[string, Block, Type]>([
    ["attributes by type", { attributes: { s: { type: stringType, required: true }, n: { type: numberType, computed: true, sensitive: true } } }, objectType({ s: stringType, n: numberType })],
    ["single block", { blockTypes: { b: { nesting: "single", block: inner } } }, objectType({ b: objectType({ a: stringType }) })],
    ["group block", { blockTypes: { b: { nesting: "group", block: inner } } }, objectType({ b: objectType({ a: stringType }) })],
    ["list block (min/max ignored)", { blockTypes: { b: { nesting: "list", block: inner, minItems: 1, maxItems: 1 } } }, objectType({ b: listType(objectType({ a: stringType })) })],
    ["set block", { blockTypes: { b: { nesting: "set", block: inner } } }, objectType({ b: setType(objectType({ a: stringType })) })],
    ["map block", { blockTypes: { b: { nesting: "map", block: inner } } }, objectType({ b: mapType(objectType({ a: stringType })) })],
    ["list block with dynamic → dynamic", { blockTypes: { b: { nesting: "list", block: dyn } } }, objectType({ b: dynamicType })],
    ["map block with dynamic → dynamic", { blockTypes: { b: { nesting: "map", block: dyn } } }, objectType({ b: dynamicType })],
    ["set block with dynamic stays a set", { blockTypes: { b: { nesting: "set", block: dyn } } }, objectType({ b: setType(objectType({ d: dynamicType })) })],
    ["nested attribute single", { attributes: { n: { optional: true, nestedType: { nesting: "single", attributes: { a: { type: stringType, optional: true } } } } } }, objectType({ n: objectType({ a: stringType }) })],
    ["nested attribute list", { attributes: { n: { optional: true, nestedType: { nesting: "list", attributes: { a: { type: stringType, required: true } } } } } }, objectType({ n: listType(objectType({ a: stringType })) })],
    ["nested attribute set", { attributes: { n: { optional: true, nestedType: { nesting: "set", attributes: { a: { type: stringType, required: true } } } } } }, objectType({ n: setType(objectType({ a: stringType })) })],
    ["nested attribute map", { attributes: { n: { optional: true, nestedType: { nesting: "map", attributes: { a: { type: stringType, required: true } } } } } }, objectType({ n: mapType(objectType({ a: stringType })) })],
  ])("%s", (_name, block, want) => {
    const got = impliedType(block);
    expect(typeString(got)).toBe(typeString(want));
    expect(typeEquals(got, want)).toBe(true);
  });
});

describe("attributeSpecType (Terraform's Object.specType)", () => {
  const props: Attribute = {
    optional: true,
    nestedType: {
      nesting: "list",
      attributes: {
        name: { type: stringType, required: true },
        color: { type: stringType, optional: true },
        weight: { type: numberType, optional: true, computed: true },
        inner: { optional: true, nestedType: { nesting: "single", attributes: { x: { type: stringType, computed: true }, y: { type: stringType, required: true } } } },
      },
    },
  };
  test("marks the optional and computed attributes of every nested object optional", () => {
    expect(typeString(attributeSpecType(props))).toBe("list(object({color=optional(string), inner=optional(object({x=optional(string), y=string})), name=string, weight=optional(number)}))");
  });
  test("attributeType has no markers; a plain type is kept", () => {
    expect(typeString(attributeType(props))).toBe("list(object({color=string, inner=object({x=string, y=string}), name=string, weight=number}))");
    expect(typeEquals(attributeSpecType({ type: mapType(stringType), optional: true }), mapType(stringType))).toBe(true);
  });
});

describe("emptyBlockValue", () => {
  test("attributes null, single null, group of nulls, list/set empty, map empty; dynamic list/map → empty tuple/object", () => {
    const v = emptyBlockValue({
      attributes: { s: { type: stringType, optional: true } },
      blockTypes: {
        si: { nesting: "single", block: inner },
        g: { nesting: "group", block: inner },
        l: { nesting: "list", block: inner },
        st: { nesting: "set", block: inner },
        m: { nesting: "map", block: inner },
        ld: { nesting: "list", block: dyn },
        md: { nesting: "map", block: dyn },
      },
    });
    expect(v.toString()).toBe("{g = {a = null}, l = [], ld = [], m = tomap({}), md = {}, s = null, si = null, st = toset([])}");
    expect(v.getAttr("ld").type.kind).toBe("tuple");
    expect(v.getAttr("md").type.kind).toBe("object");
  });
});

describe("createSchemaEntry", () => {
  test("computes the type and keeps the version", () => {
    const e = createSchemaEntry(inner, 3);
    expect(e.version).toBe(3);
    expect(typeEquals(e.type, objectType({ a: stringType }))).toBe(true);
  });

  test.each<[string, Block, string]>([
    ["no type", { attributes: { a: { optional: true } } }, "a"],
    ["type and nestedType", { attributes: { a: { optional: true, type: stringType, nestedType: { nesting: "single", attributes: {} } } } }, "a"],
    ["none of required/optional/computed", { attributes: { a: { type: stringType } } }, "a"],
    ["required and computed", { attributes: { a: { type: stringType, required: true, computed: true } } }, "a"],
    ["name used twice", { attributes: { a: { type: stringType, optional: true } }, blockTypes: { a: { nesting: "list", block: {} } } }, "a"],
    ["minItems above maxItems", { blockTypes: { b: { nesting: "list", block: {}, minItems: 3, maxItems: 1 } } }, "b"],
    ["nested problem", { blockTypes: { b: { nesting: "list", block: { attributes: { x: { type: stringType } } } } } }, "b.x"],
  ])("rejects %s with schema at its path", (_name, block, path) => {
    try {
      createSchemaEntry(block);
      throw new Error("expected a ProviderError");
    } catch (e) {
      if (!isProviderError(e) || e.code !== "schema") throw e;
      expect(e.detail.path?.toString()).toBe(path);
    }
  });

  test("resourceSchema rejects an unknown type name with unknown_type", () => {
    const schema = {
      provider: createSchemaEntry({}),
      resources: new Map([["x_a", createSchemaEntry(inner)]]),
      dataSources: new Map(),
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false },
      warnings: [],
    };
    expect(resourceSchema(schema, "x_a").version).toBe(0);
    expect(() => resourceSchema(schema, "x_b")).toThrow('[unknown_type] the provider has no resource type "x_b"');
  });
});

import {
  listType,
  mapType,
  numberType,
  objectType,
  setType,
  stringType,
  boolType,
  dynamicType,
} from "@magma/cty";
import {
  createSchemaEntry,
  noServerCapabilities,
  type Block,
  type FunctionSignature,
  type ProviderSchema,
} from "@magma/provider-api";
import { blockFromProto, type ProtoAttribute, type ProtoBlock } from "@magma/tfplugin";
import { providerSchemaToTerraformJson } from "./terraform-schema-json.js";

function providerSchema(parts: {
  provider?: Block;
  resources?: Record<string, [Block, number]>;
  dataSources?: Record<string, Block>;
}): ProviderSchema {
  return {
    provider: createSchemaEntry(parts.provider ?? {}),
    resources: new Map(
      Object.entries(parts.resources ?? {}).map(([k, [b, v]]) => [k, createSchemaEntry(b, v)]),
    ),
    dataSources: new Map(
      Object.entries(parts.dataSources ?? {}).map(([k, b]) => [k, createSchemaEntry(b)]),
    ),
    serverCapabilities: noServerCapabilities,
    warnings: [],
  };
}

describe("providerSchemaToTerraformJson", () => {
  test("an empty provider: version, block with description_kind only; empty maps are left out", () => {
    const json = providerSchemaToTerraformJson(providerSchema({}));
    expect(JSON.stringify(json)).toBe(
      '{"provider":{"version":0,"block":{"description_kind":"plain"}}}',
    );
  });

  test("attributes: type as cty type JSON, flags only when true, description_kind always, Go key order", () => {
    const block: Block = {
      attributes: {
        name: { type: stringType, required: true, description: "The name." },
        tags: { type: mapType(stringType), optional: true },
        arn: { type: stringType, computed: true, deprecated: true, deprecationMessage: "use id" },
        secret: {
          type: stringType,
          optional: true,
          sensitive: true,
          writeOnly: true,
          description: "*x*",
          descriptionKind: "markdown",
        },
        ports: {
          type: listType(objectType({ port: numberType, address: stringType })),
          optional: true,
          computed: true,
        },
        any: { type: dynamicType, optional: true },
      },
    };
    const json = providerSchemaToTerraformJson(
      providerSchema({ resources: { x_thing: [block, 3] } }),
    );
    expect(JSON.stringify(json.resource_schemas)).toBe(
      '{"x_thing":{"version":3,"block":{"attributes":{' +
        '"any":{"type":"dynamic","description_kind":"plain","optional":true},' +
        '"arn":{"type":"string","description_kind":"plain","deprecated":true,"computed":true},' +
        '"name":{"type":"string","description":"The name.","description_kind":"plain","required":true},' +
        '"ports":{"type":["list",["object",{"address":"string","port":"number"}]],"description_kind":"plain","optional":true,"computed":true},' +
        '"secret":{"type":"string","description":"*x*","description_kind":"markdown","optional":true,"sensitive":true,"write_only":true},' +
        '"tags":{"type":["map","string"],"description_kind":"plain","optional":true}' +
        '},"description_kind":"plain"}}}',
    );
    expect(json.data_source_schemas).toBeUndefined();
  });

  test("block types: nesting_mode, min_items/max_items left out when 0, nested blocks, deprecated and described blocks", () => {
    const block: Block = {
      description: "A thing.",
      deprecated: true,
      blockTypes: {
        rule: {
          nesting: "set",
          minItems: 1,
          block: { attributes: { from: { type: numberType, required: true } } },
        },
        timeouts: {
          nesting: "single",
          block: { attributes: { create: { type: stringType, optional: true } } },
        },
        config: {
          nesting: "list",
          maxItems: 1,
          minItems: 0,
          block: { blockTypes: { inner: { nesting: "map", block: {} } } },
        },
        group: { nesting: "group", block: {} },
      },
    };
    const json = providerSchemaToTerraformJson(providerSchema({ dataSources: { x_d: block } }));
    expect(json.data_source_schemas).toEqual({
      x_d: {
        version: 0,
        block: {
          block_types: {
            config: {
              nesting_mode: "list",
              block: {
                block_types: {
                  inner: { nesting_mode: "map", block: { description_kind: "plain" } },
                },
                description_kind: "plain",
              },
              max_items: 1,
            },
            group: { nesting_mode: "group", block: { description_kind: "plain" } },
            rule: {
              nesting_mode: "set",
              block: {
                attributes: { from: { type: "number", description_kind: "plain", required: true } },
                description_kind: "plain",
              },
              min_items: 1,
            },
            timeouts: {
              nesting_mode: "single",
              block: {
                attributes: {
                  create: { type: "string", description_kind: "plain", optional: true },
                },
                description_kind: "plain",
              },
            },
          },
          description: "A thing.",
          description_kind: "plain",
          deprecated: true,
        },
      },
    });
    // Go's field order: nesting_mode, block, min_items, max_items; block: attributes, block_types, description, description_kind, deprecated.
    expect(Object.keys(json.data_source_schemas!["x_d"]!.block)).toEqual([
      "block_types",
      "description",
      "description_kind",
      "deprecated",
    ]);
    expect(Object.keys(json.data_source_schemas!["x_d"]!.block.block_types!)).toEqual([
      "config",
      "group",
      "rule",
      "timeouts",
    ]);
    expect(Object.keys(json.data_source_schemas!["x_d"]!.block.block_types!["rule"]!)).toEqual([
      "nesting_mode",
      "block",
      "min_items",
    ]);
  });

  test("v6 nested attribute types: nested_type {attributes, nesting_mode}, no type; empty attributes left out", () => {
    const block: Block = {
      attributes: {
        listeners: {
          nestedType: {
            nesting: "list",
            attributes: {
              port: { type: numberType, required: true },
              proto: { type: stringType, optional: true, computed: true, description: "p" },
              deep: {
                nestedType: {
                  nesting: "map",
                  attributes: { on: { type: boolType, optional: true } },
                },
                optional: true,
              },
            },
          },
          optional: true,
        },
        nothing: { nestedType: { nesting: "single", attributes: {} }, computed: true },
        tags: { type: setType(stringType), optional: true },
      },
    };
    const json = providerSchemaToTerraformJson(providerSchema({ provider: block }));
    expect(JSON.stringify(json.provider.block.attributes)).toBe(
      "{" +
        '"listeners":{"nested_type":{"attributes":{' +
        '"deep":{"nested_type":{"attributes":{"on":{"type":"bool","description_kind":"plain","optional":true}},"nesting_mode":"map"},"description_kind":"plain","optional":true},' +
        '"port":{"type":"number","description_kind":"plain","required":true},' +
        '"proto":{"type":"string","description":"p","description_kind":"plain","optional":true,"computed":true}' +
        '},"nesting_mode":"list"},"description_kind":"plain","optional":true},' +
        '"nothing":{"nested_type":{"nesting_mode":"single"},"description_kind":"plain","computed":true},' +
        '"tags":{"type":["set","string"],"description_kind":"plain","optional":true}' +
        "}",
    );
  });

  test("resource and data source names sorted by UTF-8 bytes as Go sorts map keys", () => {
    const json = providerSchemaToTerraformJson(
      providerSchema({
        resources: { b: [{}, 0], a_z: [{}, 1], a: [{}, 0], "\u00e9": [{}, 0], Z: [{}, 0] },
      }),
    );
    expect(Object.keys(json.resource_schemas!)).toEqual(["Z", "a", "a_z", "b", "\u00e9"]);
    expect(json.resource_schemas!["a_z"]).toEqual({
      version: 1,
      block: { description_kind: "plain" },
    });
  });

  test("a markdown description kind read from the wire without a description is kept (Terraform prints it)", () => {
    const attr = (over: Partial<ProtoAttribute>): ProtoAttribute => ({
      name: "a",
      type: new TextEncoder().encode('"string"'),
      description: "",
      required: false,
      optional: true,
      computed: false,
      sensitive: false,
      descriptionKind: 0,
      deprecated: false,
      writeOnly: false,
      deprecationMessage: "",
      ...over,
    });
    const proto: ProtoBlock = {
      version: 0n,
      attributes: [
        attr({ name: "md", descriptionKind: 1 }),
        attr({ name: "plain" }),
        attr({ name: "described", description: "d", descriptionKind: 1 }),
      ],
      blockTypes: [],
      description: "",
      descriptionKind: 1,
      deprecated: false,
      deprecationMessage: "",
    };
    const block = blockFromProto(proto, () => "test");
    expect(block.descriptionKind).toBe("markdown");
    expect(block.description).toBeUndefined();
    const json = providerSchemaToTerraformJson(providerSchema({ provider: block }));
    expect(json.provider.block).toEqual({
      attributes: {
        described: {
          type: "string",
          description: "d",
          description_kind: "markdown",
          optional: true,
        },
        md: { type: "string", description_kind: "markdown", optional: true },
        plain: { type: "string", description_kind: "plain", optional: true },
      },
      description_kind: "markdown",
    });
  });

  test("ephemeral_resource_schemas and functions come after data_source_schemas, names sorted; absent or empty maps are left out", () => {
    const base = providerSchema({ dataSources: { d: {} } });
    const fn: FunctionSignature = { parameters: [], returnType: stringType };
    const json = providerSchemaToTerraformJson({
      ...base,
      ephemeralResources: new Map([
        ["z_token", createSchemaEntry({ attributes: { v: { type: stringType, computed: true, sensitive: true } } }, 2)],
        ["a_secret", createSchemaEntry({})],
      ]),
      functions: new Map([
        ["upper", fn],
        ["lower", fn],
      ]),
    });
    expect(JSON.stringify(json)).toBe(
      '{"provider":{"version":0,"block":{"description_kind":"plain"}},' +
        '"data_source_schemas":{"d":{"version":0,"block":{"description_kind":"plain"}}},' +
        '"ephemeral_resource_schemas":{"a_secret":{"version":0,"block":{"description_kind":"plain"}},' +
        '"z_token":{"version":2,"block":{"attributes":{"v":{"type":"string","description_kind":"plain","computed":true,"sensitive":true}},"description_kind":"plain"}}},' +
        '"functions":{"lower":{"return_type":"string"},"upper":{"return_type":"string"}}}',
    );
    const empty = providerSchemaToTerraformJson({ ...base, ephemeralResources: new Map(), functions: new Map() });
    expect(Object.keys(empty)).toEqual(["provider", "data_source_schemas"]);
  });

  test("functions: description, summary, deprecation_message, return_type, parameters, variadic_parameter in Go's order; is_nullable only when true; no description kinds", () => {
    const fn: FunctionSignature = {
      // Written in another order than Terraform's on purpose.
      variadicParameter: { name: "rest", type: dynamicType, allowNullValue: true, allowUnknownValues: true, descriptionKind: "markdown" },
      returnType: objectType({ b: stringType, a: listType(numberType) }),
      parameters: [
        { name: "first", type: setType(stringType), description: "The first.", descriptionKind: "markdown", allowUnknownValues: true },
        { name: "", type: boolType, allowNullValue: false },
      ],
      deprecationMessage: "Use other.",
      summary: "f Function",
      descriptionKind: "markdown",
      description: "Does *f*.",
    };
    const json = providerSchemaToTerraformJson({ ...providerSchema({}), functions: new Map([["f", fn]]) });
    expect(JSON.stringify(json.functions)).toBe(
      '{"f":{"description":"Does *f*.","summary":"f Function","deprecation_message":"Use other.",' +
        '"return_type":["object",{"a":["list","number"],"b":"string"}],' +
        '"parameters":[{"name":"first","description":"The first.","type":["set","string"]},{"type":"bool"}],' +
        '"variadic_parameter":{"name":"rest","is_nullable":true,"type":"dynamic"}}}',
    );
    const bare = providerSchemaToTerraformJson({
      ...providerSchema({}),
      functions: new Map<string, FunctionSignature>([["g", { parameters: [], returnType: numberType, summary: "", description: "", deprecationMessage: "" }]]),
    });
    expect(JSON.stringify(bare.functions)).toBe('{"g":{"return_type":"number"}}');
  });
});

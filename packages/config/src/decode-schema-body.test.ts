import { mapType, numberType, stringType, stringVal, toJson } from "@magma/cty";
import { parseConfig } from "@magma/hcl";
import type { Block } from "@magma/provider-api";
import { decodeSchemaBody, evaluateSchemaBody } from "./decode-schema-body.js";
import { loadModuleFromFiles } from "./load-module.js";

const schema: Block = {
  attributes: {
    name: { type: stringType, required: true },
    size: { type: numberType, optional: true },
    tags: { type: mapType(stringType), optional: true },
    id: { type: stringType, computed: true },
  },
  blockTypes: {
    rule: { nesting: "list", block: { attributes: { port: { type: numberType, required: true } } } },
    settings: { nesting: "single", block: { attributes: { mode: { type: stringType, optional: true } } } },
  },
};

function resourceBody(name: string, text: string): ReturnType<typeof loadModuleFromFiles>["module"]["managedResources"] extends ReadonlyMap<string, infer R> ? R : never {
  const { module, diags } = loadModuleFromFiles(".", new Map([[name, text]]));
  expect(diags).toEqual([]);
  return [...module.managedResources.values()][0]!;
}

function evalJson(name: string, text: string): unknown {
  const r = resourceBody(name, text);
  const d = decodeSchemaBody(r.config, schema);
  expect(d.diags).toEqual([]);
  const v = evaluateSchemaBody(d.decoded, schema, { variables: {} });
  expect(v.diags).toEqual([]);
  return JSON.parse(toJson(v.value, v.value.type));
}

describe("decodeSchemaBody", () => {
  const want = { name: "a", size: 2, tags: null, id: null, rule: [{ port: 80 }, { port: 443 }], settings: null };

  it("decodes native syntax against the schema, absent arguments null and absent blocks empty", () => {
    expect(evalJson("main.tf", `resource "x_thing" "t" {\n  name = "a"\n  size = "2"\n  rule {\n    port = 80\n  }\n  rule {\n    port = 443\n  }\n}\n`)).toEqual(want);
  });

  it("decodes JSON syntax: properties become arguments or blocks by the schema", () => {
    const json = JSON.stringify({ resource: { x_thing: { t: { name: "a", size: 2, rule: [{ port: 80 }, { port: 443 }] } } } });
    expect(evalJson("main.tf.json", json)).toEqual(want);
  });

  it("expands dynamic blocks over for_each", () => {
    const text = `resource "x_thing" "t" {\n  name = "a"\n  size = 2\n  dynamic "rule" {\n    for_each = [80, 443]\n    content {\n      port = rule.value\n    }\n  }\n}\n`;
    expect(evalJson("main.tf", text)).toEqual(want);
    const json = JSON.stringify({ resource: { x_thing: { t: { name: "a", size: 2, dynamic: { rule: { for_each: [80, 443], iterator: "r", content: { port: "${r.value}" } } } } } } });
    expect(evalJson("main.tf.json", json)).toEqual(want);
  });

  it("names unknown arguments and blocks with a range and a suggestion", () => {
    const r = resourceBody("main.tf", `resource "x_thing" "t" {\n  nmae = "a"\n  id = "x"\n  rules {\n  }\n}\n`);
    const d = decodeSchemaBody(r.config, schema);
    expect(d.diags.map((x) => [x.summary, x.detail, x.subject?.start.line, x.subject?.start.column])).toEqual([
      ["Missing required argument", 'The argument "name" is required, but no definition was found.', 1, 24],
      ["Unsupported argument", 'An argument named "nmae" is not expected here. Did you mean "name"?', 2, 3],
      ["Unsupported block type", 'Blocks of type "rules" are not expected here. Did you mean "rule"?', 4, 3],
    ]);
    const j = resourceBody("main.tf.json", JSON.stringify({ resource: { x_thing: { t: { name: "a", sise: 1 } } } }));
    const dj = decodeSchemaBody(j.config, schema);
    expect(dj.diags.map((x) => [x.summary, x.detail])).toEqual([["Extraneous JSON object property", 'No argument or block type is named "sise".']]);
  });

  it("reports a wrong value type with Terraform's summary", () => {
    const { body } = parseConfig(`name = ["a"]\n`, "x.tf");
    const d = decodeSchemaBody(body, schema);
    const v = evaluateSchemaBody(d.decoded, schema, undefined);
    expect(v.diags.map((x) => x.summary)).toEqual(["Incorrect attribute value type"]);
    void stringVal;
  });
});

describe("decodeSchemaBody on a body merged from an override file", () => {
  const merged = (files: Record<string, string>): { value: unknown; diags: string[] } => {
    const { module, diags } = loadModuleFromFiles(".", new Map(Object.entries(files)));
    expect(diags).toEqual([]);
    const r = [...module.managedResources.values()][0]!;
    const d = decodeSchemaBody(r.config, schema);
    const v = evaluateSchemaBody(d.decoded, schema, { variables: {} });
    return { value: JSON.parse(toJson(v.value, v.value.type)), diags: [...d.diags, ...v.diags].map((x) => x.summary) };
  };

  it("takes every argument of the override as optional (a required one set in the base only) and replaces blocks by type, dynamic ones too", () => {
    const base = `resource "x_thing" "t" {\n  name = "a"\n  size = 1\n  dynamic "rule" {\n    for_each = [1]\n    content {\n      port = rule.value\n    }\n  }\n  settings {\n    mode = "m"\n  }\n}\n`;
    expect(merged({ "main.tf": base, "override.tf": `resource "x_thing" "t" {\n  size = 2\n  rule {\n    port = 8\n  }\n}\n` })).toEqual({
      value: { name: "a", size: 2, tags: null, id: null, rule: [{ port: 8 }], settings: { mode: "m" } },
      diags: [],
    });
    expect(merged({ "main.tf": base, "a_override.tf.json": JSON.stringify({ resource: { x_thing: { t: { dynamic: { settings: { for_each: "${[1]}", content: {} } } } } } }) })).toEqual({
      value: { name: "a", size: 1, tags: null, id: null, rule: [{ port: 1 }], settings: { mode: null } },
      diags: [],
    });
  });
});

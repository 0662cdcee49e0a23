// Names from the configuration that are also members of Object.prototype (`__proto__`,
// `constructor`, `toString`, …) are names like any other: fuzz findings of scripts/fuzz.mjs.
import { blockFromSchemaJson } from "./schema-json.js";
import { collectVariableValues } from "./variable-values.js";
import { decodeSchemaBody, evaluateSchemaBody } from "./decode-schema-body.js";
import { loadModuleFromFiles } from "./load-module.js";
import { validateConfig } from "./validate.js";

const schema = blockFromSchemaJson({
  attributes: { id: { type: "string", computed: true }, name: { type: "string", optional: true } },
  block_types: { nested: { nesting_mode: "list", block: { attributes: { a: { type: "string", optional: true } } } } },
});

function load(text: string, name = "main.tf"): ReturnType<typeof loadModuleFromFiles> {
  return loadModuleFromFiles(".", new Map([[name, text]]));
}

describe("names of Object.prototype's members in configurations", () => {
  it("keeps an object type attribute named __proto__ (it was silently dropped)", () => {
    const { module, diags } = load('variable "v" {\n  type = object({ __proto__ = string, constructor = optional(string, "c") })\n}\n');
    expect(diags).toEqual([]);
    const v = module.variables.get("v")!;
    expect(v.type.kind === "object" && Object.keys(v.type.attributes).sort()).toEqual(["__proto__", "constructor"]);
    const { values, diags: vd } = collectVariableValues(module, { dir: "/nonexistent", env: { TF_VAR_v: '{ __proto__ = "p" }' } });
    expect(vd).toEqual([]);
    const value = values.get("v")!.value;
    expect([value.getAttr("__proto__").asString(), value.getAttr("constructor").asString()]).toEqual(["p", "c"]);
  });

  it("applies an optional attribute's default named constructor (it threw a TypeError: cur.isNull is not a function)", () => {
    const { module } = load('variable "v" {\n  type = object({ constructor = optional(string, "d"), toString = optional(number) })\n  default = {}\n}\n');
    const { values, diags } = collectVariableValues(module, { dir: "/nonexistent", env: { TF_VAR_v: "{}" } });
    expect(diags).toEqual([]);
    expect(values.get("v")!.value.getAttr("constructor").asString()).toBe("d");
    expect(values.get("v")!.value.getAttr("toString").isNull()).toBe(true);
  });

  it('refuses `dynamic "constructor"` as an unsupported block type (it threw a TypeError reading .attributes of Object)', () => {
    for (const [name, text] of [
      ["main.tf", 'resource "x_y" "a" {\n  dynamic "constructor" {\n    for_each = [1]\n    content {}\n  }\n}\n'],
      ["main.tf.json", '{"resource": {"x_y": {"a": {"dynamic": {"__proto__": {"for_each": [1], "content": {}}}}}}}'],
    ] as const) {
      const { module } = load(text, name);
      const r = module.managedResources.get("x_y.a")!;
      const { decoded, diags } = decodeSchemaBody(r.config, schema);
      expect([name, diags.map((d) => d.summary)]).toEqual([name, ["Unsupported block type"]]);
      expect(evaluateSchemaBody(decoded, schema, { variables: {} }).diags).toEqual([]);
    }
  });

  it("reports a reference to an attribute named constructor as unsupported (it was taken for a schema attribute)", () => {
    const { module } = load('resource "x_y" "a" {}\noutput "o" {\n  value = x_y.a.constructor\n}\n');
    const diags = validateConfig({ module, path: [], children: new Map() }, { schemas: () => schema });
    expect(diags.map((d) => d.summary)).toEqual(["Unsupported attribute"]);
  });
});

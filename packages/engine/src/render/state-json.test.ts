import { newStateFile, parseProviderConfig, type ResourceState, type StateFile } from "@magma/state";
import { createMemoryProvider } from "@magma/provider-api/testing";
import type { ProviderSchema } from "@magma/provider-api";
import { isRenderError } from "./render-error.js";
import { stateJson } from "./state-json.js";

const ITEM = '{"id":"item-1","name":"n","value":null,"size":1,"tags":null,"rule":[]}';

function stateWith(resources: ResourceState[]): StateFile {
  return { ...newStateFile(), lineage: "l", resources };
}
function item(module: ResourceState["module"], name: string, attributesJson: string | undefined, schemaVersion = 1): ResourceState {
  return {
    module,
    mode: "managed",
    type: "memory_item",
    name,
    provider: parseProviderConfig('provider["example.com/magma/memory"]'),
    instances: [{ indexKey: undefined, deposed: undefined, tainted: false, schemaVersion, attributesJson, attributesFlat: undefined, sensitiveAttributesJson: "[]", private: undefined, dependencies: ["memory_item.z"], createBeforeDestroy: false }],
  };
}

let schemas: Map<string, ProviderSchema>;
beforeAll(async () => {
  schemas = new Map([["example.com/magma/memory", await createMemoryProvider().getSchema()]]);
});

function renderError(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isRenderError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("no error");
}

describe("stateJson", () => {
  test("nested module instances become a sorted module tree, depends_on is kept", () => {
    const s = stateWith([item([{ name: "b", key: undefined }, { name: "c", key: 0 }], "x", ITEM), item([{ name: "a", key: "k" }], "y", ITEM)]);
    const doc = JSON.parse(stateJson(s, schemas)) as { values: { root_module: { child_modules: { address: string; resources?: { address: string; depends_on: string[] }[]; child_modules?: { address: string }[] }[] } } };
    const mods = doc.values.root_module.child_modules;
    expect(mods.map((m) => m.address)).toEqual(['module.a["k"]', "module.b"]);
    expect(mods[0]!.resources![0]!.address).toBe('module.a["k"].memory_item.y');
    expect(mods[0]!.resources![0]!.depends_on).toEqual(["memory_item.z"]);
    expect(mods[1]!.resources).toBeUndefined();
    expect(mods[1]!.child_modules!.map((m) => m.address)).toEqual(["module.b.module.c[0]"]);
  });

  test("a resource type without a schema is a missing_schema error naming it", () => {
    const e = renderError(() => stateJson(stateWith([item([], "x", ITEM)]), new Map()));
    expect(e.code).toBe("missing_schema");
    expect(e.message).toContain("example.com/magma/memory");
    expect(e.message).toContain("memory_item.x");
  });

  test("a schema version other than the provider's, undecodable attributes and flatmap-only objects are invalid_state", () => {
    expect(renderError(() => stateJson(stateWith([item([], "x", ITEM, 0)]), schemas))).toMatchObject({ code: "invalid_state", message: expect.stringContaining("schema version 0 for memory_item.x") as unknown });
    expect(renderError(() => stateJson(stateWith([item([], "x", '{"id":5,"nope":1}')]), schemas))).toMatchObject({ code: "invalid_state", message: expect.stringContaining("memory_item.x") as unknown });
    expect(renderError(() => stateJson(stateWith([item([], "x", undefined)]), schemas))).toMatchObject({ code: "invalid_state", message: expect.stringContaining("flatmap") as unknown });
  });
});

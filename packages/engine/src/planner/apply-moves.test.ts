import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@magma/config";
import { formatModuleInstance, newStateFile, parseProviderConfig, type InstanceKey, type ResourceState, type StateFile } from "@magma/state";
import { applyMoves } from "./apply-moves.js";

const PROVIDER = parseProviderConfig('provider["registry.terraform.io/magma/testbed"]');

function stateWith(modules: readonly { name: string; key: InstanceKey }[][]): StateFile {
  const resources: ResourceState[] = modules.map((module) => ({
    module,
    mode: "managed",
    type: "testbed_value",
    name: "v",
    provider: PROVIDER,
    instances: [{ indexKey: undefined, deposed: undefined, tainted: false, schemaVersion: 0, attributesJson: "{}", dependencies: [], createBeforeDestroy: false } as unknown as ResourceState["instances"][number]],
  }));
  return { ...newStateFile(), resources };
}

describe("applyMoves: a moved block between module calls", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-apply-moves-"));
    mkdirSync(join(dir, "m"));
    writeFileSync(join(dir, "m", "main.tf"), 'resource "testbed_value" "v" {}\n');
    writeFileSync(
      join(dir, "main.tf"),
      `module "b" {
  source   = "./m"
  for_each = toset(["x", "y"])
}
moved {
  from = module.a
  to   = module.b
}
module "d" {
  source = "./m"
  count  = 2
}
moved {
  from = module.c[1]
  to   = module.d[0]
}
`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("without a key moves every instance of the call, keys kept (terraform's AbsModuleCall); with keys, one instance", () => {
    const { config } = loadConfig(dir);
    const before = stateWith([
      [{ name: "a", key: "x" }],
      [{ name: "a", key: "y" }],
      [{ name: "c", key: 1 }],
    ]);
    const { state, previous, diagnostics } = applyMoves(config, before);
    expect(diagnostics).toEqual([]);
    expect(state!.resources.map((r) => formatModuleInstance(r.module)).sort()).toEqual(['module.b["x"]', 'module.b["y"]', "module.d[0]"]);
    expect(Object.fromEntries(previous)).toEqual({
      'module.b["x"].testbed_value.v': 'module.a["x"].testbed_value.v',
      'module.b["y"].testbed_value.v': 'module.a["y"].testbed_value.v',
      "module.d[0].testbed_value.v": "module.c[1].testbed_value.v",
    });
  });

  test("a call whose target already holds objects does not move", () => {
    const { config } = loadConfig(dir);
    const { state, previous } = applyMoves(config, stateWith([[{ name: "a", key: "x" }], [{ name: "b", key: "z" }]]));
    expect(state!.resources.map((r) => formatModuleInstance(r.module)).sort()).toEqual(['module.a["x"]', 'module.b["z"]']);
    expect(previous.size).toBe(0);
  });
});

describe("applyMoves: terraform's implied moves between [0] and the no-key instance", () => {
  let dir: string;
  const instance = (name: string, key: InstanceKey, module: { name: string; key: InstanceKey }[] = []): ResourceState => ({
    module,
    mode: "managed",
    type: "testbed_value",
    name,
    provider: PROVIDER,
    instances: [{ indexKey: key, deposed: undefined, tainted: false, schemaVersion: 0, attributesJson: "{}", dependencies: [], createBeforeDestroy: false } as unknown as ResourceState["instances"][number]],
  });
  const addresses = (s: StateFile | null): string[] =>
    (s?.resources ?? []).flatMap((r) => r.instances.map((i) => `${formatModuleInstance(r.module)}|${r.name}${i.indexKey === undefined ? "" : `[${JSON.stringify(i.indexKey)}]`}`)).sort();
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-implied-moves-"));
    mkdirSync(join(dir, "m"));
    writeFileSync(join(dir, "m", "main.tf"), 'resource "testbed_value" "v" {}\n');
    writeFileSync(
      join(dir, "main.tf"),
      `resource "testbed_value" "single" {}
resource "testbed_value" "counted" {
  count = 1
}
resource "testbed_value" "each" {
  for_each = toset(["a"])
}
resource "testbed_value" "taken" {}
resource "testbed_value" "explicit" {}
moved {
  from = testbed_value.old
  to   = testbed_value.explicit
}
module "m" {
  source = "./m"
  count  = 1
}
module "n" {
  source = "./m"
}
`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("[0] moves to no key without count or for_each, no key to [0] with count; not under for_each, not onto an object, not beside an explicit moved block; within every module instance in state, never of the module calls themselves", () => {
    const { config } = loadConfig(dir);
    const before: StateFile = {
      ...newStateFile(),
      resources: [
        instance("single", 0),
        instance("counted", undefined),
        instance("each", 0),
        { ...instance("taken", 0), instances: [...instance("taken", 0).instances, ...instance("taken", undefined).instances] },
        instance("explicit", 0),
        instance("v", 0, [{ name: "m", key: undefined }]),
        instance("v", undefined, [{ name: "n", key: 0 }]),
        instance("v", 0, [{ name: "n", key: 0 }]),
      ],
    };
    const { state, previous, diagnostics } = applyMoves(config, before);
    expect(diagnostics).toEqual([]);
    expect(addresses(state)).toEqual(["module.m|v", "module.n[0]|v", "module.n[0]|v[0]", "|counted[0]", "|each[0]", "|explicit[0]", "|single", "|taken", "|taken[0]"]);
    expect(Object.fromEntries(previous)).toEqual({ "testbed_value.counted[0]": "testbed_value.counted", "testbed_value.single": "testbed_value.single[0]", "module.m.testbed_value.v": "module.m.testbed_value.v[0]" });
  });
});

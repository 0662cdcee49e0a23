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

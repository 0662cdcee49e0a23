import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { descendantConfig } from "./descendant-config.js";
import { loadConfig } from "./load-config.js";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata");

describe("descendantConfig", () => {
  // all-blocks: the root calls "net", which calls "sub".
  const { config } = loadConfig(join(testdata, "all-blocks"));

  it("is the configuration itself for the empty path", () => {
    expect(descendantConfig(config, [])).toBe(config);
  });

  it("follows module call names down the tree", () => {
    expect(descendantConfig(config, ["net"])?.path).toEqual(["net"]);
    const sub = descendantConfig(config, ["net", "sub"]);
    expect(sub?.path).toEqual(["net", "sub"]);
    expect([...(sub?.module.managedResources.keys() ?? [])]).toEqual(["aws_subnet.this"]);
    // Relative to the configuration it is given, not to the root.
    expect(descendantConfig(descendantConfig(config, ["net"])!, ["sub"])).toBe(sub);
  });

  it("takes module instance steps and ignores their keys", () => {
    const sub = descendantConfig(config, ["net", "sub"]);
    const counted: readonly { name: string; key?: number | string }[] = [{ name: "net", key: 0 }, { name: "sub" }];
    const keyed: readonly { name: string; key?: number | string }[] = [{ name: "net", key: "a" }, { name: "sub", key: "b" }];
    expect(descendantConfig(config, counted)).toBe(sub);
    expect(descendantConfig(config, keyed)).toBe(sub);
  });

  it("is undefined when a step names no loaded module", () => {
    expect(descendantConfig(config, ["nope"])).toBeUndefined();
    expect(descendantConfig(config, ["net", "nope"])).toBeUndefined();
    expect(descendantConfig(config, ["nope", "sub"])).toBeUndefined();
    expect(descendantConfig(config, ["net", "sub", "deeper"])).toBeUndefined();
    // A module call exists only in its caller: "sub" is not a child of the root.
    expect(descendantConfig(config, ["sub"])).toBeUndefined();
  });
});

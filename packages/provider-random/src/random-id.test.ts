import { nullVal } from "@magma/cty";
import {
  configuredProvider,
  create,
  diagsAt,
  named,
  plainOf,
  plan,
  rejectedDiags,
} from "../test/provider-harness.js";
import { base64RawUrlDecode } from "./base64.js";

async function setup() {
  const { provider, entry } = await configuredProvider();
  return { provider, e: named(entry("random_id"), "random_id") };
}

describe("random_id", () => {
  test.each([1, 4, 16, 33])("byte_length %i: every encoding shows the same bytes", async (n) => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { byte_length: n });
    const id = state.getAttr("id").asString();
    const bytes = base64RawUrlDecode(id);
    expect(bytes.length).toBe(n);
    expect(state.getAttr("b64_url").asString()).toBe(id);
    expect(state.getAttr("hex").asString()).toBe(
      Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""),
    );
    expect(state.getAttr("hex").asString()).toHaveLength(2 * n);
    expect(state.getAttr("dec").asString()).toBe(
      BigInt("0x" + state.getAttr("hex").asString()).toString(),
    );
    const std = state.getAttr("b64_std").asString();
    expect(std).toBe(
      id.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (id.length % 4)) % 4),
    );
  });

  test("the prefix goes before every encoding but id", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { byte_length: 8, prefix: "srv-" });
    const id = state.getAttr("id").asString();
    expect(id.startsWith("srv-")).toBe(false);
    for (const a of ["b64_url", "b64_std", "hex", "dec"])
      expect(state.getAttr(a).asString().startsWith("srv-")).toBe(true);
    expect(state.getAttr("b64_url").asString()).toBe("srv-" + id);
  });

  test("two creates differ", async () => {
    const { provider, e } = await setup();
    const a = await create(provider, e, { byte_length: 16 });
    const b = await create(provider, e, { byte_length: 16 });
    expect(a.state.getAttr("id").asString()).not.toBe(b.state.getAttr("id").asString());
  });

  test.each([
    ["byte_length", { byte_length: 5 }],
    ["prefix", { byte_length: 4, prefix: "x" }],
  ])("a change of %s requires replacement", async (attr, cfg) => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { byte_length: 4 });
    expect((await plan(provider, e, state, cfg)).plan.requiresReplace.map(String)).toEqual([attr]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["zero", { byte_length: 0 }, "error: Invalid Attribute Value @ byte_length"],
    ["negative", { byte_length: -3 }, "error: Invalid Attribute Value @ byte_length"],
    ["fractional", { byte_length: 1.5 }, "error: Value Conversion Error @ byte_length"],
  ])("a %s byte_length is an error at its path", async (_n, cfg, want) => {
    const { provider, e } = await setup();
    expect(diagsAt(await rejectedDiags(plan(provider, e, nullVal(e.type), cfg)))).toEqual([want]);
  });

  test("import by base64url id: the bytes give every encoding; the config then plans no change", async () => {
    const { provider, e } = await setup();
    const r = await provider.importResourceState("random_id", "p-9hUg");
    const s = r!.resources[0]!.state;
    expect(plainOf(s)).toEqual({
      keepers: null,
      byte_length: 4,
      prefix: null,
      id: "p-9hUg",
      b64_url: "p-9hUg",
      b64_std: "p+9hUg==",
      hex: "a7ef6152",
      dec: "2817483090",
    });
    const { plan: p } = await plan(provider, e, s, { byte_length: 4 });
    expect(p.requiresReplace).toEqual([]);
    expect(p.plannedState.rawEquals(s)).toBe(true);
  });

  test("import with a prefix: everything up to the last comma", async () => {
    const { provider } = await setup();
    const s = (await provider.importResourceState("random_id", "a,b-,AQID"))!.resources[0]!.state;
    expect(s.getAttr("prefix").asString()).toBe("a,b-");
    expect(s.getAttr("id").asString()).toBe("AQID");
    expect(s.getAttr("b64_url").asString()).toBe("a,b-AQID");
    expect(s.getAttr("hex").asString()).toBe("a,b-010203");
    expect(s.getAttr("byte_length").asNumber().toString()).toBe("3");
  });

  test.each(["p-9hUg==", "not base64!", "abcde", "prefix,"])(
    "import of %j is an error",
    async (id) => {
      const { provider } = await setup();
      const diags = await rejectedDiags(provider.importResourceState("random_id", id));
      expect(diags[0]!.summary).toBe("Import Random ID Error");
    },
  );

  test("upgrade of a version 0 state returns it; no other version exists", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { byte_length: 4, prefix: "p" });
    expect(
      (
        await provider.upgradeResourceState("random_id", 0, JSON.stringify(plainOf(state)))
      ).upgradedState.rawEquals(state),
    ).toBe(true);
    await expect(provider.upgradeResourceState("random_id", 1, "{}")).rejects.toMatchObject({
      code: "schema",
    });
  });
});

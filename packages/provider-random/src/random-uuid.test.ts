import {
  configuredProvider,
  create,
  named,
  plainOf,
  plan,
  rejectedDiags,
} from "../test/provider-harness.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function setup() {
  const { provider, entry } = await configuredProvider();
  return { provider, e: named(entry("random_uuid"), "random_uuid") };
}

describe("random_uuid", () => {
  test("results are distinct version 4 UUIDs; id equals result", async () => {
    const { provider, e } = await setup();
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { state } = await create(provider, e, {});
      const u = state.getAttr("result").asString();
      expect(u).toMatch(V4);
      expect(state.getAttr("id").asString()).toBe(u);
      seen.add(u);
    }
    expect(seen.size).toBe(20);
  });

  test("import by UUID (any case, stored lowercase); then no change is planned", async () => {
    const { provider, e } = await setup();
    const s = (await provider.importResourceState(
      "random_uuid",
      "AABBCCDD-EEFF-0011-2233-445566778899",
    ))!.resources[0]!.state;
    expect(plainOf(s)).toEqual({
      keepers: null,
      result: "aabbccdd-eeff-0011-2233-445566778899",
      id: "aabbccdd-eeff-0011-2233-445566778899",
    });
    const { plan: p } = await plan(provider, e, s, {});
    expect(p.plannedState.rawEquals(s)).toBe(true);
    expect(p.requiresReplace).toEqual([]);
  });

  test.each([
    "",
    "aabbccdd-eeff-0011-2233-44556677889",
    "aabbccddeeff00112233445566778899",
    "gabbccdd-eeff-0011-2233-445566778899",
  ])("import of %j is an error", async (id) => {
    const { provider } = await setup();
    expect((await rejectedDiags(provider.importResourceState("random_uuid", id)))[0]!.summary).toBe(
      "Import Random UUID Error",
    );
  });

  test("upgrade of a version 0 state returns it", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { keepers: { a: "b" } });
    expect(
      (
        await provider.upgradeResourceState("random_uuid", 0, JSON.stringify(plainOf(state)))
      ).upgradedState.rawEquals(state),
    ).toBe(true);
  });
});

import { configuredProvider, create, named, plan, rejectedDiags } from "../test/provider-harness.js";

async function setup() {
  const { provider, entry } = await configuredProvider();
  return { provider, e: named(entry("random_pet"), "random_pet") };
}

describe("random_pet", () => {
  test("plans length 2 and separator '-' by default, id unknown; creates adjective-name", async () => {
    const { provider, e } = await setup();
    const { plan: p, state } = await create(provider, e, {});
    expect(p.plannedState.getAttr("length").asNumber().toString()).toBe("2");
    expect(p.plannedState.getAttr("separator").asString()).toBe("-");
    expect(p.plannedState.getAttr("id").isKnown()).toBe(false);
    expect(state.getAttr("id").asString()).toMatch(/^[a-z]+-[a-z]+$/);
  });

  test("length, separator and prefix shape the name", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { length: 4, separator: "_", prefix: "Pre" });
    expect(state.getAttr("id").asString()).toMatch(/^Pre_[a-z]+_[a-z]+_[a-z]+_[a-z]+$/);
    const one = await create(provider, e, { length: 1 });
    expect(one.state.getAttr("id").asString()).toMatch(/^[a-z]+$/);
  });

  test("a changed prefix forces replacement, the same configuration plans no change", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { prefix: "a" });
    const same = await plan(provider, e, state, { prefix: "a" });
    expect(same.plan.plannedState.rawEquals(state)).toBe(true);
    const changed = await plan(provider, e, state, { prefix: "b" });
    expect(changed.plan.requiresReplace?.map((p) => p.toString())).toEqual(["prefix"]);
    expect(changed.plan.plannedState.getAttr("id").isKnown()).toBe(true); // UseStateForUnknown (terraform plans the replacement's create afresh)
  });

  test("length below 1 is refused at the attribute", async () => {
    const { provider, e } = await setup();
    const diags = await rejectedDiags(plan(provider, e, (await import("@magma/cty")).nullVal(e.type), { length: 0 }));
    expect(diags.map((d) => d.summary)).toEqual(["Invalid Attribute Value"]);
  });
});

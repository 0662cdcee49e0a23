import { nullVal, objectVal, stringType, stringVal } from "@magma/cty";
import { configValue, isProviderError, proposedNewState } from "../src/index.js";
import { createGreetingProvider } from "./example-native-provider.js";

test("the example native provider creates, reads, imports and destroys a greeting", async () => {
  const { provider, greetings } = createGreetingProvider();
  const schema = await provider.getSchema();
  const entry = schema.resources.get("example_greeting")!;
  await expect(provider.readResource("example_greeting", nullVal(entry.type))).rejects.toMatchObject({ code: "not_configured" });
  await provider.configure(objectVal({ salutation: stringVal("Hi") }), "1.11.4");

  const config = configValue(entry.block, { name: "Ada" });
  const prior = nullVal(entry.type);
  const plan = await provider.planResourceChange("example_greeting", prior, proposedNewState(entry.block, prior, config), config);
  const { newState } = await provider.applyResourceChange("example_greeting", prior, plan.plannedState, config);
  expect(newState.getAttr("text").asString()).toBe("Hi, Ada!");
  expect(greetings.get("Ada")).toBe("Hi, Ada!");
  const read = await provider.readResource("example_greeting", newState);
  expect(!read.gone && read.newState.rawEquals(newState)).toBe(true);
  expect((await provider.importResourceState("example_greeting", "Ada"))!.resources).toHaveLength(1);

  const empty = configValue(entry.block, { name: "" });
  const bad = await provider.planResourceChange("example_greeting", prior, empty, empty);
  await expect(provider.applyResourceChange("example_greeting", prior, bad.plannedState, empty)).rejects.toMatchObject({ code: "diagnostics" });
  expect(isProviderError(await provider.applyResourceChange("example_greeting", prior, bad.plannedState, empty).catch((e: unknown) => e))).toBe(true);

  await provider.applyResourceChange("example_greeting", newState, nullVal(entry.type), nullVal(entry.type));
  expect(await provider.readResource("example_greeting", newState)).toEqual({ gone: true, warnings: [] });
  expect(nullVal(stringType).isNull()).toBe(true);
});

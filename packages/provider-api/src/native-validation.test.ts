import { Path, nullVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { isConfigValidator } from "./config-validator.js";
import { errorDiag, warningDiag } from "./diagnostic.js";
import { createNativeProvider, type NativeProviderImpl } from "./native-provider.js";
import { isProviderError } from "./provider-error.js";
import { createSchemaEntry } from "./schema.js";

const bucket = createSchemaEntry({ attributes: { name: { type: stringType, required: true }, acl: { type: stringType, optional: true } } });
const region = createSchemaEntry({ attributes: { region: { type: stringType, optional: true } } });

/** A provider whose validations warn about `acl` and `region`, and refuse the name "bad". */
function provider(): ReturnType<typeof createNativeProvider> {
  const aclWarning = (config: Value) =>
    config.getAttr("acl").isNull() ? [] : [warningDiag("Argument is deprecated", "acl is deprecated.", Path.root.attr("acl"))];
  const badName = (config: Value) => {
    const name = config.getAttr("name");
    return name.isKnown() && !name.isNull() && name.asString() === "bad" ? [errorDiag("Invalid name", "bad is not allowed.", Path.root.attr("name"))] : [];
  };
  const impl: NativeProviderImpl = {
    getSchema: () => ({ provider: region, resources: new Map([["x_bucket", bucket]]), dataSources: new Map([["x_bucket", bucket]]) }),
    configure: () => undefined,
    planResourceChange: (_t, _prior, proposed) => ({ plannedState: proposed }),
    applyResourceChange: (_t, _prior, planned) => ({ newState: planned }),
    readResource: (_t, current) => ({ newState: current }),
    readDataSource: (_t, config) => ({ state: config }),
    importResourceState: () => ({ resources: [] }),
    upgradeResourceState: () => ({}),
    validateProviderConfig: (config) => ({ diagnostics: config.getAttr("region").isNull() ? [] : [warningDiag("Argument is deprecated", "region is deprecated.", Path.root.attr("region"))] }),
    validateResourceConfig: (_t, config) => ({ diagnostics: [...aclWarning(config), ...badName(config)] }),
    validateDataResourceConfig: (_t, config) => ({ diagnostics: aclWarning(config) }),
  };
  return createNativeProvider(impl);
}

const cfg = (name: Value, acl: Value = nullVal(stringType)): Value => objectVal({ name, acl });

describe("a native provider's configuration validation", () => {
  test("is a ConfigValidator needing no configure; unknowns are fine; warnings come back with their paths", async () => {
    const p = provider();
    expect(isConfigValidator(p)).toBe(true);
    const r = await p.validateResourceConfig("x_bucket", cfg(unknownVal(stringType), stringVal("private")));
    expect(r.warnings).toEqual([warningDiag("Argument is deprecated", "acl is deprecated.", Path.root.attr("acl"))]);
    expect((await p.validateDataResourceConfig("x_bucket", cfg(stringVal("a")))).warnings).toEqual([]);
    expect((await p.validateProviderConfig(objectVal({ region: stringVal("r") }))).warnings.map((d) => d.detail)).toEqual(["region is deprecated."]);
  });

  test("errors reject with diagnostics (warnings included); unknown types and values of the wrong type are refused", async () => {
    const p = provider();
    const e = await p.validateResourceConfig("x_bucket", cfg(stringVal("bad"), stringVal("private"))).catch((x: unknown) => x);
    expect(isProviderError(e) && e.code).toBe("diagnostics");
    expect((e as { detail: { diagnostics: { summary: string }[] } }).detail.diagnostics.map((d) => d.summary)).toEqual(["Argument is deprecated", "Invalid name"]);
    await expect(p.validateResourceConfig("x_nope", cfg(stringVal("a")))).rejects.toMatchObject({ code: "unknown_type" });
    await expect(p.validateResourceConfig("x_bucket", objectVal({ name: stringVal("a") }))).rejects.toMatchObject({ code: "schema" });
  });

  test("plans, data source reads and configure carry the validation's warnings first, as Terraform's", async () => {
    const p = provider();
    const configured = await p.configure(objectVal({ region: stringVal("r") }), "1.11.4");
    expect(configured.warnings.map((d) => d.detail)).toEqual(["region is deprecated."]);
    const config = cfg(stringVal("a"), stringVal("private"));
    const planned = await p.planResourceChange("x_bucket", nullVal(bucket.type), config, config);
    expect(planned.warnings.map((d) => d.detail)).toEqual(["acl is deprecated."]);
    expect((await p.readDataSource("x_bucket", config)).warnings.map((d) => d.detail)).toEqual(["acl is deprecated."]);
    await expect(p.planResourceChange("x_bucket", nullVal(bucket.type), cfg(stringVal("bad")), cfg(stringVal("bad")))).rejects.toMatchObject({ code: "diagnostics" });
  });
});

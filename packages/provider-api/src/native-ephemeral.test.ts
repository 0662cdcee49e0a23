import { nullVal, numberType, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { errorDiag, warningDiag } from "./diagnostic.js";
import { isEphemeralResourceOpener } from "./ephemeral-resource-opener.js";
import { createNativeProvider, type NativeEphemeralResources, type NativeProviderImpl } from "./native-provider.js";
import { createSchemaEntry } from "./schema.js";

const secretEntry = createSchemaEntry({
  attributes: {
    name: { type: stringType, required: true },
    ttl: { type: numberType, optional: true },
    value: { type: stringType, computed: true, sensitive: true },
  },
});

function provider(ephemeral: NativeEphemeralResources) {
  const never = (): never => {
    throw new Error("not called in this test");
  };
  const impl: NativeProviderImpl = {
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), ephemeralResources: new Map([["x_secret", secretEntry]]) }),
    configure: () => undefined,
    planResourceChange: never,
    applyResourceChange: never,
    readResource: never,
    readDataSource: never,
    importResourceState: never,
    upgradeResourceState: never,
    ephemeralResources: ephemeral,
  };
  return createNativeProvider(impl);
}

function cfg(name: string): Value {
  return objectVal({ name: stringVal(name), ttl: numberNull(), value: nullVal(stringType) });
}

function numberNull(): Value {
  return nullVal(numberType);
}

describe("a native provider's ephemeral resources", () => {
  test("is an EphemeralResourceOpener; other shapes are not", () => {
    expect(isEphemeralResourceOpener(provider({ x_secret: { open: () => ({}) } }))).toBe(true);
    expect(isEphemeralResourceOpener({ openEphemeralResource: () => undefined })).toBe(false);
    expect(isEphemeralResourceOpener(null)).toBe(false);
  });

  test("validation needs no configure; open, renew and close do", async () => {
    const seen: string[] = [];
    const p = provider({
      x_secret: {
        validate: (c) => {
          seen.push(`validate ${c.getAttr("name").asString()}`);
          return { diagnostics: [warningDiag("careful")] };
        },
        open: () => ({ result: objectVal({ name: stringVal("a"), ttl: numberNull(), value: stringVal("s3cret") }) }),
      },
    });
    await expect(p.validateEphemeralResourceConfig("x_secret", cfg("a"))).resolves.toMatchObject({ warnings: [{ summary: "careful" }] });
    expect(seen).toEqual(["validate a"]);
    await expect(p.openEphemeralResource("x_secret", cfg("a"))).rejects.toMatchObject({ code: "not_configured" });
    await expect(p.renewEphemeralResource("x_secret", new Uint8Array())).rejects.toMatchObject({ code: "not_configured" });
    await expect(p.closeEphemeralResource("x_secret", new Uint8Array())).rejects.toMatchObject({ code: "not_configured" });
  });

  test("unknown types reject with unknown_type naming the kind", async () => {
    const p = provider({ x_secret: { open: () => ({}) } });
    await p.configure(objectVal({}), "1.11.4");
    await expect(p.openEphemeralResource("x_nope", cfg("a"))).rejects.toMatchObject({
      code: "unknown_type",
      detail: { kind: "ephemeral_resource", typeName: "x_nope" },
      message: '[unknown_type] the provider has no ephemeral resource type "x_nope"',
    });
    await expect(p.validateEphemeralResourceConfig("x_nope", cfg("a"))).rejects.toMatchObject({ code: "unknown_type" });
  });

  test("open, renew and close carry private data and renewAt through", async () => {
    const log: string[] = [];
    const renewAt = new Date(Date.UTC(2030, 0, 1));
    const p = provider({
      x_secret: {
        open: (c) => ({
          result: objectVal({ name: c.getAttr("name"), ttl: numberNull(), value: stringVal("s3cret") }),
          private: new TextEncoder().encode("lease-1"),
          renewAt,
          diagnostics: [warningDiag("opened")],
        }),
        renew: (priv) => {
          log.push(`renew ${new TextDecoder().decode(priv)}`);
          return { private: new TextEncoder().encode("lease-2") };
        },
        close: (priv) => {
          log.push(`close ${new TextDecoder().decode(priv)}`);
        },
      },
    });
    await p.configure(objectVal({}), "1.11.4");
    const opened = await p.openEphemeralResource("x_secret", cfg("a"));
    expect(opened.result.getAttr("value").asString()).toBe("s3cret");
    expect(opened.renewAt).toEqual(renewAt);
    expect(opened.warnings.map((d) => d.summary)).toEqual(["opened"]);
    const renewed = await p.renewEphemeralResource("x_secret", opened.private);
    expect(new TextDecoder().decode(renewed.private)).toBe("lease-2");
    expect(renewed.renewAt).toBeUndefined();
    await p.closeEphemeralResource("x_secret", renewed.private);
    expect(log).toEqual(["renew lease-1", "close lease-2"]);
  });

  test("the wrapper checks configurations and results", async () => {
    const p = provider({
      x_secret: {
        open: (c) => {
          const name = c.getAttr("name").asString();
          if (name === "unknown") return { result: objectVal({ name: c.getAttr("name"), ttl: numberNull(), value: unknownVal(stringType) }) };
          if (name === "renews") return { result: objectVal({ name: c.getAttr("name"), ttl: numberNull(), value: stringVal("v") }), renewAt: new Date() };
          if (name === "fails") return { diagnostics: [errorDiag("no such secret", "it is gone")] };
          if (name === "missing") return {};
          return { result: stringVal("not an object") };
        },
      },
    });
    await p.configure(objectVal({}), "1.11.4");
    await expect(p.openEphemeralResource("x_secret", stringVal("x"))).rejects.toMatchObject({ code: "schema" });
    await expect(p.openEphemeralResource("x_secret", cfg("unknown"))).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("returned unknown values") });
    await expect(p.openEphemeralResource("x_secret", cfg("renews"))).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("has no renew") });
    await expect(p.openEphemeralResource("x_secret", cfg("fails"))).rejects.toMatchObject({ code: "diagnostics" });
    await expect(p.openEphemeralResource("x_secret", cfg("missing"))).rejects.toMatchObject({ code: "invalid_response", message: expect.stringContaining("returned no result") });
    await expect(p.openEphemeralResource("x_secret", cfg("bad"))).rejects.toMatchObject({ code: "invalid_response" });
    // A type without renew or close: renew keeps the private data, close does nothing.
    const priv = new Uint8Array([1, 2]);
    await expect(p.renewEphemeralResource("x_secret", priv)).resolves.toEqual({ private: priv, warnings: [] });
    await expect(p.closeEphemeralResource("x_secret", priv)).resolves.toEqual({ warnings: [] });
  });
});

import { nullVal, objectVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, type NativeProviderImpl } from "@magma/provider-api";
import { EphemeralResources, type EphemeralOpEvent } from "./ephemeral-resources.js";
import type { InstanceTarget } from "../instance/instance-target.js";

const entry = createSchemaEntry({ attributes: { name: { type: stringType, required: true }, token: { type: stringType, computed: true, sensitive: true } } });

/** A provider whose lease_token opens record themselves; `fail-close` names fail to close; `renewAt` leases renew. */
async function target(log: string[], renewAfterMs?: number): Promise<InstanceTarget> {
  const never = (): never => {
    throw new Error("not called");
  };
  const impl: NativeProviderImpl = {
    getSchema: () => ({ provider: createSchemaEntry({}), resources: new Map(), dataSources: new Map(), ephemeralResources: new Map([["lease_token", entry]]) }),
    configure: () => undefined,
    planResourceChange: never,
    applyResourceChange: never,
    readResource: never,
    readDataSource: never,
    importResourceState: never,
    upgradeResourceState: never,
    ephemeralResources: {
      lease_token: {
        validate: (c) => void log.push(`validate ${c.getAttr("name").asString()}`),
        open: (c) => {
          const name = c.getAttr("name").asString();
          log.push(`open ${name}`);
          return {
            result: objectVal({ name: stringVal(name), token: stringVal(`tok-${name}`) }),
            private: new TextEncoder().encode(`${name}#0`),
            ...(renewAfterMs !== undefined ? { renewAt: new Date(Date.now() + renewAfterMs) } : {}),
          };
        },
        renew: (priv) => {
          const [name, n] = new TextDecoder().decode(priv).split("#");
          log.push(`renew ${name}#${n}`);
          return { private: new TextEncoder().encode(`${name}#${Number(n) + 1}`) };
        },
        close: (priv) => {
          const text = new TextDecoder().decode(priv);
          log.push(`close ${text}`);
          return text.startsWith("fail-close") ? { diagnostics: [errorDiag("lease server unreachable")] } : undefined;
        },
      },
    },
  };
  const provider = createNativeProvider(impl);
  await provider.configure(objectVal({}), "1.11.4");
  return { provider, schema: await provider.getSchema() };
}

const config = (name: string): Value => objectVal({ name: stringVal(name), token: nullVal(stringType) });

describe("EphemeralResources", () => {
  test("opens after validating, closes every instance once in reverse order, and reports each step", async () => {
    const log: string[] = [];
    const events: EphemeralOpEvent[] = [];
    const t = await target(log);
    const reg = new EphemeralResources((e) => events.push(e));
    const a = await reg.open(t, "ephemeral.lease_token.a", "lease_token", config("a"));
    const b = await reg.open(t, "ephemeral.lease_token.b", "lease_token", config("b"));
    expect(a.kind === "opened" && a.value.getAttr("token").asString()).toBe("tok-a");
    expect(b.kind).toBe("opened");
    expect(reg.openCount).toBe(2);
    expect(await reg.closeAll()).toEqual([]);
    expect(await reg.closeAll()).toEqual([]); // once
    expect(log).toEqual(["validate a", "open a", "validate b", "open b", "close b#0", "close a#0"]);
    expect(events.map((e) => `${e.address} ${e.action} ${e.phase}`)).toEqual([
      "ephemeral.lease_token.a open start",
      "ephemeral.lease_token.a open complete",
      "ephemeral.lease_token.b open start",
      "ephemeral.lease_token.b open complete",
      "ephemeral.lease_token.b close start",
      "ephemeral.lease_token.b close complete",
      "ephemeral.lease_token.a close start",
      "ephemeral.lease_token.a close complete",
    ]);
    await expect(reg.open(t, "ephemeral.lease_token.c", "lease_token", config("c"))).rejects.toMatchObject({ code: "invalid_argument" });
  });

  test("a configuration with unknowns is not sent: the value is unknown and nothing is opened", async () => {
    const log: string[] = [];
    const reg = new EphemeralResources();
    const out = await reg.open(await target(log), "ephemeral.lease_token.u", "lease_token", objectVal({ name: unknownVal(stringType), token: nullVal(stringType) }));
    expect(out.kind).toBe("unknown");
    expect(out.value.isKnown()).toBe(false);
    expect(log).toEqual([]);
    expect(await reg.closeAll()).toEqual([]);
  });

  test("a failed close does not keep the others open and is reported", async () => {
    const log: string[] = [];
    const t = await target(log);
    const reg = new EphemeralResources();
    await reg.open(t, "ephemeral.lease_token.x", "lease_token", config("x"));
    await reg.open(t, "ephemeral.lease_token.f", "lease_token", config("fail-close"));
    await reg.open(t, "ephemeral.lease_token.y", "lease_token", config("y"));
    const diags = await reg.closeAll();
    expect(log.filter((l) => l.startsWith("close"))).toEqual(["close y#0", "close fail-close#0", "close x#0"]);
    expect(diags.map((d) => d.summary)).toEqual(["Failed to close ephemeral resource"]);
    expect(diags[0]!.detail).toContain("ephemeral.lease_token.f");
  });

  test("renews at renewAt while open, and closes with the latest private data", async () => {
    const log: string[] = [];
    const t = await target(log, 20);
    const reg = new EphemeralResources();
    await reg.open(t, "ephemeral.lease_token.r", "lease_token", config("r"));
    for (let i = 0; i < 200 && !log.includes("renew r#0"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await reg.closeAll()).toEqual([]);
    expect(log).toContain("renew r#0");
    expect(log[log.length - 1]).toBe("close r#1");
  });
});

/**
 * Ephemeral resources over the wire: a native provider's ephemeral resource type served by
 * provider-server and opened, renewed and closed by `@magma/plugin`'s client, over protocol
 * 6 and 5 (private data, `renew_at` timestamps, warnings and errors as sent).
 */
import { nullVal, objectVal, stringType, stringVal } from "@magma/cty";
import { dialProvider, type LiveProvider } from "@magma/plugin";
import { isEphemeralResourceOpener, isProviderError } from "@magma/provider-api";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureLauncher, tempDir } from "./support/harness.js";

const leaseProvider = join(dirname(fileURLToPath(import.meta.url)), "testdata/lease-provider.mjs");
const RENEW_AT = new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123));

let tmp: { dir: string; cleanup(): void };
let launcher: string;
beforeAll(() => {
  tmp = tempDir("eph-");
  launcher = fixtureLauncher(tmp.dir, [5, 6], leaseProvider, "createProvider", "lease").executable;
});
afterAll(() => tmp.cleanup());

const config = (name: string) => objectVal({ name: stringVal(name), token: nullVal(stringType) });
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe.each([6, 5] as const)("ephemeral resources on protocol %d", (version) => {
  let live: LiveProvider | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  test("the schema, validate, open, renew and close travel both ways", async () => {
    live = await dialProvider({ binary: launcher, protocolVersions: [version], startTimeoutMs: 60_000 });
    const p = live.provider;
    if (!isEphemeralResourceOpener(p)) throw new Error("a dialled provider is an EphemeralResourceOpener");
    expect([...(live.schema.ephemeralResources?.keys() ?? [])]).toEqual(["lease_token"]);
    expect(live.schema.ephemeralResources!.get("lease_token")!.block.attributes!["token"]!.sensitive).toBe(true);

    // Validation needs no configure; open does.
    await expect(p.validateEphemeralResourceConfig("lease_token", config("db"))).resolves.toEqual({ warnings: [] });
    const invalid = await p.validateEphemeralResourceConfig("lease_token", config("")).catch((e: unknown) => e);
    expect(isProviderError(invalid) && invalid.code === "diagnostics" && invalid.detail.diagnostics[0]!.summary).toBe("name must not be empty");
    await expect(p.openEphemeralResource("lease_token", config("db"))).rejects.toMatchObject({ code: "not_configured" });
    await p.configure(objectVal({}), "1.11.4");

    const opened = await p.openEphemeralResource("lease_token", config("db"));
    expect(opened.result.getAttr("token").asString()).toBe("tok-db");
    expect(text(opened.private)).toBe("lease-1:db");
    expect(opened.renewAt?.toISOString()).toBe(RENEW_AT.toISOString());
    expect(opened.warnings.map((d) => d.summary)).toEqual(["opened db"]);

    const renewed = await p.renewEphemeralResource("lease_token", opened.private);
    expect(text(renewed.private)).toBe("lease-2:db");
    expect(renewed.renewAt?.getTime()).toBe(RENEW_AT.getTime() + 2);

    const closed = await p.closeEphemeralResource("lease_token", renewed.private);
    expect(closed.warnings.map((d) => d.summary)).toEqual(["closed lease-2:db"]);

    const denied = await p.openEphemeralResource("lease_token", config("denied")).catch((e: unknown) => e);
    expect(isProviderError(denied) && denied.code === "diagnostics" && denied.detail.diagnostics.map((d) => [d.summary, d.detail])).toEqual([["Access denied", "no token for denied"]]);
    await expect(p.openEphemeralResource("lease_nope", config("db"))).rejects.toMatchObject({ code: "unknown_type", detail: { kind: "ephemeral_resource" } });
  });
});

/**
 * The go-plugin server side, driven the way go-plugin's client drives it: the launcher is
 * spawned with the go-plugin environment, its handshake line is parsed, and the plugin
 * services are called over the unix socket (plaintext and AutoMTLS).
 */
import { X509Certificate } from "node:crypto";
import { existsSync } from "node:fs";
import { connect as netConnect } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { createClientCertificate, toPem, type ClientCertificate } from "@magma/plugin/internal";
import { GRPCController, Health, HealthCheckResponse_ServingStatus, Tfplugin6Provider } from "@magma/tfplugin";
import { MAGIC_COOKIE, fixtureLauncher, start, tempDir, type Child } from "./support/harness.js";

let tmp: { dir: string; cleanup(): void };
let executable: string;
let onlyV5: string;
const children: Child[] = [];

beforeAll(() => {
  tmp = tempDir("mps-");
  executable = fixtureLauncher(tmp.dir).executable;
  onlyV5 = fixtureLauncher(tmp.dir, [5], undefined, undefined, "memoryfive").executable;
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  tmp.cleanup();
});

function launch(env: Record<string, string | undefined>, exe = executable): Child {
  const { TF_PLUGIN_MAGIC_COOKIE: _c, PLUGIN_CLIENT_CERT: _p, PLUGIN_PROTOCOL_VERSIONS: _v, ...host } = process.env;
  const c = start(exe, [], { ...host, TMPDIR: tmp.dir, ...env });
  children.push(c);
  return c;
}

function transportFor(socket: string, tls?: { serverDer: Uint8Array; client: ClientCertificate | undefined }): { transport: Transport; close(): void } {
  const baseUrl = tls === undefined ? "http://localhost" : "https://localhost";
  const sessionManager = new Http2SessionManager(baseUrl, {}, {
    createConnection: () =>
      tls === undefined
        ? netConnect({ path: socket })
        : tlsConnect({
            path: socket,
            ca: [toPem(tls.serverDer, "CERTIFICATE")],
            ...(tls.client !== undefined ? { cert: tls.client.certPem, key: tls.client.keyPem } : {}),
            servername: "localhost",
            ALPNProtocols: ["h2"],
          }),
  });
  return { transport: createGrpcTransport({ baseUrl, sessionManager }), close: () => sessionManager.abort() };
}

const HANDSHAKE = /^1\|([56])\|unix\|([^|]+)\|grpc\|([A-Za-z0-9+/]*)$/;

describe("go-plugin server", () => {
  test("run by hand (no magic cookie): go-plugin's message on stderr, nothing on stdout, exit 1", async () => {
    const c = launch({});
    expect(await c.exited).toBe(1);
    expect(c.stdout()).toBe("");
    expect(c.stderr()).toContain("This binary is a plugin. These are not meant to be executed directly.");
  });

  test.each([
    ["5", 5],
    ["6", 6],
    ["5,6", 6],
    ["6,5", 6],
    ["4", 5], // nothing shared: the lowest supported, as go-plugin answers
    ["", 6],
  ])("PLUGIN_PROTOCOL_VERSIONS=%j negotiates %d", async (offered, expected) => {
    const c = launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: offered });
    const m = HANDSHAKE.exec(await c.firstLine);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(expected);
    await c.stop();
  });

  test("a server limited to protocol 5 answers 5 when 6 is offered too", async () => {
    const c = launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: "5,6" }, onlyV5);
    expect(HANDSHAKE.exec(await c.firstLine)?.[1]).toBe("5");
    await c.stop();
  });

  test("plaintext: handshake alone on stdout, health, UNIMPLEMENTED, hclog stderr, Shutdown exits 0 and removes the socket", async () => {
    const c = launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: "6", TF_LOG_PROVIDER: "debug" });
    const m = HANDSHAKE.exec(await c.firstLine)!;
    expect(m[3]).toBe(""); // no certificate without PLUGIN_CLIENT_CERT
    const socket = m[2]!;
    expect(socket.startsWith(`${tmp.dir}/plugin`)).toBe(true);
    expect(existsSync(socket)).toBe(true);
    const t = transportFor(socket);
    try {
      const health = createClient(Health, t.transport);
      expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      expect((await health.check({ service: "" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      await expect(health.check({ service: "other" })).rejects.toMatchObject({ code: Code.NotFound });

      const p6 = createClient(Tfplugin6Provider, t.transport);
      const meta = await p6.getMetadata({});
      expect(meta.resources.map((r) => r.typeName)).toEqual(["memory_item"]);
      expect(meta.dataSources.map((r) => r.typeName)).toEqual(["memory_lookup"]);
      expect(meta.serverCapabilities).toMatchObject({ planDestroy: true, getProviderSchemaOptional: true });
      // A native provider without functions serves none; RPCs outside the contract are UNIMPLEMENTED.
      expect(meta.functions).toEqual([]);
      expect((await p6.getFunctions({})).functions).toEqual({});
      const move = await p6.moveResourceState({}).catch((e: unknown) => ConnectError.from(e));
      expect(move).toMatchObject({ code: Code.Unimplemented });
      const stop = await p6.stopProvider({});
      expect(stop.Error).toBe("");

      await createClient(GRPCController, t.transport).shutdown({}).catch((e: unknown) => {
        // go-plugin servers may drop the connection before answering.
        expect(ConnectError.from(e).code).toBe(Code.Unavailable);
      });
    } finally {
      t.close();
    }
    expect(await c.exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(c.stdout()).toBe(`${c.stdout().split("\n")[0]}\n`);
    const lines = c.stderr().trim().split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) {
      const j = JSON.parse(l) as Record<string, unknown>;
      expect(["trace", "debug", "info", "warn", "error"]).toContain(j["@level"]);
      expect(typeof j["@message"]).toBe("string");
      expect(j["@timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    expect(lines.map((l) => (JSON.parse(l) as { tf_rpc?: string }).tf_rpc)).toEqual(expect.arrayContaining(["GetMetadata", "StopProvider"]));
  });

  test("AutoMTLS: a go-plugin style server certificate (unpadded base64 DER), and the client certificate is required", async () => {
    const client = await createClientCertificate();
    const c = launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: client.certPem });
    const m = HANDSHAKE.exec(await c.firstLine)!;
    expect(m[1]).toBe("6");
    const b64 = m[3]!;
    expect(b64.length).toBeGreaterThan(50);
    expect(b64.endsWith("=")).toBe(false);
    const der = Buffer.from(b64, "base64");
    const cert = new X509Certificate(der);
    expect(cert.subject).toContain("CN=localhost");
    expect(cert.subject).toContain("O=HashiCorp");
    expect(cert.subjectAltName).toBe("DNS:localhost");
    expect(cert.ca).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("secp521r1");
    expect(cert.checkIssued(cert)).toBe(true);

    const good = transportFor(m[2]!, { serverDer: der, client });
    try {
      const health = createClient(Health, good.transport);
      expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    } finally {
      good.close();
    }
    const anonymous = transportFor(m[2]!, { serverDer: der, client: undefined });
    try {
      await expect(createClient(Health, anonymous.transport).check({ service: "plugin" }, { timeoutMs: 20_000 })).rejects.toBeInstanceOf(ConnectError);
    } finally {
      anonymous.close();
    }
    const stranger = transportFor(m[2]!, { serverDer: der, client: await createClientCertificate() });
    try {
      await expect(createClient(Health, stranger.transport).check({ service: "plugin" }, { timeoutMs: 20_000 })).rejects.toBeInstanceOf(ConnectError);
    } finally {
      stranger.close();
    }
    await c.stop();
  });
});

// The baseline of the per-call benchmark: a bare @connectrpc/connect-node gRPC client of the
// generated tfplugin5 service, on its own provider process launched with the same
// environment and the same kind of connection (unix socket, AutoMTLS) as magma's, sending
// pre-built requests with pre-encoded DynamicValues. No schema, no cty, no validation.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Provider, ReadDataSource_RequestSchema, Configure_RequestSchema } from "../dist/gen/tfplugin5/tfplugin5_pb.js";
import { buildPluginEnvironment } from "../dist/launch.js";
import { createClientCertificate, toPem } from "../dist/internal/auto-mtls/client-certificate.js";

/**
 * Launches the binary, connects, configures it with `configMsgpack`, and returns
 * `{ readDataSource(), pid, close() }` where readDataSource sends one pre-built request.
 */
export async function startBareClient(binary, { configMsgpack, typeName, dataConfigMsgpack, providerMetaMsgpack }) {
  const cert = await createClientCertificate();
  const socketDir = mkdtempSync(join(tmpdir(), "magma-bare-"));
  const env = buildPluginEnvironment({
    protocolVersions: [5, 6],
    minPort: 10000,
    maxPort: 25000,
    socketDir,
    clientCertPem: cert.certPem,
    sdkLogs: false,
  });
  const child = spawn(binary, [], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr.resume();
  const line = await new Promise((resolve, reject) => {
    let buf = "";
    child.stdout.on("data", (b) => {
      if (buf === undefined) return;
      buf += b.toString();
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        resolve(buf.slice(0, nl));
        buf = undefined;
      }
    });
    child.once("exit", () => reject(new Error("provider exited before the handshake")));
  });
  const [, , network, address, , certB64] = line.trim().split("|");
  if (network !== "unix") throw new Error(`unexpected network ${network}`);
  const serverPem = toPem(Buffer.from(certB64, "base64"), "CERTIFICATE");
  const baseUrl = "https://localhost";
  const sessionManager = new Http2SessionManager(baseUrl, {}, {
    createConnection: () =>
      tlsConnect({ path: address, ca: [serverPem], cert: cert.certPem, key: cert.keyPem, servername: "localhost", ALPNProtocols: ["h2"] }),
  });
  const transport = createGrpcTransport({ baseUrl, sessionManager, readMaxBytes: 2 ** 31 - 1 });
  const client = createClient(Provider, transport);
  const caps = { deferralAllowed: false, writeOnlyAttributesAllowed: true };
  const conf = await client.configure(
    create(Configure_RequestSchema, { terraformVersion: "1.11.4", config: { msgpack: configMsgpack }, clientCapabilities: caps }),
  );
  if (conf.diagnostics.some((d) => d.severity === 1)) throw new Error(`configure failed: ${conf.diagnostics[0].summary}`);
  const request = create(ReadDataSource_RequestSchema, {
    typeName,
    config: { msgpack: dataConfigMsgpack },
    clientCapabilities: caps,
    ...(providerMetaMsgpack === undefined ? {} : { providerMeta: { msgpack: providerMetaMsgpack } }),
  });
  return {
    pid: child.pid,
    async readDataSource() {
      const r = await client.readDataSource(request);
      if (r.diagnostics.length > 0 || r.state === undefined) throw new Error("ReadDataSource failed");
      return r;
    },
    async close() {
      sessionManager.abort();
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Transport } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { splitTcpAddress, type PluginNetwork } from "../../handshake.js";
import { toPem } from "../auto-mtls/client-certificate.js";
import { createUnaryGrpcTransport } from "./unary-grpc-transport.js";
import { transportError } from "@magma/provider-api";

/**
 * The TLS material of an AutoMTLS connection.
 *
 * @internal
 */
export type GrpcTlsConfig = {
  /** The server certificate from the handshake line (DER); the only trusted root. */
  readonly serverCertificate: Uint8Array;
  /** Our client certificate (PEM). */
  readonly clientCertPem: string;
  /** Our client private key (PEM). */
  readonly clientKeyPem: string;
};

/**
 * Where and how to connect.
 *
 * @internal
 */
export type GrpcConnectionOptions = {
  readonly network: PluginNetwork;
  readonly address: string;
  /** AutoMTLS material, or `undefined` for plaintext HTTP/2. */
  readonly tls: GrpcTlsConfig | undefined;
  /** The largest message accepted from the plugin (default 2^31 − 1, go-plugin's limit). */
  readonly readMaxBytes?: number;
  /** The largest message sent to the plugin (default 2^31 − 1). */
  readonly writeMaxBytes?: number;
};

/**
 * An HTTP/2 gRPC connection to a plugin.
 *
 * @internal
 */
export type GrpcConnection = {
  /** The connect transport over this connection. */
  readonly transport: Transport;
  /** Opens the HTTP/2 session (and the TLS handshake) now. */
  open(): Promise<void>;
  /** Closes the HTTP/2 session and every stream on it. */
  close(): void;
};

/** go-plugin clients accept messages up to MaxInt32 bytes. */
const MAX_INT32 = 2 ** 31 - 1;

/**
 * Creates a gRPC connection over HTTP/2 to a unix socket or a 127.0.0.1 tcp port, plaintext
 * or with AutoMTLS: the server certificate from the handshake is the only trusted root
 * (no system CAs), the server name is `localhost`, ALPN `h2`, and our client certificate is
 * presented.
 *
 * @internal
 */
export function createGrpcConnection(options: GrpcConnectionOptions): GrpcConnection {
  const { network, address, tls } = options;
  const dial = (): Socket => {
    const where =
      network === "unix" ? { path: address } : { ...splitTcpAddress(address) };
    if (tls === undefined) return netConnect(where);
    return tlsConnect({
      ...where,
      ca: [toPem(tls.serverCertificate, "CERTIFICATE")],
      cert: tls.clientCertPem,
      key: tls.clientKeyPem,
      servername: "localhost",
      ALPNProtocols: ["h2"],
      minVersion: "TLSv1.2",
    });
  };
  // The authority only names the :authority header and scheme; the socket comes from dial().
  const baseUrl = `${tls === undefined ? "http" : "https"}://localhost`;
  const sessionManager = new Http2SessionManager(
    baseUrl,
    {},
    { createConnection: dial },
  );
  const readMaxBytes = options.readMaxBytes ?? MAX_INT32;
  const writeMaxBytes = options.writeMaxBytes ?? MAX_INT32;
  // Unary calls (every provider RPC, GRPCController/Shutdown) go over the session directly:
  // connect-node's generic pipeline cost more host CPU per call than the call's own work
  // (see the package README). Streaming calls (GRPCStdio) keep connect-node's transport.
  const streaming = createGrpcTransport({ baseUrl, sessionManager, readMaxBytes, writeMaxBytes });
  const transport = createUnaryGrpcTransport({ session: sessionManager, streaming, readMaxBytes, writeMaxBytes });
  return {
    transport,
    async open(): Promise<void> {
      const state = await sessionManager.connect();
      if (state === "error") {
        const cause = sessionManager.error();
        throw transportError(
          `cannot connect to plugin at ${network}:${address}: ${cause instanceof Error ? cause.message : String(cause)}`,
          { cause },
        );
      }
    },
    close(): void {
      sessionManager.abort();
    },
  };
}

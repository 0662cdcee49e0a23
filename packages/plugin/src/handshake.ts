import { handshakeFailedError } from "@magma/provider-api";
import { protocolMismatch } from "./internal/error-map/protocol-mismatch.js";

/**
 * The network kinds a go-plugin server may listen on (a field of `ReattachConfig`).
 */
export const PluginNetwork = {
  /** A unix domain socket (Linux, macOS). */
  Unix: "unix",
  /** A TCP port on 127.0.0.1 (Windows). */
  Tcp: "tcp",
} as const;

/** One of {@link PluginNetwork}'s values. */
export type PluginNetwork = (typeof PluginNetwork)[keyof typeof PluginNetwork];

/**
 * A parsed go-plugin handshake line (`CORE|APP|NET|ADDR|PROTO|CERT[|MUX]`).
 *
 * Sibling-only (what `parseHandshakeLine` of `@magma/plugin/internal` returns).
 */
export type Handshake = {
  /** The go-plugin core protocol version; always 1. */
  readonly coreVersion: 1;
  /** The negotiated application protocol version (5 or 6 for Terraform providers). */
  readonly protocolVersion: number;
  /** Where the server listens. */
  readonly network: PluginNetwork;
  /** The socket path (`unix`) or `host:port` (`tcp`). */
  readonly address: string;
  /** The RPC protocol; Terraform only allows `grpc`. */
  readonly protocol: "grpc";
  /** The server's AutoMTLS certificate (DER), when the CERT field carried one. */
  readonly serverCertificate: Uint8Array | undefined;
  /** Whether the server announced gRPC broker multiplexing (the 7th field). */
  readonly multiplexed: boolean;
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DECIMAL = /^[0-9]+$/;
/** go-plugin uses the CERT field only when it is longer than this. */
const CERT_MIN_LENGTH = 50;

/**
 * Parses the first stdout line of a go-plugin server, as go-plugin's client does, but
 * validating every field.
 *
 * The line is trimmed, then split on `|`. CORE must be `1`; APP a decimal version that is
 * one of `offeredVersions`; NET `unix` or `tcp`; ADDR a non-empty path, or `host:port` for
 * tcp; PROTO `grpc`; CERT (optional, used only when longer than 50 characters) the server
 * certificate as standard base64 DER, padding optional; MUX (optional) `true` or `false`.
 *
 * @param line - the first line the plugin printed on stdout
 * @param offeredVersions - the versions sent in `PLUGIN_PROTOCOL_VERSIONS`
 * @throws ProviderError `handshake_failed` naming the bad field, or `protocol_mismatch`
 *   ("incompatible API version with plugin…") when the plugin chose a version we did not
 *   offer (a go-plugin server answers with its lowest version when nothing matches).
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export function parseHandshakeLine(line: string, offeredVersions: readonly number[]): Handshake {
  const text = line.trim();
  const fail = (why: string): never => {
    throw handshakeFailedError(`${why} in handshake line ${JSON.stringify(abbreviate(text))}`, {
      line: text,
    });
  };
  const parts = text.split("|");
  if (parts.length < 4 || text === "") {
    throw handshakeFailedError(
      `Unrecognized remote plugin message: ${JSON.stringify(abbreviate(text))}; ` +
        "this usually means the plugin was not built for go-plugin, or printed to stdout before the handshake",
      { line: text },
    );
  }
  if (parts.length < 5) fail("missing PROTO field (field 5)");
  if (parts.length > 7) fail(`too many fields (${parts.length}, at most 7)`);
  const [core, app, net, addr, proto, cert, mux] = parts as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];

  if (core !== "1") fail(`unsupported core protocol version ${JSON.stringify(core)} (field 1, must be 1)`);

  if (!DECIMAL.test(app) || app.length > 9) {
    fail(`invalid protocol version ${JSON.stringify(app)} (field 2, must be a decimal number)`);
  }
  const protocolVersion = Number.parseInt(app, 10);

  if (net !== PluginNetwork.Unix && net !== PluginNetwork.Tcp) {
    fail(`unsupported network ${JSON.stringify(net)} (field 3, must be unix or tcp)`);
  }
  const network = net as PluginNetwork;

  if (addr === "") fail("empty address (field 4)");
  if (network === PluginNetwork.Tcp) validateTcpAddress(addr, fail);
  if (addr.includes("\0")) fail("address contains a NUL byte (field 4)");

  if (proto !== "grpc") {
    fail(
      proto === "netrpc"
        ? "the plugin speaks net/rpc (field 5); only grpc is supported"
        : `unsupported RPC protocol ${JSON.stringify(proto)} (field 5, must be grpc)`,
    );
  }

  let serverCertificate: Uint8Array | undefined;
  if (cert !== undefined && cert.length > CERT_MIN_LENGTH) {
    if (!BASE64.test(cert)) fail("server certificate is not standard base64 (field 6)");
    const der = Buffer.from(cert, "base64");
    // A DER certificate is a SEQUENCE (0x30) with a long-form length.
    if (der.length < 64 || der[0] !== 0x30) fail("server certificate is not a DER certificate (field 6)");
    serverCertificate = new Uint8Array(der);
  }

  if (mux !== undefined && mux !== "true" && mux !== "false" && mux !== "") {
    fail(`invalid multiplexing flag ${JSON.stringify(mux)} (field 7, must be true or false)`);
  }

  if (!offeredVersions.includes(protocolVersion)) {
    throw protocolMismatch(protocolVersion, offeredVersions);
  }

  return {
    coreVersion: 1,
    protocolVersion,
    network,
    address: addr,
    protocol: "grpc",
    serverCertificate,
    multiplexed: mux === "true",
  };
}

function validateTcpAddress(addr: string, fail: (why: string) => never): void {
  const colon = addr.lastIndexOf(":");
  if (colon <= 0) fail(`tcp address ${JSON.stringify(addr)} is not host:port (field 4)`);
  const host = addr.slice(0, colon);
  const port = addr.slice(colon + 1);
  if (!DECIMAL.test(port) || Number(port) < 1 || Number(port) > 65535) {
    fail(`invalid tcp port ${JSON.stringify(port)} (field 4)`);
  }
  if (host.startsWith("[") !== host.endsWith("]")) fail(`invalid tcp host ${JSON.stringify(host)} (field 4)`);
}

function abbreviate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Splits a `host:port` tcp address into its parts (brackets of an IPv6 host removed).
 *
 * @internal
 */
export function splitTcpAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(":");
  let host = address.slice(0, colon);
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return { host, port: Number(address.slice(colon + 1)) };
}

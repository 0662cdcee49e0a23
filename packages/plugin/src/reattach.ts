import { PluginNetwork } from "./handshake.js";
import { handshakeFailedError } from "@magma/provider-api";

/**
 * One entry of a `TF_REATTACH_PROVIDERS` description: a provider process that is already
 * running (debug mode, or a test harness).
 */
export type ReattachConfig = {
  /** The RPC protocol; only `grpc`. */
  readonly protocol: "grpc";
  /** The protocol version (0 in the JSON means 5). */
  readonly protocolVersion: number;
  /** The process id. */
  readonly pid: number;
  /** Test mode: the client never sends Shutdown and never kills the process. */
  readonly test: boolean;
  /** `unix` or `tcp`. */
  readonly network: PluginNetwork;
  /** The socket path or `host:port`. */
  readonly address: string;
};

/**
 * Parses a `TF_REATTACH_PROVIDERS` JSON object, keyed by provider source address:
 * `{"registry.terraform.io/hashicorp/aws":{"Protocol":"grpc","ProtocolVersion":5,"Pid":123,
 * "Test":true,"Addr":{"Network":"unix","String":"/tmp/plugin..."}}}`.
 *
 * `Protocol` may be omitted or empty (grpc is assumed), `ProtocolVersion` 0 or omitted
 * means 5, `Test` defaults to false.
 *
 * @throws ProviderError `handshake_failed` naming the provider and field that is wrong.
 */
export function parseReattachProviders(json: string | unknown): Record<string, ReattachConfig> {
  let value: unknown = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw handshakeFailedError(`TF_REATTACH_PROVIDERS is not valid JSON: ${(e as Error).message}`, { cause: e });
    }
  }
  if (!isRecord(value)) throw handshakeFailedError("TF_REATTACH_PROVIDERS must be a JSON object keyed by provider address");
  const out: Record<string, ReattachConfig> = {};
  for (const [provider, entry] of Object.entries(value)) {
    const fail = (why: string): never => {
      throw handshakeFailedError(`TF_REATTACH_PROVIDERS[${JSON.stringify(provider)}]: ${why}`);
    };
    if (!isRecord(entry)) fail("must be an object");
    const e = entry as Record<string, unknown>;
    const protocol = e["Protocol"] ?? "grpc";
    if (protocol !== "grpc" && protocol !== "") fail(`Protocol ${JSON.stringify(protocol)} is not supported (only grpc)`);
    const version = e["ProtocolVersion"] ?? 0;
    if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
      fail(`ProtocolVersion must be a non-negative integer, got ${JSON.stringify(version)}`);
    }
    const pid = e["Pid"];
    if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) fail(`Pid must be a positive integer, got ${JSON.stringify(pid)}`);
    const test = e["Test"] ?? false;
    if (typeof test !== "boolean") fail(`Test must be a boolean, got ${JSON.stringify(test)}`);
    const addr = e["Addr"];
    if (!isRecord(addr)) fail("Addr must be an object with Network and String");
    const a = addr as Record<string, unknown>;
    const network = a["Network"];
    if (network !== PluginNetwork.Unix && network !== PluginNetwork.Tcp) {
      fail(`Addr.Network must be unix or tcp, got ${JSON.stringify(network)}`);
    }
    const address = a["String"];
    if (typeof address !== "string" || address === "") fail("Addr.String must be a non-empty string");
    out[provider] = {
      protocol: "grpc",
      protocolVersion: version === 0 ? 5 : (version as number),
      pid: pid as number,
      test: test as boolean,
      network: network as PluginNetwork,
      address: address as string,
    };
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import { PluginNetwork } from "./handshake.js";
import { handshakeFailed, pluginExited, type PluginExitStatus } from "./internal/error-map/plugin-error.js";
import { requestShutdown, safeLog, startStdioReader } from "./internal/plugin-services.js";
import { createGrpcConnection } from "./internal/transport/grpc-connection.js";
import { discardPluginLogger, PluginLogLevel, PluginLogSource, type PluginLogger } from "./plugin-logger.js";
import type { ClosePluginOptions, PluginProcess } from "./plugin-process.js";

/**
 * One entry of a `TF_REATTACH_PROVIDERS` description: a provider process that is already
 * running (debug mode, or a test harness).
 *
 * @internal
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
 * @throws PluginError `handshake_failed` naming the provider and field that is wrong.
 * @internal
 */
export function parseReattachProviders(json: string | unknown): Record<string, ReattachConfig> {
  let value: unknown = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw handshakeFailed(`TF_REATTACH_PROVIDERS is not valid JSON: ${(e as Error).message}`, { cause: e });
    }
  }
  if (!isRecord(value)) throw handshakeFailed("TF_REATTACH_PROVIDERS must be a JSON object keyed by provider address");
  const out: Record<string, ReattachConfig> = {};
  for (const [provider, entry] of Object.entries(value)) {
    const fail = (why: string): never => {
      throw handshakeFailed(`TF_REATTACH_PROVIDERS[${JSON.stringify(provider)}]: ${why}`);
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

/**
 * Options of {@link reattachPlugin}.
 *
 * @internal
 */
export type ReattachPluginOptions = {
  /** Where the stdio stream's output goes (default: discarded). */
  readonly logger?: PluginLogger;
  /** The largest message accepted from the plugin (default 2^31 − 1). */
  readonly readMaxBytes?: number;
  /** How often the process is polled for liveness (default 1000 ms). */
  readonly pollIntervalMs?: number;
};

/**
 * Connects to an already-running provider (unmanaged, as go-plugin's reattach): plaintext,
 * no handshake, no environment; the process is not registered for killing at host exit.
 * The `GRPCStdio` stream is opened. With `test: true`, `close()` only closes the
 * connection; otherwise it sends Shutdown, waits up to the grace period (polling the pid)
 * and then SIGKILLs the pid. `exited` is found by polling the pid (exit code and signal
 * are then unknown); stderr is not ours, so `stderrTail()` is empty.
 *
 * @throws PluginError `transport` when the address cannot be connected to.
 * @internal
 */
export async function reattachPlugin(config: ReattachConfig, options: ReattachPluginOptions = {}): Promise<PluginProcess> {
  const logger = options.logger ?? discardPluginLogger;
  const connection = createGrpcConnection({
    network: config.network,
    address: config.address,
    tls: undefined,
    ...(options.readMaxBytes !== undefined ? { readMaxBytes: options.readMaxBytes } : {}),
  });
  await connection.open();
  const stdio = startStdioReader(connection.transport, logger, config.pid);

  let status: PluginExitStatus | undefined;
  let resolveExited!: (s: PluginExitStatus) => void;
  const exited = new Promise<PluginExitStatus>((resolve) => (resolveExited = resolve));
  const poll = setInterval(() => {
    if (!isAlive(config.pid)) markExited();
  }, options.pollIntervalMs ?? 1000);
  poll.unref();
  function markExited(): void {
    if (status !== undefined) return;
    status = { exitCode: null, signal: null };
    clearInterval(poll);
    resolveExited(status);
  }
  const exitedWithin = async (ms: number): Promise<boolean> => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (!isAlive(config.pid)) {
        markExited();
        return true;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  };

  let closing: Promise<void> | undefined;
  return {
    transport: connection.transport,
    protocolVersion: config.protocolVersion,
    pid: config.pid,
    tls: false,
    network: config.network,
    address: config.address,
    managed: false,
    exited,
    exitStatus: () => status,
    stderrTail: () => "",
    panicExcerpt: () => undefined,
    exitError: () =>
      status === undefined
        ? undefined
        : pluginExited({ ...status, stderrTail: "", panicExcerpt: undefined }, "unexpectedly (reattached process)"),
    close(closeOptions: ClosePluginOptions = {}): Promise<void> {
      closing ??= (async () => {
        const graceMs = closeOptions.graceMs ?? 2000;
        if (closeOptions.beforeShutdown !== undefined) {
          try {
            await closeOptions.beforeShutdown();
          } catch {
            // Ignored, as for launched plugins.
          }
        }
        if (!config.test && status === undefined) await requestShutdown(connection.transport, graceMs);
        stdio.stop();
        connection.close();
        await stdio.done;
        if (config.test) {
          clearInterval(poll);
          return;
        }
        if (!(await exitedWithin(graceMs))) {
          safeLog(logger, {
            level: PluginLogLevel.Warn,
            message: `reattached plugin did not exit within ${graceMs} ms after Shutdown; killing it`,
            fields: {},
            source: PluginLogSource.Host,
            pid: config.pid,
          });
          try {
            process.kill(config.pid, "SIGKILL");
          } catch {
            // Gone in the meantime.
          }
          await exitedWithin(5000);
        }
        clearInterval(poll);
      })();
      return closing;
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: unknown }).code === "EPERM";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

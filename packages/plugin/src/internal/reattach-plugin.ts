import { pluginExited, type PluginExitStatus } from "./error-map/plugin-exited.js";
import { requestShutdown, startStdioReader } from "./plugin-services.js";
import { safeLog } from "./log/safe-log.js";
import { createGrpcConnection } from "./transport/grpc-connection.js";
import { discardPluginLogger, PluginLogLevel, PluginLogSource, type PluginLogger } from "../plugin-logger.js";
import type { ClosePluginOptions, PluginProcess } from "../plugin-process.js";
import type { ReattachConfig } from "../reattach.js";

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
 * @throws ProviderError `transport` when the address cannot be connected to.
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

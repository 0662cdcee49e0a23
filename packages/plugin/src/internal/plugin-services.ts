import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { GRPCController, GRPCStdio, StdioData_Channel } from "@magma/tfplugin/client";
import { PluginLogLevel, PluginLogSource, type PluginLogger } from "../plugin-logger.js";
import { StderrMonitor } from "./log/stderr-monitor.js";
import { safeLog } from "./log/safe-log.js";

/**
 * A running reader of the `plugin.GRPCStdio/StreamStdio` stream.
 *
 * @internal
 */
export type StdioReader = {
  /** Resolves when the stream ended (normally, by error, or by `stop`). */
  readonly done: Promise<void>;
  /** Stops reading (cancels the stream). */
  stop(): void;
};

/**
 * Opens `plugin.GRPCStdio/StreamStdio` and keeps reading it, routing the plugin's
 * post-handshake stdout/stderr to the logger line by line. UNIMPLEMENTED or UNAVAILABLE
 * mean the plugin has no stdio sync; other failures are logged as a warning.
 *
 * @internal
 */
export function startStdioReader(transport: Transport, logger: PluginLogger, pid: number | undefined): StdioReader {
  const abort = new AbortController();
  const out = new StderrMonitor(logger, PluginLogSource.StdioStdout, pid);
  const err = new StderrMonitor(logger, PluginLogSource.StdioStderr, pid);
  const client = createClient(GRPCStdio, transport);
  const done = (async () => {
    try {
      for await (const data of client.streamStdio({}, { signal: abort.signal })) {
        if (data.channel === StdioData_Channel.STDOUT) out.push(data.data);
        else if (data.channel === StdioData_Channel.STDERR) err.push(data.data);
      }
    } catch (e) {
      const code = ConnectError.from(e).code;
      if (!abort.signal.aborted && code !== Code.Unimplemented && code !== Code.Unavailable && code !== Code.Canceled) {
        safeLog(logger, {
          level: PluginLogLevel.Warn,
          message: `plugin stdio stream failed: ${ConnectError.from(e).message}`,
          fields: {},
          source: PluginLogSource.Host,
          ...(pid !== undefined ? { pid } : {}),
        });
      }
    } finally {
      out.end();
      err.end();
    }
  })();
  return {
    done,
    stop(): void {
      abort.abort();
    },
  };
}

/**
 * Calls `plugin.GRPCController/Shutdown`. The server stops before it answers, so a dropped
 * stream or connection counts as success: UNAVAILABLE, CANCELED (the server resets the
 * stream: "http/2 stream closed with error code CANCEL"; this call has no signal of its own,
 * so nothing else cancels it), or a connection reset (ECONNRESET / EPIPE) that the HTTP/2
 * client reports as INTERNAL when the socket closes mid-reply. Like go-plugin,
 * every error is ignored (the caller goes on to wait for the exit and kill). Returns whether
 * the call looked successful.
 *
 * @internal
 */
export async function requestShutdown(transport: Transport, timeoutMs: number): Promise<boolean> {
  const client = createClient(GRPCController, transport);
  try {
    await client.shutdown({}, { timeoutMs });
    return true;
  } catch (e) {
    const ce = ConnectError.from(e);
    if (ce.code === Code.Unavailable || ce.code === Code.Canceled) return true;
    return (ce.code === Code.Internal || ce.code === Code.Unknown) && /\b(ECONNRESET|EPIPE)\b/.test(ce.rawMessage);
  }
}

import { Code, ConnectError } from "@connectrpc/connect";
import {
  canceled,
  deadlineExceeded,
  isPluginError,
  pluginExited,
  transportError,
  type PluginError,
  type PluginExitStatus,
} from "./plugin-error.js";

/**
 * What {@link errorFromCall} needs to know about the plugin process.
 *
 * @internal
 */
export type CallErrorContext = {
  readonly exited: Promise<PluginExitStatus>;
  exitError(): PluginError | undefined;
};

/** How long an UNAVAILABLE call waits for the process exit to be noticed. */
const EXIT_SETTLE_MS = 250;

/**
 * Maps the failure of a gRPC call to a plugin into a {@link PluginError}: the caller's abort
 * → `canceled`; a timeout → `deadline_exceeded`; a call that failed because the plugin
 * process died (UNAVAILABLE, or any code once the process has exited) → `plugin_exited`
 * with exit code, signal, stderr tail and panic excerpt, in Terraform's words ("failed to
 * respond to the X call"); anything else → `transport` with the gRPC code name.
 *
 * @param method - the RPC, e.g. `tfplugin5.Provider/GetSchema`, for the message
 * @internal
 */
export async function errorFromCall(error: unknown, plugin: CallErrorContext, method: string): Promise<PluginError> {
  if (isPluginError(error)) return error;
  const ce = ConnectError.from(error);
  if (ce.code === Code.Canceled) return canceled(`the ${method} call was canceled`, ce);
  if (ce.code === Code.DeadlineExceeded) return deadlineExceeded(`the ${method} call timed out: ${ce.rawMessage}`);
  let exit = plugin.exitError();
  if (exit === undefined && ce.code === Code.Unavailable) {
    await Promise.race([plugin.exited, new Promise((r) => setTimeout(r, EXIT_SETTLE_MS).unref())]);
    exit = plugin.exitError();
  }
  if (exit !== undefined && exit.detail.code === "plugin_exited") {
    const { code: _code, ...detail } = exit.detail;
    return pluginExited(detail, `and failed to respond to the ${method} call`, ce);
  }
  return transportError(`the ${method} call failed: [${Code[ce.code]}] ${ce.rawMessage}`, ce, Code[ce.code]);
}

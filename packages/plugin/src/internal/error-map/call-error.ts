import { Code, ConnectError } from "@connectrpc/connect";
import { canceledError, deadlineExceededError, isProviderError, transportError, type AnyProviderError } from "@magma/provider-api";
import { pluginExited, type PluginExitStatus } from "./plugin-exited.js";
import type { SecretRedactor } from "../log/secret-redactor.js";

/**
 * What {@link errorFromCall} needs to know about the plugin process.
 *
 * @internal
 */
export type CallErrorContext = {
  readonly exited: Promise<PluginExitStatus>;
  exitError(): AnyProviderError | undefined;
  /** The binary's name, for messages. */
  readonly binary?: string | undefined;
  /** Where the connection records the secrets it sees (see `SecretRedactor`). */
  readonly secrets?: SecretRedactor | undefined;
};

/** How long an UNAVAILABLE call waits for the process exit to be noticed. */
const EXIT_SETTLE_MS = 250;
/** gRPC codes a call ends with when the plugin process dies under it. */
const SETTLE_CODES: ReadonlySet<Code> = new Set([Code.Unavailable, Code.Canceled, Code.Aborted, Code.Internal, Code.Unknown]);

/**
 * Maps the failure of a gRPC call to a plugin into a {@link AnyProviderError}: a call that failed
 * because the plugin process died (UNAVAILABLE, CANCELED, ABORTED, INTERNAL or UNKNOWN while it
 * exits, or any code once it has exited) → `plugin_exited` with exit code, signal, stderr
 * tail and panic excerpt, in Terraform's words ("failed to respond to the X call"), naming
 * the binary; otherwise CANCELED → `canceled`; a timeout → `deadline_exceeded`; anything
 * else → `transport` with the gRPC code name.
 *
 * @param method - the RPC, e.g. `tfplugin5.Provider/GetSchema`, for the message
 * @internal
 */
export async function errorFromCall(error: unknown, plugin: CallErrorContext, method: string): Promise<AnyProviderError> {
  if (isProviderError(error)) return error;
  const ce = ConnectError.from(error);
  if (ce.code === Code.DeadlineExceeded) return deadlineExceededError(`the ${method} call timed out: ${ce.rawMessage}`);
  // The caller's own cancellation never gets here (the RPC layer maps it first), so a
  // CANCELED, like UNAVAILABLE, INTERNAL or UNKNOWN, may be the connection dropping
  // because the plugin died (a SIGKILL or a panic mid-call resets the HTTP/2 streams).
  let exit = plugin.exitError();
  if (exit === undefined && SETTLE_CODES.has(ce.code)) {
    await Promise.race([plugin.exited, new Promise((r) => setTimeout(r, EXIT_SETTLE_MS).unref())]);
    exit = plugin.exitError();
  }
  if (exit !== undefined && exit.detail.code === "plugin_exited") {
    const { code: _code, ...detail } = exit.detail;
    return pluginExited(detail, `and failed to respond to the ${method} call`, ce, plugin.binary);
  }
  if (ce.code === Code.Canceled) return canceledError(`the ${method} call was canceled`, { cause: ce });
  return transportError(`the ${method} call failed: [${Code[ce.code]}] ${ce.rawMessage}`, { cause: ce, grpcCode: Code[ce.code] });
}

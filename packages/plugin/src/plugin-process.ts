import type { Transport } from "@connectrpc/connect";
import type { AnyProviderError } from "@magma/provider-api";
import type { PluginExitStatus } from "./internal/error-map/plugin-exited.js";
import type { SecretRedactor } from "./internal/log/secret-redactor.js";

/**
 * Options of {@link PluginProcess.close}.
 *
 * @internal
 */
export type ClosePluginOptions = {
  /**
   * Runs first, while the connection is still open (the RPC layer sends `StopProvider`
   * here if it wants to); its errors are ignored.
   */
  readonly beforeShutdown?: () => Promise<void> | void;
  /** How long to wait for the process to exit after Shutdown before SIGKILL (default 2000 ms, as go-plugin). */
  readonly graceMs?: number;
};

/**
 * A connected provider process (launched, or reattached), as the RPC layer sees it.
 *
 * Not public API: `transport` is a connect `Transport`, which must not leak into the
 * package's public types; the RPC layer wraps this.
 *
 * @internal
 */
export type PluginProcess = {
  /** The gRPC transport (HTTP/2, AutoMTLS or plaintext) to the plugin. */
  readonly transport: Transport;
  /** The negotiated protocol version (5 or 6). */
  readonly protocolVersion: number;
  /** The process id (for a reattached plugin: the id it announced). */
  readonly pid: number;
  /** Whether the connection uses AutoMTLS. */
  readonly tls: boolean;
  /** The network and address the plugin listens on. */
  readonly network: "unix" | "tcp";
  /** The socket path, or `host:port`. */
  readonly address: string;
  /** Whether the host owns the process (false for reattached plugins). */
  readonly managed: boolean;
  /** The binary's file name, for messages (undefined for a reattached plugin). */
  readonly binary?: string | undefined;
  /**
   * Resolves when the process has exited (never rejects). For a reattached plugin the
   * process is polled, and the exit code and signal are unknown (`null`).
   */
  readonly exited: Promise<PluginExitStatus>;
  /** The exit status, once the process has exited. */
  exitStatus(): PluginExitStatus | undefined;
  /**
   * The secrets this connection saw, redacted from the stderr text its errors carry (absent
   * for a reattached plugin, whose stderr is not ours).
   */
  readonly secrets?: SecretRedactor;
  /** The last lines of the plugin's stderr (bounded, at most ~64 KiB / 200 lines), unredacted: for the logger, never for errors. */
  stderrTail(): string;
  /** The Go crash report (from `panic: ` / `fatal error: ` to the end, bounded), if any. */
  panicExcerpt(): string | undefined;
  /**
   * A `plugin_exited` error describing the exit (code, signal, stderr tail, panic
   * excerpt), or `undefined` while the process runs. Its tail holds only warning, error
   * and unlevelled lines, with the secrets the connection saw and anything credential-like
   * redacted.
   */
  exitError(): AnyProviderError | undefined;
  /**
   * Shuts the plugin down as Terraform does: the `beforeShutdown` hook,
   * `GRPCController.Shutdown` (UNAVAILABLE counts as success), closing the HTTP/2 session,
   * up to `graceMs` for the exit, then SIGKILL; finally removes the socket file and the
   * private socket directory. Idempotent; never rejects. A reattached plugin in test mode
   * is neither shut down nor killed: only the connection is closed.
   */
  close(options?: ClosePluginOptions): Promise<void>;
};

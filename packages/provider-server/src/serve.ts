import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createSecureServer, createServer, type Http2SecureServer, type Http2Server, type Http2Session } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, type ConnectNodeAdapterOptions } from "@connectrpc/connect-node";
import { TF_PLUGIN_MAGIC_COOKIE_KEY, TF_PLUGIN_MAGIC_COOKIE_VALUE, createClientCertificate } from "@magma/plugin/internal";
import { GRPCController, GRPCStdio, Health, HealthCheckResponse_ServingStatus, StdioData_Channel, Tfplugin5Provider, Tfplugin6Provider } from "@magma/tfplugin";
import type { Provider } from "@magma/provider-api";
import { createHclogLogger, parseLogLevel, type HclogLogger, type LineSink, type LogLevel } from "./internal/hclog.js";
import { createProviderHandlers } from "./internal/provider-service.js";
import { StdioForwarder } from "./internal/stdio-forwarder.js";
import { ServeError } from "./serve-error.js";

/** The protocol versions a server can speak. */
export type ServedProtocolVersion = 5 | 6;

/** Where {@link serve} writes: anything with a `write(text)` method (a stream, a test buffer). */
export interface TextSink {
  /** Writes text (one or more whole lines). */
  write(text: string): unknown;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /**
   * The protocol versions to speak (default `[5, 6]`). The server picks the highest one the
   * client offers in `PLUGIN_PROTOCOL_VERSIONS`; when they share none it answers with its
   * lowest (as go-plugin does, so the client can report the mismatch). In debug mode the
   * highest is used.
   */
  readonly protocolVersions?: readonly ServedProtocolVersion[];
  /**
   * Debug mode: no magic cookie, plaintext, and instead of the handshake line a
   * `TF_REATTACH_PROVIDERS='{…}'` line on stdout for Terraform (or magma's
   * `dialProvider({ reattach })`) to attach to; the server runs until closed (or, with
   * `exit`, until SIGINT/SIGTERM). Needs `providerAddress`.
   */
  readonly debug?: boolean;
  /** The provider's source address, the key of the reattach entry in debug mode (e.g. `registry.terraform.io/magma/random`). */
  readonly providerAddress?: string;
  /** The environment to read the go-plugin variables from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the handshake (or reattach) line goes (default `process.stdout`). Nothing else is written there. */
  readonly stdout?: TextSink;
  /** Where hclog JSON log lines go (default `process.stderr`). */
  readonly stderr?: TextSink;
  /**
   * The least level logged: `trace`, `debug`, `info`, `warn`, `error` or `off`. Default:
   * `TF_LOG_PROVIDER`, else `TF_LOG` from the environment, else `info`.
   */
  readonly logLevel?: "trace" | "debug" | "info" | "warn" | "error" | "off";
  /** The `@module` of log lines (default `"provider"`). */
  readonly name?: string;
  /**
   * Let `serve` end the process as a go-plugin server does (default `true`): exit 1 after
   * the "This binary is a plugin" message when the magic cookie is missing, exit 0 after
   * `GRPCController.Shutdown`, ignore SIGINT (Terraform stops work with StopProvider
   * instead), and carry later stdout writes to the GRPCStdio stream. With `false`, `serve`
   * rejects with {@link ServeError} `not_a_plugin` instead and Shutdown only closes the
   * server — for running a server inside another program or a test.
   */
  readonly exit?: boolean;
}

/** A running provider server. */
export interface ProviderServer {
  /** The negotiated protocol version. */
  readonly protocolVersion: ServedProtocolVersion;
  /** Always `unix`. */
  readonly network: "unix";
  /** The socket path. */
  readonly address: string;
  /** Whether the connection uses go-plugin's AutoMTLS. */
  readonly tls: boolean;
  /** The line written to stdout: the go-plugin handshake, or the `TF_REATTACH_PROVIDERS='…'` line in debug mode. */
  readonly line: string;
  /** In debug mode, the `TF_REATTACH_PROVIDERS` JSON; otherwise undefined. */
  readonly reattach: string | undefined;
  /** Resolves once the server is closed (by {@link ProviderServer.close} or GRPCController.Shutdown). */
  readonly closed: Promise<void>;
  /** Stops the server: ends every connection and removes the socket. Idempotent. */
  close(): Promise<void>;
}

/** The go-plugin core protocol version. */
const CORE_PROTOCOL_VERSION = 1;
/** The largest gRPC message accepted or sent (go-plugin clients allow MaxInt32). */
const MAX_MESSAGE = 2 ** 31 - 1;
/** Unix socket paths are limited to 108 bytes on Linux and 104 on macOS. */
const MAX_SOCKET_PATH = 103;

const NOT_A_PLUGIN =
  "This binary is a plugin. These are not meant to be executed directly.\n" +
  "Please execute the program that consumes these plugins, which will\n" +
  "load any plugins automatically\n";

/**
 * Serves a {@link Provider} to Terraform as a go-plugin gRPC plugin — the server side of
 * what `terraform` does when it launches a provider:
 *
 * 1. checks the magic cookie (`TF_PLUGIN_MAGIC_COOKIE`), with go-plugin's message for a
 *    binary run by hand;
 * 2. negotiates the protocol version from `PLUGIN_PROTOCOL_VERSIONS` (6 preferred, 5 supported);
 * 3. listens on a unix socket in `PLUGIN_UNIX_SOCKET_DIR` (default: the temp dir), made
 *    0660 for `PLUGIN_UNIX_SOCKET_GROUP` (a numeric gid);
 * 4. with `PLUGIN_CLIENT_CERT` set, serves AutoMTLS: a go-plugin style server certificate
 *    (ECDSA P-521, CN/SAN localhost), the client's certificate required and trusted alone,
 *    TLS ≥ 1.2, ALPN h2; plaintext HTTP/2 otherwise;
 * 5. serves `tfplugin5.Provider` or `tfplugin6.Provider` over the provider, the health
 *    service ("plugin" SERVING), `plugin.GRPCController/Shutdown` and
 *    `plugin.GRPCStdio/StreamStdio`; anything else answers UNIMPLEMENTED;
 * 6. writes the handshake line `1|<version>|unix|<socket>|grpc|<cert>` — the certificate as
 *    unpadded base64 DER — alone on stdout, and logs hclog JSON lines on stderr.
 *
 * The tfplugin mapping: values are decoded and encoded with the provider's schema (a value
 * that does not fit becomes an error diagnostic with its attribute path); warnings and the
 * contract's errors become diagnostics (`diagnostics` errors give their own; a
 * `partially_applied` apply sends its new state together with its errors, so Terraform
 * keeps the object, tainted on create; other errors give one error diagnostic); a
 * `readResource` that finds the object gone is a null new state with its warnings; an `importResourceState` of `null` is the
 * error "Cannot import non-existent remote object". Validate* and PrepareProviderConfig
 * check that the configuration decodes; StopProvider cancels the calls in flight (their
 * `signal` fires). The server announces `plan_destroy` and `get_provider_schema_optional`.
 * Ephemeral resource types are served when the provider is an `EphemeralResourceOpener`
 * (Validate/Open/Renew/CloseEphemeralResource, `renew_at` as a timestamp), functions when it
 * is a `FunctionCaller`; otherwise they are left out of GetProviderSchema and GetMetadata,
 * so Terraform never sends an RPC the provider cannot answer.
 *
 * @param provider The provider, or a function making it (called once, after the cookie check).
 * @throws {@link ServeError} `not_a_plugin` (with `exit: false`), `invalid_environment`,
 * `listen_failed`, `provider_failed`.
 */
export async function serve(provider: Provider | (() => Provider | Promise<Provider>), options: ServeOptions = {}): Promise<ProviderServer> {
  const io = serveIo(options);
  const { env, logger, debug, exit } = io;
  checkInvocation(io, options);
  const version = chooseVersion(options, env, debug);
  const impl = await resolveProvider(provider);

  // AutoMTLS when the client asks for it.
  const clientCertPem = debug ? undefined : env["PLUGIN_CLIENT_CERT"];
  const tls = clientCertPem !== undefined && clientCertPem.trim() !== "" ? await createClientCertificate() : undefined;
  const { socketPath, ownDir } = socketLocation(env, debug);

  const forwarder = new StdioForwarder();
  let closing: Promise<void> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const onShutdown = (): void => {
    void close().then(() => {
      if (exit) process.exit(0);
    });
  };
  const handler = connectNodeAdapter({
    routes: pluginRoutes(version, createProviderHandlers(impl, logger), forwarder, logger, onShutdown),
    grpc: true,
    connect: false,
    grpcWeb: false,
    readMaxBytes: MAX_MESSAGE,
    writeMaxBytes: MAX_MESSAGE,
    fallback: unimplemented,
  });
  const { server, sessions } = await listen(handler, tls, clientCertPem, socketPath, logger);
  applySocketGroup(socketPath, env["PLUGIN_UNIX_SOCKET_GROUP"], logger);

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      forwarder.end();
      server.close(() => resolve());
      for (const s of sessions) s.destroy();
      setTimeout(resolve, 1000).unref();
    }).then(() => {
      rmSync(socketPath, { force: true });
      if (ownDir !== undefined) rmSync(ownDir, { recursive: true, force: true });
      resolveClosed();
    });
    return closing;
  };

  const { line, reattach } = announcement(options, debug, version, socketPath, tls);
  logger.log("debug", "plugin address", { address: socketPath, network: "unix", protocol_version: version, tls: tls !== undefined });
  io.stdout.write(`${line}\n`);
  if (exit) attachToProcess(io, options, line, forwarder, close);

  return {
    protocolVersion: version,
    network: "unix",
    address: socketPath,
    tls: tls !== undefined,
    line,
    reattach,
    closed,
    close,
  };
}

/** Where {@link serve} reads and writes, and how it behaves: the options with their defaults. */
interface ServeIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: LineSink;
  readonly stderr: LineSink;
  readonly exit: boolean;
  readonly debug: boolean;
  readonly logger: HclogLogger;
}

/** Step 1: the environment, the output sinks and the hclog logger. */
function serveIo(options: ServeOptions): ServeIo {
  const env = options.env ?? process.env;
  const stderr: LineSink = options.stderr ?? process.stderr;
  const level: LogLevel = options.logLevel ?? parseLogLevel(env["TF_LOG_PROVIDER"]) ?? parseLogLevel(env["TF_LOG"]) ?? "info";
  return {
    env,
    stdout: options.stdout ?? process.stdout,
    stderr,
    exit: options.exit ?? true,
    debug: options.debug === true,
    logger: createHclogLogger(stderr, level, options.name ?? "provider"),
  };
}

/** Step 2: started by Terraform (the magic cookie), or in debug mode with a provider address. */
function checkInvocation(io: ServeIo, options: ServeOptions): void {
  if (!io.debug && io.env[TF_PLUGIN_MAGIC_COOKIE_KEY] !== TF_PLUGIN_MAGIC_COOKIE_VALUE) {
    io.stderr.write(NOT_A_PLUGIN);
    if (io.exit) process.exit(1);
    throw new ServeError("not_a_plugin", "TF_PLUGIN_MAGIC_COOKIE is missing or wrong: this program is a Terraform provider and must be started by Terraform");
  }
  if (io.debug && (options.providerAddress === undefined || options.providerAddress === "")) {
    throw new ServeError("invalid_options", "debug mode needs providerAddress (the key of the TF_REATTACH_PROVIDERS entry, e.g. registry.terraform.io/magma/random)");
  }
}

/** Step 3: the protocol version (the highest supported in debug mode, else negotiated). */
function chooseVersion(options: ServeOptions, env: Readonly<Record<string, string | undefined>>, debug: boolean): ServedProtocolVersion {
  const supported: ServedProtocolVersion[] = [...new Set<ServedProtocolVersion>(options.protocolVersions ?? [5, 6])].sort((a, b) => a - b);
  if (supported.length === 0 || supported.some((v) => v !== 5 && v !== 6)) {
    throw new ServeError("invalid_options", `protocolVersions must be a non-empty list of 5 and 6, got ${JSON.stringify(options.protocolVersions)}`);
  }
  return debug ? supported[supported.length - 1]! : negotiate(supported, env["PLUGIN_PROTOCOL_VERSIONS"]);
}

/** Step 4: the provider (the factory is called once, after the cookie check). */
async function resolveProvider(provider: Provider | (() => Provider | Promise<Provider>)): Promise<Provider> {
  let impl: Provider;
  try {
    impl = typeof provider === "function" ? await provider() : provider;
  } catch (cause) {
    throw new ServeError("provider_failed", `the provider factory failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (typeof impl !== "object" || impl === null || typeof impl.getSchema !== "function" || typeof impl.planResourceChange !== "function") {
    throw new ServeError("provider_failed", "serve needs a Provider (an object with the 8 operations of @magma/provider-api)");
  }
  return impl;
}

/** Step 5: the socket path (in `PLUGIN_UNIX_SOCKET_DIR`, or a directory of its own in debug mode). */
function socketLocation(env: Readonly<Record<string, string | undefined>>, debug: boolean): { socketPath: string; ownDir: string | undefined } {
  let socketDir = env["PLUGIN_UNIX_SOCKET_DIR"] || tmpdir();
  let ownDir: string | undefined;
  if (debug) {
    ownDir = mkdtempSync(join(socketDir, "magma-debug-"));
    socketDir = ownDir;
  }
  const socketPath = join(socketDir, `plugin${randomBytes(5).readUInt32BE(0)}`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new ServeError("invalid_environment", `the socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; set PLUGIN_UNIX_SOCKET_DIR to a shorter directory`);
  }
  return { socketPath, ownDir };
}

/** Step 6: the services: the provider, health, the controller (shutdown) and stdio. */
function pluginRoutes(
  version: ServedProtocolVersion,
  handlers: ReturnType<typeof createProviderHandlers>,
  forwarder: StdioForwarder,
  logger: HclogLogger,
  onShutdown: () => void,
): (router: ConnectRouter) => void {
  return (router: ConnectRouter): void => {
    if (version === 6) router.service(Tfplugin6Provider, handlers.v6);
    else router.service(Tfplugin5Provider, handlers.v5);
    router.service(Health, {
      check(req) {
        if (req.service === "" || req.service === "plugin") return { status: HealthCheckResponse_ServingStatus.SERVING };
        throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
      },
    });
    router.service(GRPCController, {
      shutdown() {
        logger.log("debug", "plugin received shutdown request");
        // Reply first, then stop and exit (go-plugin stops before replying; clients accept either).
        setTimeout(onShutdown, 5);
        return {};
      },
    });
    router.service(GRPCStdio, {
      async *streamStdio(_req, ctx) {
        for (;;) {
          const chunk = await forwarder.next(ctx.signal);
          if (chunk === undefined) return;
          yield { channel: StdioData_Channel.STDOUT, data: chunk };
        }
      },
    });
  };
}

/** Step 7: the HTTP/2 server (AutoMTLS or plaintext), listening on the socket. */
async function listen(
  handler: ReturnType<typeof connectNodeAdapter>,
  tls: Awaited<ReturnType<typeof createClientCertificate>> | undefined,
  clientCertPem: string | undefined,
  socketPath: string,
  logger: HclogLogger,
): Promise<{ server: Http2Server | Http2SecureServer; sessions: Set<Http2Session> }> {
  let server: Http2Server | Http2SecureServer;
  try {
    server = tls === undefined
      ? createServer(handler)
      : createSecureServer(
          {
            cert: tls.certPem,
            key: tls.keyPem,
            ca: [clientCertPem!],
            requestCert: true,
            rejectUnauthorized: true,
            minVersion: "TLSv1.2",
            ALPNProtocols: ["h2"],
          },
          handler,
        );
  } catch (cause) {
    throw new ServeError("invalid_environment", `cannot use PLUGIN_CLIENT_CERT: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const sessions = new Set<Http2Session>();
  server.on("session", (s: Http2Session) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
    s.on("error", () => undefined);
  });
  server.on("tlsClientError", (e: Error) => logger.log("warn", "TLS handshake with the client failed", { error: e.message }));

  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error): void => reject(new ServeError("listen_failed", `cannot listen on ${socketPath}: ${e.message}`, { cause: e }));
    server.once("error", onError);
    server.listen(socketPath, () => {
      server.off("error", onError);
      resolve();
    });
  });
  server.on("error", (e: Error) => logger.log("error", "server error", { error: e.message }));
  return { server, sessions };
}

/** Step 8: what goes on stdout: the handshake line, or in debug mode the `TF_REATTACH_PROVIDERS` line. */
function announcement(
  options: ServeOptions,
  debug: boolean,
  version: ServedProtocolVersion,
  socketPath: string,
  tls: Awaited<ReturnType<typeof createClientCertificate>> | undefined,
): { line: string; reattach: string | undefined } {
  if (debug) {
    const reattach = JSON.stringify({
      [options.providerAddress!]: { Protocol: "grpc", ProtocolVersion: version, Pid: process.pid, Test: true, Addr: { Network: "unix", String: socketPath } },
    });
    return { line: `TF_REATTACH_PROVIDERS='${reattach}'`, reattach };
  }
  const cert = tls === undefined ? "" : Buffer.from(tls.der).toString("base64").replace(/=+$/, "");
  return { line: [CORE_PROTOCOL_VERSION, version, "unix", socketPath, "grpc", cert].join("|"), reattach: undefined };
}

/** Step 9 (when `exit`): signals, and stdout redirected into GRPCStdio (or the debug-mode banner). */
function attachToProcess(io: ServeIo, options: ServeOptions, line: string, forwarder: StdioForwarder, close: () => Promise<void>): void {
  if (io.debug) {
    process.stderr.write(
      `Provider ${options.providerAddress} started in debug mode. To attach Terraform, set in its environment:\n\n\t${line}\n\nStop with Ctrl-C.\n`,
    );
    const stop = (): void => void close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } else {
    process.on("SIGINT", () => io.logger.log("debug", "plugin received interrupt signal, ignoring"));
    if (io.stdout === process.stdout) redirectStdout(forwarder);
  }
}

/** The highest shared version; when none is shared, the lowest supported one (go-plugin's answer). */
function negotiate(supported: readonly ServedProtocolVersion[], offered: string | undefined): ServedProtocolVersion {
  const client = new Set((offered ?? "").split(",").filter((s) => s.trim() !== "").map((s) => Number(s.trim())).filter((n) => Number.isInteger(n)));
  if (client.size === 0) return supported[supported.length - 1]!;
  for (let i = supported.length - 1; i >= 0; i--) if (client.has(supported[i]!)) return supported[i]!;
  return supported[0]!;
}

/** Answers a request for an unknown service with gRPC status UNIMPLEMENTED (trailers only). */
const unimplemented: NonNullable<ConnectNodeAdapterOptions["fallback"]> = (req, res) => {
  const path = req.url ?? "";
  res.writeHead(200, {
    "content-type": "application/grpc",
    "grpc-status": String(Code.Unimplemented),
    "grpc-message": encodeURIComponent(`unknown service or method ${path}`),
  });
  res.end();
};

function applySocketGroup(path: string, group: string | undefined, logger: HclogLogger): void {
  if (group === undefined || group === "") return;
  const gid = Number(group);
  if (!Number.isInteger(gid) || gid < 0) {
    logger.log("warn", "PLUGIN_UNIX_SOCKET_GROUP must be a numeric gid; ignored", { group });
    return;
  }
  try {
    chownSync(path, -1, gid);
    chmodSync(path, 0o660);
  } catch (e) {
    logger.log("warn", "cannot apply PLUGIN_UNIX_SOCKET_GROUP", { group, error: e instanceof Error ? e.message : String(e) });
  }
}

/** After the handshake, stdout belongs to the GRPCStdio stream, as in go-plugin. */
function redirectStdout(forwarder: StdioForwarder): void {
  const enc = new TextEncoder();
  const write = (chunk: unknown, encoding?: unknown, cb?: unknown): boolean => {
    const bytes = typeof chunk === "string" ? enc.encode(chunk) : chunk instanceof Uint8Array ? chunk : enc.encode(String(chunk));
    forwarder.push(bytes);
    const done = typeof encoding === "function" ? encoding : cb;
    if (typeof done === "function") queueMicrotask(() => (done as () => void)());
    return true;
  };
  process.stdout.write = write as typeof process.stdout.write;
}

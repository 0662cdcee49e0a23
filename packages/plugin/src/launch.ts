import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdtemp, chmod, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parseHandshakeLine, type Handshake } from "./handshake.js";
import { createClientCertificate, type ClientCertificate } from "./internal/auto-mtls/client-certificate.js";
import { registerLiveChild } from "./internal/child-registry/child-registry.js";
import { binaryForms, ownerRecordFor, processCmdline, SOCKET_DIR_PREFIX, writeOwnerRecord } from "./internal/child-registry/owner-record.js";
import {
  canceledError,
  deadlineExceededError,
  handshakeFailedError,
  isProviderError,
  transportError,
  type AnyProviderError,
} from "@magma/provider-api";
import { errorFromSpawn } from "./internal/error-map/error-from-spawn.js";
import { pluginExited, type PluginExitStatus } from "./internal/error-map/plugin-exited.js";
import { StderrMonitor } from "./internal/log/stderr-monitor.js";
import { reportableTail, SecretRedactor } from "./internal/log/secret-redactor.js";
import { loadGrpcStack, type GrpcStack } from "./internal/load-grpc-stack.js";
import { safeLog } from "./internal/log/safe-log.js";
import type { StdioReader } from "./internal/plugin-services.js";
import type { GrpcConnection } from "./internal/transport/grpc-connection.js";
import { discardPluginLogger, PluginLogLevel, PluginLogSource, type PluginLogger } from "./plugin-logger.js";
import type { ClosePluginOptions, PluginProcess } from "./plugin-process.js";
import { reapOrphanedProvidersOnce } from "./reap-orphaned-providers.js";

/**
 * Terraform's go-plugin magic cookie (key and value), the same for protocol 5 and 6.
 *
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export const TF_PLUGIN_MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";

/** The magic cookie's value (see {@link TF_PLUGIN_MAGIC_COOKIE_KEY}). Sibling-only. */
export const TF_PLUGIN_MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/**
 * The SDK log switches set to `off` unless SDK logs are requested: plugin-go SDKs log at
 * TRACE regardless of `TF_LOG` (megabytes per schema call).
 *
 * @internal
 */
export const SDK_LOG_VARIABLES = [
  "TF_LOG_SDK",
  "TF_LOG_SDK_PROTO",
  "TF_LOG_SDK_MUX",
  "TF_LOG_SDK_HELPER_SCHEMA",
  "TF_LOG_SDK_FRAMEWORK",
] as const;

/**
 * A function with the shape of `child_process.spawn` (injectable for tests).
 *
 * @internal
 */
export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/**
 * Options of {@link launchPlugin}.
 *
 * @internal
 */
export type LaunchPluginOptions = {
  /** The provider binary. */
  readonly command: string;
  /** Arguments (none by default; providers take none). */
  readonly args?: readonly string[];
  /** The working directory (default: the host's). */
  readonly cwd?: string;
  /**
   * The base environment of the plugin. Default: the host's own `process.env`, as
   * go-plugin does. The go-plugin variables are added on top of it (and override it).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The protocol versions offered in `PLUGIN_PROTOCOL_VERSIONS` (default `[5, 6]`). */
  readonly protocolVersions?: readonly number[];
  /**
   * AutoMTLS (default: on, unless the host's environment has a non-empty
   * `TF_DISABLE_PLUGIN_TLS`, as in Terraform). An explicit value wins over the variable.
   */
  readonly tls?: boolean;
  /**
   * Keep the provider SDK's own logs (default false: `TF_LOG_SDK*` are set to `off`
   * unless this is true, in which case inherited values are left alone).
   */
  readonly sdkLogs?: boolean;
  /** How long to wait for the handshake line (default 60 000 ms, as go-plugin). */
  readonly startTimeoutMs?: number;
  /** `PLUGIN_MIN_PORT` for tcp (default 10000). */
  readonly minPort?: number;
  /** `PLUGIN_MAX_PORT` for tcp (default 25000). */
  readonly maxPort?: number;
  /** Where the plugin's output goes (default: discarded). */
  readonly logger?: PluginLogger;
  /** Replaces `child_process.spawn` (tests). */
  readonly spawn?: SpawnFunction;
  /** Cancels the launch (the process is killed; rejects with `canceled`). */
  readonly signal?: AbortSignal;
  /**
   * Parent of the private socket directory (default: the OS temp dir). Keep it short:
   * socket paths are limited to ~104 bytes. The first launch in a process that uses a
   * parent reaps the orphaned providers of SIGKILLed hosts found there (see
   * `reapOrphanedProviders`).
   */
  readonly socketDirParent?: string;
  /** The largest message accepted from the plugin (default 2^31 − 1). */
  readonly readMaxBytes?: number;
  /** Called once the process is spawned (before the handshake and before the gRPC stack loads). */
  readonly onSpawned?: () => void;
};

/**
 * Builds the plugin's environment: `base` (default: the host's `process.env`) plus
 * `TF_PLUGIN_MAGIC_COOKIE`, `PLUGIN_PROTOCOL_VERSIONS`, `PLUGIN_MIN_PORT`,
 * `PLUGIN_MAX_PORT`, `PLUGIN_UNIX_SOCKET_DIR`, `PLUGIN_CLIENT_CERT` (only with AutoMTLS;
 * an inherited one is removed otherwise), `TF_LOG_SDK*=off` unless `sdkLogs`; an inherited
 * `PLUGIN_MULTIPLEX_GRPC` is removed (multiplexing is not supported).
 *
 * @internal
 */
export function buildPluginEnvironment(settings: {
  readonly base?: Readonly<Record<string, string | undefined>>;
  readonly protocolVersions: readonly number[];
  readonly minPort: number;
  readonly maxPort: number;
  readonly socketDir: string;
  readonly clientCertPem: string | undefined;
  readonly sdkLogs: boolean;
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings.base ?? process.env)) {
    if (v !== undefined) env[k] = v;
  }
  delete env["PLUGIN_CLIENT_CERT"];
  delete env["PLUGIN_MULTIPLEX_GRPC"];
  env[TF_PLUGIN_MAGIC_COOKIE_KEY] = TF_PLUGIN_MAGIC_COOKIE_VALUE;
  env["PLUGIN_PROTOCOL_VERSIONS"] = settings.protocolVersions.join(",");
  env["PLUGIN_MIN_PORT"] = String(settings.minPort);
  env["PLUGIN_MAX_PORT"] = String(settings.maxPort);
  env["PLUGIN_UNIX_SOCKET_DIR"] = settings.socketDir;
  if (settings.clientCertPem !== undefined) env["PLUGIN_CLIENT_CERT"] = settings.clientCertPem;
  if (!settings.sdkLogs) for (const name of SDK_LOG_VARIABLES) env[name] = "off";
  return env;
}

/** The default start timeout, as go-plugin's. */
const DEFAULT_START_TIMEOUT_MS = 60_000;
/** go-plugin waits 2 s for a graceful exit before killing. */
const DEFAULT_GRACE_MS = 2_000;
/** The longest first stdout line we accept (a real one is ~850 bytes with a certificate). */
const MAX_HANDSHAKE_LINE = 64 * 1024;

/**
 * Launches a provider binary exactly as go-plugin's client does and connects to it.
 *
 * Reaps the orphans of SIGKILLed hosts once per process (see `reapOrphanedProviders`),
 * makes the AutoMTLS client certificate (unless disabled), creates a private 0700 socket
 * directory holding an `owner.json` (host and provider pid, start times, binary, command
 * line: what the reaper checks), spawns the binary with the go-plugin environment (see
 * {@link buildPluginEnvironment}), reads exactly the first stdout line (then keeps
 * draining stdout and stderr for the life of the process), imports the gRPC stack while the
 * provider starts (see `loadGrpcStack`), validates the handshake, connects over HTTP/2
 * (unix socket or 127.0.0.1 tcp, AutoMTLS or plaintext), and opens
 * the `GRPCStdio` stream. The process is registered so it cannot outlive the host (see
 * `registerLiveChild`). An open plugin keeps the host's event loop alive until `close()`,
 * like an open socket.
 *
 * @throws AnyProviderError `transport` if the binary cannot be started or connected to;
 *   `plugin_exited` if it exits before the handshake (with exit code/signal and stderr
 *   tail); `handshake_failed` for a malformed first line; `protocol_mismatch` for a
 *   version we did not offer; `deadline_exceeded` when no line arrives within
 *   `startTimeoutMs`; `canceled` when `signal` fires. On every failure the process is
 *   killed and the socket directory removed.
 * @internal
 */
export async function launchPlugin(options: LaunchPluginOptions): Promise<PluginProcess> {
  const settings = launchSettings(options);
  // The sweep for orphans of SIGKILLed hosts runs while this provider starts (it never
  // rejects, and never touches a directory whose host is alive, such as ours); it has
  // finished when the launch returns.
  const reaping = reapOrphanedProvidersOnce([tmpdir(), settings.socketDirParent]);
  const cert: ClientCertificate | undefined = settings.useTls ? await createClientCertificate() : undefined;
  const socket = await makeSocketDir(options, settings.socketDirParent);
  const started = await spawnPlugin(options, settings, socket, cert);
  try {
    options.onSpawned?.();
  } catch {
    // A caller's hook must not leave the process behind; its failure is its own.
  }
  // The gRPC stack loads while the provider starts (the import overlaps its start-up).
  const stack = loadGrpcStack();
  stack.catch(() => undefined); // Handled in connectToPlugin; the handshake may fail first.
  const handshake = await awaitHandshake(started, settings);
  // The handshake names the protocol version: its generated code and client (which a
  // connection needs for its first call) load while we connect. Failures surface there.
  const version = handshake.protocolVersion;
  if (version === 5 || version === 6) stack.then((g) => g.loadWireVersion(version)).catch(() => undefined);
  const { connection, grpc } = await connectToPlugin(started, handshake, stack, cert, options, settings.name);
  const { pid } = started;
  if (pid !== undefined) socket.recordOwner(pid, processCmdline(pid));
  await reaping;
  return pluginProcess(started, handshake, connection, grpc, cert, options, settings);
}

/** The launch options with their defaults applied. */
interface LaunchSettings {
  readonly versions: readonly number[];
  readonly logger: PluginLogger;
  readonly useTls: boolean;
  readonly startTimeoutMs: number;
  readonly spawn: SpawnFunction;
  readonly signal: AbortSignal | undefined;
  readonly name: string;
  readonly socketDirParent: string;
}

/** Step 1: checks the options and applies the defaults. */
function launchSettings(options: LaunchPluginOptions): LaunchSettings {
  const versions = options.protocolVersions ?? [5, 6];
  if (versions.length === 0 || versions.some((v) => !Number.isInteger(v) || v < 1)) {
    throw new TypeError(`launchPlugin: protocolVersions must be positive integers, got [${versions.join(", ")}]`);
  }
  const signal = options.signal;
  if (signal?.aborted) throw canceledError("plugin launch canceled", { cause: signal.reason });
  return {
    versions,
    logger: options.logger ?? discardPluginLogger,
    useTls: options.tls ?? !process.env["TF_DISABLE_PLUGIN_TLS"],
    startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    spawn: options.spawn ?? ((c, a, o) => nodeSpawn(c, [...a], o)),
    signal,
    name: basename(options.command),
    socketDirParent: options.socketDirParent ?? tmpdir(),
  };
}

/** The private socket directory and its owner record. */
interface SocketDir {
  readonly dir: string;
  /** (Re)writes `owner.json`: best effort, without it the directory is merely never reaped. */
  recordOwner(pid: number | undefined, cmdline?: string[] | null): void;
}

/** Step 2: a private 0700 socket directory holding an owner record (for a later host's reaper). */
async function makeSocketDir(options: LaunchPluginOptions, parent: string): Promise<SocketDir> {
  const dir = await mkdtemp(join(parent, SOCKET_DIR_PREFIX));
  await chmod(dir, 0o700);
  // Who made the directory, for the reaper of a later host should this one be SIGKILLed.
  const binary = binaryForms(options.command, options.cwd);
  const recordOwner = (pid: number | undefined, cmdline: string[] | null = null): void => {
    try {
      writeOwnerRecord(dir, ownerRecordFor(binary, pid, cmdline));
    } catch {
      // Best effort: without the record the directory is merely never reaped.
    }
  };
  recordOwner(undefined);
  return { dir, recordOwner };
}

/** A spawned plugin process, watched, with its stderr monitored. */
interface StartedPlugin {
  readonly child: ChildProcess;
  readonly watcher: ChildWatcher;
  readonly stdout: NonNullable<ChildProcess["stdout"]>;
  readonly pid: number | undefined;
  readonly socketDir: string;
  /** Paths removed when the process is gone (the socket directory, a stray socket). */
  readonly paths: string[];
  /** Removes `paths` and unregisters the child. */
  cleanup(): Promise<void>;
  readonly monitor: StderrMonitor;
  readonly secrets: SecretRedactor;
  /** What errors may quote of stderr: no TRACE/DEBUG/INFO lines, no secret the connection saw. */
  reportable(): { stderrTail: string; panicExcerpt: string | undefined };
  /** Kills the process, waits for it, and cleans up (every failure after the spawn). */
  abandon(): Promise<void>;
}

/**
 * Step 3: spawns the binary with the go-plugin environment, registers it so it cannot
 * outlive the host, and starts draining and monitoring stderr.
 */
async function spawnPlugin(options: LaunchPluginOptions, settings: LaunchSettings, socket: SocketDir, cert: ClientCertificate | undefined): Promise<StartedPlugin> {
  const socketDir = socket.dir;
  const env = buildPluginEnvironment({
    ...(options.env !== undefined ? { base: options.env } : {}),
    protocolVersions: settings.versions,
    minPort: options.minPort ?? 10000,
    maxPort: options.maxPort ?? 25000,
    socketDir,
    clientCertPem: cert?.certPem,
    sdkLogs: options.sdkLogs ?? false,
  });

  let child: ChildProcess;
  try {
    child = settings.spawn(options.command, options.args ?? [], {
      env,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
  } catch (e) {
    await rm(socketDir, { recursive: true, force: true });
    throw errorFromSpawn(options.command, e);
  }
  const watcher = watchChild(child, settings.logger);
  const { stdout, stderr } = child;
  if (stdout === null || stderr === null) {
    child.kill("SIGKILL");
    await rm(socketDir, { recursive: true, force: true });
    throw transportError("spawn returned a process without stdout/stderr pipes");
  }

  // The pid is known synchronously when spawn succeeded; otherwise an 'error' follows.
  const pid = child.pid;
  if (pid !== undefined) socket.recordOwner(pid);
  const paths = [socketDir];
  const unregister = pid !== undefined ? registerLiveChild({ pid, kill: true, paths }) : () => {};
  const cleanup = async (): Promise<void> => {
    for (const path of paths) await rm(path, { recursive: true, force: true });
    unregister();
  };
  // On any exit (crash included), remove the socket file a killed plugin leaves behind.
  void watcher.exited.then(cleanup);

  const monitor = new StderrMonitor(settings.logger, PluginLogSource.Stderr, pid);
  // What errors may quote of stderr: no TRACE/DEBUG/INFO lines, no secret the connection saw.
  const secrets = new SecretRedactor();
  const reportable = (): { stderrTail: string; panicExcerpt: string | undefined } => {
    const panic = monitor.panicExcerpt();
    return { stderrTail: secrets.redact(reportableTail(monitor.tail())), panicExcerpt: panic === undefined ? undefined : secrets.redact(panic) };
  };
  stderr.on("data", (chunk: Buffer) => monitor.push(chunk));
  stderr.on("end", () => monitor.end());
  watcher.attachStderr(stderr);
  const abandon = async (): Promise<void> => {
    await killAndWait(child, watcher);
    await cleanup();
  };
  return { child, watcher, stdout, pid, socketDir, paths, cleanup, monitor, secrets, reportable, abandon };
}

/** Step 4: reads exactly the first stdout line and validates the handshake (the process is abandoned on failure). */
async function awaitHandshake(p: StartedPlugin, settings: LaunchSettings): Promise<Handshake> {
  const { name } = settings;
  try {
    const line = await readHandshakeLine(p.child, p.stdout, settings.startTimeoutMs, settings.signal, name);
    if (line === undefined) {
      const status = await p.watcher.exitedWithin(DEFAULT_GRACE_MS);
      throw pluginExited(
        { ...(status ?? { exitCode: null, signal: null }), ...p.reportable() },
        "before we could connect (no handshake line on stdout)",
        undefined,
        name,
      );
    }
    let handshake: Handshake;
    try {
      handshake = parseHandshakeLine(line, settings.versions);
    } catch (e) {
      if (isProviderError(e) && e.detail.code === "handshake_failed") {
        throw handshakeFailedError(`${e.rawMessage} [${name}]`, {
          line,
          stderrTail: p.reportable().stderrTail,
          cause: e,
        });
      }
      throw e;
    }
    if (handshake.network === "unix" && dirname(handshake.address) !== p.socketDir) {
      p.paths.push(handshake.address); // An older go-plugin ignored PLUGIN_UNIX_SOCKET_DIR.
    }
    return handshake;
  } catch (e) {
    await p.abandon();
    throw e;
  }
}

/**
 * Step 5: connects over HTTP/2 (unix socket or tcp, AutoMTLS or plaintext) once the gRPC
 * stack is loaded; the process is abandoned on failure (a failed import included).
 */
async function connectToPlugin(
  p: StartedPlugin,
  handshake: Handshake,
  stack: Promise<GrpcStack>,
  cert: ClientCertificate | undefined,
  options: LaunchPluginOptions,
  name: string,
): Promise<{ connection: GrpcConnection; grpc: GrpcStack }> {
  const logger = options.logger ?? discardPluginLogger;
  const { pid } = p;
  try {
    const grpc = await stack.catch((e: unknown) => {
      throw transportError(`cannot load the gRPC stack (@connectrpc/*, @bufbuild/protobuf, @magma/tfplugin): ${e instanceof Error ? e.message : String(e)} [${name}]`, { cause: e });
    });
    let tls: Parameters<GrpcStack["createGrpcConnection"]>[0]["tls"];
    if (handshake.serverCertificate !== undefined) {
      if (cert === undefined) {
        throw handshakeFailedError("the plugin offered TLS, but AutoMTLS is off (no client certificate was sent)", {
          stderrTail: p.reportable().stderrTail,
        });
      }
      tls = { serverCertificate: handshake.serverCertificate, clientCertPem: cert.certPem, clientKeyPem: cert.keyPem };
    } else if (cert !== undefined) {
      safeLog(logger, {
        level: PluginLogLevel.Warn,
        message: "plugin did not send a server certificate; connecting without TLS",
        fields: {},
        source: PluginLogSource.Host,
        ...(pid !== undefined ? { pid } : {}),
      });
    }
    const connection = grpc.createGrpcConnection({
      network: handshake.network,
      address: handshake.address,
      tls,
      ...(options.readMaxBytes !== undefined ? { readMaxBytes: options.readMaxBytes } : {}),
    });
    try {
      await connection.open();
    } catch (e) {
      const status = await p.watcher.exitedWithin(100);
      if (status !== undefined) {
        throw pluginExited(
          { ...status, ...p.reportable() },
          "while we were connecting",
          e,
          name,
        );
      }
      if (isProviderError(e) && e.code === "transport") throw transportError(`${e.rawMessage} [${name}]`, e.detail.grpcCode === undefined ? { cause: e.cause ?? e } : { cause: e.cause ?? e, grpcCode: e.detail.grpcCode });
      throw e;
    }
    return { connection, grpc };
  } catch (e) {
    await p.abandon();
    throw e;
  }
}

/** Step 6: opens the `GRPCStdio` stream and assembles the handle, whose `close` shuts the plugin down as go-plugin does. */
function pluginProcess(
  p: StartedPlugin,
  handshake: Handshake,
  connection: GrpcConnection,
  grpc: GrpcStack,
  cert: ClientCertificate | undefined,
  options: LaunchPluginOptions,
  settings: LaunchSettings,
): PluginProcess {
  const { logger, name } = settings;
  const { child, watcher, monitor, secrets, pid } = p;
  const { requestShutdown } = grpc;
  const stdio: StdioReader = grpc.startStdioReader(connection.transport, logger, pid);
  safeLog(logger, {
    level: PluginLogLevel.Debug,
    message: `plugin started: ${options.command}`,
    fields: { protocolVersion: handshake.protocolVersion, network: handshake.network, address: handshake.address, tls: tls(handshake, cert) },
    source: PluginLogSource.Host,
    ...(pid !== undefined ? { pid } : {}),
  });

  let closing: Promise<void> | undefined;
  const exitError = (): AnyProviderError | undefined => {
    const status = watcher.status();
    if (status === undefined) return undefined;
    return pluginExited({ ...status, ...p.reportable() }, "unexpectedly", undefined, name);
  };
  return {
    transport: connection.transport,
    protocolVersion: handshake.protocolVersion,
    pid: pid ?? -1,
    tls: tls(handshake, cert),
    network: handshake.network,
    address: handshake.address,
    managed: true,
    binary: name,
    exited: watcher.exited,
    exitStatus: () => watcher.status(),
    stderrTail: () => monitor.tail(),
    panicExcerpt: () => monitor.panicExcerpt(),
    secrets,
    exitError,
    close(closeOptions: ClosePluginOptions = {}): Promise<void> {
      closing ??= (async () => {
        const graceMs = closeOptions.graceMs ?? DEFAULT_GRACE_MS;
        if (closeOptions.beforeShutdown !== undefined && watcher.status() === undefined) {
          try {
            await closeOptions.beforeShutdown();
          } catch {
            // Errors of the hook are ignored: the plugin is shut down regardless.
          }
        }
        if (watcher.status() === undefined) await requestShutdown(connection.transport, graceMs);
        stdio.stop();
        connection.close();
        if ((await watcher.exitedWithin(graceMs)) === undefined) {
          safeLog(logger, {
            level: PluginLogLevel.Warn,
            message: `plugin did not exit within ${graceMs} ms after Shutdown; killing it`,
            fields: {},
            source: PluginLogSource.Host,
            ...(pid !== undefined ? { pid } : {}),
          });
          await killAndWait(child, watcher);
        }
        await watcher.exited;
        await p.cleanup();
        await stdio.done;
      })();
      return closing;
    },
  };
}

function tls(handshake: Handshake, cert: ClientCertificate | undefined): boolean {
  return handshake.serverCertificate !== undefined && cert !== undefined;
}

/**
 * Reads exactly the first stdout line; afterwards stdout keeps being drained (and
 * discarded, as go-plugin does). Resolves `undefined` when stdout ends without a line.
 */
function readHandshakeLine(
  child: ChildProcess,
  stdout: NodeJS.ReadableStream,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  name: string,
): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve, reject) => {
    let pending: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (fn: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      child.off("error", onError);
      pending = [];
      fn();
    };
    const onData = (chunk: Buffer): void => {
      if (done) return; // Drain and discard everything after the first line.
      const nl = chunk.indexOf(0x0a);
      if (nl < 0) {
        pending.push(chunk);
        size += chunk.length;
        if (size > MAX_HANDSHAKE_LINE) {
          const head = Buffer.concat(pending).subarray(0, 200).toString("utf8");
          finish(() =>
            reject(handshakeFailedError(`first stdout line is longer than ${MAX_HANDSHAKE_LINE} bytes [${name}]`, { line: head })),
          );
        }
        return;
      }
      pending.push(chunk.subarray(0, nl));
      const line = Buffer.concat(pending).toString("utf8");
      finish(() => resolve(line));
    };
    const onEnd = (): void => {
      if (size > 0 && !done) {
        // A last line without a newline: go-plugin's scanner would return it too.
        const line = Buffer.concat(pending).toString("utf8");
        finish(() => resolve(line.trim() === "" ? undefined : line));
        return;
      }
      finish(() => resolve(undefined));
    };
    const onError = (e: unknown): void => finish(() => reject(errorFromSpawn(String(child.spawnfile), e)));
    const onAbort = (): void => finish(() => reject(canceledError("plugin launch canceled", { cause: signal?.reason })));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(deadlineExceededError(`timeout while waiting for the plugin to start (no handshake within ${timeoutMs} ms) [${name}]`, { timeoutMs })),
        ),
      timeoutMs,
    );
    stdout.on("data", onData);
    stdout.once("end", onEnd);
    stdout.on("error", () => {});
    child.once("error", onError);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Watches a child process: its exit status, an `exited` promise resolved after stderr was read. */
type ChildWatcher = {
  readonly exited: Promise<PluginExitStatus>;
  status(): PluginExitStatus | undefined;
  exitedWithin(ms: number): Promise<PluginExitStatus | undefined>;
  /** Lets `exited` wait (bounded) for the end of stderr, so the tail is complete. */
  attachStderr(stderr: NodeJS.ReadableStream): void;
};

function watchChild(child: ChildProcess, logger: PluginLogger): ChildWatcher {
  let status: PluginExitStatus | undefined;
  let stderrEnded: Promise<void> = Promise.resolve();
  let resolveExited!: (s: PluginExitStatus) => void;
  const exited = new Promise<PluginExitStatus>((resolve) => (resolveExited = resolve));
  const onExit = (code: number | null, sig: NodeJS.Signals | null): void => {
    if (status !== undefined) return;
    status = { exitCode: code, signal: sig };
    const final = status;
    // Let the rest of stderr arrive (bounded) so the tail and panic excerpt are complete.
    void Promise.race([stderrEnded, delay(1000)]).then(() => {
      safeLog(logger, {
        level: PluginLogLevel.Debug,
        message: `plugin process exited: ${final.signal !== null ? `signal ${final.signal}` : `exit code ${String(final.exitCode)}`}`,
        fields: {},
        source: PluginLogSource.Host,
        ...(child.pid !== undefined ? { pid: child.pid } : {}),
      });
      resolveExited(final);
    });
  };
  child.once("exit", onExit);
  child.once("error", () => {
    // A spawn failure (ENOENT, EACCES) emits 'error' and maybe no 'exit'.
    if (child.pid === undefined) onExit(null, null);
  });
  child.stdout?.on("error", () => {});
  child.stderr?.on("error", () => {});
  return {
    exited,
    status: () => status,
    async exitedWithin(ms: number): Promise<PluginExitStatus | undefined> {
      if (status !== undefined) return exited;
      return Promise.race([exited, delay(ms).then(() => undefined)]);
    },
    attachStderr(stderr: NodeJS.ReadableStream): void {
      stderrEnded = new Promise<void>((resolve) => {
        stderr.once("end", resolve);
        stderr.once("close", resolve);
      });
    },
  };
}

async function killAndWait(child: ChildProcess, watcher: ChildWatcher): Promise<void> {
  if (watcher.status() === undefined && child.pid !== undefined) {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await watcher.exitedWithin(10_000);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
  });
}

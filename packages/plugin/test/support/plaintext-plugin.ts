/**
 * Test support: a minimal launcher for a go-plugin provider in plaintext mode (no
 * PLUGIN_CLIENT_CERT), and a gRPC reflection client on top of it.
 *
 * This is deliberately small and test-only; the package's real launcher lives in src/.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { reflectionPb } from "@magma/tfplugin";

const { ServerReflection } = reflectionPb;
type ServerReflectionRequest = reflectionPb.ServerReflectionRequest;

/** Terraform's go-plugin handshake cookie (same for protocol 5 and 6). */
const MAGIC_COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** Thrown when the test launcher cannot start or reach the plugin. */
export class TestLaunchError extends Error {
  /** Stable code for assertions. */
  readonly code = "test_launch";

  constructor(message: string) {
    super(`[test_launch] ${message}`);
    this.name = "TestLaunchError";
  }
}

/** A running plugin process reachable over its unix socket. */
export type PlaintextPlugin = {
  /** The handshake line the plugin printed, trimmed. */
  readonly handshake: string;
  /** The unix socket path from the handshake. */
  readonly socketPath: string;
  /** A Connect gRPC transport (HTTP/2 cleartext) dialing the socket. */
  readonly transport: Transport;
  /** The last bytes the plugin wrote to stderr (bounded). */
  stderrTail(): string;
  /** Kills the process (SIGTERM, then SIGKILL), waits for it, removes the socket dir. */
  stop(): Promise<void>;
};

/** Options for `launchPlaintextPlugin`. */
export type LaunchOptions = {
  /** Offered protocol versions, as PLUGIN_PROTOCOL_VERSIONS. Default "5". */
  readonly protocolVersions?: string;
  /** How long to wait for the handshake line, in ms. Default 60 000. */
  readonly handshakeTimeoutMs?: number;
};

const STDERR_TAIL_BYTES = 16 * 1024;

/**
 * Dials a unix socket with Connect's gRPC transport. `createGrpcTransport` always speaks
 * HTTP/2; an `http:` base URL selects cleartext (h2c, prior knowledge), and the
 * `createConnection` hook, passed through `nodeOptions` to `http2.connect`, replaces
 * the TCP dial with a unix socket. The authority sent is "localhost".
 */
export function createUnixSocketGrpcTransport(socketPath: string): Transport {
  return createGrpcTransport({
    baseUrl: "http://localhost",
    nodeOptions: { createConnection: () => connect(socketPath) },
  });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off("exit", onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once("exit", onExit);
  });
}

/**
 * Starts `binary` as a Terraform plugin in plaintext mode and waits for its handshake.
 *
 * The socket goes into a fresh temp directory (PLUGIN_UNIX_SOCKET_DIR) that `stop()`
 * removes. SDK logging is switched off; stdout after the handshake and all of stderr are
 * drained (stderr's tail is kept for error messages).
 *
 * @throws TestLaunchError when the plugin exits, times out, or prints an unexpected line.
 */
export async function launchPlaintextPlugin(binary: string, options: LaunchOptions = {}): Promise<PlaintextPlugin> {
  const socketDir = mkdtempSync(join(tmpdir(), "magma-plugin-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE,
    PLUGIN_PROTOCOL_VERSIONS: options.protocolVersions ?? "5",
    PLUGIN_UNIX_SOCKET_DIR: socketDir,
    TF_LOG_SDK: "off",
    TF_LOG_SDK_PROTO: "off",
    TF_LOG_SDK_MUX: "off",
    TF_LOG_SDK_HELPER_SCHEMA: "off",
    TF_LOG_SDK_FRAMEWORK: "off",
  };
  delete env["PLUGIN_CLIENT_CERT"];

  const child = spawn(binary, [], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      if (!(await waitForExit(child, 5000))) {
        child.kill("SIGKILL");
        await waitForExit(child, 5000);
      }
    }
    rmSync(socketDir, { recursive: true, force: true });
  };

  let handshake: string;
  try {
    handshake = await new Promise<string>((resolve, reject) => {
      let buffered = "";
      let done = false;
      const finish = (err: Error | undefined, line?: string): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        child.off("exit", onExit);
        child.off("error", onError);
        if (err !== undefined) reject(err);
        else resolve(line ?? "");
      };
      const timeoutMs = options.handshakeTimeoutMs ?? 60_000;
      const timer = setTimeout(
        () => finish(new TestLaunchError(`no handshake from ${binary} within ${timeoutMs} ms; stderr: ${stderr}`)),
        timeoutMs,
      );
      const onExit = (code: number | null, signal: string | null): void =>
        finish(new TestLaunchError(`${binary} exited (code ${code}, signal ${signal}) before the handshake; stderr: ${stderr}`));
      const onError = (e: Error): void => finish(new TestLaunchError(`cannot start ${binary}: ${e.message}`));
      child.once("exit", onExit);
      child.once("error", onError);
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        if (done) return; // keep draining, discard
        buffered += chunk;
        const nl = buffered.indexOf("\n");
        if (nl >= 0) finish(undefined, buffered.slice(0, nl).trim());
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }

  const parts = handshake.split("|");
  const [core, app, network, address, proto] = parts;
  if (parts.length < 5 || core !== "1" || network !== "unix" || proto !== "grpc" || address === undefined) {
    await stop();
    throw new TestLaunchError(`unexpected handshake line ${JSON.stringify(handshake)}`);
  }
  const wanted = (options.protocolVersions ?? "5").split(",");
  if (app === undefined || !wanted.includes(app)) {
    await stop();
    throw new TestLaunchError(`plugin answered protocol ${app}, asked for ${wanted.join(",")}`);
  }
  return {
    handshake,
    socketPath: address,
    transport: createUnixSocketGrpcTransport(address),
    stderrTail: () => stderr,
    stop,
  };
}

/** Thrown when the reflection service answers with an error or an unexpected message. */
export class ReflectionError extends Error {
  /** Stable code for assertions. */
  readonly code = "reflection";

  constructor(message: string) {
    super(`[reflection] ${message}`);
    this.name = "ReflectionError";
  }
}

type ReflectionQuestion = Exclude<ServerReflectionRequest["messageRequest"], { case: undefined }>;

/** Asks one reflection question on its own bidi stream and returns the single answer. */
async function ask(transport: Transport, question: ReflectionQuestion) {
  const client = createClient(ServerReflection, transport);
  async function* requests() {
    yield { messageRequest: question };
  }
  for await (const response of client.serverReflectionInfo(requests())) {
    return response;
  }
  throw new ReflectionError(`no answer to ${question.case} ${String(question.value)}`);
}

/** Lists the services a server exposes through reflection. */
export async function listServices(transport: Transport): Promise<string[]> {
  const answer = await ask(transport, { case: "listServices", value: "" });
  if (answer.messageResponse.case !== "listServicesResponse") {
    throw new ReflectionError(`list_services answered with ${answer.messageResponse.case}`);
  }
  return answer.messageResponse.value.service.map((s) => s.name).sort();
}

async function askFiles(transport: Transport, question: ReflectionQuestion): Promise<FileDescriptorProto[]> {
  const answer = await ask(transport, question);
  const r = answer.messageResponse;
  if (r.case === "errorResponse") {
    throw new ReflectionError(
      `${question.case} ${String(question.value)}: error ${r.value.errorCode} ${r.value.errorMessage}`,
    );
  }
  if (r.case !== "fileDescriptorResponse") {
    throw new ReflectionError(`${question.case} ${String(question.value)} answered with ${r.case}`);
  }
  return r.value.fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b));
}

/**
 * Fetches the files declaring `symbols` and, transitively, all their dependencies, using
 * file_containing_symbol and then file_by_filename for any dependency not yet received.
 * Returns the files ordered so that every dependency comes before its dependents (the
 * order `createFileRegistry` wants).
 */
export async function fetchDescriptorsByReflection(
  transport: Transport,
  symbols: readonly string[],
): Promise<FileDescriptorProto[]> {
  const byName = new Map<string, FileDescriptorProto>();
  const add = (files: FileDescriptorProto[]): void => {
    for (const f of files) if (!byName.has(f.name)) byName.set(f.name, f);
  };
  for (const symbol of symbols) add(await askFiles(transport, { case: "fileContainingSymbol", value: symbol }));
  for (;;) {
    const missing = [...byName.values()].flatMap((f) => f.dependency).find((d) => !byName.has(d));
    if (missing === undefined) break;
    const files = await askFiles(transport, { case: "fileByFilename", value: missing });
    if (!files.some((f) => f.name === missing)) {
      throw new ReflectionError(`file_by_filename ${missing} did not return that file`);
    }
    add(files);
  }
  const ordered: FileDescriptorProto[] = [];
  const visit = (name: string, path: readonly string[]): void => {
    if (ordered.some((f) => f.name === name)) return;
    if (path.includes(name)) throw new ReflectionError(`import cycle: ${[...path, name].join(" -> ")}`);
    const file = byName.get(name);
    if (file === undefined) throw new ReflectionError(`dependency ${name} was not received`);
    for (const dep of file.dependency) visit(dep, [...path, name]);
    ordered.push(file);
  };
  for (const name of [...byName.keys()].sort()) visit(name, []);
  return ordered;
}

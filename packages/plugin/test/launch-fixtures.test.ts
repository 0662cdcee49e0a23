import { spawn as nodeSpawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@magma/tfplugin";
import { liveChildCount } from "../src/internal/child-registry/child-registry.js";
import { isProviderError, type AnyProviderError } from "@magma/provider-api";
import { launchPlugin, type LaunchPluginOptions, type SpawnFunction } from "../src/launch.js";
import type { PluginLogEntry } from "../src/plugin-logger.js";

const testdata = fileURLToPath(new URL("./testdata/", import.meta.url));
const notAPlugin = join(testdata, "not-a-plugin.mjs");
const fakePlugin = join(testdata, "fake-plugin.mjs");

/** A spawn that records what it was asked to start (the real one underneath). */
function recordingSpawn() {
  const calls: { pid: number | undefined; env: Record<string, string>; stdio: unknown }[] = [];
  const spawn: SpawnFunction = (command, args, options) => {
    const child = nodeSpawn(command, [...args], options);
    calls.push({ pid: child.pid, env: options.env as Record<string, string>, stdio: options.stdio });
    return child;
  };
  return { spawn, calls };
}

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

async function launchFailure(options: LaunchPluginOptions): Promise<AnyProviderError> {
  try {
    const p = await launchPlugin(options);
    await p.close();
  } catch (e) {
    if (isProviderError(e)) return e;
    throw e;
  }
  throw new Error("expected the launch to fail");
}

function fixture(mode: string, extra: Partial<LaunchPluginOptions> = {}) {
  const { spawn, calls } = recordingSpawn();
  const options: LaunchPluginOptions = {
    command: notAPlugin,
    env: { ...process.env, FIXTURE_MODE: mode },
    tls: false,
    spawn,
    ...extra,
  };
  return { options, calls };
}

afterEach(() => {
  expect(liveChildCount()).toBe(0);
});

describe("launch failures (fixture processes)", () => {
  test("garbage on stdout: handshake_failed, the process is killed, the socket dir removed", async () => {
    const { options, calls } = fixture("garbage");
    const e = await launchFailure(options);
    expect(e.code).toBe("handshake_failed");
    expect(e.message).toMatch(/Unrecognized remote plugin message: "hello, I am not a plugin"/);
    expect(e.detail).toMatchObject({ line: "hello, I am not a plugin" });
    expect(calls[0]!.stdio).toEqual(["ignore", "pipe", "pipe"]);
    expect(isGone(calls[0]!.pid!)).toBe(true);
    expect(existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false);
  });

  test("exit before the handshake: plugin_exited with exit code, stderr tail and panic excerpt", async () => {
    const entries: PluginLogEntry[] = [];
    const { options, calls } = fixture("exit-early", { logger: { log: (x) => entries.push(x) } });
    const e = await launchFailure(options);
    expect(e.code).toBe("plugin_exited");
    expect(e.message).toMatch(/^\[plugin_exited\] plugin exited before we could connect.*exit code 2 \(the plugin crashed\)/);
    if (e.detail.code !== "plugin_exited") throw new Error("unreachable");
    expect(e.detail.exitCode).toBe(2);
    expect(e.detail.signal).toBeNull();
    expect(e.detail.stderrTail).toContain("[WARN] about to fail");
    expect(e.detail.stderrTail).toContain("goroutine 1 [running]:");
    expect(e.detail.panicExcerpt).toBe(
      "panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:10 +0x1d",
    );
    expect(entries.filter((x) => x.source === "stderr").map((x) => [x.level, x.message.slice(0, 12)])).toEqual([
      ["info", "starting up"],
      ["warn", "[WARN] about"],
      ["error", "panic: runti"],
      ["error", ""],
      ["error", "goroutine 1 "],
      ["error", "main.main()"],
      ["error", "\t/src/main.g"],
    ]);
    expect(existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false);
  });

  test("a quiet exit: plugin_exited with the exit code", async () => {
    const e = await launchFailure(fixture("exit-quietly").options);
    expect(e.detail).toEqual({ code: "plugin_exited", exitCode: 3, signal: null, stderrTail: "", panicExcerpt: undefined });
  });

  test("a version we did not offer: protocol_mismatch, the process is killed", async () => {
    const { options, calls } = fixture("wrong-version");
    const e = await launchFailure(options);
    expect(e.code).toBe("protocol_mismatch");
    expect(e.message).toMatch(/incompatible API version with plugin. Plugin version: 4, Client versions: \[5 6\]/);
    expect(isGone(calls[0]!.pid!)).toBe(true);
  });

  test("no handshake within the start timeout: deadline_exceeded, the process is killed", async () => {
    const { options, calls } = fixture("silent", { startTimeoutMs: 500 });
    const e = await launchFailure(options);
    expect(e.code).toBe("deadline_exceeded");
    expect(e.message).toMatch(/timeout while waiting for the plugin to start \(no handshake within 500 ms\)/);
    expect(isGone(calls[0]!.pid!)).toBe(true);
    expect(existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false);
  });

  test("an abort signal cancels the launch", async () => {
    const controller = new AbortController();
    const { options, calls } = fixture("silent", { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const e = await launchFailure(options);
    expect(e.code).toBe("canceled");
    expect(isGone(calls[0]!.pid!)).toBe(true);
  });

  test("a first line longer than 64 KiB: handshake_failed", async () => {
    const e = await launchFailure(fixture("long-line").options);
    expect(e.code).toBe("handshake_failed");
    expect(e.message).toMatch(/longer than 65536 bytes/);
  });

  test("a missing binary: provider_not_found naming it", async () => {
    const e = await launchFailure({ command: join(testdata, "does-not-exist"), tls: false });
    expect(e.code).toBe("provider_not_found");
    expect(e.message).toMatch(/cannot start plugin ".*does-not-exist": no such file/);
  });

  test("a file that is not executable: provider_not_found", async () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-noexec-"));
    const file = join(dir, "plugin");
    writeFileSync(file, "#!/bin/sh\n", { mode: 0o644 });
    try {
      const e = await launchFailure({ command: file, tls: false });
      expect(e.code).toBe("provider_not_found");
      expect(e.message).toMatch(/permission denied/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the plugin environment (fixture records it)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "magma-env-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function envOf(extra: Partial<LaunchPluginOptions>, hostEnv: Record<string, string | undefined> = {}) {
    const file = join(dir, `env-${Math.random()}.json`);
    const saved: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(hostEnv)) {
      saved[k] = process.env[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    try {
      const e = await launchFailure({
        command: notAPlugin,
        env: { ...process.env, FIXTURE_MODE: "env", FIXTURE_ENV_FILE: file, TF_LOG_SDK_PROTO: "trace" },
        ...extra,
      });
      expect(e.code).toBe("plugin_exited");
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  }

  test("defaults: cookie, versions 5,6, ports, private socket dir, SDK logs off, AutoMTLS client cert", async () => {
    const env = await envOf({}, { TF_DISABLE_PLUGIN_TLS: undefined });
    expect(env["TF_PLUGIN_MAGIC_COOKIE"]).toBe("d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2");
    expect(env["PLUGIN_PROTOCOL_VERSIONS"]).toBe("5,6");
    expect(env["PLUGIN_MIN_PORT"]).toBe("10000");
    expect(env["PLUGIN_MAX_PORT"]).toBe("25000");
    expect(env["PLUGIN_UNIX_SOCKET_DIR"]).toMatch(/magma-plugin-/);
    expect(env["FIXTURE_SOCKET_DIR_MODE"]).toBe("700");
    expect(existsSync(env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false); // removed after the launch
    expect(env["PLUGIN_CLIENT_CERT"]).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    for (const name of ["TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_MUX", "TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_SDK_FRAMEWORK"]) {
      expect(env[name]).toBe("off");
    }
    expect(env["PATH"]).toBe(process.env["PATH"]);
  });

  test("options: versions, ports, SDK logs kept", async () => {
    const env = await envOf({ protocolVersions: [6], minPort: 20000, maxPort: 20010, sdkLogs: true, tls: false });
    expect(env["PLUGIN_PROTOCOL_VERSIONS"]).toBe("6");
    expect(env["PLUGIN_MIN_PORT"]).toBe("20000");
    expect(env["PLUGIN_MAX_PORT"]).toBe("20010");
    expect(env["TF_LOG_SDK_PROTO"]).toBe("trace");
    expect(env).not.toHaveProperty("PLUGIN_CLIENT_CERT");
  });

  test("TF_DISABLE_PLUGIN_TLS in the host environment turns AutoMTLS off; tls: true wins over it", async () => {
    expect(await envOf({}, { TF_DISABLE_PLUGIN_TLS: "1" })).not.toHaveProperty("PLUGIN_CLIENT_CERT");
    expect(await envOf({ tls: true }, { TF_DISABLE_PLUGIN_TLS: "1" })).toHaveProperty("PLUGIN_CLIENT_CERT");
  });
});

describe("a fixture gRPC plugin (node:http2)", () => {
  test("connects, health SERVING, stdio routed to the logger, Shutdown → exit 0, socket dir removed", async () => {
    const entries: PluginLogEntry[] = [];
    const { spawn, calls } = recordingSpawn();
    const p = await launchPlugin({
      command: fakePlugin,
      tls: false,
      spawn,
      logger: { log: (e) => entries.push(e) },
    });
    try {
      expect(p.protocolVersion).toBe(6);
      expect(p.network).toBe("unix");
      expect(p.address).toBe(join(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!, `plugin${p.pid}`));
      expect(p.tls).toBe(false);
      expect(liveChildCount()).toBe(1);
      const health = createClient(Health, p.transport);
      expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      for (let i = 0; i < 100 && !entries.some((e) => e.source === "stdio_stderr"); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(entries.find((e) => e.source === "stdio_stderr")).toMatchObject({
        level: "debug",
        message: "hello from the stdio stream",
        pid: p.pid,
      });
      expect(p.exitStatus()).toBeUndefined();
      expect(p.exitError()).toBeUndefined();
    } finally {
      await p.close();
    }
    expect(await p.exited).toEqual({ exitCode: 0, signal: null });
    expect(existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false);
    expect(entries.some((e) => e.source === "host" && /did not exit/.test(e.message))).toBe(false);
  });

  test("tcp on 127.0.0.1 within PLUGIN_MIN_PORT..PLUGIN_MAX_PORT", async () => {
    const p = await launchPlugin({
      command: fakePlugin,
      tls: false,
      minPort: 23000,
      maxPort: 23999,
      env: { ...process.env, FAKE_NETWORK: "tcp" },
    });
    try {
      expect(p.network).toBe("tcp");
      expect(p.address).toMatch(/^127\.0\.0\.1:23\d\d\d$/);
      const health = createClient(Health, p.transport);
      expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    } finally {
      await p.close();
    }
    expect(await p.exited).toEqual({ exitCode: 0, signal: null });
  });

  test("AutoMTLS requested but the server sends no certificate: plaintext with a warning", async () => {
    const entries: PluginLogEntry[] = [];
    const p = await launchPlugin({ command: fakePlugin, tls: true, logger: { log: (e) => entries.push(e) } });
    await p.close();
    expect(p.tls).toBe(false);
    expect(entries.some((e) => e.level === "warn" && /did not send a server certificate/.test(e.message))).toBe(true);
  });

  test("a plugin that ignores Shutdown is SIGKILLed after the grace period; the hook runs first", async () => {
    const order: string[] = [];
    const p = await launchPlugin({
      command: fakePlugin,
      tls: false,
      env: { ...process.env, FAKE_MODE: "ignore-shutdown" },
      logger: { log: (e) => e.source === "host" && /killing/.test(e.message) && order.push("kill") },
    });
    await p.close({ graceMs: 300, beforeShutdown: () => void order.push("hook") });
    expect(order).toEqual(["hook", "kill"]);
    expect(await p.exited).toEqual({ exitCode: null, signal: "SIGKILL" });
    expect(isGone(p.pid)).toBe(true);
    await p.close(); // idempotent
  });

  test("a crash after the handshake: exited resolves, exitError() is plugin_exited with the panic", async () => {
    const { spawn, calls } = recordingSpawn();
    const p = await launchPlugin({ command: fakePlugin, tls: false, spawn, env: { ...process.env, FAKE_MODE: "crash-later" } });
    try {
      expect(await p.exited).toEqual({ exitCode: 2, signal: null });
      const e = p.exitError()!;
      expect(e.code).toBe("plugin_exited");
      expect(e.detail).toMatchObject({ exitCode: 2, panicExcerpt: "panic: something went wrong\n\ngoroutine 7 [running]:\nmain.crash()" });
      expect(p.panicExcerpt()).toMatch(/^panic: something went wrong/);
      expect(p.stderrTail()).toMatch(/plugin address/);
      for (let i = 0; i < 100 && existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(existsSync(calls[0]!.env["PLUGIN_UNIX_SOCKET_DIR"]!)).toBe(false);
    } finally {
      await p.close();
    }
  });
});

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { toBinary } from "@bufbuild/protobuf";
import { Health, HealthCheckResponse_ServingStatus, tfplugin5 } from "@magma/tfplugin";

const { GetProviderSchema_ResponseSchema, Provider } = tfplugin5;
import { liveChildCount } from "../src/internal/child-registry/child-registry.js";
import { isProviderError } from "@magma/provider-api";
import { requestShutdown } from "../src/internal/plugin-services.js";
import { launchPlugin, type SpawnFunction } from "../src/launch.js";
import type { PluginLogEntry } from "../src/plugin-logger.js";
import { parseReattachProviders } from "../src/reattach.js";
import { reattachPlugin } from "../src/internal/reattach-plugin.js";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";

const d = hasAwsProvider() ? describe : describe.skip;

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

async function waitUntil(check: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

d("the real AWS provider (5.100.0, protocol 5)", () => {
  afterEach(() => expect(liveChildCount()).toBe(0));

  test.each([
    ["AutoMTLS on", true],
    ["AutoMTLS off", false],
  ])("%s: health 'plugin' SERVING, Shutdown exits the process and removes the socket", async (_name, tls) => {
    const entries: PluginLogEntry[] = [];
    let socketDir = "";
    const recording: SpawnFunction = (command, args, options) => {
      socketDir = (options.env as Record<string, string>)["PLUGIN_UNIX_SOCKET_DIR"]!;
      return spawn(command, [...args], options);
    };
    const p = await launchPlugin({ command: AWS_BINARY, tls, spawn: recording, logger: { log: (e) => entries.push(e) } });
    try {
      expect(p.protocolVersion).toBe(5);
      expect(p.tls).toBe(tls);
      expect(p.network).toBe("unix");
      expect(dirname(p.address)).toBe(socketDir);
      expect(statSync(socketDir).mode & 0o777).toBe(0o700);
      expect(statSync(p.address).isSocket()).toBe(true);

      const health = createClient(Health, p.transport);
      expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);

      // The pre-handshake plain lines went to the logger.
      expect(entries.some((e) => e.source === "stderr" && /^Starting github.com\/hashicorp\/terraform-provider-aws/.test(e.message))).toBe(true);
      if (tls) expect(entries.some((e) => e.message === "configuring server automatic mTLS")).toBe(true);

      // go-plugin stops the server before replying: success looks like a dropped stream or
      // connection (CANCEL reset, UNAVAILABLE, or INTERNAL ECONNRESET); anything else fails.
      expect(await requestShutdown(p.transport, 10_000)).toBe(true);
      expect(await p.exited).toEqual({ exitCode: 0, signal: null });
      expect(existsSync(p.address)).toBe(false);
    } finally {
      await p.close();
    }
    expect(existsSync(socketDir)).toBe(false);
  });

  test("close() shuts the provider down as Terraform does (no kill needed)", async () => {
    const entries: PluginLogEntry[] = [];
    const p = await launchPlugin({ command: AWS_BINARY, logger: { log: (e) => entries.push(e) } });
    await p.close();
    expect(await p.exited).toEqual({ exitCode: 0, signal: null });
    expect(isGone(p.pid)).toBe(true);
    expect(existsSync(dirname(p.address))).toBe(false);
    expect(entries.some((e) => /killing/.test(e.message))).toBe(false);
  });

  test("GetSchema's 4.9 MB reply passes the raised receive limit (over AutoMTLS)", async () => {
    const p = await launchPlugin({ command: AWS_BINARY });
    try {
      const provider = createClient(Provider, p.transport);
      const schema = await provider.getSchema({});
      expect(toBinary(GetProviderSchema_ResponseSchema, schema).length).toBeGreaterThan(4 * 1024 * 1024);
      expect(Object.keys(schema.resourceSchemas)).toContain("aws_s3_bucket");
    } finally {
      await p.close();
    }
  });

  test("offering only protocol 6: the provider answers 5, reported as protocol_mismatch", async () => {
    let error: unknown;
    try {
      const p = await launchPlugin({ command: AWS_BINARY, protocolVersions: [6], tls: false });
      await p.close();
    } catch (e) {
      error = e;
    }
    expect(isProviderError(error) && error.code).toBe("protocol_mismatch");
    expect(String(error)).toMatch(/Plugin version: 5, Client versions: \[6\]/);
  });

  describe("reattach to a provider in debug mode", () => {
    async function startDebugProvider() {
      const dir = mkdtempSync(join(tmpdir(), "magma-debug-"));
      const child = spawn(AWS_BINARY, ["-debug"], { env: { ...process.env, TMPDIR: dir }, stdio: ["ignore", "pipe", "pipe"] });
      child.stderr.resume();
      let out = "";
      const json = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          const m = /TF_REATTACH_PROVIDERS='(.*)'/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", () => reject(new Error(`debug provider exited: ${out}`)));
      });
      child.stdout.resume();
      return { child, dir, json };
    }

    test("Test:true — plaintext, no handshake; close() neither shuts down nor kills", async () => {
      const { child, dir, json } = await startDebugProvider();
      try {
        const config = parseReattachProviders(json)["registry.terraform.io/hashicorp/aws"]!;
        expect(config).toMatchObject({ protocol: "grpc", protocolVersion: 5, pid: child.pid, test: true, network: "unix" });
        const p = await reattachPlugin(config);
        expect(p.managed).toBe(false);
        expect(liveChildCount()).toBe(0); // unmanaged: not registered for killing
        const health = createClient(Health, p.transport);
        expect((await health.check({ service: "plugin" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
        await p.close();
        await new Promise((r) => setTimeout(r, 300));
        expect(isGone(child.pid!)).toBe(false);
        expect(existsSync(config.address)).toBe(true);
      } finally {
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test("Test:false — close() sends Shutdown and the process exits", async () => {
      const { child, dir, json } = await startDebugProvider();
      try {
        const config = { ...parseReattachProviders(json)["registry.terraform.io/hashicorp/aws"]!, test: false };
        const p = await reattachPlugin(config, { pollIntervalMs: 50 });
        await p.close();
        expect(await waitUntil(() => isGone(child.pid!))).toBe(true);
        expect(await p.exited).toEqual({ exitCode: null, signal: null });
      } finally {
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

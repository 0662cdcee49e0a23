import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";
import { compileForPlainNode } from "./support/compile-for-plain-node.js";

// Launches a plugin from a separate host process, ends the host in various ways, and checks
// that neither the plugin process nor its socket directory survives.

const pkg = fileURLToPath(new URL("..", import.meta.url));
const testdata = join(pkg, "test", "testdata");

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

async function waitUntil(check: () => boolean, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

let buildDir: string;
let launchJs: string;

beforeAll(() => {
  // The host is a plain node process: the launch module (and what it imports) compiled to JavaScript.
  buildDir = compileForPlainNode("magma-host-build-", ["launch.ts"]);
  launchJs = join(buildDir, "out", "launch.js");
}, 120_000);

afterAll(() => {
  if (buildDir !== undefined) rmSync(buildDir, { recursive: true, force: true });
});

const plugins: [string, string, string][] = [["fixture gRPC plugin", join(testdata, "fake-plugin.mjs"), "off"]];
if (hasAwsProvider()) plugins.push(["AWS provider", AWS_BINARY, "on"]);
else test.skip("AWS provider (binary absent)", () => {});

const endings = [
  ["exits normally (process.exit)", "exit", undefined, { code: 0, signal: null }],
  ["throws an uncaught exception", "throw", undefined, { code: 1, signal: null }],
  ["gets SIGTERM", "wait", "SIGTERM", { code: null, signal: "SIGTERM" }],
  ["gets SIGINT (which providers ignore)", "wait", "SIGINT", { code: null, signal: "SIGINT" }],
  ["gets SIGTERM but handles it itself (exit 7)", "own-sigterm", "SIGTERM", { code: 7, signal: null }],
] as const;

describe.each(plugins)("no orphans: %s", (_name, command, tls) => {
  test.each(endings)("the host %s", async (_ending, mode, signal, expected) => {
    const host = spawn(process.execPath, [join(testdata, "host-process.mjs"), launchJs, command, mode, tls], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    host.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const hostExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      host.once("exit", (code, sig) => resolve({ code, signal: sig })),
    );
    let info: { pid: number; address: string } | undefined;
    try {
      info = await new Promise<{ pid: number; address: string }>((resolve, reject) => {
        let out = "";
        host.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          const nl = out.indexOf("\n");
          if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as { pid: number; address: string });
        });
        void hostExit.then((s) => reject(new Error(`host ended early (${JSON.stringify(s)}): ${stderr}`)));
      });
      expect(isGone(info.pid)).toBe(false);
      expect(existsSync(info.address)).toBe(true);
      if (signal !== undefined) host.kill(signal);
      expect(await hostExit).toEqual(expected);
      expect(await waitUntil(() => isGone(info!.pid))).toBe(true);
      expect(existsSync(info.address)).toBe(false);
      expect(existsSync(dirname(info.address))).toBe(false);
      if (mode === "throw") expect(stderr).toMatch(/the host crashed/);
    } finally {
      host.kill("SIGKILL");
      if (info !== undefined && !isGone(info.pid)) process.kill(info.pid, "SIGKILL");
      if (info !== undefined) rmSync(dirname(info.address), { recursive: true, force: true });
    }
  }, 60_000);
});

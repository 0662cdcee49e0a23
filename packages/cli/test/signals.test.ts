// SIGINT and SIGTERM while `magma` waits on a provider process: the built executable runs
// `magma plan` against a provider served by @magma/provider-server whose plan never
// answers (test/testdata/hanging-provider.mjs), or whose launch never reaches the
// handshake. Once the provider process reports its pid, the test signals magma; magma must
// exit 130 (the documented code for both signals), say it was interrupted, and leave no
// provider process (checked by pid) and no socket directory behind.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { MAGMA_BIN } from "./support/run-magma.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "testdata", "hanging-provider.mjs");

let dir: string;
let hanging: string;
let stuck: string;
const spawned = new Set<ChildProcess>();
const providerPids = new Set<number>();

beforeAll(() => {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  dir = mkdtempSync(join(tmpdir(), "magma-sig-"));
  const mirrorDir = join(dir, "mirror");
  hanging = writeProviderLauncher({ mirrorDir, hostname: "example.com", type: "hanging", version: "1.0.0", module: fixture, exportName: "createProvider" }).executable;
  stuck = writeProviderLauncher({ mirrorDir, hostname: "example.com", type: "stuck", version: "1.0.0", module: fixture, exportName: "createStuckProvider" }).executable;
});

afterAll(() => {
  for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const pid of providerPids) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Whether a process with this pid exists (a zombie not yet reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stderr: () => string;
  /** The provider process's pid, once it has written it. */
  readonly providerPid: () => Promise<number>;
  /** The TMPDIR given to magma (where the plugin socket directories go). */
  readonly tmp: string;
}

/** Starts `magma plan <provider> random_string` in its own process group. */
function startPlan(provider: string, name: string): Run {
  const run = join(dir, name);
  const tmp = join(run, "tmp");
  mkdirSync(tmp, { recursive: true });
  const pidFile = join(run, "provider.pid");
  const child = spawn(process.execPath, [MAGMA_BIN, "plan", provider, "random_string", "--config", '{"length": 8}'], {
    cwd: run,
    env: { ...process.env, TMPDIR: tmp, XDG_CACHE_HOME: join(run, "cache"), MAGMA_PLUGIN_DIRS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined, HANGING_PROVIDER_PIDFILE: pidFile },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, as a terminal's foreground job
  });
  spawned.add(child);
  let err = "";
  child.stdout!.resume();
  child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    stderr: () => err,
    tmp,
    async providerPid() {
      await until(`the provider's pid in ${pidFile} (magma stderr: ${err})`, () => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 120_000);
      const pid = Number(readFileSync(pidFile, "utf8"));
      providerPids.add(pid);
      return pid;
    },
  };
}

async function expectInterrupted(run: Run, pid: number, text: RegExp = /interrupted/): Promise<void> {
  const { code, signal } = await run.exited;
  expect({ code, signal }).toEqual({ code: 130, signal: null });
  expect(run.stderr()).toMatch(text);
  await until(`provider process ${pid} to be gone`, () => !alive(pid), 30_000);
  expect(readdirSync(run.tmp)).toEqual([]);
}

describe("magma plan against a provider whose plan never answers", () => {
  test.each([
    ["SIGINT to magma", "SIGINT", false],
    ["SIGTERM to magma", "SIGTERM", false],
    // Ctrl-C in a terminal: the whole foreground group gets SIGINT; the provider ignores it (as go-plugin servers do).
    ["SIGINT to the process group (Ctrl-C)", "SIGINT", true],
    ["SIGTERM to the process group", "SIGTERM", true],
  ] as const)("%s: exit 130, the provider process is gone", async (name, sig, group) => {
    const run = startPlan(hanging, name.replace(/\W+/g, "-"));
    const pid = await run.providerPid();
    expect(alive(pid)).toBe(true);
    process.kill(group ? -run.child.pid! : run.child.pid!, sig);
    await expectInterrupted(run, pid);
  });

  test("a second SIGINT while magma closes the provider: still 130, still no provider left", async () => {
    const run = startPlan(hanging, "twice");
    const pid = await run.providerPid();
    run.child.kill("SIGINT");
    run.child.kill("SIGINT");
    // Which words depend on whether the first interrupt was handled before the second arrived:
    // magma's "interrupted", or terraform's "Two interrupts received. Exiting immediately."
    await expectInterrupted(run, pid, /interrupted|Two interrupts received\. Exiting immediately\./);
  });
});

test("magma plan against a provider that never completes the handshake: SIGINT exits 130 and kills it", async () => {
  const run = startPlan(stuck, "stuck");
  const pid = await run.providerPid();
  run.child.kill("SIGINT");
  await expectInterrupted(run, pid);
});

// `magma apply` in a real terminal: a tmux pane (its own server socket, killed afterwards)
// runs the built binary on a working directory whose provider (test/testdata/slow-provider.mjs,
// served by @magma/provider-server) takes seconds per create. The confirmation prompt read
// from the terminal (no: cancelled, exit 1, nothing applied; yes: applied), Ctrl-C once
// (graceful: terraform's interrupt messages and errors, what was created is in the state, exit 1) and
// twice (immediate exit 1 with terraform's "operation canceled", what was applied saved). Skipped where tmux is absent.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { findTerraform } from "@magma/test-support";
import { MAGMA_BIN } from "./support/run-magma.js";

const TMUX = "/usr/bin/tmux";
const withTmux = existsSync(TMUX) ? describe : describe.skip;
const fixture = join(dirname(fileURLToPath(import.meta.url)), "testdata", "slow-provider.mjs");
const socket = `magma-test-${process.pid}-${Date.now()}`;

let root: string;
let mirror: string;
let pidFile: string;
let sessions = 0;

function tmux(...args: string[]): string {
  return execFileSync(TMUX, ["-L", socket, ...args], { encoding: "utf8" });
}

/** Everything the pane shows, scrollback included, wrapped lines joined. */
function screen(session: string): string {
  return tmux("capture-pane", "-p", "-J", "-S", "-2000", "-t", session);
}

async function until(session: string, what: RegExp, timeoutMs = 120_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen(session);
    if (what.test(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${String(what)}; the pane shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A new working directory and a tmux session with a plain shell in it. */
function session(count: number, existing?: string, files?: Record<string, string>): { name: string; dir: string } {
  const dir = existing ?? mkdtempSync(join(root, "wd-"));
  const main = `terraform {\n  required_providers {\n    random = { source = "example.com/magma/slow" }\n  }\n}\n\nresource "random_id" "a" {\n  count       = ${count}\n  byte_length = 4\n}\n`;
  for (const [f, text] of Object.entries(files ?? { "main.tf": main })) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  const name = `s${++sessions}`;
  const env = {
    MAGMA_PLUGIN_DIRS: mirror,
    SLOW_PROVIDER_MS: "3000",
    SLOW_PROVIDER_PIDFILE: pidFile,
    TF_CLI_CONFIG_FILE: join(root, "empty.tfrc"),
    CHECKPOINT_DISABLE: "1",
    XDG_CACHE_HOME: join(root, "cache"),
  };
  tmux("new-session", "-d", "-s", name, "-x", "200", "-y", "50", "-c", dir, ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]), "bash --norc --noprofile");
  return { name, dir };
}

/** Types a magma command line into the pane; its exit status is printed as EXIT=<n> afterwards. */
function type(name: string, args: string): void {
  typeRaw(name, `node ${MAGMA_BIN} ${args}`);
}

function typeRaw(name: string, command: string): void {
  tmux("send-keys", "-t", name, "-l", `${command}; echo EXIT=$?`);
  tmux("send-keys", "-t", name, "Enter");
}

/** What a command printed in the pane, with its colours (capture-pane -e): the lines between the command line and EXIT=. */
function colouredOutput(name: string): string {
  const all = tmux("capture-pane", "-p", "-e", "-J", "-S", "-2000", "-t", name);
  const lines = all.split("\n");
  const start = lines.findIndex((l) => l.includes("; echo EXIT=$?"));
  const end = lines.findIndex((l) => /^EXIT=\d+/.test(l));
  return lines.slice(start + 1, end).join("\n");
}

function exitStatus(text: string): number {
  const m = /EXIT=(\d+)/.exec(text);
  if (m === null) throw new Error(`no exit status in:\n${text}`);
  return Number(m[1]);
}

interface StateDoc {
  resources: { instances: { index_key?: number; attributes: { id: string } }[] }[];
}

function stateIds(dir: string): number[] {
  // A cancelled first apply leaves no state file (terraform's local backend removes the one its lock created).
  let text: string;
  try {
    text = readFileSync(join(dir, "terraform.tfstate"), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  if (text === "") return [];
  const doc = JSON.parse(text) as StateDoc;
  return doc.resources.flatMap((r) => r.instances.map((i) => i.index_key ?? -1)).sort();
}

withTmux("magma apply in a terminal (tmux)", () => {
  beforeAll(() => {
    if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
    root = mkdtempSync(join(tmpdir(), "magma-tmux-"));
    mirror = join(root, "mirror");
    mkdirSync(join(root, "cache"));
    pidFile = join(root, "provider-pids");
    writeFileSync(pidFile, "");
    writeFileSync(join(root, "empty.tfrc"), "");
    writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", namespace: "magma", type: "slow", version: "1.0.0", module: fixture, exportName: "createProvider" });
  });

  afterAll(() => {
    try {
      tmux("kill-server");
    } catch {
      // no server left
    }
    // tmux leaves the socket file of a killed server behind.
    rmSync(join(process.env["TMUX_TMPDIR"] ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
    // A provider orphaned by the immediate exit must not outlive the test.
    for (const line of existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n") : []) {
      const pid = Number(line);
      if (!Number.isInteger(pid) || pid <= 0) continue;
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  test("the confirmation prompt: no cancels (exit 1, nothing applied), yes applies", async () => {
    const { name, dir } = session(1);
    type(name, "apply");
    await until(name, /Only 'yes' will be accepted to approve\.\s+Enter a value: $/m);
    tmux("send-keys", "-t", name, "-l", "no");
    tmux("send-keys", "-t", name, "Enter");
    const no = await until(name, /EXIT=\d+/);
    expect(exitStatus(no)).toBe(1);
    expect(no).toContain("Apply cancelled.");
    expect(no).not.toContain("Creating...");
    expect(stateIds(dir)).toEqual([]);

    // The same directory, in a fresh pane.
    const again = session(1, dir).name;
    type(again, "apply");
    await until(again, /Enter a value: $/m);
    tmux("send-keys", "-t", again, "-l", "yes");
    tmux("send-keys", "-t", again, "Enter");
    const yes = await until(again, /EXIT=\d+/);
    expect(yes).toMatch(/random_id\.a\[0\]: Creating\.\.\.\nrandom_id\.a\[0\]: Creation complete after \d+s \[id=[\w-]+\]/);
    expect(yes).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(exitStatus(yes)).toBe(0);
    expect(stateIds(dir)).toEqual([0]);
  }, 240_000);

  test("Ctrl-C once stops gracefully: terraform's interrupt messages and errors, what was created is saved, exit 1 (as terraform)", async () => {
    const { name, dir } = session(4);
    type(name, "apply -auto-approve -parallelism=1");
    await until(name, /random_id\.a\[\d\]: Creation complete/);
    tmux("send-keys", "-t", name, "C-c");
    const out = await until(name, /EXIT=\d+/);
    expect(out).toContain("Interrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...");
    expect(out).toContain("Error: execution halted");
    expect(exitStatus(out)).toBe(1);
    expect(out).not.toContain("Apply complete!");
    // Every object reported created is in the state; not all four were created.
    const reported = [...out.matchAll(/random_id\.a\[(\d)\]: Creation complete/g)].map((m) => Number(m[1])).sort();
    expect(reported.length).toBeGreaterThanOrEqual(1);
    expect(reported.length).toBeLessThan(4);
    expect(stateIds(dir)).toEqual(reported);
  }, 240_000);

  test("Ctrl-C twice exits at once (1, as terraform: operation canceled) with what was applied saved and the lock released", async () => {
    const { name, dir } = session(4);
    type(name, "apply -auto-approve -parallelism=1");
    await until(name, /random_id\.a\[\d\]: Creation complete/);
    tmux("send-keys", "-t", name, "C-c");
    await until(name, /Interrupt received\./);
    tmux("send-keys", "-t", name, "C-c");
    const out = await until(name, /EXIT=\d+/);
    expect(exitStatus(out)).toBe(1);
    expect(out).toContain("Two interrupts received. Exiting immediately. Note that data loss may have occurred.");
    expect(out).toContain("Error: operation canceled");
    expect(existsSync(join(dir, ".terraform.tfstate.lock.info"))).toBe(false);
    const before = out.slice(0, out.indexOf("Two interrupts received"));
    const reported = [...before.matchAll(/random_id\.a\[(\d)\]: Creation complete/g)].map((m) => Number(m[1])).sort();
    expect(reported.length).toBeGreaterThanOrEqual(1);
    // The state file is whole and holds at least every object reported before the exit.
    const saved = stateIds(dir);
    for (const i of reported) expect(saved).toContain(i);
    expect(saved.length).toBeLessThan(4);
  }, 240_000);

  test("colour on the terminal as terraform's (magma init beside terraform init), none with -no-color", async () => {
    const files = {
      "main.tf": 'terraform {\n  backend "local" {\n    path = "state/my.tfstate"\n  }\n}\n\nmodule "a" {\n  source = "./mod"\n}\n',
      "mod/main.tf": 'output "y" {\n  value = 2\n}\n',
    };
    const m = session(0, undefined, files).name;
    type(m, "init");
    await until(m, /EXIT=\d+/);
    const mine = colouredOutput(m);
    expect(mine).toContain("\x1b[1mInitializing the backend...");
    expect(mine).toContain("\x1b[32m");
    expect(mine).toContain("Terraform has been successfully initialized!");
    if (findTerraform() !== undefined) {
      const t = session(0, undefined, files).name;
      typeRaw(t, "terraform init");
      await until(t, /EXIT=0/);
      expect(mine).toBe(colouredOutput(t));
    }
    const plain = session(0, undefined, files).name;
    type(plain, "init -no-color");
    await until(plain, /EXIT=0/);
    const none = colouredOutput(plain);
    expect(none).toContain("Initializing the backend...");
    expect(none).not.toContain("\x1b[");
  }, 240_000);
  test("the plan's colours on the terminal (magma plan beside terraform plan), none with -no-color", async () => {
    const m = session(1).name;
    type(m, "plan");
    await until(m, /EXIT=\d+/);
    const mine = colouredOutput(m);
    expect(mine).toContain("\x1b[1m  # random_id.a[0]");
    expect(mine).toContain("\x1b[32m+");
    expect(mine).toContain("\x1b[1mPlan:");
    // The resource changes and the summary (terraform wraps its other sentences and the rule to the pane's width; magma to 78 columns).
    const changes = (text: string): string => text.slice(text.indexOf("Terraform will perform the following actions:"), text.indexOf("to destroy."));
    expect(changes(mine)).toContain('resource "random_id" "a"');
    if (findTerraform() !== undefined) {
      writeFileSync(join(root, "mirror.tfrc"), `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`);
      const t = session(1).name;
      typeRaw(t, `export TF_CLI_CONFIG_FILE=${join(root, "mirror.tfrc")}; terraform init -input=false >/dev/null && terraform plan -input=false`);
      await until(t, /EXIT=\d+/);
      const theirs = colouredOutput(t);
      expect(exitStatus(screen(t))).toBe(0);
      expect(changes(mine)).toBe(changes(theirs));
    }
    const plain = session(1).name;
    type(plain, "plan -no-color");
    await until(plain, /EXIT=0/);
    const none = colouredOutput(plain);
    expect(none).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(none).not.toContain("\x1b[");
  }, 240_000);
});

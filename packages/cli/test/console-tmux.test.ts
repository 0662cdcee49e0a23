// `magma console` in a real terminal (a tmux pane with its own server socket): the `> ` prompt,
// a multi-line entry continued with `: ` until its brackets close, an error that keeps the
// session, the history (Up recalls the last entry), ^C dropping a multi-line entry, and
// `exit` ending with status 0. Skipped where tmux is absent.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAGMA_BIN } from "./support/run-magma.js";

const TMUX = "/usr/bin/tmux";
const withTmux = existsSync(TMUX) ? describe : describe.skip;
const socket = `magma-console-${process.pid}-${Date.now()}`;

function tmux(...args: string[]): string {
  return execFileSync(TMUX, ["-L", socket, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "c");
}

async function until(what: RegExp, timeoutMs = 120_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = screen();
    if (what.test(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${String(what)}; the pane shows:\n${s}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function keys(...k: string[]): void {
  tmux("send-keys", "-t", "c", ...k);
}

function line(text: string): void {
  tmux("send-keys", "-t", "c", "-l", text);
  keys("Enter");
}

withTmux("magma console in a terminal (tmux)", () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
    dir = mkdtempSync(join(tmpdir(), "magma-console-"));
    writeFileSync(join(dir, "main.tf"), 'locals {\n  l = ["a", "b"]\n}\n');
    writeFileSync(join(dir, "empty.tfrc"), "");
    tmux("new-session", "-d", "-s", "c", "-x", "120", "-y", "40", "-c", dir, "-e", `TF_CLI_CONFIG_FILE=${join(dir, "empty.tfrc")}`, "bash --norc --noprofile");
  });

  afterAll(() => {
    try {
      tmux("kill-server");
    } catch {
      // no server left
    }
    rmSync(join(process.env["TMUX_TMPDIR"] ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  test("prompt, multi-line entries, errors, history, ^C and exit", async () => {
    line(`PS1='$ '; node ${MAGMA_BIN} console -no-color; echo EXIT=$?`);
    await until(/^> $/m);
    line("local.l[1]");
    await until(/^"b"$/m);
    // An open bracket continues the entry on a `: ` prompt.
    line("[");
    await until(/^: $/m);
    line("  1,");
    line("]");
    await until(/^\[\n {2}1,\n\]$/m);
    // An error is printed and the session goes on.
    line("nope.x");
    await until(/Reference to undeclared resource/);
    // Up recalls the previous entry.
    line("upper(local.l[0])");
    await until(/^"A"$/m);
    keys("Up");
    keys("Enter");
    await until(/"A"\n> upper\(local\.l\[0\]\)\n"A"/);
    // ^C inside a multi-line entry drops it.
    line("{");
    await until(/^: $/m);
    keys("C-c");
    await until(/\(multi-line entry canceled\)/);
    line("exit");
    const s = await until(/^EXIT=\d+$/m);
    expect(/^EXIT=(\d+)$/m.exec(s)?.[1]).toBe("0");
  }, 180_000);
});

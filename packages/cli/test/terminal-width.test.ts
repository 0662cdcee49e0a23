// The human output formatted for the terminal's width, against terraform 1.11.4: `plan`,
// `plan -out` and a plan that fails with a diagnostic, each run by terraform and by magma in a
// tmux pane 60 and 120 columns wide under `script` (which records the bytes the program wrote
// to the terminal, colours included). Terraform wraps its plan's introduction, its notes and
// diagnostic details and draws its rule for the terminal's width (78 when not a terminal:
// the other tests). Skipped without tmux, script or terraform.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MAGMA_BIN } from "./support/run-magma.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const TMUX = "/usr/bin/tmux";
const SCRIPT = "/usr/bin/script";
const socket = `magma-width-${process.pid}-${Date.now()}`;
const ready = existsSync(TMUX) && existsSync(SCRIPT) && TERRAFORM !== undefined;

function tmux(...args: string[]): string {
  return execFileSync(TMUX, ["-L", socket, ...args], { encoding: "utf8" });
}

afterAll(() => {
  if (ready) {
    try {
      execFileSync(TMUX, ["-L", socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // No server was started.
    }
  }
  removeWorkdirs();
});

const CONFIG = `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_id" "a" {
  byte_length = 4
  keepers     = { a = "a long value that runs past the sixty columns of the narrow terminal" }
}
output "o" { value = random_id.a.hex }
`;

let sessions = 0;

/**
 * Runs `command` (a shell command line) in `dir` in a new tmux pane `width` columns wide under
 * `script`, and resolves to the bytes it wrote to the terminal (script's own first and last
 * lines left out).
 */
async function inTerminal(dir: string, width: number, command: string, env: Record<string, string>): Promise<string> {
  const log = join(dir, `terminal-${++sessions}.log`);
  const done = join(dir, `terminal-${sessions}.done`);
  const vars = { CHECKPOINT_DISABLE: "1", XDG_CACHE_HOME: join(dir, ".cache"), ...env };
  // Neither colour switch (node warns when both are set, even empty) nor terraform's automation mode (it changes the wording).
  const bare = `env -u FORCE_COLOR -u NO_COLOR -u TF_IN_AUTOMATION ${command}`;
  const shell = `${SCRIPT} -qc ${JSON.stringify(bare)} ${JSON.stringify(log)} > /dev/null; touch ${JSON.stringify(done)}`;
  tmux("new-session", "-d", "-s", `w${sessions}`, "-x", String(width), "-y", "50", "-c", dir, ...Object.entries(vars).flatMap(([k, v]) => ["-e", `${k}=${v}`]), shell);
  const end = Date.now() + 240_000;
  while (!existsSync(done)) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${command}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const lines = readFileSync(log, "utf8").split("\n");
  return lines.slice(1, lines.length - 2).join("\n");
}

(ready ? describe : describe.skip)("the terminal's width, as terraform's", () => {
  test("plan, plan -out and a diagnostic at 60 and 120 columns: the same bytes", async () => {
    const cliConfig = randomMirrorCliConfig();
    for (const [why, config] of [
      ["plan", CONFIG],
      ["error", `${CONFIG}output "bad" { value = var.nope }\n`],
    ] as const) {
      const m = workdir({ "main.tf": config });
      const t = workdir({ "main.tf": config });
      for (const d of [m, t]) terraform(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } });
      const args = why === "plan" ? ["plan", "plan -out=x.plan"] : ["plan"];
      for (const width of [60, 120]) {
        for (const a of args) {
          const theirs = await inTerminal(t, width, `${TERRAFORM!} ${a}`, { TF_CLI_CONFIG_FILE: cliConfig });
          const ours = await inTerminal(m, width, `${process.execPath} ${MAGMA_BIN} ${a}`, {});
          expect({ why, width, a, ours }).toEqual({ why, width, a, ours: theirs });
          const plain = ours.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "");
          if (a === "plan" && why === "plan") {
            // The rule is one column short of the width; the introduction wraps inside it.
            expect(plain).toContain(`\n${"─".repeat(width - 1)}\n`);
            for (const line of plain.split("\n")) if (line.startsWith("Terraform used") || line.startsWith("Note:")) expect(line.length).toBeLessThan(width);
          }
          if (why === "error") expect(plain).toContain(width === 60 ? "│ An input variable with the name \"nope\" has not been\n│ declared." : '│ An input variable with the name "nope" has not been declared. This variable can be declared with a variable "nope" {}\n');
        }
      }
    }
  }, 900_000);
});

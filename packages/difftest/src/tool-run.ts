import { spawn } from "node:child_process";

/** What a run of terraform or magma printed and how it ended. */
export interface ToolOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How to start one of the two tools: an executable and the arguments before the command's. */
export interface ToolCommand {
  readonly executable: string;
  readonly preArgs: readonly string[];
}

/** Thrown (code `tool_timeout`) when a tool run outlives its time limit and is killed. */
export class ToolTimeoutError extends Error {
  /** Stable code. */
  readonly code = "tool_timeout";
  constructor(args: readonly string[], cwd: string, ms: number) {
    super(`[tool_timeout] \`${args.join(" ")}\` in ${cwd} did not finish within ${ms} ms and was killed`);
    this.name = "ToolTimeoutError";
  }
}

/**
 * Runs one tool command in `cwd` with `env` added to this process's environment. Resolves
 * with its exit code and output; rejects with {@link ToolTimeoutError} after `timeoutMs`
 * (default 300 s), having killed it.
 */
export function runToolCommand(
  tool: ToolCommand,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  timeoutMs = 300_000,
): Promise<ToolOutput> {
  const child = spawn(tool.executable, [...tool.preArgs, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new ToolTimeoutError(args, cwd, timeoutMs));
      else resolve({ code, stdout, stderr });
    });
  });
}

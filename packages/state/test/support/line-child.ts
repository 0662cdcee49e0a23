/**
 * Test support: a child process driven by lines: write lines to its stdin, await lines from
 * its stdout. `kill` always ends it.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** A line-driven child process. */
export interface LineChild {
  readonly child: ChildProcess;
  /** The next stdout line (rejects when the process exits first, with its stderr). */
  nextLine(timeoutMs?: number): Promise<string>;
  /** Writes one line to stdin. */
  send(line: string): void;
  /** Resolves with the exit code or signal name. */
  readonly exited: Promise<number | string>;
  stderr(): string;
  /** Everything read from stdout so far, including lines already taken. */
  stdout(): string;
  /** Kills it (SIGKILL by default) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns `node <script> ...args`. */
export function spawnLineChild(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): LineChild {
  return spawnLineCommand(process.execPath, [script, ...args], env);
}

/** Spawns `command ...args` in `cwd`. */
export function spawnLineCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): LineChild {
  const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  let buf = "";
  let all = "";
  let err = "";
  let done = false;
  const lines: string[] = [];
  const waiters: { resolve(l: string): void; reject(e: Error): void }[] = [];
  child.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    all += d.toString();
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiters.shift();
      if (w !== undefined) w.resolve(line);
      else lines.push(line);
    }
  });
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => {
      done = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`child exited (${code ?? signal}) before the line; stderr:\n${err}`));
      resolve(code ?? signal ?? -1);
    });
  });
  return {
    child,
    exited,
    stderr: () => err,
    stdout: () => all,
    send(line: string): void {
      child.stdin!.write(`${line}\n`);
    },
    nextLine(timeoutMs = 60_000): Promise<string> {
      const l = lines.shift();
      if (l !== undefined) return Promise.resolve(l);
      if (done) return Promise.reject(new Error(`child already exited; stderr:\n${err}`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line from the child within ${timeoutMs / 1000}s; stderr:\n${err}`)), timeoutMs);
        waiters.push({
          resolve: (x) => (clearTimeout(timer), resolve(x)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
      });
    },
    async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
      if (!done) child.kill(signal);
      await exited;
    },
  };
}

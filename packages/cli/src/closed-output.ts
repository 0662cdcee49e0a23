/**
 * A closed reader of the process's output (`magma plan | head -1`): terraform, a Go program,
 * is ended quietly by SIGPIPE. Node ignores SIGPIPE and reports the failed write as an `EPIPE`
 * error event on the stream, which unhandled ends the process with a stack trace. Here the
 * stream's later writes are dropped instead, quietly: the command goes on to its end (an
 * apply under way finishes and saves its state rather than dying mid-way), and the exit code
 * says output was lost ({@link ExitCode.BrokenPipe}).
 */
import type { Writable } from "node:stream";

let broken = false;

/** Whether stdout or stderr lost its reader (see {@link guardClosedOutput}). */
export function outputClosed(): boolean {
  return broken;
}

/** The error codes of a write to a stream whose reader went away (or to a stream closed since). */
const CLOSED = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

/**
 * Makes `streams` (default: the process's stdout and stderr) drop their output once their
 * reader went away, instead of ending the process with an unhandled `EPIPE`. Any other
 * stream error is thrown as before.
 */
export function guardClosedOutput(streams: readonly Writable[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === undefined || !CLOSED.has(e.code)) throw e;
      broken = true;
      // Later writes succeed at once and go nowhere (their callbacks still run: flushes resolve).
      stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
        const done = typeof encoding === "function" ? encoding : callback;
        if (typeof done === "function") queueMicrotask(() => (done as () => void)());
        return true;
      }) as Writable["write"];
    });
  }
}

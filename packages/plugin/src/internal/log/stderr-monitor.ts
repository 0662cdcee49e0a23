import type { PluginLogger, PluginLogSource } from "../../plugin-logger.js";
import { LineSplitter, type SplitLine } from "./line-splitter.js";
import { parseLogLine } from "./parse-log-line.js";

/**
 * Bounds of what a {@link StderrMonitor} keeps.
 *
 * @internal
 */
export type StderrMonitorLimits = {
  /** The most bytes of one line that are kept (default 64 KiB). */
  readonly maxLineBytes: number;
  /** The most lines in the tail (default 200). */
  readonly tailLines: number;
  /** The most characters in the tail (default 64 KiB). */
  readonly tailChars: number;
  /** The most characters kept of the tail's individual lines (default 4 KiB). */
  readonly tailLineChars: number;
  /** The most characters of the panic excerpt (default 256 KiB). */
  readonly panicChars: number;
};

const DEFAULT_LIMITS: StderrMonitorLimits = {
  maxLineBytes: 64 * 1024,
  tailLines: 200,
  tailChars: 64 * 1024,
  tailLineChars: 4 * 1024,
  panicChars: 256 * 1024,
};

/**
 * Reads a plugin's stderr (or a stdio channel) line by line: hands each line to the
 * logger, keeps a bounded tail of the most recent lines, and captures a Go crash from its
 * `panic: ` / `fatal error: ` line to the end of the stream (bounded) as the panic excerpt.
 *
 * @internal
 */
export class StderrMonitor {
  readonly #logger: PluginLogger;
  readonly #source: PluginLogSource;
  readonly #pid: number | undefined;
  readonly #limits: StderrMonitorLimits;
  readonly #splitter: LineSplitter;
  readonly #tail: string[] = [];
  #tailSize = 0;
  #panicMode = false;
  #panic: string[] = [];
  #panicSize = 0;
  #panicTruncated = false;

  constructor(
    logger: PluginLogger,
    source: PluginLogSource,
    pid?: number,
    limits: Partial<StderrMonitorLimits> = {},
  ) {
    this.#logger = logger;
    this.#source = source;
    this.#pid = pid;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#splitter = new LineSplitter(this.#limits.maxLineBytes, (line) => this.#onLine(line));
  }

  /** Feeds a chunk of output. */
  push(chunk: Uint8Array): void {
    this.#splitter.push(chunk);
  }

  /** Flushes the last unterminated line; call at end of stream. */
  end(): void {
    this.#splitter.end();
  }

  /** The most recent lines (bounded), joined with `\n`. */
  tail(): string {
    return this.#tail.join("\n");
  }

  /** The crash report from its first line on (bounded), or `undefined` if none was seen. */
  panicExcerpt(): string | undefined {
    if (!this.#panicMode) return undefined;
    const text = this.#panic.join("\n");
    return this.#panicTruncated ? `${text}\n… (truncated)` : text;
  }

  #onLine(line: SplitLine): void {
    const parsed = parseLogLine(line.text, this.#panicMode, line.truncatedFrom !== undefined);
    if (parsed.startsPanic) this.#panicMode = true;
    if (this.#panicMode && !parsed.json) this.#capturePanic(line.text);
    this.#addTail(line.text);
    const entry = {
      level: parsed.level,
      message: parsed.message,
      fields: parsed.fields,
      source: this.#source,
      ...(parsed.timestamp !== undefined ? { timestamp: parsed.timestamp } : {}),
      ...(parsed.module !== undefined ? { module: parsed.module } : {}),
      ...(this.#pid !== undefined ? { pid: this.#pid } : {}),
      ...(line.truncatedFrom !== undefined ? { truncatedFrom: line.truncatedFrom } : {}),
    };
    try {
      this.#logger.log(entry);
    } catch {
      // A logger must not break the reading of the plugin's output.
    }
  }

  #addTail(text: string): void {
    const { tailLines, tailChars, tailLineChars } = this.#limits;
    const line = text.length > tailLineChars ? `${text.slice(0, tailLineChars)}…` : text;
    this.#tail.push(line);
    this.#tailSize += line.length + 1;
    while (this.#tail.length > tailLines || (this.#tailSize > tailChars && this.#tail.length > 1)) {
      this.#tailSize -= this.#tail.shift()!.length + 1;
    }
  }

  #capturePanic(text: string): void {
    if (this.#panicTruncated) return;
    const room = this.#limits.panicChars - this.#panicSize;
    if (text.length + 1 > room) {
      if (room > 0) this.#panic.push(text.slice(0, room));
      this.#panicTruncated = true;
      return;
    }
    this.#panic.push(text);
    this.#panicSize += text.length + 1;
  }
}

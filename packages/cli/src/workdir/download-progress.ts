import type { CliStream } from "../cli-io.js";
import { terminalColumns } from "../terminal-columns.js";

/** One download under way. */
interface Download {
  readonly label: string;
  readonly done: number;
  readonly total: number | undefined;
}

const MIB = 1024 * 1024;

function mib(n: number): string {
  return (n / MIB).toFixed(1);
}

/**
 * `magma init`'s download progress on a terminal: one status line on stderr naming every
 * download under way (`Downloading example.com/ns/a v1.0.0 3.1/16.0 MiB, …`), redrawn in
 * place at most every 100 ms and whenever a download starts or ends, cut to the terminal's
 * width. Other output erases it first ({@link DownloadProgress.clear}); it is gone when the
 * last download ends. Writes nothing when the stream is not a terminal (terraform prints no
 * progress, so piped output is terraform's).
 */
export class DownloadProgress {
  readonly #stream: CliStream;
  readonly #enabled: boolean;
  readonly #now: () => number;
  readonly #downloads = new Map<string, Download>();
  #drawn = false;
  #last = 0;

  /** A display on `stream`; `enabled` defaults to whether it is a terminal; `now` is the clock (ms). */
  constructor(stream: CliStream, enabled: boolean = stream.isTTY === true, now: () => number = Date.now) {
    this.#stream = stream;
    this.#enabled = enabled;
    this.#now = now;
  }

  /** Whether it draws anything (a terminal): when not, the caller need not report progress at all. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Records that `key`'s download (shown as `label`) has `done` of `total` bytes; one that is complete leaves the line. */
  update(key: string, label: string, done: number, total: number | undefined): void {
    if (!this.#enabled) return;
    const finished = total !== undefined && done >= total;
    const known = this.#downloads.has(key);
    if (finished) this.#downloads.delete(key);
    else this.#downloads.set(key, { label, done, total });
    // a download started or ended: drawn now; otherwise at most every 100 ms
    if (known === finished || this.#now() - this.#last >= 100) this.#draw();
  }

  /** Erases the line (so that other output can be written); the next update draws it again. */
  clear(): void {
    if (this.#drawn) this.#stream.write("\r\x1b[2K");
    this.#drawn = false;
  }

  #draw(): void {
    if (this.#downloads.size === 0) {
      this.clear();
      return;
    }
    const parts = [...this.#downloads.values()].map((d) => `${d.label} ${mib(d.done)}${d.total !== undefined ? `/${mib(d.total)}` : ""} MiB`);
    const width = terminalColumns(this.#stream) - 1;
    let text = `Downloading ${parts.join(", ")}`;
    if (text.length > width) text = `${text.slice(0, Math.max(0, width - 1))}…`;
    this.#stream.write(`\r\x1b[2K${text}`);
    this.#drawn = true;
    this.#last = this.#now();
  }
}

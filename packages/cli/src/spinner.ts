/** Where a {@link Spinner} draws: a writable stream that may be a terminal. */
export interface SpinnerStream {
  /** True for a terminal; the spinner draws nothing otherwise. */
  readonly isTTY?: boolean;
  /** Writes text. */
  write(text: string): unknown;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A one-line progress indicator with elapsed time (`⠹ starting hashicorp/aws 2.4s`) that
 * redraws itself in place on a terminal and writes nothing at all when the stream is not a
 * terminal (piped or redirected output stays clean).
 */
export class Spinner {
  readonly #stream: SpinnerStream;
  readonly #enabled: boolean;
  #timer: ReturnType<typeof setInterval> | undefined;
  #text = "";
  #started = 0;
  #frame = 0;
  #drawn = false;

  /** A spinner on `stream`; `enabled` (default: the stream is a terminal) turns drawing on or off. */
  constructor(stream: SpinnerStream, enabled: boolean = stream.isTTY === true) {
    this.#stream = stream;
    this.#enabled = enabled;
  }

  /** Whether it draws at all. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Starts (or restarts) with a message; redraws every 100 ms until {@link Spinner.stop}. */
  start(text: string): void {
    this.stop();
    this.#text = text;
    this.#started = Date.now();
    if (!this.#enabled) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), 100);
    this.#timer.unref();
  }

  /** Erases the line (so that other output can be written), keeping the spinner running. */
  clear(): void {
    if (this.#drawn) this.#stream.write("\r\x1b[2K");
    this.#drawn = false;
  }

  /** Stops and erases the spinner. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.clear();
  }

  #draw(): void {
    const secs = ((Date.now() - this.#started) / 1000).toFixed(1);
    const frame = FRAMES[this.#frame++ % FRAMES.length]!;
    this.#stream.write(`\r\x1b[2K${frame} ${this.#text} ${secs}s`);
    this.#drawn = true;
  }
}

/**
 * A line cut out of a byte stream, possibly truncated.
 *
 * @internal
 */
export type SplitLine = {
  /** The line without its terminator (`\n` or `\r\n`), at most `maxLineBytes` bytes of it. */
  readonly text: string;
  /** The full length of the line in bytes, when it was longer than the limit. */
  readonly truncatedFrom: number | undefined;
};

/**
 * Splits a byte stream into lines with bounded memory: of a line longer than
 * `maxLineBytes`, only the first `maxLineBytes` bytes are kept (the rest is counted and
 * dropped), so a multi-megabyte log line costs at most `maxLineBytes` of memory.
 *
 * @internal
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: SplitLine) => void;
  #parts: Buffer[] = [];
  #kept = 0;
  #total = 0;

  /**
   * @param maxLineBytes - the most bytes of one line to keep
   * @param onLine - called for every complete line
   */
  constructor(maxLineBytes: number, onLine: (line: SplitLine) => void) {
    this.#maxLineBytes = maxLineBytes;
    this.#onLine = onLine;
  }

  /** Feeds a chunk of the stream. */
  push(chunk: Uint8Array): void {
    let buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        this.#append(buf);
        return;
      }
      this.#append(buf.subarray(0, nl));
      this.#emit();
      buf = buf.subarray(nl + 1);
    }
  }

  /** Emits the last, unterminated line (if any); call at end of stream. */
  end(): void {
    if (this.#total > 0) this.#emit();
  }

  #append(bytes: Buffer): void {
    this.#total += bytes.length;
    const room = this.#maxLineBytes - this.#kept;
    if (room <= 0 || bytes.length === 0) return;
    // Copy: the chunk may be a view into a larger pooled buffer we must not retain.
    const piece = Buffer.from(bytes.subarray(0, room));
    this.#parts.push(piece);
    this.#kept += piece.length;
  }

  #emit(): void {
    let bytes = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#kept);
    const truncated = this.#total > this.#kept;
    if (!truncated && bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) {
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    const line: SplitLine = { text: bytes.toString("utf8"), truncatedFrom: truncated ? this.#total : undefined };
    this.#parts = [];
    this.#kept = 0;
    this.#total = 0;
    this.#onLine(line);
  }
}

import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Bytes read per step (the signal is checked between steps). */
const CHUNK = 1024 * 1024;

/**
 * Why {@link readRegularFile} refused a file (besides the file system's own errors).
 *
 * @internal
 */
export class UnreadableFileError extends Error {
  readonly code: "not_regular" | "too_large" | "changed" | "aborted";
  constructor(code: UnreadableFileError["code"], message: string) {
    super(message);
    this.name = "UnreadableFileError";
    this.code = code;
  }
}

/**
 * Reads a whole cache file safely: opened without following a symbolic link and without
 * blocking (a FIFO cannot hang the open), then refused unless it is a regular file of at
 * most `maxBytes` bytes; read in 1 MiB steps, checking `signal` between them, never more
 * than the size seen at open (a file that grows meanwhile is refused).
 *
 * @throws the file system's error (ENOENT, ELOOP for a symbolic link, EACCES), or
 * {@link UnreadableFileError}.
 * @internal
 */
export async function readRegularFile(path: string, options: { readonly maxBytes: number; readonly signal?: AbortSignal | undefined }): Promise<Buffer> {
  const { maxBytes, signal } = options;
  const checkAbort = (): void => {
    if (signal?.aborted === true) throw new UnreadableFileError("aborted", `reading ${path} was aborted`);
  };
  checkAbort();
  const fd = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const st = await fd.stat();
    if (!st.isFile()) throw new UnreadableFileError("not_regular", `${path} is not a regular file`);
    if (st.size > maxBytes) throw new UnreadableFileError("too_large", `${path} has ${st.size} bytes, more than the ${maxBytes} allowed`);
    // One byte more than the size, to notice a file that grew.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let done = 0;
    while (done < buf.length) {
      checkAbort();
      const { bytesRead } = await fd.read(buf, done, Math.min(CHUNK, buf.length - done), done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    if (done !== st.size) throw new UnreadableFileError("changed", `${path} changed size while it was read`);
    return buf.subarray(0, done);
  } finally {
    await fd.close();
  }
}

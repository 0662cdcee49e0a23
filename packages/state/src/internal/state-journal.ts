import { createHash } from "node:crypto";

// A journal is the complete new state followed by a fixed-size ASCII trailer:
//   "MAGMAJ1 " <length, 16 decimal digits> " " <sha256 of the state, hex> " " <sha256 of the
//   state file it replaces, hex> "\n"
// It is trusted only when the trailer parses and the length and checksum match: a torn or
// truncated journal (or anything else under that name) is never taken for a state.
const MAGIC = "MAGMAJ1 ";
const TRAILER_LENGTH = MAGIC.length + 16 + 1 + 64 + 1 + 64 + 1;

/** A complete journal: the state it carries and the hash of the state file it replaces. */
export interface Journal {
  /** The complete new state. */
  readonly bytes: Uint8Array;
  /** sha256 (hex) of the state file's content before the journaled write. */
  readonly previousSha256: string;
}

/** sha256 of `bytes`, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The journal of a write of `next` over a state file that held `previous`. */
export function encodeJournal(next: Uint8Array, previous: Uint8Array): Uint8Array {
  const trailer = `${MAGIC}${String(next.length).padStart(16, "0")} ${sha256Hex(next)} ${sha256Hex(previous)}\n`;
  return Buffer.concat([next, Buffer.from(trailer, "latin1")]);
}

/** The journal in `data`, or undefined when it is incomplete (torn, truncated, not a journal). */
export function decodeJournal(data: Uint8Array): Journal | undefined {
  if (data.length < TRAILER_LENGTH) return undefined;
  const trailer = Buffer.from(data.subarray(data.length - TRAILER_LENGTH)).toString("latin1");
  const m = /^MAGMAJ1 (\d{16}) ([0-9a-f]{64}) ([0-9a-f]{64})\n$/.exec(trailer);
  if (m === null) return undefined;
  const length = Number(m[1]);
  if (length !== data.length - TRAILER_LENGTH) return undefined;
  const bytes = data.subarray(0, length);
  if (sha256Hex(bytes) !== m[2]) return undefined;
  return { bytes, previousSha256: m[3]! };
}

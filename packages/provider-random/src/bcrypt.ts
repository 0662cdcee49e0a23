import { blowfishPiWords } from "./blowfish-pi.js";
import { secureRandomBytes } from "./secure-random.js";
import { utf8Bytes } from "./utf8.js";

/** bcrypt's base64 alphabet (not the standard one), used without padding. */
const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** The 24-byte text bcrypt encrypts 64 times: "OrpheanBeholderScryDoubt" as six big-endian words. */
const MAGIC = "OrpheanBeholderScryDoubt";

/** The cost Go's `bcrypt.DefaultCost` uses, and hashicorp/random with it. */
export const BCRYPT_DEFAULT_COST = 10;

/** A bcrypt hash that cannot be parsed (Go's ErrHashTooShort, InvalidHashPrefixError, …). */
export class BcryptFormatError extends Error {
  override readonly name = "BcryptFormatError";
}

interface BlowfishState {
  readonly p: Uint32Array; // 18
  readonly s: Uint32Array; // 4 × 256
}

function initialState(): BlowfishState {
  const pi = blowfishPiWords();
  return { p: pi.slice(0, 18), s: pi.slice(18) };
}

/** Encrypts the block (l, r) in place in `lr`. */
function encipher(st: BlowfishState, lr: Uint32Array): void {
  const p = st.p;
  const s = st.s;
  let l = lr[0]!;
  let r = lr[1]!;
  l ^= p[0]!;
  for (let i = 1; i <= 16; i += 2) {
    r ^=
      (((s[l >>> 24]! + s[256 | ((l >>> 16) & 0xff)]!) ^ s[512 | ((l >>> 8) & 0xff)]!) +
        s[768 | (l & 0xff)]!) ^
      p[i]!;
    l ^=
      (((s[r >>> 24]! + s[256 | ((r >>> 16) & 0xff)]!) ^ s[512 | ((r >>> 8) & 0xff)]!) +
        s[768 | (r & 0xff)]!) ^
      p[i + 1]!;
  }
  lr[0] = (r ^ p[17]!) >>> 0;
  lr[1] = l >>> 0;
}

/** Reads the next big-endian 32-bit word of `data`, cycling; `pos` is the position holder. */
function nextWord(data: Uint8Array, pos: { i: number }): number {
  let w = 0;
  for (let k = 0; k < 4; k++) {
    w = (w << 8) | data[pos.i]!;
    pos.i = (pos.i + 1) % data.length;
  }
  return w >>> 0;
}

/** Blowfish's key schedule, with the salt mixed in when given (bcrypt's ExpandKey). */
function expandKey(st: BlowfishState, key: Uint8Array, salt: Uint8Array | undefined): void {
  const kp = { i: 0 };
  for (let i = 0; i < 18; i++) st.p[i] = (st.p[i]! ^ nextWord(key, kp)) >>> 0;
  const sp = { i: 0 };
  const lr = new Uint32Array(2);
  const fill = (arr: Uint32Array, n: number): void => {
    for (let i = 0; i < n; i += 2) {
      if (salt !== undefined) {
        lr[0] = lr[0]! ^ nextWord(salt, sp);
        lr[1] = lr[1]! ^ nextWord(salt, sp);
      }
      encipher(st, lr);
      arr[i] = lr[0]!;
      arr[i + 1] = lr[1]!;
    }
  };
  fill(st.p, 18);
  fill(st.s, 1024);
}

function bcryptBase64Encode(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    out += BCRYPT_ALPHABET[b0 >> 2]! + BCRYPT_ALPHABET[((b0 & 3) << 4) | (b1 >> 4)]!;
    if (i + 1 < bytes.length) out += BCRYPT_ALPHABET[((b1 & 15) << 2) | (b2 >> 6)]!;
    if (i + 2 < bytes.length) out += BCRYPT_ALPHABET[b2 & 63]!;
  }
  return out;
}

function bcryptBase64Decode(text: string): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const v = BCRYPT_ALPHABET.indexOf(text[i]!);
    if (v < 0) throw new BcryptFormatError(`bcrypt: illegal base64 character at offset ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** The 23 raw hash bytes of bcrypt(cost, salt, password bytes). */
function rawHash(password: Uint8Array, salt: Uint8Array, cost: number): Uint8Array {
  // The key is the password with a NUL terminator; Blowfish uses at most its first 72 bytes.
  const key = new Uint8Array(Math.min(password.length, 72) + 1);
  key.set(password.subarray(0, 72));
  const st = initialState();
  expandKey(st, key, salt);
  const rounds = 2 ** cost;
  for (let i = 0; i < rounds; i++) {
    expandKey(st, key, undefined);
    expandKey(st, salt, undefined);
  }
  const ctext = new Uint32Array(6);
  for (let i = 0; i < 6; i++) {
    ctext[i] =
      ((MAGIC.charCodeAt(4 * i) << 24) |
        (MAGIC.charCodeAt(4 * i + 1) << 16) |
        (MAGIC.charCodeAt(4 * i + 2) << 8) |
        MAGIC.charCodeAt(4 * i + 3)) >>>
      0;
  }
  const lr = new Uint32Array(2);
  for (let j = 0; j < 3; j++) {
    lr[0] = ctext[2 * j]!;
    lr[1] = ctext[2 * j + 1]!;
    for (let i = 0; i < 64; i++) encipher(st, lr);
    ctext[2 * j] = lr[0]!;
    ctext[2 * j + 1] = lr[1]!;
  }
  const out = new Uint8Array(24);
  for (let i = 0; i < 6; i++) {
    const w = ctext[i]!;
    out[4 * i] = w >>> 24;
    out[4 * i + 1] = (w >>> 16) & 0xff;
    out[4 * i + 2] = (w >>> 8) & 0xff;
    out[4 * i + 3] = w & 0xff;
  }
  return out.subarray(0, 23);
}

function format(minor: string, cost: number, salt: Uint8Array, hash: Uint8Array): string {
  return `$2${minor}$${String(cost).padStart(2, "0")}$${bcryptBase64Encode(salt)}${bcryptBase64Encode(hash)}`;
}

/**
 * The bcrypt hash of a password in the modular crypt format `$2a$<cost>$<salt><hash>` (as Go's
 * `bcrypt.GenerateFromPassword` writes it). The password is taken as UTF-8 and only its first
 * 72 bytes count, as in every bcrypt.
 *
 * @param cost log2 of the key-schedule rounds, 4–31 (default 10).
 * @param salt 16 bytes (default: 16 cryptographically secure random bytes).
 * @throws RangeError for a cost outside 4–31 or a salt that is not 16 bytes.
 * @internal
 */
export function bcryptHash(
  password: string,
  cost: number = BCRYPT_DEFAULT_COST,
  salt?: Uint8Array,
): string {
  if (!Number.isInteger(cost) || cost < 4 || cost > 31)
    throw new RangeError(`bcrypt cost must be an integer in 4..31, got ${cost}`);
  const s = salt ?? secureRandomBytes(16);
  if (s.length !== 16) throw new RangeError(`bcrypt salt must be 16 bytes, got ${s.length}`);
  return format("a", cost, s, rawHash(utf8Bytes(password), s, cost));
}

/**
 * Whether `hash` (a `$2a$`, `$2b$`, `$2x$` or `$2y$` bcrypt hash) is the hash of `password`,
 * as Go's `bcrypt.CompareHashAndPassword` decides it (the comparison does not stop early).
 *
 * @throws {@link BcryptFormatError} when `hash` is not a bcrypt hash (too short, wrong
 * prefix, bad cost or bad base64), which Go reports as an error other than a mismatch.
 * @internal
 */
export function bcryptCompare(hash: string, password: string): boolean {
  if (hash.length < 59)
    throw new BcryptFormatError("crypto/bcrypt: hashedSecret too short to be a bcrypted password");
  const m = /^\$2([abxy]?)\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/.exec(hash);
  if (m === null)
    throw new BcryptFormatError(
      "crypto/bcrypt: not a bcrypt hash of the form $2a$NN$<53 characters>",
    );
  const cost = Number(m[2]);
  if (cost < 4 || cost > 31)
    throw new BcryptFormatError(`crypto/bcrypt: cost ${cost} is outside the allowed range (4..31)`);
  const salt = bcryptBase64Decode(m[3]!).subarray(0, 16);
  const again = format(m[1]!, cost, salt, rawHash(utf8Bytes(password), salt, cost));
  let diff = again.length ^ hash.length;
  for (let i = 0; i < Math.min(again.length, hash.length); i++)
    diff |= again.charCodeAt(i) ^ hash.charCodeAt(i);
  return diff === 0;
}

// bcrypt by bcryptjs (the hash itself: Blowfish's expensive key schedule). This file keeps
// what hashicorp/random's behaviour adds on top: Go's `$2a$` format and cost, our own salt
// from WebCrypto, and Go's reading of a stored hash (any minor version, its error cases).
import bcrypt from "bcryptjs";
import { secureRandomBytes } from "./secure-random.js";

/** The cost Go's `bcrypt.DefaultCost` uses, and hashicorp/random with it. */
export const BCRYPT_DEFAULT_COST = 10;

/** A bcrypt hash that cannot be parsed (Go's ErrHashTooShort, InvalidHashPrefixError, …). */
export class BcryptFormatError extends Error {
  override readonly name = "BcryptFormatError";
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
  return bcrypt.hashSync(password, `$2a$${pad2(cost)}$${bcrypt.encodeBase64(s, 16)}`);
}

/**
 * Whether `hash` (a `$2$`, `$2a$`, `$2b$`, `$2x$` or `$2y$` bcrypt hash) is the hash of
 * `password`, as Go's `bcrypt.CompareHashAndPassword` decides it: Go reads every minor version
 * alike (the password with its NUL terminator), so the hash is checked as `$2a$`.
 *
 * @throws {@link BcryptFormatError} when `hash` is not a bcrypt hash (too short, wrong
 * prefix, bad cost or bad base64), which Go reports as an error other than a mismatch.
 * @internal
 */
export function bcryptCompare(hash: string, password: string): boolean {
  if (hash.length < 59)
    throw new BcryptFormatError("crypto/bcrypt: hashedSecret too short to be a bcrypted password");
  const m = /^\$2[abxy]?\$(\d\d)\$([./A-Za-z0-9]{53})$/.exec(hash);
  if (m === null)
    throw new BcryptFormatError(
      "crypto/bcrypt: not a bcrypt hash of the form $2a$NN$<53 characters>",
    );
  const cost = Number(m[1]);
  if (cost < 4 || cost > 31)
    throw new BcryptFormatError(`crypto/bcrypt: cost ${cost} is outside the allowed range (4..31)`);
  return bcrypt.compareSync(password, `$2a$${m[1]!}$${m[2]!}`);
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

import type * as Openpgp from "openpgp";
import type { Key } from "openpgp";
import { InstallErrorCode, StepError } from "./install-error.js";

/** One key of a registry's `signing_keys.gpg_public_keys`. */
export interface SigningKey {
  /** The ASCII-armored public key. */
  readonly ascii_armor: string;
  /** The HashiCorp partner trust signature, when the key has one. */
  readonly trust_signature?: string;
}

/** How a package was authenticated, in terraform's words (`PackageAuthenticationResult`). */
export const AuthResult = {
  /** Only a checksum was checked (a network mirror's hashes). */
  VerifiedChecksum: "verified checksum",
  /** Signed with HashiCorp's key. */
  HashiCorp: "signed by HashiCorp",
  /** Signed with a key carrying a partner trust signature. */
  Partner: "signed by a HashiCorp partner",
  /** Signed with the provider author's own key. */
  Community: "self-signed",
} as const;

/** One of the {@link AuthResult} values. */
export type AuthResult = (typeof AuthResult)[keyof typeof AuthResult];

let loading: Promise<typeof Openpgp> | undefined;

/** The OpenPGP library, loaded once on first use. */
function loadOpenpgp(): Promise<typeof Openpgp> {
  loading ??= import("openpgp");
  return loading;
}

/**
 * Starts loading the OpenPGP library (a few hundred ms of compilation) while other work waits
 * on the network. Its types stay out of this package's declarations (openpgp's own declare
 * modules that are not installed with it).
 */
export function preloadOpenpgp(): Promise<void> {
  return loadOpenpgp().then(() => undefined);
}

/** The primary key ID of HashiCorp's provider signing key. */
const HASHICORP_KEY_ID = "34365D9472D7468F";

/**
 * Checks a registry's detached signature of a `SHA256SUMS` document against the keys the
 * registry named, as terraform's `signatureAuthentication` does: the first key that issued
 * the signature must verify it.
 *
 * @returns the result and the signing key's primary key ID (16 hex digits, upper case).
 * @throws StepError `signature`: `authentication signature from unknown issuer` when no
 *   key issued it, `error checking signature: …` when the issuing key does not verify it.
 */
export async function verifySignature(document: Uint8Array, signature: Uint8Array, keys: readonly SigningKey[]): Promise<{ result: AuthResult; keyId: string }> {
  // loaded on first use: a large library only installation needs
  const { createMessage, readKeys, readSignature, verify } = await loadOpenpgp();
  let sig;
  try {
    sig = await readSignature({ binarySignature: signature });
  } catch {
    try {
      sig = await readSignature({ armoredSignature: Buffer.from(signature).toString("utf8") });
    } catch (e) {
      throw new StepError(InstallErrorCode.Signature, `error checking signature: openpgp: invalid data: ${(e as Error).message}`, e);
    }
  }
  const issuers = new Set(sig.getSigningKeyIDs().map((k) => k.toHex().toLowerCase()));
  for (const key of keys) {
    let ring: Key[];
    try {
      ring = await readKeys({ armoredKeys: key.ascii_armor });
    } catch (e) {
      throw new StepError(InstallErrorCode.Signature, `error decoding signing key: ${(e as Error).message}`, e);
    }
    const issuer = ring.find((k) => k.getKeyIDs().some((id) => issuers.has(id.toHex().toLowerCase())));
    if (issuer === undefined) continue;
    const message = await createMessage({ binary: document });
    try {
      const out = await verify({ message, signature: sig, verificationKeys: ring, expectSigned: true, format: "binary" });
      await out.signatures[0]?.verified;
    } catch (e) {
      throw new StepError(InstallErrorCode.Signature, `error checking signature: openpgp: invalid signature: ${(e as Error).message.replace(/^Error verifying signed message: /, "")}`, e);
    }
    const keyId = issuer.getKeyID().toHex().toUpperCase();
    const result = keyId === HASHICORP_KEY_ID ? AuthResult.HashiCorp : key.trust_signature !== undefined && key.trust_signature !== "" ? AuthResult.Partner : AuthResult.Community;
    return { result, keyId };
  }
  throw new StepError(InstallErrorCode.Signature, "authentication signature from unknown issuer");
}

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

/** The keys that make a signature official or a key a partner's (tests give their own). */
export interface TrustedKeys {
  /** Armored key(s) whose signature of the checksum list makes the provider official (default HashiCorp's). */
  readonly hashicorp?: string;
  /** Armored key(s) whose signature of a signing key (its `trust_signature`) makes it a partner's (default HashiCorp's partners key). */
  readonly partners?: string;
}

const keyrings = new Map<string, Promise<Key[]>>();

/** The keys of an armored key ring, parsed once per run. */
function keyring(openpgp: typeof Openpgp, armoredKeys: string): Promise<Key[]> {
  let ring = keyrings.get(armoredKeys);
  if (ring === undefined) {
    ring = openpgp.readKeys({ armoredKeys });
    keyrings.set(armoredKeys, ring);
  }
  return ring;
}

/** Go's `openpgp.ErrUnknownIssuer`. */
const UNKNOWN_ISSUER = "openpgp: signature made by unknown entity";

/** The body of an ASCII-armored block, or the words of Go's `armor.Decode` failing (`EOF` when there is no block). */
async function dearmor(openpgp: typeof Openpgp, text: string): Promise<Uint8Array | { error: string }> {
  if (!/^-----BEGIN [^-\n]+-----\s*$/m.test(text)) return { error: "EOF" };
  try {
    const { data } = await openpgp.unarmor(text);
    return data as Uint8Array;
  } catch (e) {
    return { error: `openpgp: invalid data: ${(e as Error).message}` };
  }
}

/**
 * Go's `openpgp.CheckDetachedSignature` of `signed` against `keyring`: `undefined` when one of
 * its keys issued the signature and it verifies, else the error's words.
 */
async function checkDetached(openpgp: typeof Openpgp, keyring: readonly Key[], signed: Uint8Array, signature: Openpgp.Signature): Promise<string | undefined> {
  const issuers = new Set(signature.getSigningKeyIDs().map((k) => k.toHex().toLowerCase()));
  if (!keyring.some((k) => k.getKeyIDs().some((id) => issuers.has(id.toHex().toLowerCase())))) return UNKNOWN_ISSUER;
  try {
    const out = await openpgp.verify({ message: await openpgp.createMessage({ binary: signed }), signature, verificationKeys: [...keyring], expectSigned: true, format: "binary" });
    await out.signatures[0]?.verified;
    return undefined;
  } catch (e) {
    return `openpgp: invalid signature: ${(e as Error).message.replace(/^Error verifying signed message: /, "")}`;
  }
}

/**
 * Checks a registry's detached signature of a `SHA256SUMS` document against the keys the
 * registry named, as terraform's `signatureAuthentication` does: the first key that issued
 * the signature must verify it. The provider is official when HashiCorp's key verifies the
 * signature; otherwise a partner's when the signing key has a `trust_signature`, which
 * HashiCorp's partners key must verify over the key's (unarmored) bytes; otherwise
 * community ("self-signed").
 *
 * @returns the result and the signing key's primary key ID (16 hex digits, upper case).
 * @throws StepError `signature`: `authentication signature from unknown issuer` when no
 *   key issued it, `error checking signature: …` when the issuing key does not verify it;
 *   `error decoding trust signature: …` / `error verifying trust signature: …` for a
 *   `trust_signature` that is not armored or that HashiCorp's partners key did not make.
 */
export async function verifySignature(document: Uint8Array, signature: Uint8Array, keys: readonly SigningKey[], trusted: TrustedKeys = {}): Promise<{ result: AuthResult; keyId: string }> {
  // loaded on first use: a large library only installation needs
  const openpgp = await loadOpenpgp();
  const { createMessage, readKeys, readSignature, verify } = openpgp;
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
    const { HASHICORP_KEY_IDS, HASHICORP_PARTNERS_KEY, HASHICORP_PUBLIC_KEY } = await import("./hashicorp-keys.js");
    // HashiCorp's key (parsed only when it may have issued the signature: its key IDs known)
    if (trusted.hashicorp !== undefined || [...issuers].some((id) => HASHICORP_KEY_IDS.has(id))) {
      const hashicorp = await keyring(openpgp, trusted.hashicorp ?? HASHICORP_PUBLIC_KEY);
      if ((await checkDetached(openpgp, hashicorp, document, sig)) === undefined) return { result: AuthResult.HashiCorp, keyId };
    }
    if (key.trust_signature === undefined || key.trust_signature === "") return { result: AuthResult.Community, keyId };
    const partners = await keyring(openpgp, trusted.partners ?? HASHICORP_PARTNERS_KEY);
    const authorKey = await dearmor(openpgp, key.ascii_armor);
    if (!(authorKey instanceof Uint8Array)) throw new StepError(InstallErrorCode.Signature, `error decoding signing key: ${authorKey.error}`);
    const trustBody = await dearmor(openpgp, key.trust_signature);
    if (!(trustBody instanceof Uint8Array)) throw new StepError(InstallErrorCode.Signature, `error decoding trust signature: ${trustBody.error}`);
    let trust: Openpgp.Signature;
    try {
      trust = await readSignature({ binarySignature: trustBody });
    } catch (e) {
      throw new StepError(InstallErrorCode.Signature, `error verifying trust signature: openpgp: invalid data: ${(e as Error).message}`, e);
    }
    const failed = await checkDetached(openpgp, partners, authorKey, trust);
    if (failed !== undefined) throw new StepError(InstallErrorCode.Signature, `error verifying trust signature: ${failed}`);
    return { result: AuthResult.Partner, keyId };
  }
  throw new StepError(InstallErrorCode.Signature, "authentication signature from unknown issuer");
}

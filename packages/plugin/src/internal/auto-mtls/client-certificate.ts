import { createHash, generateKeyPair, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A client certificate for go-plugin's AutoMTLS, with its private key.
 *
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export type ClientCertificate = {
  /** The certificate in PEM form (what goes into `PLUGIN_CLIENT_CERT`). */
  readonly certPem: string;
  /** The PKCS#8 private key in PEM form (for `tls.connect`). */
  readonly keyPem: string;
  /** The certificate in DER form. */
  readonly der: Uint8Array;
};

/** How long go-plugin's certificates are valid: 262,980 hours (~30 years). */
const VALIDITY_MS = 262_980 * 3600 * 1000;
/** go-plugin backdates `NotBefore` by 30 seconds. */
const BACKDATE_MS = 30 * 1000;

// ---------------------------------------------------------------------------------------
// A minimal DER writer: just what one fixed certificate shape needs (X.690).

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const TRUE = Buffer.from([0x01, 0x01, 0xff]);

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const group: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) group.unshift(0x80 | (v & 0x7f));
    out.push(...group);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A non-negative INTEGER from big-endian magnitude bytes (minimal encoding). */
function unsignedInteger(magnitude: Buffer): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const m = magnitude.subarray(i);
  return tlv(0x02, (m[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), m]) : m);
}

/** UTCTime before 2050, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5), to the second. */
function time(d: Date): Buffer {
  const p = (n: number, w = 2): string => String(n).padStart(w, "0");
  const rest = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  const y = d.getUTCFullYear();
  if (y >= 1950 && y < 2050) return tlv(0x17, Buffer.from(`${p(y % 100)}${rest}`, "ascii"));
  return tlv(0x18, Buffer.from(`${p(y, 4)}${rest}`, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), TRUE, octets(value)) : seq(oid(id), octets(value));
}

const ECDSA_WITH_SHA512 = seq(oid("1.2.840.10045.4.3.4"));
/** O=HashiCorp, CN=localhost (PrintableString, as Go writes printable names). */
const NAME = seq(
  set(seq(oid("2.5.4.10"), tlv(0x13, Buffer.from("HashiCorp", "ascii")))),
  set(seq(oid("2.5.4.3"), tlv(0x13, Buffer.from("localhost", "ascii")))),
);

function generateP521(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return new Promise((resolve, reject) => {
    generateKeyPair("ec", { namedCurve: "secp521r1" }, (err, publicKey, privateKey) => {
      if (err !== null) reject(err);
      else resolve({ publicKey, privateKey });
    });
  });
}

/**
 * Makes a client certificate exactly as go-plugin's `generateCert` does: ECDSA P-521 key,
 * signed ecdsa-with-SHA512, self-signed, random serial below 2^128, Subject
 * `O=HashiCorp, CN=localhost`, SAN `DNS:localhost`, KeyUsage (critical) digitalSignature +
 * keyEncipherment + keyAgreement + keyCertSign, ExtKeyUsage clientAuth + serverAuth,
 * BasicConstraints (critical) CA:TRUE, a SubjectKeyIdentifier (as Go adds for CA
 * certificates), valid from now − 30 s to now + 262,980 h (whole seconds).
 *
 * The DER is written directly (a fixed shape) and signed with Node's crypto: a few
 * milliseconds, with no X.509 library to load.
 *
 * @param now - the reference time (defaults to the current time)
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export async function createClientCertificate(now: Date = new Date()): Promise<ClientCertificate> {
  const { publicKey, privateKey } = await generateP521();
  const spki = publicKey.export({ format: "der", type: "spki" });
  // SubjectKeyIdentifier: SHA-1 of the subjectPublicKey bits (RFC 5280 method 1, as Go).
  const keyBits = spki.subarray(spki.length - 133); // uncompressed P-521 point: 0x04 || X || Y
  const ski = createHash("sha1").update(keyBits).digest();
  // 16 random bytes: a serial in [0, 2^128), like rand.Int(rand.Reader, 1<<128).
  const serial = unsignedInteger(randomBytes(16));
  const keyUsage = Buffer.from([0x03, 0x02, 0x02, 0xac]); // digitalSignature, keyEncipherment, keyAgreement, keyCertSign
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    serial,
    ECDSA_WITH_SHA512,
    NAME,
    seq(time(new Date(now.getTime() - BACKDATE_MS)), time(new Date(now.getTime() + VALIDITY_MS))),
    NAME,
    spki,
    tlv(
      0xa3,
      seq(
        extension("2.5.29.15", true, keyUsage),
        extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.2"), oid("1.3.6.1.5.5.7.3.1"))),
        extension("2.5.29.19", true, seq(TRUE)),
        extension("2.5.29.14", false, octets(ski)),
        extension("2.5.29.17", false, seq(tlv(0x82, Buffer.from("localhost", "ascii")))),
      ),
    ),
  );
  const signature = sign("sha512", tbs, privateKey); // DER ECDSA-Sig-Value
  const der = seq(tbs, ECDSA_WITH_SHA512, tlv(0x03, Buffer.from([0]), signature));
  return {
    certPem: toPem(der, "CERTIFICATE"),
    keyPem: privateKey.export({ format: "pem", type: "pkcs8" }) as string,
    der: new Uint8Array(der),
  };
}

/**
 * Encodes DER bytes as PEM with the given label.
 *
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export function toPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

import type * as X509Types from "@peculiar/x509";
import { randomBytes, webcrypto } from "node:crypto";

/**
 * A client certificate for go-plugin's AutoMTLS, with its private key.
 *
 * @internal
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

type X509Module = typeof X509Types;
let x509Loaded: Promise<X509Module> | undefined;

/**
 * Loads `@peculiar/x509` on first use. Its dependency injection library (tsyringe) needs
 * the `reflect-metadata` polyfill, which patches the global `Reflect`; loading it lazily
 * keeps that side effect out of processes that never use AutoMTLS.
 */
function loadX509(): Promise<X509Module> {
  x509Loaded ??= (async () => {
    await import("reflect-metadata");
    const x509 = await import("@peculiar/x509");
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  })();
  return x509Loaded;
}

/**
 * Makes a client certificate exactly as go-plugin's `generateCert` does: ECDSA P-521 key,
 * signed ecdsa-with-SHA512, self-signed, random serial below 2^128, Subject
 * `O=HashiCorp, CN=localhost`, SAN `DNS:localhost`, KeyUsage (critical) digitalSignature +
 * keyEncipherment + keyAgreement + keyCertSign, ExtKeyUsage clientAuth + serverAuth,
 * BasicConstraints (critical) CA:TRUE, valid from now − 30 s to now + 262,980 h.
 *
 * @param now - the reference time (defaults to the current time)
 * @internal
 */
export async function createClientCertificate(now: Date = new Date()): Promise<ClientCertificate> {
  const x509 = await loadX509();
  const algorithm = { name: "ECDSA", namedCurve: "P-521", hash: "SHA-512" } as const;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    "sign",
    "verify",
  ])) as webcrypto.CryptoKeyPair;
  const usages =
    x509.KeyUsageFlags.digitalSignature |
    x509.KeyUsageFlags.keyEncipherment |
    x509.KeyUsageFlags.keyAgreement |
    x509.KeyUsageFlags.keyCertSign;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    // 16 random bytes: a serial in [0, 2^128), like rand.Int(rand.Reader, 1<<128).
    serialNumber: randomBytes(16).toString("hex"),
    name: "O=HashiCorp, CN=localhost",
    notBefore: new Date(now.getTime() - BACKDATE_MS),
    notAfter: new Date(now.getTime() + VALIDITY_MS),
    signingAlgorithm: algorithm,
    keys: keys as unknown as Parameters<X509Module["X509CertificateGenerator"]["createSelfSigned"]>[0]["keys"],
    extensions: [
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
      new x509.KeyUsagesExtension(usages, true),
      new x509.ExtendedKeyUsageExtension([
        x509.ExtendedKeyUsage.clientAuth,
        x509.ExtendedKeyUsage.serverAuth,
      ]),
      new x509.BasicConstraintsExtension(true, undefined, true),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    certPem: cert.toString("pem"),
    keyPem: toPem(new Uint8Array(pkcs8), "PRIVATE KEY"),
    der: new Uint8Array(cert.rawData),
  };
}

/**
 * Encodes DER bytes as PEM with the given label.
 *
 * @internal
 */
export function toPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

import { X509Certificate as NodeX509, createPrivateKey, createPublicKey } from "node:crypto";
import { createClientCertificate } from "./client-certificate.js";

// Parse the certificate back with Node's own X.509 implementation (OpenSSL), independent
// of the library that made it, and check every property go-plugin's generator sets.
describe("createClientCertificate", () => {
  const now = new Date("2026-03-01T12:00:00.000Z");
  let pem: string;
  let keyPem: string;
  let der: Uint8Array;
  let cert: NodeX509;

  beforeAll(async () => {
    ({ certPem: pem, keyPem, der } = await createClientCertificate(now));
    cert = new NodeX509(pem);
  });

  test("PEM and DER describe the same certificate", () => {
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n?$/);
    expect(Buffer.from(der)).toEqual(cert.raw);
  });

  test("ECDSA P-521 key, and the private key matches it", () => {
    expect(cert.publicKey.asymmetricKeyType).toBe("ec");
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe("secp521r1");
    const priv = createPrivateKey(keyPem);
    expect(createPublicKey(priv).export({ format: "der", type: "spki" })).toEqual(
      cert.publicKey.export({ format: "der", type: "spki" }),
    );
    expect(cert.checkPrivateKey(priv)).toBe(true);
  });

  test("self-signed: issuer = subject = O=HashiCorp, CN=localhost, signature verifies", () => {
    expect(cert.subject).toBe("O=HashiCorp\nCN=localhost");
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkIssued(cert)).toBe(true);
  });

  test("SAN is DNS:localhost and the name checks pass for localhost only", () => {
    expect(cert.subjectAltName).toBe("DNS:localhost");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkHost("example.com")).toBeUndefined();
  });

  test("CA:TRUE", () => {
    expect(cert.ca).toBe(true);
  });

  test("EKU clientAuth + serverAuth", () => {
    expect([...(cert.keyUsage ?? [])].sort()).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
  });

  test("validity: now - 30 s to now + 262980 h", () => {
    expect(new Date(cert.validFrom).getTime()).toBe(now.getTime() - 30_000);
    expect(new Date(cert.validTo).getTime()).toBe(now.getTime() + 262_980 * 3600_000);
  });

  test("serial is random and below 2^128", async () => {
    const serial = BigInt(`0x${cert.serialNumber}`);
    expect(serial).toBeLessThan(2n ** 128n);
    expect(serial).toBeGreaterThan(0n);
    const other = new NodeX509((await createClientCertificate(now)).certPem);
    expect(other.serialNumber).not.toBe(cert.serialNumber);
  });

  // Node's X509Certificate does not expose criticality, the signature algorithm or the key
  // usage bits; read them from the DER with a minimal walker.
  test("signature algorithm ecdsa-with-SHA512; KeyUsage and BasicConstraints are critical with the right bits", () => {
    const certParts = children(children(Buffer.from(der))[0]!);
    const tbs = children(certParts[0]!);
    const sigAlg = children(certParts[1]!);
    expect(oid(sigAlg[0]!)).toBe("1.2.840.10045.4.3.4"); // ecdsa-with-SHA512
    const extsWrapper = tbs.find((n) => n.tag === 0xa3)!;
    const exts = children(children(extsWrapper)[0]!).map((ext) => {
      const parts = children(ext);
      const critical = parts.length === 3 && parts[1]!.tag === 0x01 && parts[1]!.value[0] === 0xff;
      return { oid: oid(parts[0]!), critical, value: parts[parts.length - 1]!.value };
    });
    const byOid = Object.fromEntries(exts.map((e) => [e.oid, e]));
    const keyUsage = byOid["2.5.29.15"]!;
    expect(keyUsage.critical).toBe(true);
    // BIT STRING: unused bits, then bits: digitalSignature(0) keyEncipherment(2) keyAgreement(4) keyCertSign(5).
    const bits = children(keyUsage.value)[0]!.value;
    expect(bits[1]).toBe(0b1010_1100);
    const basic = byOid["2.5.29.19"]!;
    expect(basic.critical).toBe(true);
    expect(byOid["2.5.29.17"]!.critical).toBe(false);
    expect(byOid["2.5.29.37"]!.critical).toBe(false);
  });
});

type Node = { tag: number; value: Buffer };

function children(input: Node | Buffer): Node[] {
  const buf = Buffer.isBuffer(input) ? input : input.value;
  const out: Node[] = [];
  let i = 0;
  while (i < buf.length) {
    const tag = buf[i]!;
    let len = buf[i + 1]!;
    let off = i + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      len = 0;
      for (let k = 0; k < n; k++) len = len * 256 + buf[off + k]!;
      off += n;
    }
    out.push({ tag, value: buf.subarray(off, off + len) });
    i = off + len;
  }
  return out;
}

function oid(node: Node): string {
  const b = node.value;
  const parts = [Math.floor(b[0]! / 40), b[0]! % 40];
  let acc = 0;
  for (let i = 1; i < b.length; i++) {
    acc = acc * 128 + (b[i]! & 0x7f);
    if (!(b[i]! & 0x80)) {
      parts.push(acc);
      acc = 0;
    }
  }
  return parts.join(".");
}

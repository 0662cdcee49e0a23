/**
 * Hash and crypto functions: Terraform's `funcs/crypto.go` (`md5`, `sha*`, `base64sha*`,
 * `uuid`, `uuidv5`, `bcrypt`, `rsadecrypt`).
 *
 * @internal
 * @packageDocumentation
 */

import { createHash, createPrivateKey, privateDecrypt, randomBytes, constants as cryptoConstants } from "node:crypto";
import { createRequire } from "node:module";
import type BcryptjsModule from "bcryptjs";
import { numberType, stringType, stringVal } from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { goBase64Decode } from "./encoding.js";
import { fixedFunction, fromUtf8, notNull, param, toGoInt, utf8 } from "./helpers.js";
import { goQuote } from "./numeric.js";

/** The bcryptjs package, loaded on the first `bcrypt()` call (most configurations make none; loading it costs ~1.5 MiB of RSS). */
let bcryptjsModule: typeof BcryptjsModule | undefined;
const bcryptjs = (): typeof BcryptjsModule => (bcryptjsModule ??= createRequire(import.meta.url)("bcryptjs") as typeof BcryptjsModule);

function hashFn(description: string, algo: string, enc: "hex" | "base64"): HclFunction {
  return fixedFunction({
    description,
    params: [param("str", stringType)],
    returns: stringType,
    refineResult: notNull,
    impl: (a) => stringVal(createHash(algo).update(utf8(a[0]!.asString())).digest(enc)),
  });
}

const NAMESPACES: Readonly<Record<string, string>> = {
  dns: "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
  url: "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
  oid: "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
  x500: "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
};

/** google/uuid's `Parse`: the forms it accepts, as 16 bytes, or its error. */
function parseUuid(s: string): Uint8Array {
  let t = s;
  if (t.length === 36 + 9) {
    if (t.slice(0, 9).toLowerCase() !== "urn:uuid:") throw new Error(`invalid urn prefix: ${goQuote(t.slice(0, 9))}`);
    t = t.slice(9);
  } else if (t.length === 36 + 2) t = t.slice(1, -1);
  else if (t.length === 32) t = `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
  else if (t.length !== 36) throw new Error(`invalid UUID length: ${s.length}`);
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(t)) throw new Error("invalid UUID format");
  return Uint8Array.from(Buffer.from(t.replace(/-/g, ""), "hex"));
}

function uuidV5(ns: Uint8Array, name: string): string {
  const h = createHash("sha1").update(ns).update(utf8(name)).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The hash and crypto functions, by name. `plan` makes the impure ones unknown. */
export function cryptoFunctions(): Record<string, HclFunction> {
  return {
    md5: hashFn("Computes the MD5 hash of a given string and encodes it with hexadecimal digits.", "md5", "hex"),
    sha1: hashFn("Computes the SHA1 hash of a given string and encodes it with hexadecimal digits.", "sha1", "hex"),
    sha256: hashFn("Computes the SHA256 hash of a given string and encodes it with hexadecimal digits.", "sha256", "hex"),
    sha512: hashFn("Computes the SHA512 hash of a given string and encodes it with hexadecimal digits.", "sha512", "hex"),
    base64sha256: hashFn("Computes the SHA256 hash of a given string and encodes it with Base64.", "sha256", "base64"),
    base64sha512: hashFn("Computes the SHA512 hash of a given string and encodes it with Base64.", "sha512", "base64"),
    uuid: fixedFunction({
      description: "Generates a unique identifier string.",
      params: [],
      returns: stringType,
      refineResult: notNull,
      impl: () => {
        // hashicorp/go-uuid: 16 random bytes, no version or variant bits.
        const x = randomBytes(16).toString("hex");
        return stringVal(`${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`);
      },
    }),
    uuidv5: fixedFunction({
      description: "Generates a name-based UUID, as described in RFC 4122 section 4.3.",
      params: [param("namespace", stringType), param("name", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const nsText = a[0]!.asString();
        let ns: Uint8Array;
        try {
          ns = parseUuid(NAMESPACES[nsText] ?? nsText);
        } catch (e) {
          throw new FunctionError(`uuidv5() doesn't support namespace ${nsText} (${(e as Error).message})`);
        }
        return stringVal(uuidV5(ns, a[1]!.asString()));
      },
    }),
    bcrypt: fixedFunction({
      description: "Computes a hash of the given string using the Blowfish cipher.",
      params: [param("str", stringType)],
      varParam: param("cost", numberType),
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        let cost = 10;
        if (a.length > 2) throw new FunctionError(`bcrypt() takes no more than two arguments`);
        if (a.length === 2) {
          try {
            cost = toGoInt(a[1]!.asNumber());
          } catch (e) {
            throw new FunctionArgError(1, (e as Error).message);
          }
        }
        if (cost < 4) cost = 10;
        if (cost > 31) throw new FunctionError(`error occured generating password crypto/bcrypt: cost ${cost} is outside allowed range (4,31)`);
        const input = utf8(a[0]!.asString());
        if (input.length > 72) throw new FunctionError("error occured generating password bcrypt: password length exceeds 72 bytes");
        const hash = bcryptjs().hashSync(fromUtf8(input), cost);
        return stringVal(hash.replace(/^\$2b\$/, "$2a$"));
      },
    }),
    rsadecrypt: fixedFunction({
      description: "Decrypts an RSA-encrypted ciphertext, returning the corresponding cleartext.",
      params: [param("ciphertext", stringType), param("privatekey", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const ct = a[0]!.asString();
        const bytes = goBase64Decode(ct);
        if (bytes === undefined) throw new FunctionArgError(0, `failed to decode input ${goQuote(ct)}: cipher text must be base64-encoded`);
        let key;
        try {
          key = createPrivateKey(a[1]!.asString());
        } catch {
          throw new FunctionArgError(1, "invalid private key: ssh: no key found");
        }
        // Raw RSA, then PKCS #1 v1.5 unpadding here: Node refuses PKCS #1 v1.5 decryption
        // padding itself (CVE-2023-46809), and Terraform uses exactly that scheme.
        let em: Uint8Array;
        try {
          em = privateDecrypt({ key, padding: cryptoConstants.RSA_NO_PADDING }, bytes);
        } catch {
          throw new FunctionError("failed to decrypt: crypto/rsa: decryption error");
        }
        const sep = em.indexOf(0, 2);
        if (em[0] !== 0 || em[1] !== 2 || sep < 10) throw new FunctionError("failed to decrypt: crypto/rsa: decryption error");
        return stringVal(fromUtf8(em.subarray(sep + 1)));
      },
    }),
  };
}

import * as openpgp from "openpgp";
import { HASHICORP_KEY_IDS, HASHICORP_PUBLIC_KEY } from "./hashicorp-keys.js";
import { AuthResult, verifySignature } from "./verify-signature.js";

type Pair = { priv: openpgp.PrivateKey; armored: string; id: string; body: Uint8Array };

async function key(name: string): Promise<Pair> {
  const k = await openpgp.generateKey({ type: "ecc", curve: "curve25519Legacy", userIDs: [{ name }], format: "object" });
  return { priv: k.privateKey, armored: k.publicKey.armor(), id: k.publicKey.getKeyID().toHex().toUpperCase(), body: k.publicKey.write() };
}

async function detach(data: Uint8Array, by: Pair, armored = false): Promise<Uint8Array | string> {
  const message = await openpgp.createMessage({ binary: data });
  return armored ? ((await openpgp.sign({ message, signingKeys: by.priv, detached: true, format: "armored" })) as string) : ((await openpgp.sign({ message, signingKeys: by.priv, detached: true, format: "binary" })) as Uint8Array);
}

const doc = Buffer.from(`${"ab".repeat(32)}  terraform-provider-x_1.0.0_linux_amd64.zip\n`);
let author: Pair, partners: Pair, stranger: Pair;

beforeAll(async () => {
  [author, partners, stranger] = await Promise.all([key("author"), key("partners"), key("stranger")]);
}, 60_000);

describe("verifySignature: terraform's official, partner and community results", () => {
  test("a key without a trust signature is community; HashiCorp's key (given here) makes it official", async () => {
    const sig = (await detach(doc, author)) as Uint8Array;
    expect(await verifySignature(doc, sig, [{ ascii_armor: author.armored }])).toEqual({ result: AuthResult.Community, keyId: author.id });
    expect(await verifySignature(doc, sig, [{ ascii_armor: author.armored }], { hashicorp: author.armored })).toEqual({ result: AuthResult.HashiCorp, keyId: author.id });
  });

  test("a trust signature made by the partners key over the signing key's bytes makes it a partner's", async () => {
    const sig = (await detach(doc, author)) as Uint8Array;
    const trust = (await detach(author.body, partners, true)) as string;
    const keys = [{ ascii_armor: author.armored, trust_signature: trust }];
    expect(await verifySignature(doc, sig, keys, { partners: partners.armored })).toEqual({ result: AuthResult.Partner, keyId: author.id });
    // official wins over partner, as terraform checks HashiCorp's key first
    expect((await verifySignature(doc, sig, keys, { hashicorp: author.armored, partners: partners.armored })).result).toBe(AuthResult.HashiCorp);
  });

  test("a trust signature from another key, over other bytes, or not armored: terraform's errors", async () => {
    const sig = (await detach(doc, author)) as Uint8Array;
    const byStranger = (await detach(author.body, stranger, true)) as string;
    // HashiCorp's real partners key (the default) did not make it
    await expect(verifySignature(doc, sig, [{ ascii_armor: author.armored, trust_signature: byStranger }])).rejects.toThrow("error verifying trust signature: openpgp: signature made by unknown entity");
    const otherBytes = (await detach(stranger.body, partners, true)) as string;
    await expect(verifySignature(doc, sig, [{ ascii_armor: author.armored, trust_signature: otherBytes }], { partners: partners.armored })).rejects.toThrow(/^error verifying trust signature: openpgp: invalid signature: /);
    await expect(verifySignature(doc, sig, [{ ascii_armor: author.armored, trust_signature: "not armored" }])).rejects.toThrow("error decoding trust signature: EOF");
  });
});

test("HASHICORP_KEY_IDS are the embedded HashiCorp key's IDs", async () => {
  const [key] = await openpgp.readKeys({ armoredKeys: HASHICORP_PUBLIC_KEY });
  expect(new Set(key!.getKeyIDs().map((id) => id.toHex()))).toEqual(HASHICORP_KEY_IDS);
});

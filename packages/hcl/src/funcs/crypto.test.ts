// Expected values from terraform 1.11.4 (see testdata/corpus/crypto.json).
import { numberVal, stringVal } from "@magma/cty";
import { callFunction } from "../call-function.js";
import { call, callError, fn } from "./test-support/call.js";

const s = stringVal;

describe("hash and crypto functions", () => {
  it("hashes the UTF-8 bytes", () => {
    expect(call("md5", s("é👍")).asString()).toBe("4316b12a2d065e567e31d091c80ed18d");
    expect(call("sha1", s("hello world")).asString()).toBe("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed");
    expect(call("base64sha256", s("hello world")).asString()).toBe("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=");
  });

  it("makes name-based UUIDs from the well-known namespaces or a given UUID", () => {
    expect(call("uuidv5", s("dns"), s("www.terraform.io")).asString()).toBe("a5008fae-b28c-5ba5-96cd-82b4c53552d6");
    expect(call("uuidv5", s("{6ba7b810-9dad-11d1-80b4-00c04fd430c8}"), s("www.terraform.io")).asString()).toBe("a5008fae-b28c-5ba5-96cd-82b4c53552d6");
    expect(callError("uuidv5", s("foo"), s("x"))).toMatchObject({ message: "uuidv5() doesn't support namespace foo (invalid UUID length: 3)" });
  });

  it("hashes with bcrypt at the given cost, and refuses impossible costs", () => {
    const h = call("bcrypt", s("hello"), numberVal(5)).asString();
    expect(h.slice(0, 7)).toBe("$2a$05$");
    expect(callError("bcrypt", s("hello"), numberVal(32))).toMatchObject({ message: "error occured generating password crypto/bcrypt: cost 32 is outside allowed range (4,31)" });
  });

  it("makes impure functions unknown while planning", () => {
    for (const name of ["uuid", "timestamp"]) {
      const r = callFunction(fn(name, { plan: true }), []);
      expect(r.isKnown()).toBe(false);
      expect(r.refinements.notNull).toBe(true);
    }
    expect(callFunction(fn("bcrypt", { plan: true }), [s("x")]).isKnown()).toBe(false);
    expect(call("uuid").asString()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

import { BcryptFormatError, bcryptCompare, bcryptHash } from "./bcrypt.js";

// Generated once with libxcrypt's crypt(3) (through Perl's crypt on Debian), password as UTF-8.
const LIBXCRYPT_VECTORS: [string, string][] = [
  ["", "$2a$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq"],
  ["U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"],
  ["password", "$2b$04$0123456789ABCDEFGHIJKO7uEIXUUPB88TlnFdgS8FrJgyksxrGUO"],
  ["héllo wörld ✓", "$2y$06$./ZZZZZZZZZZZZZZZZZZZeAnTFEnJWR08doK9BwBjVlcphoxGdmSy"],
  ["!@#$%&*()-_=+[]{}<>:?", "$2a$04$abcdefghijklmnopqrstuulGjZQeJimjWgWvF6w2JCYVO0nNzRyB."],
  ["a".repeat(72), "$2a$05$CCCCCCCCCCCCCCCCCCCCC.ODcEJfYFxKziEakDsjep8mcF3zSCvHq"],
  ["b".repeat(72) + "cdef", "$2b$04$0123456789ABCDEFGHIJKOnbjaA0N/tOMIEguVdhBwyHmm8j2P6ty"],
  ["0123456789".repeat(10), "$2y$06$./ZZZZZZZZZZZZZZZZZZZeFrd8Wfcws3Z6KZy0COSxAKjZT8dyYsC"],
];

describe("bcryptCompare", () => {
  test.each(LIBXCRYPT_VECTORS)("verifies libxcrypt's hash of %j", (password, hash) => {
    expect(bcryptCompare(hash, password)).toBe(true);
    expect(bcryptCompare(hash, password + "x")).toBe(password.length >= 72); // only 72 bytes count
  });

  test("reads every minor version as Go does ($2$ and $2x$ as $2a$, the password NUL-terminated)", () => {
    const a = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    expect(bcryptCompare(a.replace("$2a$", "$2x$"), "U*U")).toBe(true);
    expect(bcryptCompare(a.replace("$2a$", "$2$"), "U*U")).toBe(true);
    expect(bcryptCompare(a.replace("$2a$", "$2$"), "U*V")).toBe(false);
  });

  test("a different password does not match", () => {
    expect(
      bcryptCompare("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*V"),
    ).toBe(false);
  });

  test.each([
    ["", "too short"],
    ["$2a$10$short", "too short"],
    ["$3a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "not a bcrypt hash"],
    ["$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe!", "not a bcrypt hash"],
    ["$2a$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "outside the allowed range"],
  ])("rejects the malformed hash %j", (hash, why) => {
    expect(() => bcryptCompare(hash, "x")).toThrow(BcryptFormatError);
    expect(() => bcryptCompare(hash, "x")).toThrow(why);
  });
});

describe("bcryptHash", () => {
  test("with a given salt reproduces libxcrypt", () => {
    // The salt "CCCCCCCCCCCCCCCCCCCCC." decodes to these 16 bytes.
    const salt = Uint8Array.from([
      0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04, 0x10, 0x41, 0x04,
      0x10,
    ]);
    expect(bcryptHash("U*U", 5, salt)).toBe(
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
    );
  });

  test("defaults to cost 10 and a random salt, in Go's $2a$ format", () => {
    const a = bcryptHash("secret");
    const b = bcryptHash("secret");
    expect(a).toMatch(/^\$2a\$10\$[./A-Za-z0-9]{53}$/);
    expect(a).not.toBe(b);
    expect(bcryptCompare(a, "secret")).toBe(true);
  });

  test.each([3, 32, 4.5])("rejects cost %p", (cost) => {
    expect(() => bcryptHash("x", cost)).toThrow(RangeError);
  });

  test("rejects a salt that is not 16 bytes", () => {
    expect(() => bcryptHash("x", 4, new Uint8Array(15))).toThrow("16 bytes");
  });
});

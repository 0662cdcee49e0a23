import {
  base64RawUrl,
  base64RawUrlDecode,
  base64Std,
  bigEndianDecimal,
  hexEncode,
} from "./base64.js";
import { utf8Bytes } from "./utf8.js";

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

describe("encodings of random_id", () => {
  test.each([
    [bytes(), "", "", "", "0"],
    [bytes(0), "AA", "AA==", "00", "0"],
    [bytes(0xfb, 0xff), "-_8", "+/8=", "fbff", "64511"],
    [bytes(0xa7, 0xef, 0x61, 0x52), "p-9hUg", "p+9hUg==", "a7ef6152", "2817483090"],
    [bytes(1, 2, 3), "AQID", "AQID", "010203", "66051"],
  ])("%p", (b, url, std, hex, dec) => {
    expect(base64RawUrl(b)).toBe(url);
    expect(base64Std(b)).toBe(std);
    expect(hexEncode(b)).toBe(hex);
    expect(bigEndianDecimal(b)).toBe(dec);
    expect(base64RawUrlDecode(url)).toEqual(b);
  });

  test.each([
    ["p-9hUg==", "illegal base64 data at input byte 6"],
    ["ab+c", "illegal base64 data at input byte 2"],
    ["abcde", "not possible"],
    ["ab c", "illegal base64 data at input byte 2"],
    ["ab\nc", "illegal base64 data at input byte 2"],
  ])("decoding %j fails: %s", (text, why) => {
    expect(() => base64RawUrlDecode(text)).toThrow(why);
  });

  test("long inputs round-trip (btoa is fed in chunks)", () => {
    const b = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 131) & 0xff);
    expect(base64RawUrlDecode(base64RawUrl(b))).toEqual(b);
    expect(base64Std(b)).toBe(Buffer.from(b).toString("base64"));
  });

  test("utf8Bytes: a lone surrogate becomes U+FFFD", () => {
    expect(Array.from(utf8Bytes("a\ud800b"))).toEqual([0x61, 0xef, 0xbf, 0xbd, 0x62]);
  });

  test("utf8Bytes", () => {
    expect(Array.from(utf8Bytes("aé✓😀"))).toEqual([
      0x61, 0xc3, 0xa9, 0xe2, 0x9c, 0x93, 0xf0, 0x9f, 0x98, 0x80,
    ]);
  });
});

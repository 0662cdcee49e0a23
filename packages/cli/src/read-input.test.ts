import { decodeUtf8, invalidUtf8Offset } from "./read-input.js";

const fatal = new TextDecoder("utf-8", { fatal: true });
const valid = (b: Uint8Array): boolean => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe("invalidUtf8Offset", () => {
  test.each([
    ["empty", [], 0],
    ["ASCII", [0x61, 0x62], 2],
    ["é € 😀", [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], 9],
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["0xff", [0xff], 0],
    ["overlong C0 80", [0xc0, 0x80], 0],
    ["overlong E0 80 80", [0xe0, 0x80, 0x80], 0],
    ["a surrogate ED A0 80", [0x61, 0xed, 0xa0, 0x80], 1],
    ["above U+10FFFF (F4 90 80 80)", [0xf4, 0x90, 0x80, 0x80], 0],
    ["truncated at the end", [0x61, 0xe2, 0x82], 1],
  ])("%s", (_name, bytes, offset) => {
    const b = Uint8Array.from(bytes);
    expect(invalidUtf8Offset(b)).toBe(offset);
    expect(valid(b)).toBe(offset === b.length);
  });

  test("agrees with TextDecoder's fatal mode on 5,000 random byte strings biased to UTF-8 lead and continuation bytes", () => {
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const pool = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
    for (let k = 0; k < 5_000; k++) {
      const b = Uint8Array.from({ length: next(9) }, () => pool[next(pool.length)]!);
      const at = invalidUtf8Offset(b);
      expect([[...b], at === b.length]).toEqual([[...b], valid(b)]);
      // Everything before the offset is well formed.
      expect(valid(b.subarray(0, at))).toBe(true);
    }
  });
});

describe("decodeUtf8", () => {
  test("decodes valid text and keeps a byte order mark as the file has it", () => {
    expect(decodeUtf8("--config", "x", Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe("\ufeff{}");
  });

  test("refuses invalid bytes with a bad_input CliError naming the option, the source and the offset", () => {
    expect(() => decodeUtf8("--config", '"a.json"', Uint8Array.from([0x7b, 0xff, 0x7d]))).toThrow(
      expect.objectContaining({ name: "CliError", code: "bad_input", message: '--config: "a.json" is not valid UTF-8: invalid byte sequence at byte offset 1' }),
    );
  });
});

// Byte-for-byte comparison with the golden vectors produced by go-cty 1.12.1
// (testdata/go-cty-vectors.json, see its notes). Where go-cty 1.12 differs from the go-cty
// that Terraform 1.11 uses (vectors marked supersededBy), protocol.md D3 is authoritative and
// the expectation is derived from the 1.12 bytes by the newer rule. Where magma deliberately
// deviates from go-cty (it rejects input that go-cty reads as a wrong or ill-typed value),
// the vector is listed in DEVIATIONS with the reason.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isPathError, type PathError } from "../path-error.js";
import { type Path } from "../path.js";
import { typeEquals } from "../type.js";
import { typeFromJsonValue } from "../type-json.js";
import { fromMsgpack, toMsgpack } from "./index.js";

interface ValueVector {
  name: string;
  type: unknown;
  msgpack?: string;
  msgpackError?: string;
  valueType?: unknown;
  supersededBy?: string;
  json?: string | null;
}
interface DecodeVector {
  name: string;
  type: unknown;
  input: string;
  canonical?: string;
  canonicalError?: string;
  decodedType?: unknown;
  error?: string;
  path?: string;
  panic?: string;
  supersededBy?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const vectors = JSON.parse(readFileSync(join(here, "../../testdata/go-cty-vectors.json"), "utf8")) as {
  values: ValueVector[];
  msgpackDecode: DecodeVector[];
};

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, "hex"));

/** Paths rendered as the vectors render go-cty's msgpack paths: every step as an index. */
function goPath(p: Path): string {
  return p.steps.map((s) => (s.kind === "index" ? `[${s.index}]` : `[${JSON.stringify(s.kind === "attr" ? s.name : s.key)}]`)).join("");
}

function decodeError(input: string, type: unknown): PathError {
  try {
    fromMsgpack(bytes(input), typeFromJsonValue(type));
  } catch (e) {
    if (isPathError(e)) return e;
    throw e;
  }
  throw new Error("expected a PathError");
}

/**
 * go-cty >= 1.14.4's number rule applied to go-cty 1.12 bytes: a float64 holding a whole
 * number outside int64 becomes the decimal string go-cty prints for that number
 * (`Text('f', -1)`). `texts` gives those strings in order; by default a float64's text is its
 * shortest form, as go-cty prints a number decoded from a float64 (53-bit precision). A
 * minimal msgpack walker, independent of the codec under test.
 */
function upgradeNumbers(h: string, texts?: string[]): string {
  const b = bytes(h);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: number[] = [];
  let i = 0;
  let k = 0;
  const copy = (n: number): void => {
    for (let j = 0; j < n; j++) out.push(b[i + j]!);
    i += n;
  };
  const one = (): void => {
    const c = b[i]!;
    if (c <= 0x7f || c >= 0xe0 || c === 0xc0 || c === 0xc2 || c === 0xc3) return copy(1);
    if ((c & 0xe0) === 0xa0) return copy(1 + (c & 0x1f));
    if ((c & 0xf0) === 0x90 || (c & 0xf0) === 0x80) {
      const n = (c & 0x0f) * ((c & 0xf0) === 0x80 ? 2 : 1);
      copy(1);
      for (let m = 0; m < n; m++) one();
      return;
    }
    if (c === 0xdc || c === 0xde) {
      const n = dv.getUint16(i + 1) * (c === 0xde ? 2 : 1);
      copy(3);
      for (let m = 0; m < n; m++) one();
      return;
    }
    if (c === 0xc4 || c === 0xd9) return copy(2 + b[i + 1]!);
    if (c === 0xda || c === 0xc5) return copy(3 + dv.getUint16(i + 1));
    if (c === 0xcb) {
      const f = dv.getFloat64(i + 1);
      if (Number.isInteger(f) && (f >= 2 ** 63 || f < -(2 ** 63))) {
        const text = texts !== undefined ? texts[k++]! : plainShortest(f);
        const n = text.length;
        if (n < 32) out.push(0xa0 | n);
        else if (n < 256) out.push(0xd9, n);
        else out.push(0xda, n >> 8, n & 0xff);
        for (const ch of text) out.push(ch.charCodeAt(0));
        i += 9;
        return;
      }
      return copy(9);
    }
    const fixed: Record<number, number> = { 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9, 0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9, 0xca: 5, 0xd4: 3 };
    const f = fixed[c];
    if (f === undefined) throw new Error(`upgradeNumbers: unhandled byte ${c.toString(16)} in ${h}`);
    return copy(f);
  };
  while (i < b.length) one();
  return Buffer.from(out).toString("hex");
}

/** A whole float64 in plain decimal with its shortest digits (1.7976931348623157e+308 -> 17976931348623157000...). */
function plainShortest(f: number): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e\+(\d+)$/.exec(f.toExponential());
  if (m === null) throw new Error(`plainShortest(${f})`);
  const digits = m[2]! + (m[3] ?? "");
  return m[1]! + digits + "0".repeat(Number(m[4]) - (digits.length - 1));
}

/** Whole numbers beyond int64 in a JSON text, in order (go-cty's Text('f', -1) of each). */
function bigIntegersIn(json: string): string[] {
  return (json.match(/-?\d+(?:\.\d+)?/g) ?? []).filter((t) => !t.includes(".") && (BigInt(t) >= 2n ** 63n || BigInt(t) < -(2n ** 63n)));
}

/**
 * Decoded numbers that go-cty >= 1.14.4 writes as text, by vector: a uint64 keeps all its
 * digits (64-bit precision), a float64 prints shortest (53-bit), a string keeps its value.
 */
const DECODE_TEXTS: Record<string, string[]> = {
  "number from uint64 2^63": ["9223372036854775808"],
  'number from string "18446744073709551616"': ["18446744073709551616"],
  // A whole float64 beyond int64: go-cty >= 1.14.4 writes the text it prints for a number of
  // 53-bit precision, the fewest digits within half an ulp either side, which reads back as
  // another number (2^64 as 18446744073709550000, as terraform 1.11.4 stores pow(2, 64); JS's
  // shortest text, 18446744073709552000, narrows the interval below a power of two).
  "number from float64 2^63 (integral, beyond int64)": ["9223372036854776000"],
  "number from float64 2^64 (integral, beyond uint64)": ["18446744073709550000"],
};

/** Vectors where magma deliberately differs from go-cty 1.12 (and newer). */
const DEVIATIONS: Record<string, string> = {
  "trailing bytes after number": "trailing bytes are malformed_msgpack (go-cty ignores them)",
  "trailing bytes after string": "trailing bytes are malformed_msgpack (go-cty ignores them)",
  "trailing bytes after nil": "trailing bytes are malformed_msgpack (go-cty ignores them)",
  "trailing garbage after object": "trailing bytes are malformed_msgpack (go-cty ignores them)",
  "truncated ext": "a truncated ext is malformed_msgpack (go-cty 1.12 reads it as unknown)",
  "map with integer key": "a non-string map key is a type_mismatch (go-cty reads it as the key \"\")",
  "map with nil key": "a non-string map key is a type_mismatch (go-cty reads it as the key \"\")",
  "object duplicate attribute instead of another":
    "a repeated attribute is a type_mismatch (go-cty returns an object of another type)",
};

/** Error vectors whose path magma reports more precisely than go-cty. */
const PATH_DIFFERENCES: Record<string, string> = {
  "object missing attribute": "magma names the missing attribute",
  "object extra attribute": "magma names the unsupported attribute",
  "object empty type from non-empty map": "magma names the unsupported attribute",
  "ext unknown as map key": "go-cty reports the key it failed to read as \"\"; magma reports the map",
  "truncated list": "magma rejects a declared length longer than the input before reading any element",
};

const superseded12 = (v: { supersededBy?: string }): boolean => v.supersededBy?.includes("1.13") === true;

describe("go-cty values[]: decode and re-encode give the same bytes", () => {
  const cases = vectors.values.filter((v) => v.msgpack !== undefined);
  test.each(cases.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const type = typeFromJsonValue(v.type);
    if (v.supersededBy === undefined) {
      const value = fromMsgpack(bytes(v.msgpack!), type);
      expect(hex(toMsgpack(value, type))).toBe(v.msgpack);
      return;
    }
    // go-cty 1.12 wrote whole numbers beyond int64 as float64; newer go-cty writes the text it
    // prints for them (the JSON text). Those bytes must survive a round trip unchanged.
    const want = upgradeNumbers(v.msgpack!, bigIntegersIn(v.json ?? ""));
    expect(want).not.toBe(v.msgpack);
    expect(hex(toMsgpack(fromMsgpack(bytes(want), type), type))).toBe(want);
  });
});

describe("go-cty msgpackDecode[]", () => {
  const cases = vectors.msgpackDecode.filter((v) => !superseded12(v));
  test.each(cases.map((v) => [v.name, v] as const))("%s", (name, v) => {
    const type = typeFromJsonValue(v.type);
    if (DEVIATIONS[name] !== undefined) {
      const e = decodeError(v.input, v.type);
      expect(["malformed_msgpack", "type_mismatch"]).toContain(e.code);
      return;
    }
    if (v.error !== undefined || v.panic !== undefined) {
      const e = decodeError(v.input, v.type);
      if (v.error !== undefined && PATH_DIFFERENCES[name] === undefined) expect(goPath(e.path)).toBe(v.path);
      return;
    }
    const value = fromMsgpack(bytes(v.input), type);
    if (v.decodedType !== undefined) expect(typeEquals(value.type, typeFromJsonValue(v.decodedType))).toBe(true);
    if (v.canonicalError !== undefined) {
      // The go-cty quirks (0-length map/array for a non-empty object/tuple type): the decoded
      // value does not fit the type, so it cannot be encoded back with it.
      expect(() => toMsgpack(value, type)).toThrow(expect.objectContaining({ code: "type_mismatch" }));
      return;
    }
    const want = v.supersededBy !== undefined ? upgradeNumbers(v.canonical!, DECODE_TEXTS[name]) : v.canonical!;
    expect(hex(toMsgpack(value, type))).toBe(want);
  });
});

describe("go-cty msgpackDecode[] ext vectors under go-cty >= 1.13 (refined unknowns)", () => {
  const cases = vectors.msgpackDecode.filter(superseded12);
  test.each(cases.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const type = typeFromJsonValue(v.type);
    const input = bytes(v.input);
    // The ext header: code and payload bounds.
    const h = input[0]!;
    const fixed: Record<number, number> = { 0xd4: 1, 0xd5: 2, 0xd6: 4, 0xd7: 8, 0xd8: 16 };
    const hdr = fixed[h] !== undefined ? 1 : h === 0xc7 ? 2 : h === 0xc8 ? 3 : 5;
    const code = input[hdr]!;
    const len = input.length - hdr - 1;
    if (code !== 12 || len <= 1 || v.type === "dynamic") {
      // go-cty >= 1.13 rejects other codes with longer payloads; magma (like
      // terraform-plugin-go) reads every such ext as a plain unknown.
      expect(hex(toMsgpack(fromMsgpack(input, type), type))).toBe("d40000");
      return;
    }
    if (v.name.includes("not a map") || v.name.includes("on number")) {
      expect(decodeError(v.input, v.type).code).toBe("invalid_value");
      return;
    }
    // A well-formed refinement survives the round trip byte for byte.
    const value = fromMsgpack(input, type);
    expect(value.isKnown()).toBe(false);
    expect(hex(toMsgpack(value, type))).toBe(v.input);
  });
});

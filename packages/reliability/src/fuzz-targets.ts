import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import { ctyAnyTypeArb } from "@magma/test-support/cty-arbitraries";
import { fromJson, fromMsgpack, isPathError, type Type } from "@magma/cty";
import { parseHandshakeLine } from "@magma/plugin/internal";
import { schemaEntryFromProto, schemaEntryToProto, Tfplugin6Provider } from "@magma/tfplugin";
import { invalidResponseError, isProviderError } from "@magma/provider-api";
import { faultDataEntry, faultProviderEntry, faultThingEntry } from "./fault-provider.js";

/** Bounds checked on every fuzz case. */
export interface FuzzLimits {
  /** The longest one case may take (ms). */
  readonly maxCaseMs: number;
}

/** What a fuzz run saw. */
export interface FuzzStats {
  /** Cases run. */
  runs: number;
  /** Cases that ended with the expected typed error. */
  typedErrors: number;
  /** Cases that decoded. */
  decoded: number;
  /** The slowest case (ms). */
  slowestMs: number;
  /** The highest resident set size seen (bytes), sampled every 256 cases. */
  peakRssBytes: number;
}

/** One decoder under fuzz: its name and a fast-check property over it. */
export interface FuzzTarget {
  /** `fromMsgpack`, `fromJson`, `parseHandshakeLine`, `schemaEntryFromProto`. */
  readonly name: string;
  /** The property: any input either decodes or throws the target's typed error, within the time limit. */
  property(limits: FuzzLimits, stats: FuzzStats): fc.IProperty<[unknown]>;
}

/** A fresh {@link FuzzStats}. */
export function emptyStats(): FuzzStats {
  return { runs: 0, typedErrors: 0, decoded: 0, slowestMs: 0, peakRssBytes: 0 };
}

/**
 * Runs `decode`, counting the outcome; rethrows anything but a typed error (which fails
 * the property) and fails when the case took longer than the limit.
 */
function check(stats: FuzzStats, limits: FuzzLimits, typed: (e: unknown) => boolean, decode: () => unknown): void {
  const start = performance.now();
  try {
    decode();
    stats.decoded++;
  } catch (e) {
    if (!typed(e)) throw new Error(`untyped error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
    stats.typedErrors++;
  } finally {
    stats.runs++;
    if ((stats.runs & 255) === 0) stats.peakRssBytes = Math.max(stats.peakRssBytes, process.memoryUsage.rss());
  }
  const ms = performance.now() - start;
  if (ms > stats.slowestMs) stats.slowestMs = ms;
  if (ms > limits.maxCaseMs) throw new Error(`one case took ${ms.toFixed(0)} ms (limit ${limits.maxCaseMs} ms)`);
}

/** Arbitrary cty types, a few levels deep, the dynamic type included (test-support's). */
export const typeArb: fc.Arbitrary<Type> = ctyAnyTypeArb;

/** Mutations of a valid byte string: flips, truncation, insertion, a huge declared length. */
function mutated(base: fc.Arbitrary<Uint8Array>): fc.Arbitrary<Uint8Array> {
  return fc.tuple(base, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 })), { maxLength: 4 })).map(([b, edits]) => {
    let out = Array.from(b);
    for (const [pos, byte, kind] of edits) {
      const i = out.length === 0 ? 0 : pos % out.length;
      if (kind === 0) out[i] = byte;
      else if (kind === 1) out = out.slice(0, i);
      else if (kind === 2) out.splice(i, 0, byte);
      else out.splice(i, 0, 0xdb, 0x7f, 0xff, 0xff, 0xff); // str32 of 2 GiB
    }
    return Uint8Array.from(out);
  });
}

/** msgpack headers declaring ~2 GiB (str32, bin32, array32, map32, ext32) followed by a few bytes. */
const hugeDeclaredArb: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.constantFrom(0xdb, 0xc6, 0xdd, 0xdf, 0xc9), fc.integer({ min: 0x40000000, max: 0xffffffff }), fc.uint8Array({ maxLength: 16 }))
  .map(([tag, len, tail]) => Uint8Array.from([tag, len >>> 24, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff, ...tail]));

/** A few valid msgpack encodings to mutate (fixmap, str, arrays, the unknown ext, floats). */
const msgpackSeeds: readonly Uint8Array[] = [
  Uint8Array.from([0x81, 0xa1, 0x61, 0xa1, 0x62]),
  Uint8Array.from([0x93, 0x01, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0xc0]),
  Uint8Array.from([0xd4, 0x00, 0x00]),
  Uint8Array.from([0x92, 0xc4, 0x08, 0x22, 0x73, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x22, 0xa1, 0x78]),
  Uint8Array.from([0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc3]),
];

const msgpackTarget: FuzzTarget = {
  name: "fromMsgpack",
  property: (limits, stats) =>
    fc.property(
      fc.tuple(fc.oneof(fc.uint8Array({ maxLength: 64 }), mutated(fc.constantFrom(...msgpackSeeds)), hugeDeclaredArb), typeArb),
      ([bytes, type]) => check(stats, limits, isPathError, () => fromMsgpack(bytes, type)),
    ) as fc.IProperty<[unknown]>,
};

const jsonTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.json({ maxDepth: 3 }),
  fc.json({ maxDepth: 2 }).map((v) => `{"value": ${v}, "type": ${JSON.stringify(["list", "string"])}}`),
  fc.integer({ min: 1, max: 5000 }).map((d) => `${"[".repeat(d)}${"]".repeat(d)}`),
  fc.integer({ min: 1, max: 3000 }).map((d) => `{"value": 1, "type": ${'["list",'.repeat(d)}"number"${"]".repeat(d)}}`),
  fc.tuple(fc.json({ maxDepth: 2 }), fc.nat(), fc.string({ maxLength: 3 })).map(([j, p, s]) => j.slice(0, p % (j.length + 1)) + s + j.slice(p % (j.length + 1))),
);

const jsonTarget: FuzzTarget = {
  name: "fromJson",
  property: (limits, stats) =>
    fc.property(fc.tuple(jsonTextArb, typeArb), ([text, type]) => check(stats, limits, isPathError, () => fromJson(text, type))) as fc.IProperty<[unknown]>,
};

const fieldArb = fc.oneof(
  fc.constantFrom("1", "5", "6", "unix", "tcp", "grpc", "netrpc", "/tmp/plugin1", "127.0.0.1:1234", "[::1]:80", "true", "", "0", "99999999999"),
  fc.string({ maxLength: 12 }),
  fc.base64String({ minLength: 48, maxLength: 120 }),
);
const handshakeArb: fc.Arbitrary<[string, number[]]> = fc.tuple(
  fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.array(fieldArb, { minLength: 1, maxLength: 9 }).map((f) => f.join("|")),
    fc
      .tuple(fc.constantFrom("5", "6"), fc.stringMatching(/^\/tmp\/plugin[0-9]{1,9}$/), fc.constantFrom("", "true", "false"))
      .map(([v, addr, mux]) => `1|${v}|unix|${addr}|grpc|${mux === "" ? "" : `|${mux}`}\n`),
  ),
  fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 }),
);

const handshakeTarget: FuzzTarget = {
  name: "parseHandshakeLine",
  property: (limits, stats) =>
    fc.property(handshakeArb, ([line, versions]) =>
      check(stats, limits, (e) => isProviderError(e) && (e.code === "handshake_failed" || e.code === "protocol_mismatch"), () => parseHandshakeLine(line, versions)),
    ) as fc.IProperty<[unknown]>,
};

/** tfplugin6's `Schema` message, found through the service descriptor. */
const schemaMessage: DescMessage = (() => {
  const field = Tfplugin6Provider.method.getProviderSchema.output.fields.find((f) => f.name === "provider");
  if (field?.message === undefined) throw new Error("tfplugin6 GetProviderSchema.Response has no provider Schema field");
  return field.message;
})();
const schemaSeeds: readonly Uint8Array[] = [faultProviderEntry, faultThingEntry, faultDataEntry].map((e) =>
  toBinary(schemaMessage, create(schemaMessage, schemaEntryToProto(e, 6) as unknown as Parameters<typeof create>[1])),
);
/** Decodes a wire `Schema` as ProviderConn does: a protobuf failure is `invalid_response`, then the converter. */
function schemaFromWire(bytes: Uint8Array): unknown {
  let message: unknown;
  try {
    message = fromBinary(schemaMessage, bytes);
  } catch (cause) {
    // Anything fromBinary throws (also a TypeError for invalid UTF-8) is caught, as ProviderConn's decodeMessage does.
    throw invalidResponseError("the provider schema does not decode", { operation: "GetProviderSchema", cause });
  }
  return schemaEntryFromProto(message as Parameters<typeof schemaEntryFromProto>[0], "fuzzed schema");
}

const schemaTarget: FuzzTarget = {
  name: "schemaEntryFromProto",
  property: (limits, stats) =>
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 96 }), mutated(fc.constantFrom(...schemaSeeds))), (bytes) =>
      check(
        stats,
        limits,
        (e) => isProviderError(e) && (e.code === "schema" || e.code === "invalid_response"),
        () => schemaFromWire(bytes),
      ),
    ) as fc.IProperty<[unknown]>,
};

/** The four decoders under fuzz. */
export const fuzzTargets: readonly FuzzTarget[] = [msgpackTarget, jsonTarget, handshakeTarget, schemaTarget];

/**
 * Date and time functions: go-cty's `stdlib/datetime.go` (`formatdate`, `timeadd`) and
 * Terraform's `funcs/datetime.go` (`timestamp`, `timecmp`, `plantimestamp`).
 *
 * @internal
 * @packageDocumentation
 */

import { numberType, numberVal, stringType, stringVal } from "@magma/cty";
import { FunctionArgError, type HclFunction } from "../function.js";
import { fixedFunction, notNull, param } from "./helpers.js";
import { goQuote } from "./numeric.js";

/** A parsed RFC 3339 timestamp: UTC milliseconds plus the nanosecond remainder and its zone offset in minutes. */
export interface Timestamp {
  /** Seconds since the epoch (UTC), as a bigint to keep far years exact. */
  readonly seconds: bigint;
  /** Nanoseconds within the second. */
  readonly nanos: number;
  /** Zone offset in minutes east of UTC; undefined for `Z`. */
  readonly offset: number | undefined;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [m <= 2 ? y + 1 : y, m, d];
}

function daysIn(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Parses an RFC 3339 timestamp as go-cty does; throws an Error with its message. */
export function parseTimestamp(s: string): Timestamp {
  const fail = (what: string) => new Error(`not a valid RFC3339 timestamp: ${what}`);
  const m = /^(\d{4})-(\d{2})-(\d{2})([Tt])(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[-+]\d{2}:\d{2})$/.exec(s);
  if (m === null) {
    if (!/^\d{4}/.test(s)) return failAt(s, "2006", s);
    if (!/^\d{4}-\d{2}-\d{2}/.test(s)) throw fail(`cannot use ${goQuote(s.slice(4))} as month`);
    if (!/^\d{4}-\d{2}-\d{2}[Tt]/.test(s)) throw fail("missing required time introducer 'T'");
    if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?/.test(s)) throw fail(`cannot use ${goQuote(s.slice(11))} as hour`);
    throw fail("missing required UTC offset");
  }
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[5], m[6], m[7]].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12) throw fail(`month out of range`);
  if (d < 1 || d > daysIn(y, mo)) throw fail(`day out of range`);
  if (h > 23) throw fail("hour out of range");
  if (mi > 59) throw fail("minute out of range");
  if (se > 59) throw fail("second out of range");
  const nanos = m[8] !== undefined ? Number(m[8].slice(1, 10).padEnd(9, "0")) : 0;
  let offset: number | undefined;
  if (m[9] !== "Z" && m[9] !== "z") {
    const sign = m[9]!.startsWith("-") ? -1 : 1;
    offset = sign * (Number(m[9]!.slice(1, 3)) * 60 + Number(m[9]!.slice(4, 6)));
  }
  const local = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + se);
  return { seconds: local - BigInt((offset ?? 0) * 60), nanos, offset };
}

function failAt(s: string, layout: string, value: string): never {
  throw new Error(`not a valid RFC3339 timestamp: cannot use ${goQuote(value)} as year`);
  void s;
  void layout;
}

interface Fields {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  wd: number;
}

function fields(t: Timestamp): Fields {
  const local = t.seconds + BigInt((t.offset ?? 0) * 60);
  const days = Number(local / 86400n - (local % 86400n < 0n ? 1n : 0n));
  const secs = Number(local - BigInt(days) * 86400n);
  const [y, mo, d] = civilFromDays(days);
  return { y, mo, d, h: Math.floor(secs / 3600), mi: Math.floor((secs % 3600) / 60), s: secs % 60, wd: (((days + 4) % 7) + 7) % 7 };
}

function pad(n: number, w: number): string {
  const s = String(Math.abs(n)).padStart(w, "0");
  return n < 0 ? `-${s}` : s;
}

function zone(t: Timestamp, colon: boolean, zForUTC: boolean): string {
  if (t.offset === undefined && zForUTC) return "Z";
  const o = t.offset ?? 0;
  const sign = o < 0 ? "-" : "+";
  const a = Math.abs(o);
  return `${sign}${pad(Math.floor(a / 60), 2)}${colon ? ":" : ""}${pad(a % 60, 2)}`;
}

/** Go's `time.RFC3339` format of a timestamp (no fractional seconds). */
export function rfc3339(t: Timestamp): string {
  const f = fields(t);
  return `${pad(f.y, 4)}-${pad(f.mo, 2)}-${pad(f.d, 2)}T${pad(f.h, 2)}:${pad(f.mi, 2)}:${pad(f.s, 2)}${zone(t, true, true)}`;
}

function formatDate(format: string, t: Timestamp): string {
  const f = fields(t);
  let out = "";
  let i = 0;
  while (i < format.length) {
    const c = format[i]!;
    if (c === "'") {
      if (format[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      const end = format.indexOf("'", i + 1);
      if (end < 0) throw new FunctionArgError(0, "unterminated literal '");
      out += format.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      out += c;
      i++;
      continue;
    }
    let j = i;
    while (j < format.length && format[j] === c) j++;
    const tok = format.slice(i, j);
    const n = tok.length;
    const bad = (why: string) => new FunctionArgError(0, `invalid date format verb ${goQuote(tok)}: ${why}`);
    switch (c) {
      case "Y":
        if (n === 2) out += pad(f.y % 100, 2);
        else if (n === 4) out += pad(f.y, 4);
        else throw bad('year must either be "YY" or "YYYY"');
        break;
      case "M":
        if (n === 1) out += String(f.mo);
        else if (n === 2) out += pad(f.mo, 2);
        else if (n === 3) out += MONTHS[f.mo - 1]!.slice(0, 3);
        else if (n === 4) out += MONTHS[f.mo - 1]!;
        else throw bad('month must be "M", "MM", "MMM", or "MMMM"');
        break;
      case "D":
        if (n === 1) out += String(f.d);
        else if (n === 2) out += pad(f.d, 2);
        else throw bad('day of month must either be "D" or "DD"');
        break;
      case "E":
        if (n === 3) out += DAYS[f.wd]!.slice(0, 3);
        else if (n === 4) out += DAYS[f.wd]!;
        else throw bad('day of week must either be "EEE" or "EEEE"');
        break;
      case "h":
        if (n === 1) out += String(f.h);
        else if (n === 2) out += pad(f.h, 2);
        else throw bad('24-hour must either be "h" or "hh"');
        break;
      case "H": {
        const h12 = f.h % 12 === 0 ? 12 : f.h % 12;
        if (n === 1) out += String(h12);
        else if (n === 2) out += pad(h12, 2);
        else throw bad('12-hour must either be "H" or "HH"');
        break;
      }
      case "A":
      case "a":
        if (n !== 2) throw bad('must be "AA" or "aa"');
        out += f.h < 12 ? (c === "A" ? "AM" : "am") : c === "A" ? "PM" : "pm";
        break;
      case "m":
        if (n === 1) out += String(f.mi);
        else if (n === 2) out += pad(f.mi, 2);
        else throw bad('minute must either be "m" or "mm"');
        break;
      case "s":
        if (n === 1) out += String(f.s);
        else if (n === 2) out += pad(f.s, 2);
        else throw bad('second must either be "s" or "ss"');
        break;
      case "Z":
        if (n === 1) out += zone(t, true, true);
        else if (n === 3) out += t.offset === undefined ? "UTC" : zone(t, false, false);
        else if (n === 4) out += zone(t, false, false);
        else if (n === 5) out += zone(t, true, false);
        else throw bad('timezone must be Z, ZZZZ, or ZZZZZ');
        break;
      default:
        throw new FunctionArgError(0, `invalid date format verb ${goQuote(tok)}: unsupported format verb`);
    }
    i = j;
  }
  return out;
}

/** Go's `time.ParseDuration`, in nanoseconds. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const fail = () => new Error(`time: invalid duration ${goQuote(orig)}`);
  let neg = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") throw fail();
  const units: Record<string, bigint> = { ns: 1n, us: 1000n, "µs": 1000n, "μs": 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n };
  let total = 0n;
  while (s !== "") {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (m[0] === "" || m[0] === ".") throw fail();
    s = s.slice(m[0].length);
    const u = /^[^0-9.]+/.exec(s);
    if (u === null) throw new Error(`time: missing unit in duration ${goQuote(orig)}`);
    const unit = units[u[0]];
    if (unit === undefined) throw new Error(`time: unknown unit ${goQuote(u[0])} in duration ${goQuote(orig)}`);
    s = s.slice(u[0].length);
    const whole = BigInt(m[1] === "" ? "0" : m[1]!);
    const frac = m[2] ?? "";
    let v = whole * unit;
    if (frac !== "") v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
  }
  return neg ? -total : total;
}

function nowStamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

function tsArg(s: string, i: number): Timestamp {
  try {
    return parseTimestamp(s);
  } catch (e) {
    throw new FunctionArgError(i, (e as Error).message);
  }
}

/** The date and time functions, by name. */
export function datetimeFunctions(): Record<string, HclFunction> {
  return {
    timestamp: fixedFunction({
      description: "Returns a UTC timestamp string in RFC 3339 format.",
      params: [],
      returns: stringType,
      refineResult: notNull,
      impl: () => stringVal(nowStamp()),
    }),
    plantimestamp: fixedFunction({
      description: "Returns a UTC timestamp string in RFC 3339 format, fixed during a single plan.",
      params: [],
      returns: stringType,
      refineResult: notNull,
      impl: () => stringVal(nowStamp()),
    }),
    formatdate: fixedFunction({
      description: "Formats a timestamp given in RFC 3339 syntax into another timestamp in some other machine-oriented time syntax, as described in the format string.",
      params: [param("format", stringType), param("time", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(formatDate(a[0]!.asString(), tsArg(a[1]!.asString(), 1))),
    }),
    timeadd: fixedFunction({
      description: "Adds a duration to a timestamp, returning a new timestamp.",
      params: [param("timestamp", stringType), param("duration", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const t = tsArg(a[0]!.asString(), 0);
        let d: bigint;
        try {
          d = parseDuration(a[1]!.asString());
        } catch (e) {
          throw new FunctionArgError(1, (e as Error).message);
        }
        const totalNanos = BigInt(t.nanos) + d;
        const secs = t.seconds + totalNanos / 1000000000n - (totalNanos % 1000000000n < 0n ? 1n : 0n);
        const nanos = Number(((totalNanos % 1000000000n) + 1000000000n) % 1000000000n);
        return stringVal(rfc3339({ seconds: secs, nanos, offset: t.offset }));
      },
    }),
    timecmp: fixedFunction({
      description: "Compares two timestamps and returns a number that represents the ordering of the instants those timestamps represent.",
      params: [param("timestamp_a", stringType), param("timestamp_b", stringType)],
      returns: numberType,
      refineResult: notNull,
      impl: (a) => {
        const x = tsArg(a[0]!.asString(), 0);
        const y = tsArg(a[1]!.asString(), 1);
        const c = x.seconds < y.seconds ? -1 : x.seconds > y.seconds ? 1 : x.nanos < y.nanos ? -1 : x.nanos > y.nanos ? 1 : 0;
        return numberVal(c);
      },
    }),
  };
}

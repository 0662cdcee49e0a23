/**
 * Date and time functions: go-cty's `stdlib/datetime.go` (`formatdate`, `timeadd`) and
 * Terraform's `funcs/datetime.go` (`timestamp`, `timecmp`, `plantimestamp`).
 *
 * @internal
 * @packageDocumentation
 */

import { numberType, numberVal, stringType, stringVal } from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
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
  let p = 0;
  const rest = () => s.slice(p);
  const expect = (c: string) => {
    if (p >= s.length) throw fail(`end of string where ${goQuote(c)} is expected`);
    if (s[p] !== c) throw fail(`found ${goQuote(rest())} where ${goQuote(c)} is expected`);
    p++;
  };
  const digits = (n: number, what: string, before: string): number => {
    if (p >= s.length) throw fail(`end of string before ${before}`);
    const t = s.slice(p, p + n);
    if (!new RegExp(`^\\d{${n}}$`).test(t)) throw fail(`cannot use ${goQuote(rest())} as ${what}`);
    p += n;
    return Number(t);
  };
  const y = digits(4, "year", "year");
  expect("-");
  const moStart = p;
  const mo = digits(2, "month", "month");
  if (mo < 1 || mo > 12) throw fail(`cannot use ${goQuote(s.slice(moStart + 2))} as month`);
  expect("-");
  const d = digits(2, "day", "day");
  if (p >= s.length || s[p] !== "T") throw fail("missing required time introducer 'T'");
  p++;
  const two = (what: string): number => {
    if (p >= s.length) throw fail(`end of string before ${what}`);
    if (!/^\d\d/.test(rest())) {
      if (/^\d/.test(rest())) throw fail(`${what} must have exactly two digits`);
      throw fail(`cannot use ${goQuote(rest())} as ${what}`);
    }
    const v = Number(s.slice(p, p + 2));
    p += 2;
    return v;
  };
  const h = two("hour");
  if (h > 23) throw fail("hour must be between 0 and 23 inclusive");
  expect(":");
  const mi = two("minute");
  if (mi > 59) throw fail("minute must be between 0 and 59 inclusive");
  expect(":");
  if (!/^\d\d/.test(rest())) {
    if (p >= s.length) throw fail("end of string before second");
    throw fail(`cannot use ${goQuote(rest())} as second`);
  }
  const se = Number(s.slice(p, p + 2));
  p += 2;
  if (se > 59) throw fail("second must be between 0 and 59 inclusive");
  let nanos = 0;
  if (s[p] === ".") {
    const m = /^\.(\d+)/.exec(rest());
    if (m === null) throw fail(`cannot use ${goQuote(rest())} as fractional seconds`);
    nanos = Number(m[1]!.slice(0, 9).padEnd(9, "0"));
    p += m[0].length;
  }
  if (p >= s.length) throw fail("end of string before UTC offset");
  let offset: number | undefined;
  if (s[p] === "Z") p++;
  else {
    const m = /^([-+])(\d\d):(\d\d)/.exec(rest());
    if (m === null) throw fail(`cannot use ${goQuote(rest())} as UTC offset`);
    offset = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    p += m[0].length;
  }
  if (p < s.length) throw fail(`extra text: ${goQuote(rest())}`);
  if (d < 1 || d > daysIn(y, mo)) throw fail("day out of range");
  const local = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + se);
  return { seconds: local - BigInt((offset ?? 0) * 60), nanos, offset };
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
      // A quoted literal; '' inside it is one quote.
      let j = i + 1;
      let lit = "";
      for (;;) {
        if (j >= format.length) throw new FunctionArgError(0, "unterminated literal '");
        if (format[j] === "'") {
          if (format[j + 1] === "'") {
            lit += "'";
            j += 2;
            continue;
          }
          break;
        }
        lit += format[j];
        j++;
      }
      out += lit;
      i = j + 1;
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
        if (n !== 2) throw bad(c === "A" ? 'must be "AA"' : 'must be "aa"');
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
        throw new FunctionArgError(0, `invalid date format verb ${goQuote(tok)}`);
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

/** The date and time functions, by name; `plantimestamp()` returns `planTimestamp` when given. */
export function datetimeFunctions(planTimestamp?: string): Record<string, HclFunction> {
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
      impl: () => stringVal(planTimestamp ?? nowStamp()),
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
        let t: Timestamp;
        let d: bigint;
        try {
          t = parseTimestamp(a[0]!.asString());
          d = parseDuration(a[1]!.asString());
        } catch (e) {
          throw new FunctionError((e as Error).message);
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

/**
 * Encoding functions: base64, URL, text encodings, JSON, CSV and YAML (Terraform's
 * `funcs/encoding.go`, go-cty's `stdlib/json.go` and `stdlib/csv.go`, go-cty-yaml).
 *
 * @internal
 * @packageDocumentation
 */

import { crc32 } from "node:zlib";
import {
  CtyNumber,
  boolVal,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  listType,
  listVal,
  listValEmpty,
  nullVal,
  numberVal,
  objectType,
  objectVal,
  stringType,
  stringVal,
  toJson,
  tupleVal,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { FunctionArgError, FunctionError, type HclFunction } from "../function.js";
import { fixedFunction, fromUtf8, isValidUtf8, notNull, param, utf8 } from "./helpers.js";
import { goQuote } from "./numeric.js";
import { asGoNumber } from "./big-float.js";
import { goDeflateFlushClose } from "./go-deflate.js";
import { YamlDecodeError, yamlDecode, yamlEncode } from "./yaml.js";

const str = (name = "str") => param(name, stringType);

/** Go's `base64.StdEncoding.DecodeString`: strict padding; `\r` and `\n` ignored. */
export function goBase64Decode(s: string): Uint8Array | undefined {
  const t = s.replace(/[\r\n]/g, "");
  if (t.length % 4 !== 0) return undefined;
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t)) return undefined;
  return new Uint8Array(Buffer.from(t, "base64"));
}

function base64(b: Uint8Array): string {
  return Buffer.from(b).toString("base64");
}

/** Go's `url.QueryEscape`. */
function queryEscape(s: string): string {
  let out = "";
  for (const byte of utf8(s)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === " ") out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** gzip as terraform's `base64gzip` writes it: Go's `compress/gzip` with Write, Flush, Close. */
function goGzip(data: Uint8Array): Uint8Array {
  const header = Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  const trailer = new Uint8Array(8);
  const dv = new DataView(trailer.buffer);
  dv.setUint32(0, crc32(data) >>> 0, true);
  dv.setUint32(4, data.length >>> 0, true);
  return Buffer.concat([header, goDeflateFlushClose(data), trailer]);
}

// Encodings by IANA name. UTF-8/16, ISO-8859-1 and US-ASCII are handled here; any other
// name the WHATWG Encoding Standard knows (windows-125x, Shift_JIS, EUC-JP, GBK, Big5, …)
// decodes with TextDecoder and encodes through a reverse table built from it.
const SPECIAL: Readonly<Record<string, string>> = {
  "utf-8": "utf-8",
  utf8: "utf-8",
  csutf8: "utf-8",
  "utf-16le": "utf-16le",
  "utf-16be": "utf-16be",
  "utf-16": "utf-16",
  "iso-8859-1": "latin1",
  "iso_8859-1": "latin1",
  "iso_8859-1:1987": "latin1",
  "iso-ir-100": "latin1",
  latin1: "latin1",
  l1: "latin1",
  ibm819: "latin1",
  cp819: "latin1",
  csisolatin1: "latin1",
  "us-ascii": "ascii",
  ascii: "ascii",
  "iso646-us": "ascii",
  csascii: "ascii",
};

function encodingFor(name: string, argIndex: number): string {
  const lower = name.toLowerCase();
  const special = SPECIAL[lower];
  if (special !== undefined) return special;
  try {
    return new TextDecoder(lower).encoding;
  } catch {
    throw new FunctionArgError(argIndex, `${goQuote(name)} is not a supported IANA encoding name or alias in this Terraform version`);
  }
}

const reverseTables = new Map<string, Map<string, Uint8Array>>();

/** Code point → bytes for a WHATWG legacy encoding, from its decoder (one- and two-byte sequences). */
function reverseTable(enc: string): Map<string, Uint8Array> {
  let t = reverseTables.get(enc);
  if (t !== undefined) return t;
  t = new Map<string, Uint8Array>();
  const dec = new TextDecoder(enc, { fatal: true });
  for (let a = 0; a < 256; a++) {
    const one = Uint8Array.of(a);
    try {
      const c = dec.decode(one);
      if (c.length > 0 && !t.has(c)) t.set(c, one);
      continue;
    } catch {
      /* a lead byte, or unmapped */
    }
    for (let b = 0; b < 256; b++) {
      const two = Uint8Array.of(a, b);
      try {
        const c = dec.decode(two);
        if ([...c].length === 1 && !t.has(c)) t.set(c, two);
      } catch {
        /* not a character */
      }
    }
  }
  reverseTables.set(enc, t);
  return t;
}

function encodeText(s: string, enc: string, name: string): Uint8Array {
  switch (enc) {
    case "utf-8":
      return utf8(s);
    case "utf-16le":
      return new Uint8Array(Buffer.from(s, "utf16le"));
    case "utf-16be":
    case "utf-16": {
      const b = Buffer.from(s, "utf16le");
      b.swap16();
      return enc === "utf-16" ? Buffer.concat([Uint8Array.from([0xfe, 0xff]), b]) : new Uint8Array(b);
    }
    case "latin1":
    case "ascii": {
      const out: number[] = [];
      for (const c of s) {
        const cp = c.codePointAt(0)!;
        if (cp > (enc === "ascii" ? 0x7f : 0xff)) throw unencodable(name);
        out.push(cp);
      }
      return Uint8Array.from(out);
    }
    default: {
      const table = reverseTable(enc);
      const parts: Uint8Array[] = [];
      for (const c of s) {
        const b = table.get(c);
        if (b === undefined) throw unencodable(name);
        parts.push(b);
      }
      return Buffer.concat(parts);
    }
  }
}

function unencodable(name: string): FunctionArgError {
  return new FunctionArgError(0, `the given string contains characters that cannot be represented in ${name}`);
}

/** Where Go's base64 decoder reports corrupt input (offset of the bad quantum or byte). */
function base64ErrorOffset(s: string): number {
  const t = s.replace(/[\r\n]/g, "");
  const alphabet = /[A-Za-z0-9+/]/;
  for (let si = 0; si < t.length; si += 4) {
    for (let j = 0; j < 4; j++) {
      if (si + j >= t.length) return si;
      const c = t[si + j]!;
      if (c === "=") {
        if (j < 2) return si + j;
        if (j === 2 && t[si + 3] !== "=") return si + 3 < t.length ? si + 3 : si;
        return si + 4 < t.length ? si + 4 : si;
      }
      if (!alphabet.test(c)) return si + j;
    }
  }
  return 0;
}

/** Decodes strictly; undefined when the bytes are not text in the encoding. */
function strictDecode(b: Uint8Array, enc: string): string | undefined {
  try {
    if (enc === "utf-16") return new TextDecoder("utf-16be", { fatal: true }).decode(b);
    return new TextDecoder(enc, { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

function decodeText(b: Uint8Array, enc: string): string {
  switch (enc) {
    case "latin1":
      return Array.from(b, (x) => String.fromCharCode(x)).join("");
    case "ascii":
      return Array.from(b, (x) => (x < 0x80 ? String.fromCharCode(x) : "\ufffd")).join("");
    case "utf-16":
      return new TextDecoder("utf-16be").decode(b);
    default:
      return new TextDecoder(enc).decode(b);
  }
}

// ---------------------------------------------------------------------------------------
// JSON decoding with the implied type (go-cty's json.ImpliedType + Unmarshal)

class JsonScan {
  pos = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  ws(): void {
    while (this.pos < this.s.length && " \t\n\r".includes(this.s[this.pos]!)) this.pos++;
  }
  fail(msg: string): never {
    throw new FunctionError(msg);
  }
  value(depth: number): Value {
    if (depth > 10000) this.fail("exceeded max depth");
    this.ws();
    if (this.pos >= this.s.length) this.fail("EOF");
    const c = this.s[this.pos]!;
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return stringVal(this.string());
    if (c === "t" || c === "f" || c === "n") {
      for (const [word, v] of [
        ["true", boolVal(true)],
        ["false", boolVal(false)],
        ["null", nullVal(dynamicType)],
      ] as const) {
        if (this.s.startsWith(word, this.pos)) {
          this.pos += word.length;
          return v;
        }
      }
      if (this.s.length - this.pos < 5 && word5(this.s.slice(this.pos))) this.fail("unexpected EOF");
      this.fail(`invalid character ${goCharQuote(this.s[this.pos + 1] ?? c)} in literal ${c === "t" ? "true (expecting 'r')" : c === "f" ? "false (expecting 'a')" : "null (expecting 'u')"}`);
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(this.s.slice(this.pos));
    if (m !== null) {
      this.pos += m[0].length;
      return numberVal(asGoNumber(CtyNumber.parse(m[0])));
    }
    this.fail(`invalid character ${goCharQuote(c)} looking for beginning of value`);
  }
  string(): string {
    this.pos++;
    let out = "";
    for (;;) {
      if (this.pos >= this.s.length) this.fail("unexpected EOF");
      const c = this.s[this.pos]!;
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === "\\") {
        const e = this.s[this.pos + 1];
        const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e !== undefined && simple[e] !== undefined) {
          out += simple[e];
          this.pos += 2;
          continue;
        }
        if (e === "u" && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.pos + 2, this.pos + 6))) {
          out += String.fromCharCode(parseInt(this.s.slice(this.pos + 2, this.pos + 6), 16));
          this.pos += 6;
          continue;
        }
        this.fail(`invalid character ${goCharQuote(e ?? "")} in string escape code`);
      }
      if (c.charCodeAt(0) < 0x20) this.fail(`invalid character ${goCharQuote(c)} in string literal`);
      out += c;
      this.pos++;
    }
  }
  object(depth: number): Value {
    this.pos++;
    const attrs = new Map<string, Value>();
    this.ws();
    if (this.s[this.pos] === "}") {
      this.pos++;
      return emptyObjectVal;
    }
    for (;;) {
      this.ws();
      if (this.pos >= this.s.length) this.fail("EOF");
      if (this.s[this.pos] !== '"') this.fail(`invalid character ${goCharQuote(this.s[this.pos]!)} looking for beginning of object key string`);
      const k = this.string();
      this.ws();
      if (this.pos >= this.s.length) this.fail("EOF");
      if (this.s[this.pos] !== ":") this.fail(`invalid character ${goCharQuote(this.s[this.pos]!)} after object key`);
      this.pos++;
      const v = this.value(depth + 1);
      attrs.delete(k);
      attrs.set(k, v);
      this.ws();
      if (this.pos >= this.s.length) this.fail("EOF");
      const c = this.s[this.pos]!;
      this.pos++;
      if (c === "}") return objectVal(attrs);
      if (c !== ",") this.fail(`invalid character ${goCharQuote(c)} after object key:value pair`);
    }
  }
  array(depth: number): Value {
    this.pos++;
    const items: Value[] = [];
    this.ws();
    if (this.s[this.pos] === "]") {
      this.pos++;
      return emptyTupleVal;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.ws();
      if (this.pos >= this.s.length) this.fail("EOF");
      const c = this.s[this.pos]!;
      this.pos++;
      if (c === "]") return tupleVal(items);
      if (c !== ",") this.fail(`invalid character ${goCharQuote(c)} after array element`);
    }
  }
}

function word5(rest: string): boolean {
  return ["true", "false", "null"].some((w) => w.startsWith(rest));
}

function goCharQuote(c: string): string {
  if (c === "'") return "'\\''";
  if (c === "\n") return "'\\n'";
  if (c === "\t") return "'\\t'";
  if (c === "\r") return "'\\r'";
  return `'${c}'`;
}

/** Decodes JSON text into a cty value of its implied type. */
export function jsonDecode(text: string): Value {
  const sc = new JsonScan(text);
  const v = sc.value(0);
  sc.ws();
  if (sc.pos < text.length) sc.fail("extraneous data after JSON object");
  return v;
}

// ---------------------------------------------------------------------------------------
// CSV (Go's encoding/csv with default settings)

class CsvError extends Error {}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const recordLine = line;
    // Skip empty lines.
    if (text[i] === "\n") {
      i++;
      line++;
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") {
      i += 2;
      line++;
      continue;
    }
    const fields: string[] = [];
    for (;;) {
      let field = "";
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new CsvError(`CSV parse error on line ${line}: extraneous or missing " in quoted-field`);
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === "\r" && text[i + 1] === "\n") {
            field += "\n";
            i += 2;
            line++;
            continue;
          }
          if (c === "\n") line++;
          field += c;
          i++;
        }
        if (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
          throw new CsvError(`CSV parse error on line ${line}: extraneous or missing " in quoted-field`);
        }
      } else {
        while (i < n && text[i] !== "," && text[i] !== "\n" && !(text[i] === "\r" && text[i + 1] === "\n")) {
          if (text[i] === '"') throw new CsvError(`CSV parse error on line ${line}: bare " in non-quoted-field`);
          field += text[i];
          i++;
        }
      }
      fields.push(field);
      if (i < n && text[i] === ",") {
        i++;
        continue;
      }
      if (i < n && text[i] === "\r") i++;
      if (i < n && text[i] === "\n") {
        i++;
        line++;
      }
      break;
    }
    if (rows.length > 0 && fields.length !== rows[0]!.length) {
      throw new CsvError(`CSV parse error on line ${recordLine}: wrong number of fields`);
    }
    rows.push(fields);
  }
  return rows;
}

function csvType(text: string): Type {
  let rows: string[][];
  try {
    rows = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvError) {
      // Only an error in the header line fails the type check.
      const firstLine = text.split("\n")[0] ?? "";
      try {
        rows = parseCsv(firstLine);
      } catch {
        throw new FunctionError(e.message);
      }
    } else throw e;
  }
  if (rows.length === 0) throw new FunctionError("missing header line");
  // A Map: column names such as "constructor" or "__proto__" are names like any other.
  const attrs = new Map<string, Type>();
  for (const h of rows[0]!) {
    if (attrs.has(h)) throw new FunctionError(`duplicate column name ${goQuote(h)}`);
    attrs.set(h, stringType);
  }
  return listType(objectType(attrs));
}

// ---------------------------------------------------------------------------------------

/** The encoding functions, by name. */
export function encodingFunctions(): Record<string, HclFunction> {
  return {
    base64encode: fixedFunction({
      description: "Applies Base64 encoding to a string.",
      params: [str()],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(base64(utf8(a[0]!.asString()))),
    }),
    base64decode: fixedFunction({
      description: "Decodes a string containing a base64 sequence.",
      params: [str()],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const s = a[0]!.asString();
        const b = goBase64Decode(s);
        if (b === undefined) throw new FunctionError(`failed to decode base64 data ${goQuote(s)}`);
        if (!isValidUtf8(b)) throw new FunctionError("the result of decoding the provided string is not valid UTF-8");
        return stringVal(fromUtf8(b));
      },
    }),
    base64gzip: fixedFunction({
      description: "Compresses a string with gzip and then encodes the result in Base64 encoding.",
      params: [str()],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(base64(goGzip(utf8(a[0]!.asString())))),
    }),
    textencodebase64: fixedFunction({
      description: "Encodes the given string using the given character encoding and returns the result as base64.",
      params: [param("string", stringType), param("encoding", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const name = a[1]!.asString();
        const enc = encodingFor(name, 1);
        return stringVal(base64(encodeText(a[0]!.asString(), enc, name)));
      },
    }),
    textdecodebase64: fixedFunction({
      description: "Decodes base64 data and interprets it in the given character encoding.",
      params: [param("source", stringType), param("encoding", stringType)],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const name = a[1]!.asString();
        const enc = encodingFor(name, 1);
        const src = a[0]!.asString();
        const b = goBase64Decode(src);
        if (b === undefined) throw new FunctionArgError(0, `the given value is has an invalid base64 symbol at offset ${base64ErrorOffset(src)}`);
        if (enc !== "latin1" && enc !== "ascii" && strictDecode(b, enc) === undefined) {
          throw new FunctionArgError(0, `the given string contains symbols that are not defined for ${name}`);
        }
        return stringVal(decodeText(b, enc));
      },
    }),
    urlencode: fixedFunction({
      description: "Applies URL encoding to a given string.",
      params: [str()],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => stringVal(queryEscape(a[0]!.asString())),
    }),
    jsonencode: fixedFunction({
      description: "Returns a string containing a JSON representation of the given value.",
      params: [param("val", dynamicType, { allowDynamicType: true, allowNull: true, allowUnknown: true })],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const v = a[0]!;
        if (!v.isWhollyKnown()) {
          // go-cty: the result's first character is known when the value cannot be null.
          const couldBeNull = !v.isKnown() && v.refinements.notNull !== true;
          if (couldBeNull) return unknownVal(stringType);
          const k = v.type.kind;
          const prefix = k === "string" ? '"' : k === "object" || k === "map" ? "{" : k === "tuple" || k === "list" || k === "set" ? "[" : undefined;
          return unknownVal(stringType, prefix === undefined ? {} : { stringPrefix: prefix });
        }
        if (v.isNull()) return stringVal("null");
        return stringVal(toJson(v, v.type).trim());
      },
    }),
    jsondecode: {
      description: "Parses the given string as JSON and returns a value corresponding to what the JSON document describes.",
      params: [str()],
      type: (a) => {
        if (!a[0]!.isKnown()) return dynamicType;
        return jsonDecode(a[0]!.asString()).type;
      },
      impl: (a) => jsonDecode(a[0]!.asString()),
    },
    csvdecode: {
      description: "Parses the given string as Comma Separated Values (as defined by RFC 4180) and returns a map of objects representing the table of data, using the first row as a header row to define the object attributes.",
      params: [str()],
      type: (a) => (a[0]!.isKnown() ? csvType(a[0]!.asString()) : dynamicType),
      impl: (a, t) => {
        let rows: string[][];
        try {
          rows = parseCsv(a[0]!.asString());
        } catch (e) {
          if (e instanceof CsvError) throw new FunctionError(e.message);
          throw e;
        }
        const header = rows[0]!;
        const ety = (t as { element: Type }).element;
        if (rows.length === 1) return listValEmpty(ety);
        return listVal(rows.slice(1).map((r) => objectVal(new Map(header.map((h, i) => [h, stringVal(r[i]!)])))));
      },
    },
    yamlencode: fixedFunction({
      description: "Returns a string containing a YAML representation of the given value.",
      params: [param("value", dynamicType, { allowDynamicType: true, allowNull: true })],
      returns: stringType,
      refineResult: notNull,
      impl: (a) => {
        const v = a[0]!;
        if (!v.isWhollyKnown()) return unknownVal(stringType, { notNull: true });
        return stringVal(yamlEncode(v));
      },
    }),
    yamldecode: {
      description: "Parses the given string as YAML and returns a value corresponding to what the YAML document describes.",
      params: [param("src", stringType)],
      type: (a) => {
        if (!a[0]!.isKnown()) return dynamicType;
        try {
          return yamlDecode(a[0]!.asString()).type;
        } catch (e) {
          if (e instanceof YamlDecodeError) throw new FunctionError(e.message);
          throw e;
        }
      },
      impl: (a) => yamlDecode(a[0]!.asString()),
    },
  };
}


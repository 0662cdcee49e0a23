/**
 * `yamlencode` and `yamldecode` as Terraform has them from go-cty-yaml (a go-yaml v2 fork):
 * the encoder is written here to reproduce go-yaml's emitter output (double-quoted strings,
 * literal blocks for multi-line strings, sorted keys, `...` after a top-level scalar); the
 * decoder parses with the `yaml` library (YAML 1.1) and resolves scalars as go-yaml v2 does.
 *
 * @internal
 * @packageDocumentation
 */

import { createRequire } from "node:module";
import type { Alias, Document, YAMLError, Scalar, Node, YAMLMap, YAMLSeq } from "yaml";
import type * as YamlModule from "yaml";

/** The yaml package, loaded on the first yamldecode (most configurations never call it; loading it costs ~0.1 s of start-up). */
let yamlModule: typeof YamlModule | undefined;
const yaml = (): typeof YamlModule => (yamlModule ??= createRequire(import.meta.url)("yaml") as typeof YamlModule);
import {
  CtyNumber,
  boolVal,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  nullVal,
  numberVal,
  objectVal,
  stringVal,
  tupleVal,
  type Value,
} from "@magma/cty";
import { entriesOf, valuesOf } from "./collection.js";

// ---------------------------------------------------------------------------------------
// Encoding

function sp(n: number): string {
  return " ".repeat(n);
}

const BEST_WIDTH = 80;

/** go-yaml's `is_printable` for one code point. */
function yamlPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

const ESCAPES: Readonly<Record<number, string>> = {
  0x00: "0",
  0x07: "a",
  0x08: "b",
  0x09: "t",
  0x0a: "n",
  0x0b: "v",
  0x0c: "f",
  0x0d: "r",
  0x1b: "e",
  0x22: '"',
  0x5c: "\\",
  0x85: "N",
  0xa0: "_",
  0x2028: "L",
  0x2029: "P",
};

/**
 * go-yaml's double-quoted scalar, starting at output column `column`: escapes what is not
 * printable, and folds at a space once past column 80 (continuing at `indent`).
 */
function doubleQuoted(s: string, column = 0, indent = 2): string {
  let out = '"';
  let col = column + 1;
  let spaces = false;
  const cps = [...s];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    const cp = c.codePointAt(0)!;
    const isBreak = cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
    if (!yamlPrintable(cp) || isBreak || c === '"' || c === "\\") {
      const e = ESCAPES[cp];
      let text: string;
      if (e !== undefined) text = `\\${e}`;
      else if (cp <= 0xff) text = `\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`;
      else if (cp <= 0xffff) text = `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
      else text = `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`;
      out += text;
      col += text.length;
      spaces = false;
    } else if (c === " ") {
      if (!spaces && col > BEST_WIDTH && i > 0 && i < cps.length - 1) {
        out += "\n" + " ".repeat(indent);
        col = indent;
        if (cps[i + 1] === " ") {
          out += "\\";
          col++;
        }
      } else {
        out += c;
        col++;
      }
      spaces = true;
    } else {
      out += c;
      col++;
      spaces = false;
    }
  }
  return out + '"';
}

/** Whether go-yaml would write `s` as a literal block (multi-line and block-safe). */
function literalOK(s: string): boolean {
  if (!s.includes("\n")) return false;
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (!yamlPrintable(cp) || cp === 0x85 || cp === 0x2028 || cp === 0x2029 || cp === 0x0d) return false;
  }
  if (s.endsWith(" ") || s.includes(" \n")) return false;
  return true;
}

function literalBlock(s: string, ind: number): string {
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? "-" : trailing === 1 ? "" : "+";
  const body = trailing === 0 ? s : s.slice(0, s.length - (trailing === 1 ? 1 : 0));
  const lines = body.split("\n");
  if (chomp === "+") lines.pop();
  const indicator = s.startsWith(" ") || s.startsWith("\n") ? "2" : "";
  return `|${indicator}${chomp}\n` + lines.map((l) => (l === "" ? "" : sp(ind) + l)).join("\n") + "\n";
}

function scalarText(v: Value, column = 0, indent = 2): string {
  if (v.isNull()) return "null";
  switch (v.type.kind) {
    case "string":
      return doubleQuoted(v.asString(), column, indent);
    case "number":
      return v.asNumber().toString();
    case "bool":
      return v.asBool() ? "true" : "false";
    default:
      throw new Error(`not a scalar: ${v.type.kind}`);
  }
}

function isEmptyContainer(v: Value): boolean {
  return !v.isNull() && isContainer(v) && valuesOf(v).length === 0;
}

function isContainer(v: Value): boolean {
  const k = v.type.kind;
  return k === "list" || k === "set" || k === "tuple" || k === "map" || k === "object";
}

function isMapping(v: Value): boolean {
  return v.type.kind === "map" || v.type.kind === "object";
}

/**
 * The text after "key:" or "-" for a value at block indentation `ind` (its children at
 * ind + 2); `column` is where that prefix ends.
 */
function emitValue(v: Value, ind: number, inSeq: boolean, column: number): string {
  if (v.isNull() || !isContainer(v)) {
    if (!v.isNull() && v.type.kind === "string" && literalOK(v.asString())) return " " + literalBlock(v.asString(), ind + 2);
    return " " + scalarText(v, column + 1, ind + 2) + "\n";
  }
  if (isEmptyContainer(v)) return isMapping(v) ? " {}\n" : " []\n";
  if (inSeq) return " " + emitBlock(v, ind + 2, true);
  return "\n" + emitBlock(v, isMapping(v) ? ind + 2 : ind, false);
}

/** A non-empty block mapping or sequence at indentation `ind`; the first line unindented if `inline`. */
function emitBlock(v: Value, ind: number, inline: boolean): string {
  let out = "";
  let first = true;
  const lead = () => {
    const s = first && inline ? "" : sp(ind);
    first = false;
    return s;
  };
  if (isMapping(v)) {
    for (const [k, e] of entriesOf(v)) {
      const key = doubleQuoted(k, ind, ind + 2);
      out += `${lead()}${key}:${emitValue(e, ind, false, ind + key.length + 1)}`;
    }
  } else {
    for (const e of valuesOf(v)) out += `${lead()}-${emitValue(e, ind, true, ind + 1)}`;
  }
  return out;
}

/** go-cty-yaml's `Marshal` in block style. */
export function yamlEncode(v: Value): string {
  if (v.isNull()) return "null\n...\n";
  if (!isContainer(v)) {
    if (v.type.kind === "string") {
      const s = v.asString();
      if (literalOK(s)) return literalBlock(s, 2);
      return scalarText(v) + "\n";
    }
    return scalarText(v) + "\n...\n";
  }
  if (isEmptyContainer(v)) return isMapping(v) ? "{}\n" : "[]\n";
  return emitBlock(v, 0, false);
}

// ---------------------------------------------------------------------------------------
// Decoding

/** An error from YAML decoding, with go-yaml's wording where it can be matched. */
export class YamlDecodeError extends Error {}

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const TRUES = new Set(["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]);
const FALSES = new Set(["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]);

function resolvePlain(s: string): Value {
  if (NULLS.has(s)) return nullVal(dynamicType);
  if (TRUES.has(s)) return boolVal(true);
  if (FALSES.has(s)) return boolVal(false);
  if (/^\.(nan|NaN|NAN)$/.test(s)) throw new YamlDecodeError("floating point NaN is not supported");
  if (/^[-+]?\.(inf|Inf|INF)$/.test(s)) return numberVal(s.startsWith("-") ? CtyNumber.negativeInfinity : CtyNumber.positiveInfinity);
  const plain = s;
  const oct = /^([-+]?)0o([0-7]+)$/.exec(plain);
  if (oct !== null) return numberVal(CtyNumber.fromBigInt((oct[1] === "-" ? -1n : 1n) * BigInt(`0o${oct[2]!}`)));
  if (/^[-+]?(0|[1-9][0-9]*|0[0-9]+)$/.test(plain)) return numberVal(CtyNumber.parse(plain.replace(/^([-+]?)0+(?=\d)/, "$1").replace(/^\+/, "")));
  const hex = /^()0x([0-9a-fA-F]+)$/.exec(plain);
  if (hex !== null) return numberVal(CtyNumber.fromBigInt((hex[1] === "-" ? -1n : 1n) * BigInt(`0x${hex[2]!}`)));
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) {
    return numberVal(CtyNumber.parse(plain.replace(/^\+/, "").replace(/\.$/, "").replace(/\.(?=[eE])/, "")));
  }
  const ts = parseTimestamp(s);
  if (ts !== undefined) return stringVal(ts);
  return stringVal(s);
}

/** YAML timestamps become RFC 3339 strings, as go-yaml decodes them into `time.Time`. */
function parseTimestamp(s: string): string | undefined {
  const date = /^(\d{4})-(\d\d?)-(\d\d?)$/.exec(s);
  if (date !== null) return `${date[1]}-${date[2]!.padStart(2, "0")}-${date[3]!.padStart(2, "0")}T00:00:00Z`;
  const m = /^(\d{4})-(\d\d?)-(\d\d?)[Tt](\d\d?):(\d\d):(\d\d)(\.\d+)?(Z|[-+]\d\d?(?::?\d\d)?)$/.exec(s);
  if (m === null) return undefined;
  let zone = m[8] ?? "Z";
  if (zone !== "Z") {
    const z = /^([-+])(\d\d?)(?::?(\d\d))?$/.exec(zone)!;
    zone = `${z[1]}${z[2]!.padStart(2, "0")}:${z[3] ?? "00"}`;
    if (zone === "+00:00" || zone === "-00:00") zone = "Z";
  }
  return `${m[1]}-${m[2]!.padStart(2, "0")}-${m[3]!.padStart(2, "0")}T${m[4]!.padStart(2, "0")}:${m[5]}:${m[6]}${zone}`;
}

function decodeNode(node: Node | null, doc: Document, depth: number): Value {
  if (depth > 1000) throw new YamlDecodeError("exceeded max depth");
  if (node === null) return nullVal(dynamicType);
  if (yaml().isAlias(node)) {
    const target = (node as Alias).resolve(doc);
    if (target === undefined) throw new YamlDecodeError(`reference to undefined anchor ${JSON.stringify((node as Alias).source)}`);
    return decodeNode(target, doc, depth + 1);
  }
  if (yaml().isScalar(node)) {
    const sc = node as Scalar;
    const src = sc.source ?? String(sc.value);
    const tag = sc.tag;
    if (sc.type !== yaml().Scalar.PLAIN) return stringVal(typeof sc.value === "string" ? sc.value : String(src));
    if (tag === "tag:yaml.org,2002:str" || tag === "!!str" || tag === "tag:yaml.org,2002:binary") return stringVal(String(src));
    if (sc.type === yaml().Scalar.PLAIN) return resolvePlain(String(src));
    if (tag !== undefined && tag !== "tag:yaml.org,2002:str") return resolvePlain(String(src));
    return stringVal(String(sc.value));
  }
  if (yaml().isMap(node)) {
    const attrs = new Map<string, Value>();
    for (const pair of (node as YAMLMap<Node, Node>).items) {
      const kn = pair.key as Node | null;
      const k = decodeNode(kn, doc, depth + 1);
      if (yaml().isScalar(kn) && (kn as Scalar).source === "<<" && (kn as Scalar).type === yaml().Scalar.PLAIN) {
        const merged = decodeNode(pair.value as Node | null, doc, depth + 1);
        const sources = merged.type.kind === "tuple" ? merged.elements() : [merged];
        for (const s of sources) {
          if (s.type.kind !== "object") throw new YamlDecodeError("map merge requires map or sequence of maps as the value");
          for (const [mk, mv] of Object.entries(s.attributes())) if (!attrs.has(mk)) attrs.set(mk, mv);
        }
        continue;
      }
      let key: string;
      if (k.isNull()) {
        const line = kn !== null && kn.range !== undefined && kn.range !== null ? src0(doc).slice(0, kn.range[0]).split("\n").length - 1 : 0;
        throw new YamlDecodeError(`on line ${line}, column 1: mapping key cannot be null`);
      }
      else if (k.type.kind === "string") key = k.asString();
      else if (k.type.kind === "number") key = k.asNumber().toString();
      else if (k.type.kind === "bool") key = k.asBool() ? "true" : "false";
      else throw new YamlDecodeError("only strings are allowed as mapping keys");
      attrs.set(key, decodeNode(pair.value as Node | null, doc, depth + 1));
    }
    return attrs.size === 0 ? emptyObjectVal : objectVal(attrs);
  }
  if (yaml().isSeq(node)) {
    const items = (node as YAMLSeq<Node>).items.map((n) => decodeNode(n, doc, depth + 1));
    return items.length === 0 ? emptyTupleVal : tupleVal(items);
  }
  throw new YamlDecodeError("unsupported YAML node");
}

/**
 * go-yaml's wording for the syntax errors the `yaml` library reports, where the two
 * correspond; otherwise the library's own message.
 */
function goYamlMessage(errors: readonly YAMLError[]): string {
  const first = errors[0]!;
  const line = (e: YAMLError, end = 0) => e.linePos?.[end]?.line ?? e.linePos?.[0].line ?? 1;
  const text = first.message.split(" at line ")[0]!;
  switch (first.code) {
    case "MULTIPLE_DOCS":
      return `on line ${line(first) - 1}, column 1: unexpected extra content after value`;
    case "BLOCK_AS_IMPLICIT_KEY": {
      const last = errors[errors.length - 1]!;
      return `on line ${line(last, last === first ? 0 : 1)}, column 1: mapping values are not allowed in this context`;
    }
    case "MISSING_CHAR":
      if (text.startsWith("Flow sequence must end")) return `on line ${line(first)}, column 1: did not find expected ',' or ']'`;
      if (text.startsWith("Flow map must end")) return `on line ${line(first)}, column 1: did not find expected ',' or '}'`;
      break;
    case "BAD_INDENT":
      if (text.startsWith("Flow sequence in block collection") || text.startsWith("Flow mapping in block collection")) {
        return `on line ${line(first)}, column 1: did not find expected node content`;
      }
      break;
    case "UNEXPECTED_TOKEN":
      if (text.startsWith("Unexpected block-seq-ind on same line with key")) return "block sequence entries are not allowed in this context";
      break;
    default:
      break;
  }
  return `on line ${line(first)}, column ${first.linePos?.[0].col ?? 1}: ${text}`;
}

const sources = new WeakMap<Document, string>();

function src0(doc: Document): string {
  return sources.get(doc) ?? "";
}

/** go-cty-yaml's `Unmarshal` with the implied type: objects, tuples and primitives. */
export function yamlDecode(src: string): Value {
  const doc = yaml().parseDocument(src, { version: "1.1", uniqueKeys: false, strict: false, prettyErrors: true, merge: false, schema: "yaml-1.1" });
  sources.set(doc, src);
  if (doc.errors.length > 0) throw new YamlDecodeError(goYamlMessage(doc.errors));
  if (doc.contents === null && !/^---/m.test(src)) throw new YamlDecodeError("on line 1, column 1: missing start of document");
  return decodeNode(doc.contents as Node | null, doc, 0);
}


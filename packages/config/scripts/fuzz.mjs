#!/usr/bin/env node
// Fuzzes the configuration loader in both syntaxes (native `.tf` and JSON `.tf.json`):
// loadModuleFromFiles, validateConfig (with provider schemas), checkCoreVersion,
// graphInputs, decodeSchemaBody/evaluateSchemaBody, the evaluation of every expression, and
// — for one case in eight — loadConfig and collectVariableValues over a directory on disk
// (a child module, `.terraform/modules/modules.json`, `*.tfvars`, `*.tfvars.json`, `TF_VAR_*`
// and `-var`). Inputs are generated from a model of Terraform's blocks and rendered in either
// syntax, then mutated: wrong types, `__proto__`/`constructor`/`prototype` names everywhere,
// duplicate blocks, invalid references, odd numbers and unicode, very long strings, deep
// nesting and long operator chains, truncated and bit-flipped bytes.
//
// The only allowed outcome is diagnostics: no exception, no case over the time limit, no change
// to Object.prototype and the other built-ins, no object in a result with a made-up prototype.
//
//   node scripts/fuzz.mjs [cases=100000] [seed]        (after the build: uses dist/)
//   env: MAGMA_FUZZ_RUNS, MAGMA_FUZZ_SEED, MAGMA_FUZZ_CASE_MS (default 30000)
//
// src/fuzz.test.ts runs MAGMA_FUZZ_RUNS (default 1,000) cases of the same property on the sources.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { checkShapes, emptyStats, mutateText, pollutionGuard, runCase } from "@magma/test-support/fuzz-support";

// ----- names, strings, numbers ---------------------------------------------------------------

const HOSTILE = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf", "__defineGetter__", "isPrototypeOf", "polluted"];
const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b", "web", "name", "id", "x", "tags", "count", "each", "self", "var", "local", "this", "é", "_", "a-b", "ｘ", "path", "terraform", "module", "data") },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.constantFrom("", "0a", "a b", "a.b", "-", "\u202e", "\ud800", "𝕏", "e\u0301", "\ufeff", "a\u0000") },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 2000 }).map((n) => "n".repeat(n)) },
);
const typeNameArb = fc.oneof(fc.constantFrom("aws_instance", "random_pet", "null_resource", "x_y", "t", "__proto__", "constructor_x", "prototype_y", "a-b_c"), nameArb);
const strArb = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom("", "\u0000", "\u202e", "\ud800", "\udfff", "𝕏", "e\u0301", "\ufeff", "$${x}", "%%{", "\\", '"', "\n", "~> 1.0", ">= 0.13, < 2.0", "hashicorp/aws", "registry.terraform.io/h/p", "./mod", "../x", "git::https://x", "local", "pg", "1.11.4", "banana") },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => "s".repeat(n)) },
);
// Numbers of many digits are costly (their exact decimals are computed): kept rare enough not
// to dominate the run.
const numArb = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom("0", "-0", "1", "1.5", "1e3", "1e309", "1e-400", "2", "10", "100", "-5", "9007199254740993", "123456789012345678901234567890", "0.1", "1.", "01", "0x10", "NaN", "Infinity", "-Infinity", "1e+") },
  { weight: 20, arbitrary: fc.integer({ min: -1e9, max: 1e9 }).map((n) => String(n / 1000)) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 20, arbitrary: fc.integer().map(String) },
  { weight: 3, arbitrary: fc.constantFrom("1e99999", "-1e99999", "2e1000000", "1e999999999", "1.5e-99999") },
);
/** A native-syntax quoted string: JSON's escapes are HCL's (a lone surrogate escaped is an HCL error). */
const q = (s) => JSON.stringify(s);

// ----- expressions (native syntax text) ------------------------------------------------------

const FUNCS = [
  "jsondecode", "jsonencode", "merge", "lookup", "tomap", "toset", "tolist", "yamldecode", "yamlencode", "zipmap", "keys", "values", "length", "element",
  "range", "format", "formatlist", "replace", "regex", "regexall", "split", "join", "flatten", "setproduct", "try", "can", "coalesce", "cidrsubnet",
  "base64decode", "templatestring", "file", "concat", "distinct", "sort", "reverse", "transpose", "sum", "max", "min", "upper", "substr", "chunklist",
  "slice", "pow", "parseint", "tonumber", "tostring", "tobool", "formatdate", "sha256", "csvdecode", "urlencode", "strrev", "provider::p::f", "core::length", "nofunc",
];
const refArb = fc.oneof(
  fc.tuple(nameArb).map(([a]) => `var.${a}`),
  fc.tuple(nameArb).map(([a]) => `local.${a}`),
  fc.tuple(nameArb, nameArb).map(([a, b]) => `module.${a}.${b}`),
  fc.tuple(typeNameArb, nameArb, nameArb).map(([t, a, b]) => `data.${t}.${a}.${b}`),
  fc.tuple(typeNameArb, nameArb, nameArb).map(([t, a, b]) => `${t}.${a}.${b}`),
  fc.tuple(typeNameArb, nameArb).map(([t, a]) => `${t}.${a}[0].id`),
  fc.tuple(typeNameArb, nameArb).map(([t, a]) => `${t}.${a}["__proto__"]`),
  fc.tuple(nameArb).map(([a]) => `var.${a}[*].x`),
  fc.tuple(nameArb).map(([a]) => `var.${a}.*.constructor`),
  fc.constantFrom("each.key", "each.value", "count.index", "self.id", "path.module", "path.root", "path.cwd", "terraform.workspace", "var", "local", "module", "__proto__", "constructor.prototype", "var.__proto__.polluted", "local.constructor"),
);
const OPS = ["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"];
const HOSTILE_JSON = ['{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"polluted": 1}}}', '[{"__proto__": null}]', '{"a": {"__proto__": []}}', "__proto__: {polluted: 1}\n", "1e999999"];

/** Expression text of the native syntax, `maxDepth` levels of composition. */
const exprArb = fc.letrec((tie) => ({
  e: fc.oneof(
    { maxDepth: 4, depthIdentifier: "e", withCrossShrink: true },
    numArb,
    strArb.map(q),
    fc.constantFrom("true", "false", "null"),
    refArb,
    fc.constantFrom(...HOSTILE_JSON).map((j) => `jsondecode(${q(j)})`),
    fc.constantFrom(...HOSTILE_JSON).map((j) => `yamldecode(${q(j)})`),
    fc.array(tie("e"), { maxLength: 4 }).map((xs) => `[${xs.join(", ")}]`),
    fc.array(fc.tuple(fc.oneof(nameArb.map((n) => (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(n) ? n : q(n))), strArb.map(q), tie("e").map((k) => `(${k})`)), tie("e")), { maxLength: 4 }).map((kv) => `{${kv.map(([k, v]) => `${k} = ${v}`).join(", ")}}`),
    fc.tuple(tie("e"), fc.constantFrom(...OPS), tie("e")).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(fc.constantFrom("!", "-"), tie("e")).map(([op, a]) => `${op}${a}`),
    tie("e").map((a) => `(${a})`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([c, a, b]) => `[for k, v in ${c} : ${a} if ${b}]`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([c, a, b]) => `{for k, v in ${c} : ${a} => ${b}...}`),
    fc.tuple(fc.constantFrom(...FUNCS), fc.array(tie("e"), { maxLength: 3 }), fc.boolean()).map(([f, args, spread]) => `${f}(${args.join(", ")}${spread && args.length > 0 ? "..." : ""})`),
    fc.tuple(strArb, tie("e")).map(([s, a]) => `"${s.replace(/["\\\n]/g, "")}\${${a}}"`),
    fc.tuple(tie("e"), tie("e")).map(([c, a]) => `"%{if ${c}}\${${a}}%{else}y%{endif}"`),
    fc.tuple(tie("e"), tie("e")).map(([c, a]) => `"%{for x in ${c}~}\${${a}}%{~endfor}"`),
    fc.tuple(tie("e")).map(([a]) => `<<-EOT\n  x \${${a}}\n  EOT\n`),
    fc.tuple(tie("e"), tie("e")).map(([a, i]) => `${a}[${i}]`),
    fc.tuple(tie("e"), nameArb).map(([a, n]) => `${a}.${n}`),
    tie("e").map((a) => `${a}[*].x`),
  ),
})).e;

/** Inputs that reach limits: long chains, deep nesting, long strings. */
const hugeExprArb = fc.oneof(
  fc.tuple(fc.integer({ min: 50, max: 5_000 }), fc.constantFrom(...OPS)).map(([n, op]) => Array(n).fill("1").join(` ${op} `)),
  fc.integer({ min: 50, max: 5_000 }).map((n) => Array(n).fill("var.a").join(" == ")),
  fc.tuple(fc.integer({ min: 50, max: 5000 }), fc.constantFrom("(", "[", "{a=", "-", "!", "f(", '"${', "[for x in ", "x[", "true ? ")).map(([n, o]) => `${o.repeat(n)}1`),
  fc.integer({ min: 50, max: 3000 }).map((n) => `"${"%{if true}".repeat(n)}x${"%{endif}".repeat(n)}"`),
  fc.integer({ min: 50, max: 3000 }).map((n) => `"${"%{for x in [1]}".repeat(n)}x"`),
  fc.integer({ min: 50, max: 3000 }).map((n) => `"${"%{if true}".repeat(n)}"`),
  fc.integer({ min: 50, max: 20_000 }).map((n) => `var.a${".b".repeat(n)}`),
  fc.integer({ min: 50, max: 5_000 }).map((n) => `var.a${"[0]".repeat(n)}`),
  fc.integer({ min: 50, max: 5_000 }).map((n) => `var.a${"[*]".repeat(n)}`),
  fc.integer({ min: 50, max: 5_000 }).map((n) => `${"(var.a)".repeat(1)}${".x[0]".repeat(n)}`),
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => q("é".repeat(n))),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => `[${Array(n).fill("1").join(",")}]`),
  fc.integer({ min: 1000, max: 10_000 }).map((n) => `{${Array.from({ length: n }, (_, i) => `k${i} = ${i}`).join(", ")}}`),
  fc.integer({ min: 5, max: 40 }).map((n) => `range(${10 ** (n % 10)})`),
);

// ----- a model of the blocks, rendered in either syntax -------------------------------------

/** A JSON value tree, rendered by hand so that keys such as `__proto__` stay as written. */
const jsonArb = fc.letrec((tie) => ({
  j: fc.oneof(
    { maxDepth: 3, depthIdentifier: "j" },
    numArb.map((n) => ({ t: "raw", v: /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(n) ? n : "1" })),
    strArb.map((s) => ({ t: "str", v: s })),
    exprArb.map((e) => ({ t: "str", v: `\${${e}}` })),
    fc.constantFrom({ t: "raw", v: "true" }, { t: "raw", v: "false" }, { t: "raw", v: "null" }),
    fc.array(tie("j"), { maxLength: 4 }).map((xs) => ({ t: "arr", v: xs })),
    fc.array(fc.tuple(fc.oneof(nameArb, fc.constantFrom("//", ...HOSTILE)), tie("j")), { maxLength: 4 }).map((kv) => ({ t: "obj", v: kv })),
  ),
})).j;

function renderJson(j) {
  switch (j.t) {
    case "raw":
      return j.v;
    case "str":
      return JSON.stringify(j.v);
    case "arr":
      return `[${j.v.map(renderJson).join(",")}]`;
    case "obj":
      return `{${j.v.map(([k, v]) => `${JSON.stringify(k)}:${renderJson(v)}`).join(",")}}`;
    default:
      throw new Error(`bad json node ${j.t}`);
  }
}

/** An attribute value: an expression (native) that also has a JSON rendering. */
const valueArb = fc.oneof(
  { weight: 8, arbitrary: exprArb.map((e) => ({ native: e, json: { t: "str", v: `\${${e}}` } })) },
  { weight: 3, arbitrary: jsonArb.map((j) => ({ native: j.t === "str" ? q(j.v) : renderJson(j).replace(/":/g, '" = '), json: j })) },
);
const v = (native, json = { t: "str", v: native }) => fc.constant({ native, json });
const typeExprArb = fc.letrec((tie) => ({
  t: fc.oneof(
    { maxDepth: 4, depthIdentifier: "t" },
    fc.constantFrom("string", "number", "bool", "any", "list", "map", "set", "__proto__", "constructor", "object", "tuple", "optional"),
    tie("t").map((x) => `list(${x})`),
    tie("t").map((x) => `map(${x})`),
    tie("t").map((x) => `set(${x})`),
    fc.array(tie("t"), { maxLength: 3 }).map((xs) => `tuple([${xs.join(", ")}])`),
    fc
      .array(fc.tuple(nameArb, tie("t"), fc.option(exprArb, { nil: undefined })), { maxLength: 3 })
      .map((xs) => `object({${xs.map(([k, t, d]) => `${/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : q(k)} = ${d === undefined ? t : `optional(${t}, ${d})`}`).join(", ")}})`),
    fc.integer({ min: 100, max: 3000 }).map((n) => `${"list(".repeat(n)}string${")".repeat(n)}`),
    fc.integer({ min: 50, max: 1000 }).map((n) => `${"object({a = optional(".repeat(n)}string${")})".repeat(n)}`),
  ),
})).t;

const attr = (name, value) => ({ kind: "attr", name, value });
const block = (type, labels, items) => ({ kind: "block", type, labels, items });
const itemsArb = (...specific) => fc.tuple(fc.array(fc.oneof(...specific), { maxLength: 5 }), fc.array(fc.tuple(nameArb, valueArb), { maxLength: 2 })).map(([a, b]) => [...a, ...b.map(([n, x]) => attr(n, x))]);
const anyAttr = (name, value = valueArb) => value.map((x) => attr(name, x));

const conditionArb = (type) =>
  fc.tuple(valueArb, valueArb).map(([c, m]) => block(type, [], [attr("condition", c), attr("error_message", m)]));
const lifecycleArb = itemsArb(
  anyAttr("create_before_destroy"),
  anyAttr("prevent_destroy"),
  anyAttr("ignore_changes", fc.oneof(v("all", { t: "str", v: "all" }), v("[tags, name]", { t: "arr", v: [{ t: "str", v: "tags" }, { t: "str", v: "name" }] }), valueArb)),
  anyAttr("replace_triggered_by", fc.oneof(v("[aws_instance.a.id]", { t: "arr", v: [{ t: "str", v: "aws_instance.a.id" }] }), valueArb)),
  conditionArb("precondition"),
  conditionArb("postcondition"),
).map((items) => block("lifecycle", [], items));
const dynamicArb = fc.tuple(nameArb, valueArb, fc.array(fc.tuple(nameArb, valueArb), { maxLength: 2 })).map(([n, fe, attrs]) =>
  block("dynamic", [n], [attr("for_each", fe), block("content", [], attrs.map(([k, x]) => attr(k, x)))]),
);
const resourceBody = itemsArb(
  anyAttr("count"),
  anyAttr("for_each"),
  anyAttr("provider", fc.oneof(v("aws.west"), v("aws"), valueArb)),
  anyAttr("depends_on", fc.oneof(v("[aws_instance.a, module.m]", { t: "arr", v: [{ t: "str", v: "aws_instance.a" }, { t: "str", v: "module.m" }] }), valueArb)),
  lifecycleArb,
  dynamicArb,
  fc.tuple(nameArb, valueArb).map(([n, x]) => block("nested", [], [attr(n, x)])),
  fc.constant(block("provisioner", ["local-exec"], [])),
  fc.constant(block("connection", [], [])),
);
const blockArb = fc.oneof(
  itemsArb(
    anyAttr("required_version", fc.oneof(v('">= 1.0"'), v('"~> 0.12"'), v('"banana"'), valueArb)),
    fc
      .array(fc.tuple(nameArb, fc.oneof(v('{ source = "hashicorp/aws", version = "~> 5.0" }', { t: "obj", v: [["source", { t: "str", v: "hashicorp/aws" }], ["version", { t: "str", v: "~> 5.0" }]] }), valueArb)), { maxLength: 3 })
      .map((ps) => block("required_providers", [], ps.map(([n, x]) => attr(n, x)))),
    fc.tuple(fc.constantFrom("local", "pg", "s3", "__proto__", "remote"), fc.array(fc.tuple(nameArb, valueArb), { maxLength: 2 })).map(([t, xs]) => block("backend", [t], xs.map(([n, x]) => attr(n, x)))),
    fc.tuple(nameArb, valueArb).map(([n, x]) => block("provider_meta", [n], [attr("x", x)])),
    fc.constant(block("cloud", [], [])),
  ).map((items) => block("terraform", [], items)),
  fc.tuple(nameArb, itemsArb(anyAttr("alias"), anyAttr("region"))).map(([n, items]) => block("provider", [n], items)),
  fc
    .tuple(
      nameArb,
      itemsArb(
        anyAttr("type", fc.oneof({ weight: 3, arbitrary: typeExprArb.map((t) => ({ native: t, json: { t: "str", v: t } })) }, valueArb)),
        anyAttr("default"),
        anyAttr("description"),
        anyAttr("sensitive"),
        anyAttr("nullable"),
        anyAttr("ephemeral"),
        conditionArb("validation"),
      ),
    )
    .map(([n, items]) => block("variable", [n], items)),
  fc.array(fc.tuple(nameArb, valueArb), { maxLength: 4 }).map((xs) => block("locals", [], xs.map(([n, x]) => attr(n, x)))),
  fc.tuple(nameArb, itemsArb(anyAttr("value"), anyAttr("sensitive"), anyAttr("depends_on"), anyAttr("description"), conditionArb("precondition"))).map(([n, items]) => block("output", [n], items)),
  fc
    .tuple(nameArb, itemsArb(anyAttr("source", fc.oneof(v('"./mod"', { t: "str", v: "./mod" }), v('"../x"', { t: "str", v: "../x" }), v('"hashicorp/x/aws"', { t: "str", v: "hashicorp/x/aws" }), valueArb)), anyAttr("version"), anyAttr("count"), anyAttr("for_each"), anyAttr("providers", fc.oneof(v("{ aws = aws.west }"), valueArb)), anyAttr("depends_on")))
    .map(([n, items]) => block("module", [n], items)),
  fc.tuple(fc.constantFrom("resource", "data", "ephemeral"), typeNameArb, nameArb, resourceBody).map(([k, t, n, items]) => block(k, [t, n], items)),
  itemsArb(anyAttr("from", fc.oneof(v("aws_instance.a"), v("module.m[0]"), valueArb)), anyAttr("to", fc.oneof(v("aws_instance.b"), v('aws_instance.b["__proto__"]'), valueArb))).map((items) => block("moved", [], items)),
  itemsArb(anyAttr("to", fc.oneof(v("aws_instance.a"), v("aws_instance.a[each.key]"), valueArb)), anyAttr("id"), anyAttr("for_each"), anyAttr("provider"), anyAttr("identity")).map((items) => block("import", [], items)),
  itemsArb(anyAttr("from", fc.oneof(v("aws_instance.a"), valueArb)), fc.constant(block("lifecycle", [], [attr("destroy", { native: "false", json: { t: "raw", v: "false" } })]))).map((items) => block("removed", [], items)),
  fc
    .tuple(nameArb, itemsArb(conditionArb("assert"), fc.tuple(typeNameArb, nameArb).map(([t, n]) => block("data", [t, n], [attr("x", { native: "1", json: { t: "raw", v: "1" } })]))))
    .map(([n, items]) => block("check", [n], items)),
  fc.tuple(nameArb, fc.array(nameArb, { maxLength: 3 }), fc.array(fc.tuple(nameArb, valueArb), { maxLength: 2 })).map(([t, ls, xs]) => block(t, ls, xs.map(([n, x]) => attr(n, x)))),
);

function renderNative(items, indent = "") {
  let s = "";
  for (const it of items) {
    if (it.kind === "attr") s += `${indent}${/^[A-Za-z_][A-Za-z0-9_-]*$/.test(it.name) ? it.name : q(it.name)} = ${it.value.native}\n`;
    else s += `${indent}${it.type} ${it.labels.map(q).join(" ")}${it.labels.length > 0 ? " " : ""}{\n${renderNative(it.items, `${indent}  `)}${indent}}\n`;
  }
  return s;
}

/** A JSON body: attributes as properties, blocks nested by their labels (several blocks of a type as an array). */
function renderJsonBody(items) {
  const props = [];
  const blocksByType = new Map();
  for (const it of items) {
    if (it.kind === "attr") props.push(`${JSON.stringify(it.name)}:${renderJson(it.value.json)}`);
    else {
      const list = blocksByType.get(it.type) ?? [];
      list.push(it);
      blocksByType.set(it.type, list);
    }
  }
  for (const [type, list] of blocksByType) {
    const one = (b) => {
      let body = renderJsonBody(b.items);
      for (const l of [...b.labels].reverse()) body = `{${JSON.stringify(l)}:${body}}`;
      return body;
    };
    props.push(`${JSON.stringify(type)}:${list.length === 1 ? one(list[0]) : `[${list.map(one).join(",")}]`}`);
  }
  return `{${props.join(",")}}`;
}

const FRAGMENTS = ["{", "}", "[", "]", "(", ")", '"', "${", "%{", "}\n", "=", ":", ",", "\n", "#", "/*", "<<EOT\n", "__proto__", '"__proto__"', "constructor", "\u0000", "\ud800", "é", "\\u0000", "\\", "1e999", "-", "..."];

/** One file: a few blocks, duplicated sometimes, rendered in a syntax, then maybe mutated. */
const fileArb = fc
  .tuple(
    fc.array(blockArb, { minLength: 0, maxLength: 6 }),
    fc.boolean(),
    fc.nat({ max: 9 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 4 })), { maxLength: 4 }),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...FRAGMENTS)), { maxLength: 3 }),
  )
  .map(([blocks, json, dup, edits, inserts]) => {
    const all = dup < 2 && blocks.length > 0 ? [...blocks, blocks[0]] : blocks; // a duplicate block
    let text = json ? renderJsonBody(all) : renderNative(all);
    if (edits.length > 0 && dup < 3) text = mutateText(text, edits);
    for (const [pos, frag] of dup === 3 ? inserts : []) {
      const i = text.length === 0 ? 0 : pos % text.length;
      text = text.slice(0, i) + frag + text.slice(i);
    }
    return { json, text };
  });

/** Deeply nested or huge files, in either syntax. */
const hugeFileArb = fc.oneof(
  fc.integer({ min: 100, max: 5000 }).map((n) => ({ json: false, text: "a {\n".repeat(n) + "}\n".repeat(n) })),
  fc.integer({ min: 100, max: 5000 }).map((n) => ({ json: true, text: `{"resource":{"t":{"n":${'{"b":'.repeat(n)}1${"}".repeat(n)}}}}` })),
  fc.integer({ min: 100, max: 5000 }).map((n) => ({ json: true, text: `${"[".repeat(n)}${"]".repeat(n)}` })),
  fc.integer({ min: 100, max: 1000 }).map((n) => ({ json: false, text: Array.from({ length: n }, (_, i) => `resource "t_t" "r${i % 50}" {\n  x = t_t.r${(i + 1) % 50}.id\n}\n`).join("") })),
  fc.integer({ min: 100, max: 3000 }).map((n) => ({ json: false, text: `locals {\n${Array.from({ length: n }, (_, i) => `  l${i} = local.l${(i + 1) % n}\n`).join("")}}\n` })),
  fc.integer({ min: 100, max: 3000 }).map((n) => ({ json: true, text: `{"variable":{${Array.from({ length: n }, (_, i) => `"__proto__":{"default":${i}}`).join(",")}}}` })),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => ({ json: false, text: `locals {\n  a = "${"é".repeat(n)}"\n}\n` })),
  hugeExprArb.map((e) => ({ json: false, text: `locals {\n  a = ${e}\n}\noutput "o" {\n  value = local.a\n}\n` })),
  hugeExprArb.map((e) => ({ json: true, text: `{"locals":{"a":${JSON.stringify(`\${${e}}`)}}}` })),
  fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ json: false, text })),
  fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({ json: true, text })),
);

const FILE_NAMES = ["main", "variables", "é", "__proto__", "constructor", "override", "a_override", "x y"];

/** A module's files: one to three, native and JSON, override files sometimes. */
export const filesArb = fc
  .array(fc.tuple(fc.oneof({ weight: 19, arbitrary: fileArb }, { weight: 1, arbitrary: hugeFileArb }), fc.constantFrom(...FILE_NAMES)), { minLength: 1, maxLength: 3 })
  .map((fs) => {
    const files = new Map();
    for (const [f, base] of fs) files.set(`${base}${files.has(`${base}${f.json ? ".tf.json" : ".tf"}`) ? files.size : ""}${f.json ? ".tf.json" : ".tf"}`, f.text);
    return files;
  });

/** Values for variables from outside: `TF_VAR_*`, `-var`, tfvars files (native and JSON), a module manifest. */
const outsideArb = fc.record({
  env: fc.array(fc.tuple(nameArb, fc.oneof(exprArb, strArb)), { maxLength: 3 }),
  args: fc.array(fc.tuple(nameArb, fc.oneof(exprArb, strArb), fc.nat({ max: 9 })), { maxLength: 3 }),
  tfvars: fc.option(fc.array(fc.tuple(nameArb, valueArb), { maxLength: 4 }), { nil: undefined }),
  tfvarsJson: fc.option(fc.oneof(jsonArb.map(renderJson), fc.array(fc.tuple(fc.oneof(nameArb, fc.constantFrom(...HOSTILE)), jsonArb), { maxLength: 4 }).map((kv) => renderJson({ t: "obj", v: kv }))), { nil: undefined }),
  manifest: fc.option(
    fc.oneof(
      fc.constantFrom('{"Modules":[{"Key":"__proto__","Source":"./mod","Dir":"mod"}]}', '{"Modules":{"__proto__":{}}}', '{"__proto__":{"Modules":[]}}', '{"Modules":[null,1,"x",{"Key":1}]}', '{"Modules":[{"Key":"m","Source":"hashicorp/x/aws","Dir":"../../etc"}]}', "[", ""),
      jsonArb.map(renderJson),
    ),
    { nil: undefined },
  ),
  child: fc.option(filesArb, { nil: undefined }),
});

/** One fuzz case: a module's files and, for some, what a directory on disk adds. */
export const caseArb = fc.tuple(filesArb, fc.option(outsideArb, { freq: 8, nil: undefined })).map(([files, outside]) => ({ files, outside }));

// ----- the property --------------------------------------------------------------------------

/** A provider schema for every resource type: attributes of each kind, nested blocks of each nesting. */
function schemaLookup(lib) {
  const nested = { attributes: { a: { type: "string", optional: true }, constructor: { type: ["map", "string"], optional: true } } };
  const block = lib.blockFromSchemaJson({
    attributes: {
      id: { type: "string", computed: true },
      name: { type: "string", optional: true },
      x: { type: "dynamic", optional: true },
      tags: { type: ["map", "string"], optional: true },
      n: { type: "number", optional: true },
      list: { type: ["list", ["object", { a: "string", __proto__x: "bool" }]], optional: true },
      prototype: { type: "string", optional: true },
      nested_attr: { nested_type: { attributes: nested.attributes, nesting_mode: "list" }, optional: true },
    },
    block_types: {
      nested: { nesting_mode: "list", block: nested },
      b: { nesting_mode: "map", block: nested },
      single: { nesting_mode: "single", block: nested },
      setb: { nesting_mode: "set", block: nested, max_items: 2 },
    },
  });
  return () => block;
}

function checkDiags(diags, where) {
  if (!Array.isArray(diags)) throw new Error(`${where}: diagnostics are not an array`);
  for (const d of diags) {
    if ((d.severity !== "error" && d.severity !== "warning") || typeof d.summary !== "string" || d.summary === "" || typeof d.detail !== "string") {
      throw new Error(`${where}: a malformed diagnostic ${JSON.stringify(d)?.slice(0, 300)}`);
    }
    for (const r of [d.subject, d.context]) {
      if (r === undefined) continue;
      for (const p of [r.start, r.end]) {
        if (!Number.isInteger(p?.line) || !Number.isInteger(p.column) || !Number.isInteger(p.byte) || p.line < 1 || p.column < 1 || p.byte < 0) {
          throw new Error(`${where}: a diagnostic with a bad range ${JSON.stringify(r)}`);
        }
      }
    }
  }
  return diags.some((d) => d.severity === "error");
}

/** Evaluates every expression of a module the way a plan would start to. */
function evaluateAll(lib, hcl, module, scope, schema, out) {
  const exprs = [];
  for (const l of module.locals.values()) exprs.push(l.expr);
  for (const o of module.outputs.values()) exprs.push(o.expr);
  for (const vr of module.variables.values()) for (const rule of vr.validations ?? []) exprs.push(rule.condition, rule.errorMessage);
  for (const m of module.moduleCalls.values()) {
    exprs.push(m.count, m.forEach);
    for (const a of m.config.justAttributes?.().attributes?.values?.() ?? []) exprs.push(a.expr);
  }
  for (const map of [module.managedResources, module.dataResources, module.ephemeralResources]) {
    for (const r of map.values()) {
      exprs.push(r.count, r.forEach);
      const d = lib.decodeSchemaBody(r.config, schema);
      out.push(...d.diags);
      const ev = lib.evaluateSchemaBody(d.decoded, schema, scope);
      out.push(...ev.diags);
      checkShapes(ev.value, "an evaluated resource body");
    }
  }
  for (const e of exprs) {
    if (e === undefined) continue;
    const r = hcl.evaluate(e, scope);
    out.push(...r.diags);
    checkShapes(r.value, "an evaluated expression");
    hcl.variables(e);
    const refs = lib.referencesInExpr(e);
    out.push(...refs.diags);
  }
}

let tmpRoot;
function tmpBase() {
  tmpRoot ??= mkdtempSync(join(process.platform === "linux" ? "/dev/shm" : tmpdir(), "magma-config-fuzz-"));
  return tmpRoot;
}

/** Removes the fuzz run's temporary directory. */
export function cleanup() {
  if (tmpRoot !== undefined) rmSync(tmpRoot, { recursive: true, force: true });
  tmpRoot = undefined;
}

let counter = 0;
/** The schema and function table of a run, made once per library. */
const fixtures = new WeakMap();

/**
 * Runs one case through the loader; throws on anything but diagnostics. Returns "errors" when
 * error diagnostics came out, "ok" otherwise. `lib` is @magma/config (src or dist), `hcl` @magma/hcl,
 * `cty` @magma/cty.
 */
export function fuzzConfig(lib, hcl, cty, c) {
  const diags = [];
  const fixed = fixtures.get(lib) ?? { schema: schemaLookup(lib)(), funcs: hcl.terraformFunctions({ baseDir: tmpBase() }) };
  fixtures.set(lib, fixed);
  const { schema, funcs } = fixed;
  const scope = {
    variables: {
      var: cty.unknownVal(cty.dynamicType),
      local: cty.objectVal(Object.fromEntries([["a", cty.stringVal("x")], ["__proto__", cty.listVal([cty.numberVal(1)])]])),
      each: cty.objectVal({ key: cty.stringVal("__proto__"), value: cty.stringVal("v") }),
      count: cty.objectVal({ index: cty.numberVal(0) }),
      path: cty.objectVal({ module: cty.stringVal("."), root: cty.stringVal("."), cwd: cty.stringVal(".") }),
    },
    functions: funcs,
    baseDir: tmpBase(),
  };
  const { module, diags: d1 } = lib.loadModuleFromFiles(".", c.files);
  diags.push(...d1);
  checkShapes(module, "the loaded module");
  let config = { module, path: [], children: new Map() };
  if (c.outside !== undefined) {
    const dir = join(tmpBase(), `c${counter++}`);
    mkdirSync(dir);
    try {
      for (const [n, text] of c.files) writeFileSync(join(dir, n.replaceAll("/", "_")), text);
      const o = c.outside;
      if (o.child !== undefined) {
        mkdirSync(join(dir, "mod"));
        for (const [n, text] of o.child) writeFileSync(join(dir, "mod", n.replaceAll("/", "_")), text);
      }
      if (o.manifest !== undefined) {
        mkdirSync(join(dir, ".terraform", "modules"), { recursive: true });
        writeFileSync(join(dir, ".terraform", "modules", "modules.json"), o.manifest);
      }
      if (o.tfvars !== undefined) writeFileSync(join(dir, "terraform.tfvars"), renderNative(o.tfvars.map(([n, x]) => attr(n, x))));
      if (o.tfvarsJson !== undefined) writeFileSync(join(dir, "x.auto.tfvars.json"), o.tfvarsJson);
      const loaded = lib.loadConfig(dir);
      diags.push(...loaded.diags);
      checkShapes(loaded.config, "the loaded configuration");
      config = loaded.config;
      const env = Object.fromEntries(o.env.map(([n, x]) => [`TF_VAR_${n}`, x]));
      const args = o.args.map(([n, x, k]) => (k === 0 ? { kind: "var-file", path: join(dir, k === 0 ? "terraform.tfvars" : "nope.tfvars") } : { kind: "var", arg: k === 1 ? x : `${n}=${x}` }));
      const vals = lib.collectVariableValues(config.module, { dir, args, env });
      diags.push(...vals.diags);
      checkShapes(vals.values, "the variable values");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  diags.push(...lib.validateConfig(config, { schemas: () => schema }));
  diags.push(...lib.validateConfig(config));
  diags.push(...lib.checkCoreVersion(config));
  for (const m of lib.walkConfig(config)) {
    const gi = lib.graphInputs(m.module);
    diags.push(...gi.diags);
    checkShapes(gi.inputs, "the graph inputs");
    evaluateAll(lib, hcl, m.module, scope, schema, diags);
  }
  return checkDiags(diags, "the diagnostics") ? "errors" : "ok";
}

/** The fast-check property over {@link caseArb}; `onCase` is called after each case. */
export function configProperty(lib, hcl, cty, limits, stats, guard, onCase = () => {}) {
  return fc.property(caseArb, (c) => {
    runCase(stats, limits, guard, [...c.files].map(([n, t]) => `${n}: ${t}`).join("\n"), () => fuzzConfig(lib, hcl, cty, c));
    onCase();
  });
}

async function main() {
  const runs = Number(process.argv[2] ?? process.env.MAGMA_FUZZ_RUNS ?? 100_000);
  const seed = Number(process.argv[3] ?? process.env.MAGMA_FUZZ_SEED ?? Date.now() % 2 ** 31);
  const maxCaseMs = Number(process.env.MAGMA_FUZZ_CASE_MS ?? 30000);
  const [lib, hcl, cty] = await Promise.all([import("../dist/index.js"), import("@magma/hcl"), import("@magma/cty")]);
  const stats = emptyStats();
  const guard = pollutionGuard();
  console.log(`config fuzz: ${runs} cases, seed ${seed}, case limit ${maxCaseMs} ms`);
  const started = performance.now();
  // Stopped early (SIGINT/SIGTERM): say what ran.
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.once(sig, () => {
      console.log(`stopped by ${sig} after ${stats.runs} cases in ${((performance.now() - started) / 1000).toFixed(1)} s (seed ${seed}): no failure so far; slowest ${stats.slowestMs.toFixed(0)} ms; ${stats.ok} without error diagnostics`);
      cleanup();
      process.exit(130);
    });
  }
  const timer = setInterval(() => {}, 1 << 30);
  let failed = false;
  try {
    const details = fc.check(
      configProperty(lib, hcl, cty, { maxCaseMs }, stats, guard, () => {
        if (stats.runs % 1000 === 0) console.log(`  ${stats.runs} cases, ${((performance.now() - started) / 1000).toFixed(0)} s, ${stats.ok} without error diagnostics, slowest ${stats.slowestMs.toFixed(0)} ms`);
      }),
      { numRuns: runs, seed, endOnFailure: process.env.MAGMA_FUZZ_SHRINK !== "1" },
    );
    if (details.failed) {
      failed = true;
      const message = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      console.error(`FAILED (seed ${seed}, path ${details.counterexamplePath}, after ${details.numShrinks} shrinks):\n${message.slice(0, 4000)}`);
    }
  } finally {
    clearInterval(timer);
    cleanup();
  }
  stats.peakRssBytes = Math.max(stats.peakRssBytes, process.memoryUsage.rss());
  const secs = (performance.now() - started) / 1000;
  console.log(
    `config: ${stats.runs} cases in ${secs.toFixed(1)} s (seed ${seed}): ${stats.withErrors} with error diagnostics, ${stats.ok} without; exceptions ${failed ? "YES" : 0}; slowest ${stats.slowestMs.toFixed(0)} ms; peak RSS ${(stats.peakRssBytes / 1048576).toFixed(0)} MB`,
  );
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

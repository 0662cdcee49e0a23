#!/usr/bin/env node
// Fuzzes both parsers (native syntax: configs, expressions, templates; JSON syntax: configs,
// expressions) and the evaluator with generated and mutated inputs. Every input must give
// diagnostics or a value: no exception, no hang.
//
//   node scripts/fuzz.mjs [cases=100000] [seed=1]    (after `pnpm build`; uses dist/)
//
// src/fuzz.test.ts runs a few thousand cases of the same generator against the sources in CI.

/** Fragments that exercise every token and mode of the lexer. */
export const FRAGMENTS = [
  "a", "b", "x.y", "var.v", "=", "1", "0.5", "1e5", "-", "+", "*", "/", "%", "!", "&&", "||", "==", "!=", "<", ">=", "?", ":",
  "\"", "\"s\"", "${", "}", "%{", "~", "$${", "%%{", "if", "else", "endif", "for", "in", "endfor", "{", "[", "]", "(", ")", ",",
  ".", "*", "[*]", ".*", "...", "=>", "\n", " ", "\t", "<<EOT\n", "<<-EOT\n", "EOT\n", "  EOT", "#c\n", "// c\n", "/*", "*/",
  "\\", "\\n", "\\u00e9", "\\U0001F600", "\\q", "'", "`", ";", "&", "|", "é", "😀", "\u0000", "\r\n", "null", "true", "false",
  "f(", "try(", "can(", "provider::p::f(", "core::f(", "::", "block {\n", "res \"l\" {\n", "}\n", "[for x in [1]: x]",
  "{for k, v in {a=1}: k => v...}", "\"${x}\"", "\"%{ if true }y%{ endif }\"", "{\"a\": [1, {\"b\": \"${c}\"}]}", "9e99999",
];

const SEEDS = [
  "a = 1\n", "resource \"t\" \"n\" {\n  x = var.y[0].z\n}\n", "[for i, v in [1, 2]: v * i if v > 0]", "{for k, v in {a = 1}: k => v...}",
  "\"pre-${a.b[*].c}-%{ for x in [1] ~} ${x} %{~ endfor }\"", "<<-EOT\n  hello ${name}\n  EOT\n", "f(1, [2, 3]...)",
  "true ? {a = [1]} : null", "a.*.b[0].c", "!(1 + 2 * 3 == 7) || x", "{\"resource\": {\"t\": {\"n\": {\"x\": \"${y}\"}}}}",
  "{\"a\": [1, 2.5e3, true, null, \"$${x}\"]}", "try(x.y, can(z), 1)", "1/3 * 3 % 2 - -1",
];

/** A deterministic PRNG (mulberry32). */
export function rng(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th fuzz input of a run: fragment soup, a mutated seed, or deep nesting. */
export function input(rand) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const kind = rand();
  if (kind < 0.45) {
    const n = 1 + Math.floor(rand() * 30);
    let s = "";
    for (let i = 0; i < n; i++) s += pick(FRAGMENTS);
    return s;
  }
  if (kind < 0.9) {
    let s = pick(SEEDS);
    const edits = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < edits; i++) {
      const at = Math.floor(rand() * (s.length + 1));
      const op = rand();
      if (op < 0.4) s = s.slice(0, at) + pick(FRAGMENTS) + s.slice(at);
      else if (op < 0.7) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rand() * 3));
      else s = s.slice(0, at) + String.fromCharCode(Math.floor(rand() * 128)) + s.slice(at + 1);
    }
    return s;
  }
  const open = pick(["(", "[", "{a=", "-", "!", "f(", "\"${", "[for x in ", "x[", "<<EOT\n${", "{\"a\":", "["]);
  return open.repeat(1 + Math.floor(rand() * 1000)) + pick(FRAGMENTS);
}

function checkRange(r, where) {
  if (r === undefined) return;
  for (const p of [r.start, r.end]) {
    if (!Number.isInteger(p.line) || !Number.isInteger(p.column) || !Number.isInteger(p.byte) || p.line < 1 || p.column < 1 || p.byte < 0) {
      throw new Error(`${where}: bad range ${JSON.stringify(r)}`);
    }
  }
}

function checkDiags(diags, where) {
  for (const d of diags) {
    if (typeof d.summary !== "string" || typeof d.detail !== "string" || d.summary === "") throw new Error(`${where}: bad diagnostic ${JSON.stringify(d)}`);
    checkRange(d.subject, where);
  }
}

/**
 * Runs one input through every parser and evaluates what parses. Throws (with the input)
 * on any exception or malformed diagnostic. `lib` is the package (src or dist), `scope` an
 * evaluation scope.
 */
export function fuzzOne(lib, text, scope) {
  const where = JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  try {
    const e = lib.parseExpression(text, "f.tf");
    checkDiags(e.diags, where);
    checkDiags(lib.evaluate(e.expr, scope).diags, where);
    lib.variables(e.expr);
    const t = lib.parseTemplate(text, "f.tftpl");
    checkDiags(t.diags, where);
    checkDiags(lib.evaluate(t.expr, scope).diags, where);
    const c = lib.parseNativeConfig(text, "f.tf");
    checkDiags(c.diags, where);
    for (const a of c.body.justAttributes().attributes.values()) checkDiags(lib.evaluate(a.expr, scope).diags, where);
    const j = lib.parseJsonConfig(text, "f.tf.json");
    checkDiags(j.diags, where);
    for (const a of j.body.justAttributes().attributes.values()) {
      checkDiags(lib.evaluate(a.expr, scope).diags, where);
      lib.variables(a.expr);
    }
    const je = lib.parseJsonExpression(text, "f.json");
    checkDiags(lib.evaluate(je.expr, scope).diags, where);
  } catch (err) {
    throw new Error(`fuzz input ${where} threw: ${err instanceof Error ? err.stack : String(err)}`);
  }
}

async function main() {
  const n = Number(process.argv[2] ?? 100000);
  const seed = Number(process.argv[3] ?? 1);
  const lib = await import("../dist/index.js");
  const cty = await import("@magma/cty");
  const scope = {
    variables: { x: cty.objectVal({ y: cty.listVal([cty.stringVal("s")]) }), var: cty.objectVal({ v: cty.unknownVal(cty.stringType) }), a: cty.stringVal("a").mark("sensitive") },
    functions: new Map(),
  };
  const rand = rng(seed);
  let slowest = 0;
  let slowInput = "";
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const text = input(rand);
    const t0 = performance.now();
    fuzzOne(lib, text, scope);
    const dt = performance.now() - t0;
    if (dt > slowest) {
      slowest = dt;
      slowInput = text;
    }
    if (dt > 30000) throw new Error(`fuzz input took ${Math.round(dt)} ms (a hang?): ${JSON.stringify(text.slice(0, 200))}`);
    if ((i + 1) % 10000 === 0) console.log(`${i + 1} cases, ${Math.round((Date.now() - started) / 1000)} s`);
  }
  console.log(`ok: ${n} cases (seed ${seed}) without an exception; slowest ${Math.round(slowest)} ms: ${JSON.stringify(slowInput.slice(0, 80))}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

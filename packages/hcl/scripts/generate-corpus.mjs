#!/usr/bin/env node
// Generates the expression corpus from terraform 1.11.4 runs.
//
//   node packages/hcl/scripts/generate-corpus.mjs [group…]
//
// For every input testdata/corpus-src/<group>.json ({"cases": ["<expr>", …]}) it writes
// testdata/corpus/<group>.tf (native: one `output "cN" { value = <expr> }` per case),
// <group>.tf.json (JSON syntax: "${<expr>}" templates) and <group>.json (expected values,
// types and errors). Terraform evaluates each copy in a scratch directory that also holds a
// copy of testdata/corpus/files/ (so `path.module` paths work):
//   1. `terraform apply -json` until no errors: a case with an error diagnostic (at plan or
//      apply time) is recorded as an error case and left out of the next round; a case whose
//      output is sensitive is re-declared with `sensitive = true`.
//   2. Values and types of the remaining outputs come from the state of the last apply.
// The native and JSON runs must agree (value, type, error summary); any case where they
// differ is reported and the script exits non-zero (the native result is recorded).
// Cases whose value is null are reported and dropped: terraform leaves null outputs out of
// the state, so their type cannot be known.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "..");
const srcDir = join(pkg, "testdata", "corpus-src");
const outDir = join(pkg, "testdata", "corpus");
const filesDir = join(outDir, "files");

const terraform = process.env.TERRAFORM ?? "terraform";

/** A JSON number kept as its exact text (state numbers can have more digits than a float64). */
class RawNumber {
  constructor(text) {
    this.text = text;
  }
}

/** JSON.parse that keeps every number as a {@link RawNumber}. */
function parseExact(text) {
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i] ?? "")) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out = {};
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        ws();
        const k = value();
        ws();
        i++; // :
        out[k] = value();
        ws();
        if (text[i++] === "}") return out;
      }
    }
    if (c === "[") {
      i++;
      const out = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === "]") return out;
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      i += m[0].length;
      return JSON.parse(m[0]);
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(text.slice(i));
    i += m[0].length;
    if (m[0] === "true") return true;
    if (m[0] === "false") return false;
    if (m[0] === "null") return null;
    return new RawNumber(m[0]);
  };
  return value();
}

/** JSON.stringify (two-space indent) that writes {@link RawNumber}s as their text. */
function stringifyExact(v, indent = "") {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return `[\n${v.map((e) => inner + stringifyExact(e, inner)).join(",\n")}\n${indent}]`;
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  if (keys.length === 0) return "{}";
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${stringifyExact(v[k], inner)}`).join(",\n")}\n${indent}}`;
}

function run(cwd, args) {
  const cliConfig = join(cwd, ".terraformrc");
  if (!existsSync(cliConfig)) writeFileSync(cliConfig, "");
  const r = spawnSync(terraform, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return r;
}

function checkVersion() {
  const r = spawnSync(terraform, ["version", "-json"], { encoding: "utf8" });
  if (r.error) throw new Error(`cannot run ${terraform}: ${r.error.message}`);
  const v = JSON.parse(r.stdout).terraform_version;
  if (v !== "1.11.4") console.warn(`warning: terraform ${v}, the corpus is meant for 1.11.4`);
}

/**
 * The JSON-syntax copy of an expression: one interpolation. Template sequences inside the
 * expression's own string literals (`"a${x}"`) are scanned by the expression parser inside
 * the interpolation, so they are not escaped (escaping them would make them literal text);
 * the generator checks that both copies agree.
 */
function jsonTemplate(expr) {
  // A heredoc's closing marker must end its line, so a multi-line expression gets a
  // newline before the closing brace.
  return "${" + expr + (expr.includes("\n") ? "\n}" : "}");
}


/** Native config; returns the text and each case's [firstLine, lastLine]. */
function nativeConfig(cases) {
  let line = 1;
  let text = "";
  const spans = new Map();
  for (const c of cases) {
    const block = `output "c${c.i}" {\n  value = ${c.expr}\n${c.sensitive ? "  sensitive = true\n" : ""}}\n`;
    const n = block.split("\n").length - 1;
    spans.set(c.i, [line, line + n - 1]);
    line += n;
    text += block;
  }
  return { text, spans };
}

/** JSON config, one output per line. */
function jsonConfig(cases) {
  const spans = new Map();
  const lines = ['{"output": {'];
  cases.forEach((c, k) => {
    const body = { value: jsonTemplate(c.expr) };
    if (c.sensitive) body.sensitive = true;
    lines.push(`  ${JSON.stringify(`c${c.i}`)}: ${JSON.stringify(body)}${k < cases.length - 1 ? "," : ""}`);
    spans.set(c.i, [lines.length, lines.length]);
  });
  lines.push("}}");
  return { text: lines.join("\n") + "\n", spans };
}

function evaluate(exprs, syntax) {
  const dir = mkdtempSync(join(tmpdir(), "hcl-corpus-"));
  try {
    if (existsSync(filesDir)) cpSync(filesDir, join(dir, "files"), { recursive: true });
    const fileName = syntax === "native" ? "main.tf" : "main.tf.json";
    const results = new Map();
    let live = exprs.map((expr, i) => ({ i, expr, sensitive: false }));
    for (let round = 0; round < 50 && live.length > 0; round++) {
      const { text, spans } = syntax === "native" ? nativeConfig(live) : jsonConfig(live);
      writeFileSync(join(dir, fileName), text);
      const r = run(dir, ["apply", "-auto-approve", "-json", "-input=false", "-lock=false"]);
      const diags = r.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .filter((m) => m.type === "diagnostic" && m.diagnostic.severity === "error")
        .map((m) => m.diagnostic);
      if (diags.length === 0) {
        if (r.status !== 0) throw new Error(`${syntax}: apply failed:\n${r.stdout}\n${r.stderr}`);
        break;
      }
      let changed = false;
      for (const d of diags) {
        // The snippet's context names the output (`output "c5"`, `output.c5`); else the line.
        const ctx = /^output(?: "|\.)c(\d+)"?$/.exec(d.snippet?.context ?? "");
        const line = d.range?.start?.line;
        const c =
          ctx !== null
            ? live.find((x) => x.i === Number(ctx[1]))
            : live.find((x) => line !== undefined && spans.get(x.i)[0] <= line && line <= spans.get(x.i)[1]);
        if (c === undefined) throw new Error(`${syntax}: diagnostic without a case: ${JSON.stringify(d)}`);
        if (d.summary === "Output refers to sensitive values") {
          if (!c.sensitive) {
            c.sensitive = true;
            changed = true;
          }
          continue;
        }
        if (!results.has(c.i)) {
          results.set(c.i, { error: { summary: d.summary, detail: d.detail ?? "" } });
          changed = true;
        }
      }
      live = live.filter((c) => !results.has(c.i));
      if (!changed) throw new Error(`${syntax}: no progress on diagnostics ${JSON.stringify(diags.slice(0, 3))}`);
    }
    if (live.length > 0) {
      const state = parseExact(readFileSync(join(dir, "terraform.tfstate"), "utf8"));
      for (const c of live) {
        const o = state.outputs?.[`c${c.i}`];
        if (o === undefined) results.set(c.i, { null: true });
        else results.set(c.i, { value: o.value, type: o.type, ...(o.sensitive ? { sensitive: true } : {}) });
      }
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function same(a, b) {
  return stringifyExact(a) === stringifyExact(b);
}

function generate(group) {
  const input = JSON.parse(readFileSync(join(srcDir, `${group}.json`), "utf8"));
  const exprs = input.cases;
  if (!Array.isArray(exprs) || exprs.some((e) => typeof e !== "string")) throw new Error(`${group}: "cases" must be an array of strings`);
  const native = evaluate(exprs, "native");
  const json = evaluate(exprs, "json");
  const problems = [];
  const cases = [];
  exprs.forEach((expr, i) => {
    const n = native.get(i);
    const j = json.get(i);
    if (n.null) {
      problems.push(`${group}[${i}] ${expr}: null result (left out: terraform drops null outputs)`);
      return;
    }
    const agree = n.error !== undefined ? j.error !== undefined && j.error.summary === n.error.summary : same(n, j);
    if (!agree) problems.push(`${group}[${i}] ${expr}: native ${stringifyExact(n)} but JSON ${stringifyExact(j)}`);
    cases.push(n.error !== undefined ? { expr, error: n.error } : { expr, ...n });
  });
  const kept = cases.map((c) => c.expr);
  const sensitive = new Set(cases.filter((c) => c.sensitive).map((c) => c.expr));
  const tf = kept.map((e, i) => `output "c${i}" {\n  value = ${e}\n${sensitive.has(e) ? "  sensitive = true\n" : ""}}\n`).join("\n");
  const tfJson = {
    output: Object.fromEntries(kept.map((e, i) => [`c${i}`, { value: jsonTemplate(e), ...(sensitive.has(e) ? { sensitive: true } : {}) }])),
  };
  writeFileSync(join(outDir, `${group}.tf`), tf);
  writeFileSync(join(outDir, `${group}.tf.json`), JSON.stringify(tfJson, null, 2) + "\n");
  writeFileSync(join(outDir, `${group}.json`), stringifyExact({ group, cases }) + "\n");
  const errors = cases.filter((c) => c.error).length;
  console.log(`${group}: ${cases.length} cases (${errors} errors)`);
  return problems;
}

checkVersion();
const wanted = process.argv.slice(2);
const groups = readdirSync(srcDir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5))
  .filter((g) => wanted.length === 0 || wanted.includes(g))
  .sort();
if (wanted.length > 0) for (const g of wanted) if (!groups.includes(g)) throw new Error(`no input ${g}.json in ${srcDir}`);
const problems = groups.flatMap(generate);
for (const p of problems) console.warn(`warning: ${p}`);
process.exitCode = problems.some((p) => !p.includes("null result")) ? 1 : 0;

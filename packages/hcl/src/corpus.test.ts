import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Mark, dynamicVal, toJson, typeToJson, type Value } from "@magma/cty";
import type { Expression } from "./ast.js";
import { corpusFunctions, corpusScope, CORPUS_DIR, CORPUS_KNOWN_DIFFERENCES } from "./corpus-scope.js";
import type { Diagnostic } from "./diagnostic.js";
import { evaluate } from "./evaluate.js";
import { parseJsonConfig, parseNativeConfig } from "./parse.js";

/**
 * Every case of the terraform-generated corpus (testdata/corpus/<group>.json), in both
 * syntaxes: the native expression, and the JSON-syntax `value` of the same output in
 * <group>.tf.json. Each must give terraform's exact value and type, or an error with
 * terraform's summary and detail.
 */

interface Case {
  readonly expr: string;
  readonly value?: unknown;
  readonly type?: unknown;
  readonly sensitive?: boolean;
  readonly error?: { readonly summary: string; readonly detail: string };
  /** The JSON copy's outcome, where terraform gave a different one (a native parse error that JSON syntax does not have). */
  readonly json?: Omit<Case, "expr" | "json">;
}

const functionsAvailable = corpusFunctions() !== undefined;
const files = readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".tf.json"))
  .sort()
  .filter((f) => functionsAvailable || f.startsWith("syntax-"));

type Outcome = { value: unknown; type: unknown; sensitive: boolean } | { error: { summary: string; detail: string } };

function outcome(value: Value, diags: readonly Diagnostic[]): Outcome {
  const err = diags.find((d) => d.severity === "error");
  if (err !== undefined) return { error: { summary: err.summary, detail: withoutRanges(err.detail) } };
  const sensitive = value.containsMarked();
  const plain = value.unmarkDeep().value;
    // Through JSON.stringify as the corpus was written (an out-of-range float becomes null there too).
  // terraform writes an output that is unknown after apply as null (of its type).
  const json = plain.isWhollyKnown() ? (JSON.parse(JSON.stringify(JSON.parse(toJson(plain, plain.type)))) as unknown) : null;
  return { value: json, type: JSON.parse(typeToJson(plain.type)) as unknown, sensitive: sensitive && hasSensitive(value) };
}

function hasSensitive(v: Value): boolean {
  return v.unmarkDeep().paths.some((p) => p.marks.has(Mark.Sensitive));
}

/** Source ranges in messages (`main.tf:74,12-24`) depend on where the generator put the case. */
function withoutRanges(text: string): string {
  return text.replace(/[\w./-]+:\d+,\d+-\d+(,\d+)?/g, "<range>");
}

function expected(c: Case, got: Outcome): Outcome {
  if (c.error !== undefined) return { error: { summary: c.error.summary, detail: withoutRanges(c.error.detail) } };
  // Terraform keeps no null output in its state, so a null case records no type.
  const type = c.type === null && "type" in got ? got.type : c.type;
  return { value: c.value, type, sensitive: c.sensitive === true };
}

function normaliseType(t: unknown): unknown {
  return JSON.parse(JSON.stringify(t)) as unknown;
}

test("the corpus has syntax groups", () => {
  expect(files.length).toBeGreaterThanOrEqual(8);
});

describe.each(files)("%s", (file) => {
  const group = JSON.parse(readFileSync(join(CORPUS_DIR, file), "utf8")) as { group: string; cases: Case[] };
  const tfJson = readFileSync(join(CORPUS_DIR, file.replace(/\.json$/, ".tf.json")), "utf8");
  const parsedJson = parseJsonConfig(tfJson, `${group.group}.tf.json`);
  const outputs = new Map<string, Expression>();
  const { content } = parsedJson.body.content({ blocks: [{ type: "output", labelNames: ["name"] }] });
  for (const b of content.blocks) {
    const attrs = b.body.content({ attributes: [{ name: "value", required: true }] }).content.attributes;
    const v = attrs.get("value");
    if (v !== undefined) outputs.set(b.labels[0]!, v.expr);
  }
  const cases = group.cases.map((c, i) => [i, c] as const).filter(([, c]) => !CORPUS_KNOWN_DIFFERENCES.has(c.expr));

  test.each(cases)("native c%i", (i, c) => {
    // As terraform read it: the value of an output block (newlines and the closing brace matter to parse errors).
    const p = parseNativeConfig(`output "c${i}" {\n  value = ${c.expr}\n}\n`, "main.tf");
    let got: Outcome;
    if (p.diags.some((d) => d.severity === "error")) {
      got = outcome(dynamicVal, p.diags);
    } else {
      const value = p.body.blocks[0]!.body.content({ attributes: [{ name: "value", required: true }] }).content.attributes.get("value")!;
      const r = evaluate(value.expr, corpusScope());
      got = outcome(r.value, r.diags);
    }
    const want = expected(c, got);
    if ("type" in want) want.type = normaliseType(want.type);
    expect(got).toEqual(want);
  });

  test.each(cases)("json c%i", (i, c) => {
    const expr = outputs.get(`c${i}`);
    expect(expr).toBeDefined();
    const r = evaluate(expr!, corpusScope());
    const got = outcome(r.value, r.diags);
    const want = expected({ expr: c.expr, ...(c.json ?? c) }, got);
    if ("error" in want) {
      // The JSON copy must fail too; its wording can differ where the native syntax error is a parse error.
      expect("error" in got).toBe(true);
      return;
    }
    expect(got).toEqual(want);
  });
});

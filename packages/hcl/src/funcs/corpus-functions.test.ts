// Every function-group case of the terraform-generated corpus (testdata/corpus/*.json,
// except the syntax-* groups), evaluated with the function library through a small
// literal-and-call evaluator (test-support/mini-eval.ts): value, type, sensitivity and
// error summary and detail must be terraform's.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { toJson, typeToJson } from "@magma/cty";
import { fromMsgpack, toMsgpack } from "@magma/cty/msgpack";
import { CORPUS_KNOWN_DIFFERENCES } from "../corpus-scope.js";
import { terraformFunctions } from "./index.js";
import { parseExactJson } from "./test-support/exact-json.js";
import { Diagnostic, Unsupported, miniEval } from "./test-support/mini-eval.js";

interface Case {
  expr: string;
  value?: unknown;
  type?: unknown;
  sensitive?: boolean;
  error?: { summary: string; detail: string };
}

const corpusDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "testdata", "corpus");
const funcs = terraformFunctions({ baseDir: corpusDir });


function outcome(c: Case): unknown {
  try {
    const v = miniEval(c.expr, funcs);
    const plain = v.unmarkDeep();
    // terraform writes an output that is unknown after apply as null (of its type), and a known
    // one as the plan's msgpack gave it back (where -0 became 0).
    const t = plain.value.type;
    const out: Record<string, unknown> = {
      value: plain.value.isKnown() ? parseExactJson(toJson(fromMsgpack(toMsgpack(plain.value, t), t), t)) : null,
      type: JSON.parse(typeToJson(plain.value.type)),
    };
    if (plain.paths.length > 0) out.sensitive = true;
    return out;
  } catch (e) {
    if (e instanceof Diagnostic) return { error: { summary: e.summary, detail: e.detail } };
    if (e instanceof Unsupported) return "unsupported";
    return { thrown: String(e) };
  }
}

const groups = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".tf.json") && !f.startsWith("syntax-"))
  .map((f) => f.slice(0, -5));

describe.each(groups)("corpus group %s", (group) => {
  // Numbers stay exact text on both sides (state values can have 150+ digits).
  const { cases } = parseExactJson(readFileSync(join(corpusDir, `${group}.json`), "utf8")) as { cases: Case[] };
  const runnable = cases.filter((c) => !CORPUS_KNOWN_DIFFERENCES.has(c.expr));
  it.each(runnable.map((c) => [c.expr, c] as const))("%s", (_expr, c) => {
    const got = outcome(c);
    // Every case must be within the small evaluator's reach.
    expect(got).not.toBe("unsupported");
    const want = c.error !== undefined ? { error: c.error } : { value: c.value, type: c.type, ...(c.sensitive === true ? { sensitive: true } : {}) };
    expect(got).toEqual(want);
  });
});

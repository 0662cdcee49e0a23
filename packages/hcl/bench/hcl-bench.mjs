#!/usr/bin/env node
// `pnpm bench` for @magma/hcl: a generated configuration of 5,000 resources in both syntaxes.
//  - parse the native copy: parseConfig vs @cdktf/hcl2json (HCL's Go parser compiled to WASM);
//  - parse the JSON copy and decode it against the resource schema: parseConfig vs JSON.parse;
//  - evaluate every attribute expression of the native copy (reported against the parse time);
//  - the function rows of functions-bench.mjs (linear grapheme work, fileset, named pipes).
// Writes bench/results.json in the format of the other packages' benchmarks.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse as hcl2json } from "@cdktf/hcl2json";
import { listVal, numberType, numberVal, objectVal, stringType, stringVal } from "@magma/cty";
import { evaluate, parseConfig } from "../dist/index.js";
import { functionRows } from "./functions-bench.mjs";
import { jsonConfig, nativeConfig } from "./generate-config.mjs";

const RESOURCES = Number(process.env.MAGMA_BENCH_RESOURCES ?? 5000);
const ITERATIONS = Number(process.env.MAGMA_BENCH_ITERATIONS ?? 7);
const here = dirname(fileURLToPath(import.meta.url));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn) {
  for (let i = 0; i < 2; i++) await fn(); // warm-up (the WASM module loads on the first call)
  const runs = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const native = nativeConfig(RESOURCES);
const json = jsonConfig(RESOURCES);
console.log(`configuration: ${RESOURCES} resources, ${(native.length / 1e6).toFixed(2)} MB native, ${(json.length / 1e6).toFixed(2)} MB JSON; ${ITERATIONS} timed runs each, median`);

const schema = { blocks: [{ type: "resource", labelNames: ["type", "name"] }, { type: "variable", labelNames: ["name"] }] };
const resourceSchema = {
  attributes: ["ami", "instance_type", "subnet_id", "count", "tags", "security_groups", "user_data", "depends_on"].map((name) => ({ name })),
  blocks: [{ type: "lifecycle" }],
};

/** Parses and decodes every resource body (JSON bodies need the schema to know their blocks). */
function decode(text, filename) {
  const { body, diags } = parseConfig(text, filename);
  if (diags.length > 0) throw new Error(`${filename}: ${diags[0].summary}: ${diags[0].detail}`);
  const { content, diags: cd } = body.content(schema);
  if (cd.length > 0) throw new Error(`${filename}: ${cd[0].summary}: ${cd[0].detail}`);
  const attrs = [];
  for (const b of content.blocks) {
    if (b.type !== "resource") continue;
    const r = b.body.content(resourceSchema);
    if (r.diags.length > 0) throw new Error(`${filename}: ${r.diags[0].summary}: ${r.diags[0].detail}`);
    for (const a of r.content.attributes.values()) attrs.push(a);
  }
  if (attrs.length !== RESOURCES * 8) throw new Error(`${filename}: expected ${RESOURCES * 8} attributes, found ${attrs.length}`);
  return attrs;
}

// The functions the configuration calls (Terraform's built-ins are not this benchmark's subject).
const fn = (params, type, impl) => ({ description: "bench", params, type: () => type, impl });
const functions = new Map([
  ["upper", fn([{ name: "str", type: stringType }], stringType, (a) => stringVal(a[0].asString().toUpperCase()))],
  ["length", fn([{ name: "value", type: listVal([stringVal("x")]).type }], numberType, (a) => numberVal(a[0].length()))],
]);
const scope = {
  variables: {
    var: objectVal({
      ami: stringVal("ami-0123456789"),
      env: stringVal("prod"),
      zones: listVal([stringVal("a"), stringVal("b")]),
      sgs: listVal([stringVal("sg-1"), stringVal(""), stringVal("sg-2")]),
    }),
    aws_subnet: objectVal({ main: listVal(Array.from({ length: 8 }, (_, i) => objectVal({ id: stringVal(`subnet-${i}`) }))) }),
    aws_vpc: objectVal({ main: objectVal({ id: stringVal("vpc-1") }) }),
  },
  functions,
};

const nativeAttrs = decode(native, "main.tf");
const jsonAttrs = decode(json, "main.tf.json");
const baselineTree = await hcl2json("main.tf", native);
if (Object.keys(baselineTree.resource.aws_instance).length !== RESOURCES) throw new Error("hcl2json parse failed");
for (const attrs of [nativeAttrs, jsonAttrs]) {
  for (const a of attrs) {
    if (a.name === "depends_on") continue;
    const r = evaluate(a.expr, scope);
    if (r.diags.length > 0) throw new Error(`${a.name}: ${r.diags[0].summary}: ${r.diags[0].detail}`);
  }
}

const parseNative = await time(() => decode(native, "main.tf"));
const parseNativeBase = await time(() => hcl2json("main.tf", native));
const parseJson = await time(() => decode(json, "main.tf.json"));
const parseJsonBase = await time(() => JSON.parse(json));
const evalAll = await time(() => {
  for (const a of nativeAttrs) if (a.name !== "depends_on") evaluate(a.expr, scope);
});

const results = [
  { name: `native syntax: parseConfig + decode vs @cdktf/hcl2json parse (${RESOURCES} resources, median time)`, value: parseNative, baseline: parseNativeBase, target: 0.5 },
  { name: `JSON syntax: parseConfig + decode vs JSON.parse (${RESOURCES} resources, median time)`, value: parseJson, baseline: parseJsonBase, target: null },
  { name: `evaluate every expression (${RESOURCES * 7} attributes, native) vs parsing them (median time)`, value: evalAll, baseline: parseNative, target: null },
  ...functionRows(ITERATIONS),
].map((r) => ({
  name: r.name,
  value: Number(r.value.toFixed(2)),
  unit: "ms",
  baseline: Number(r.baseline.toFixed(2)),
  ratio: Number((r.value / r.baseline).toFixed(3)),
  target: r.target,
}));

for (const r of results) {
  const ok = r.target === null || r.ratio <= r.target;
  console.log(`${ok ? "ok  " : "MISS"} ${r.name}: ${r.value} ms vs baseline ${r.baseline} ms, ratio ${r.ratio}${r.target !== null ? ` (target <= ${r.target})` : ""}`);
}
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");

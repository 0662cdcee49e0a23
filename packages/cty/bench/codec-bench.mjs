#!/usr/bin/env node
// Benchmark of the msgpack codec against @msgpack/msgpack on the same bytes.
//
// Builds a large, plan-like value (20,000 objects of 12 attributes: strings, numbers, bools,
// a tags map(string), a list(string), a nested list of objects, some nulls and unknowns),
// encodes it once, then times typed decode (fromMsgpack) against @msgpack/msgpack `decode` of
// the same bytes, and typed encode (toMsgpack) against @msgpack/msgpack `encode` of the same
// data as plain JS. Prints throughput and ratios (magma / baseline time, lower is better),
// writes bench/results.json, and exits non-zero when a ratio misses its target.
//
// Imports the built package: run `pnpm --filter @magma/cty build` first (the root
// `pnpm bench` does). Options: MAGMA_BENCH_ITERATIONS (default 11), MAGMA_BENCH_OBJECTS
// (default 20000). Where Go is present, go-cty's codec is timed on the same bytes (go/main.go,
// built with Debian's go and go-cty under GO111MODULE=off GOPATH=/usr/share/gocode) and
// reported without a target; otherwise that comparison is skipped with a note.
import { decode, encode } from "@msgpack/msgpack";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as cty from "../dist/index.js";
import { buildPlanValue } from "./plan-value.mjs";

const { fromMsgpack, toMsgpack, typeToJson } = cty;

const TARGET = 2.0;
const ITERATIONS = Number(process.env.MAGMA_BENCH_ITERATIONS ?? 11);
const OBJECTS = Number(process.env.MAGMA_BENCH_OBJECTS ?? 20000);
const here = dirname(fileURLToPath(import.meta.url));

const { value: builtValue, type: planType } = buildPlanValue(cty, OBJECTS);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn) {
  for (let i = 0; i < 3; i++) fn(); // warm-up
  const runs = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

const value = builtValue;
const bytes = toMsgpack(value, planType);
const plain = decode(bytes);
// Sanity: both decoders read the same bytes, and the codec round-trips.
if (!fromMsgpack(bytes, planType).rawEquals(value)) throw new Error("round trip failed");
if (!Array.isArray(plain) || plain.length !== OBJECTS) throw new Error("baseline decode failed");
const mb = bytes.length / 1e6;
console.log(`value: ${OBJECTS} objects, ${bytes.length} bytes of msgpack; ${ITERATIONS} timed runs each, median`);

let sink = 0;
const decodeMagma = time(() => {
  sink += fromMsgpack(bytes, planType).length();
});
const decodeBase = time(() => {
  sink += decode(bytes).length;
});
const encodeMagma = time(() => {
  sink += toMsgpack(value, planType).length;
});
const encodeBase = time(() => {
  sink += encode(plain).length;
});
if (sink === 0) throw new Error("unreachable");

const results = [
  { name: "msgpack decode: fromMsgpack vs @msgpack/msgpack decode (median time)", value: decodeMagma, baseline: decodeBase },
  { name: "msgpack encode: toMsgpack vs @msgpack/msgpack encode (median time)", value: encodeMagma, baseline: encodeBase },
].map((r) => ({
  name: r.name,
  value: Number(r.value.toFixed(2)),
  unit: "ms",
  baseline: Number(r.baseline.toFixed(2)),
  ratio: Number((r.value / r.baseline).toFixed(3)),
  target: TARGET,
}));

// go-cty (Debian's golang-github-zclconf-go-cty-dev) on the very same bytes, where Go is
// present: reported beside the @msgpack/msgpack baseline, without a target.
const goOnPath = (process.env.PATH ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, "go")));
if (!goOnPath || !existsSync("/usr/share/gocode/src/github.com/zclconf/go-cty/cty/msgpack")) {
  console.log("note: go-cty comparison skipped (needs `go` on PATH and go-cty in /usr/share/gocode)");
} else {
  const tmp = mkdtempSync(join(tmpdir(), "magma-go-cty-"));
  try {
    writeFileSync(join(tmp, "type.json"), typeToJson(planType));
    writeFileSync(join(tmp, "value.msgpack"), bytes);
    const env = { ...process.env, GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOCACHE: process.env.GOCACHE ?? join(tmp, "gocache") };
    const build = spawnSync("go", ["build", "-o", join(tmp, "ctybench"), join(here, "go", "main.go")], { env, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`go build failed: ${build.stderr}`);
    const ran = spawnSync(join(tmp, "ctybench"), [join(tmp, "type.json"), join(tmp, "value.msgpack"), String(ITERATIONS)], { encoding: "utf8" });
    if (ran.status !== 0) throw new Error(`go-cty bench failed: ${ran.stderr}`);
    const go = JSON.parse(ran.stdout);
    if (go.elements !== OBJECTS) throw new Error(`go-cty decoded ${go.elements} elements, expected ${OBJECTS}`);
    for (const [what, magma, base] of [["decode", decodeMagma, go.decodeMs], ["encode", encodeMagma, go.encodeMs]]) {
      results.push({
        name: `msgpack ${what}: magma vs go-cty ${what === "decode" ? "msgpack.Unmarshal" : "msgpack.Marshal"} (Debian go, same bytes, median time)`,
        value: Number(magma.toFixed(2)),
        unit: "ms",
        baseline: Number(base.toFixed(2)),
        ratio: Number((magma / base).toFixed(3)),
        target: null,
      });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

let missed = 0;
for (const r of results) {
  const ok = r.target === null || r.ratio <= r.target;
  if (!ok) missed++;
  console.log(
    `${ok ? "ok  " : "MISS"} ${r.name}: magma ${r.value} ms (${(mb / (r.value / 1000)).toFixed(1)} MB/s), ` +
      `baseline ${r.baseline} ms (${(mb / (r.baseline / 1000)).toFixed(1)} MB/s), ratio ${r.ratio}` +
      (r.target === null ? " (reported)" : ` (target <= ${r.target})`),
  );
}
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");
process.exit(missed === 0 ? 0 : 1);

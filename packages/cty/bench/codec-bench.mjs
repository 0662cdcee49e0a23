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
// (default 20000).
import { decode, encode } from "@msgpack/msgpack";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  boolVal,
  fromMsgpack,
  listType,
  listVal,
  listValEmpty,
  mapType,
  mapVal,
  nullVal,
  numberType,
  numberVal,
  objectType,
  objectVal,
  stringType,
  stringVal,
  toMsgpack,
  unknownVal,
  boolType,
} from "../dist/index.js";

const TARGET = 2.0;
const ITERATIONS = Number(process.env.MAGMA_BENCH_ITERATIONS ?? 11);
const OBJECTS = Number(process.env.MAGMA_BENCH_OBJECTS ?? 20000);
const here = dirname(fileURLToPath(import.meta.url));

const ruleType = objectType({
  from_port: numberType,
  to_port: numberType,
  protocol: stringType,
  cidr_blocks: listType(stringType),
});
const resourceType = objectType({
  id: stringType,
  arn: stringType,
  name: stringType,
  description: stringType,
  instance_count: numberType,
  cpu_ratio: numberType,
  enabled: boolType,
  private_ip: stringType,
  tags: mapType(stringType),
  security_groups: listType(stringType),
  ingress: listType(ruleType),
  volume_size: numberType,
});
const planType = listType(resourceType);

function hexId(i, width) {
  return (i * 2654435761 >>> 0).toString(16).padStart(width, "0");
}

function buildValue(n) {
  const objects = [];
  for (let i = 0; i < n; i++) {
    const id = `i-${hexId(i, 8)}${hexId(i + 7, 9)}`;
    const tags = { Name: `web-${i}`, Environment: i % 2 === 0 ? "production" : "staging", Team: `team-${i % 17}` };
    if (i % 4 === 0) tags.CostCenter = `cc-${1000 + (i % 97)}`;
    const rules = [];
    for (let r = 0; r < 2; r++) {
      rules.push(
        objectVal({
          from_port: numberVal(r === 0 ? 443 : 8000 + (i % 100)),
          to_port: numberVal(r === 0 ? 443 : 8100 + (i % 100)),
          protocol: stringVal(r === 0 ? "tcp" : "udp"),
          cidr_blocks: r === 0 ? listVal([stringVal("10.0.0.0/16"), stringVal(`10.${i % 256}.0.0/24`)]) : listValEmpty(stringType),
        }),
      );
    }
    objects.push(
      objectVal({
        id: stringVal(id),
        arn: stringVal(`arn:aws:ec2:eu-west-1:123456789012:instance/${id}`),
        name: stringVal(`web-server-${i}`),
        description: i % 3 === 0 ? nullVal(stringType) : stringVal(`Web server number ${i} for the ${i % 2 === 0 ? "production" : "staging"} fleet`),
        instance_count: numberVal(i % 50),
        cpu_ratio: numberVal(0.25 + (i % 8) * 0.5),
        enabled: boolVal(i % 5 !== 0),
        private_ip: i % 5 === 0 ? unknownVal(stringType) : stringVal(`10.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`),
        tags: mapVal(Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, stringVal(v)]))),
        security_groups: listVal([stringVal(`sg-${hexId(i, 8)}`), stringVal(`sg-${hexId(i + 1, 8)}`)]),
        ingress: listVal(rules),
        volume_size: i % 7 === 0 ? unknownVal(numberType, { notNull: true }) : numberVal(8 + (i % 120) * 10),
      }),
    );
  }
  return listVal(objects);
}

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

const value = buildValue(OBJECTS);
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

let missed = 0;
for (const r of results) {
  const ok = r.ratio <= r.target;
  if (!ok) missed++;
  console.log(
    `${ok ? "ok  " : "MISS"} ${r.name}: magma ${r.value} ms (${(mb / (r.value / 1000)).toFixed(1)} MB/s), ` +
      `baseline ${r.baseline} ms (${(mb / (r.baseline / 1000)).toFixed(1)} MB/s), ratio ${r.ratio} (target <= ${r.target})`,
  );
}
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");
process.exit(missed === 0 ? 0 : 1);

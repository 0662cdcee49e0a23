#!/usr/bin/env node
// Benchmark of the state file codec against JSON.parse / JSON.stringify of the same bytes.
//
// Builds a terraform.tfstate of 10,000 resource instances (1,000 resources of 10 instances,
// count and for_each keys, some in modules; attributes of about 20 values each: strings with
// HTML characters, numbers, bools, nulls, a tags map, a list of nested objects; sensitive
// paths, dependencies, private data) in Terraform's exact format, then times:
//   read:  readStateFile(bytes) vs JSON.parse(UTF-8 decode of the bytes, Buffer#toString)
//   write: writeStateFile(state) vs UTF-8 encode of JSON.stringify(parsed, null, 2)
// readStateFile validates everything and keeps attributes as raw JSON; writeStateFile sorts and
// re-indents as Go does. Prints ratios (magma / baseline time, lower is better), writes
// bench/results.json, and exits non-zero when a ratio misses its target.
//
// Imports the built package: run `pnpm --filter @magma/state build` first (the root
// `pnpm bench` does). Options: MAGMA_BENCH_ITERATIONS (default 15), MAGMA_BENCH_INSTANCES
// (default 10000).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { readStateFile, writeStateFile } from "../dist/index.js";

const TARGET = 1.5;
const ITERATIONS = Number(process.env.MAGMA_BENCH_ITERATIONS ?? 15);
const INSTANCES = Number(process.env.MAGMA_BENCH_INSTANCES ?? 10000);
const PER_RESOURCE = 10;
const here = dirname(fileURLToPath(import.meta.url));

function hexId(i, width) {
  return ((i * 2654435761) >>> 0).toString(16).padStart(width, "0");
}

function attributes(i) {
  return {
    arn: `arn:aws:ec2:us-east-1:123456789012:instance/i-${hexId(i, 17)}`,
    id: `i-${hexId(i, 17)}`,
    ami: "ami-0c55b159cbfafe1f0",
    instance_type: i % 3 === 0 ? "t3.micro" : "m5.large",
    cpu_core_count: 2 + (i % 4),
    cpu_ratio: 0.25 * (i % 7),
    ebs_optimized: i % 2 === 0,
    monitoring: null,
    private_ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    user_data: i % 5 === 0 ? "#!/bin/sh\necho \"<hello & welcome>\" > /tmp/x\n" : null,
    tags: { Name: `web-${i}`, Environment: i % 2 === 0 ? "production" : "staging", Team: `team-${i % 17}` },
    security_groups: [`sg-${hexId(i, 8)}`, `sg-${hexId(i + 1, 8)}`],
    root_block_device: [{ volume_size: 8 + (i % 100), volume_type: "gp3", encrypted: true, iops: 3000, throughput: 125, tags: {} }],
    ingress: [
      { from_port: 443, to_port: 443, protocol: "tcp", cidr_blocks: ["0.0.0.0/0"], description: "https" },
      { from_port: 22, to_port: 22, protocol: "tcp", cidr_blocks: ["10.0.0.0/8"], description: "ssh" },
    ],
    timeouts: null,
  };
}

function buildStateText(n) {
  const resources = [];
  for (let r = 0; r * PER_RESOURCE < n; r++) {
    const forEach = r % 2 === 1;
    const instances = [];
    for (let k = 0; k < PER_RESOURCE && r * PER_RESOURCE + k < n; k++) {
      const i = r * PER_RESOURCE + k;
      const inst = { index_key: forEach ? `key-${k}` : k, schema_version: 1, attributes: attributes(i), sensitive_attributes: i % 4 === 0 ? [[{ type: "get_attr", value: "user_data" }]] : [] };
      if (i % 3 === 0) inst.private = Buffer.from(`{"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0":{"create":600000000000},"schema_version":"${i % 2}"}`).toString("base64");
      if (r > 0) inst.dependencies = [`aws_security_group.sg_${r - 1}`];
      instances.push(inst);
    }
    const res = { mode: "managed", type: r % 5 === 0 ? "aws_security_group" : "aws_instance", name: `r_${String(r).padStart(5, "0")}`, provider: 'provider["registry.terraform.io/hashicorp/aws"]', instances };
    resources.push(r % 10 === 9 ? { module: `module.app["m${r % 3}"]`, ...res } : res);
  }
  const state = { version: 4, terraform_version: "1.11.4", serial: 42, lineage: "8899ddc8-7757-3bc6-d2c2-0f9cff1404e5", outputs: { ids: { value: ["a", "b"], type: ["list", "string"] } }, resources, check_results: null };
  // Normalise through the codec once, so the input is exactly what Terraform would have written.
  return writeStateFile(readStateFile(JSON.stringify(state)));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const r3 = (x) => Math.round(x * 1000) / 1000;

function time(fn) {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const bytes = buildStateText(INSTANCES);
if (process.env.MAGMA_BENCH_DUMP) writeFileSync(process.env.MAGMA_BENCH_DUMP, bytes);
// The fastest UTF-8 decode Node has (readStateFile uses the same).
const decoder = { decode: (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8") };
const encoder = new TextEncoder();
const parsed = JSON.parse(decoder.decode(bytes));
const file = readStateFile(bytes);
const count = file.resources.reduce((n, r) => n + r.instances.length, 0);
// The codec round-trips its input byte for byte.
if (Buffer.compare(Buffer.from(writeStateFile(file)), Buffer.from(bytes)) !== 0) throw new Error("round trip changed the bytes");
console.log(`state of ${count} instances, ${(bytes.length / 1e6).toFixed(1)} MB; ${ITERATIONS} interleaved iterations, median`);

const readM = [], readB = [], writeM = [], writeB = [];
for (let i = 0; i < 3; i++) {
  readStateFile(bytes);
  JSON.parse(decoder.decode(bytes));
  writeStateFile(file);
  encoder.encode(JSON.stringify(parsed, null, 2));
}
for (let i = 0; i < ITERATIONS; i++) {
  readM.push(time(() => readStateFile(bytes)));
  readB.push(time(() => JSON.parse(decoder.decode(bytes))));
  writeM.push(time(() => writeStateFile(file)));
  writeB.push(time(() => encoder.encode(JSON.stringify(parsed, null, 2))));
}

const results = [];
let missed = 0;
function record(name, value, baseline, target) {
  const ratio = value / baseline;
  const ok = ratio <= target;
  if (!ok) missed++;
  results.push({ name, value: r3(value), unit: "ms", baseline: r3(baseline), ratio: r3(ratio), target });
  console.log(`${ok ? "ok  " : "MISS"} ${name}: magma ${value.toFixed(1)} ms, baseline ${baseline.toFixed(1)} ms, ratio ${ratio.toFixed(3)} (target <= ${target})`);
}
record(`read a ${count}-instance state: readStateFile vs JSON.parse of the same bytes`, median(readM), median(readB), TARGET);
record(`write a ${count}-instance state: writeStateFile vs JSON.stringify(…, null, 2) of the same data`, median(writeM), median(writeB), TARGET);
// The Postgres round trip of a 10,000-instance state (reported, no target): bench/pg-bench.mjs.
const { pgBenchFigures } = await import("./pg-bench.mjs");
for (const r of await pgBenchFigures()) {
  results.push(r);
  console.log(`     ${r.name}: ${r.value} ms, baseline ${r.baseline} ms, ratio ${r.ratio} (reported)`);
}
writeFileSync(join(here, "results.json"), JSON.stringify(results, null, 2) + "\n");
process.exit(missed === 0 ? 0 : 1);

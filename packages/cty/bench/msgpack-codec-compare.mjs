#!/usr/bin/env node
// The msgpack codec decision, re-measurable (docs/compatibility.md, "The msgpack codec"):
// cty's hand-written msgpack codec against the same codec with its byte layer on
// @msgpack/msgpack (bench/library-codec: the library's Encoder/Decoder with an
// ExtensionCodec for unknowns, ext 0, and refinements, ext 12).
//
// 1. Compiles src/ and bench/library-codec/ together (tsc, into node_modules/.cache), so
//    both codecs share one copy of cty.
// 2. Checks that both give the same bytes for the benchmark values, and the same bytes or
//    the same error (code, path) for every go-cty golden vector (testdata), listing any
//    vector where they differ.
// 3. Times, in separate processes interleaved A/B/B/A over ROUNDS rounds (the machine may be
//    shared: per-process medians, then the median over rounds and its spread):
//    - plan:  codec-bench's value (bench/plan-value.mjs, OBJECTS objects): encode, decode;
//    - call:  the per-call path: one config/state object of a typical resource (40-odd
//             attributes, nested blocks, tags, nulls, unknowns), encode + decode, CALLS times.
//    The schema reply (GetSchema) holds no msgpack; it does not touch either codec.
// 4. With CALLGRIND=1 and valgrind on PATH, counts instructions (deterministic) of each
//    workload in a smaller size, minus the same process doing the setup only.
//
// Options (environment): ROUNDS (default 6), OBJECTS (20000), CALLS (2000), ITERATIONS
// per process (7), CALLGRIND (0/1).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildPlanValue } from "./plan-value.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "..");
const out = join(pkg, "node_modules", ".cache", "msgpack-codec-compare");
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const OBJECTS = Number(process.env.OBJECTS ?? 20000);
const CALLS = Number(process.env.CALLS ?? 2000);
const ITERATIONS = Number(process.env.ITERATIONS ?? 7);

async function load() {
  const cty = await import(join(out, "src", "index.js"));
  const lib = await import(join(out, "bench", "library-codec", "index.js"));
  return {
    cty,
    codecs: {
      hand: { encode: cty.toMsgpack, decode: cty.fromMsgpack },
      library: { encode: lib.toMsgpackLibrary, decode: lib.fromMsgpackLibrary },
    },
  };
}

/** A typical resource's config/state object: the per-call path (PlanResourceChange and friends). */
function callValue(cty) {
  const { objectType, listType, setType, mapType, stringType, numberType, boolType } = cty;
  const { objectVal, listVal, setVal, mapVal, stringVal, numberVal, boolVal, nullVal, unknownVal, listValEmpty, setValEmpty } = cty;
  const ebs = objectType({
    delete_on_termination: boolType, device_name: stringType, encrypted: boolType, iops: numberType,
    kms_key_id: stringType, snapshot_id: stringType, tags: mapType(stringType), throughput: numberType,
    volume_id: stringType, volume_size: numberType, volume_type: stringType,
  });
  const attrs = {
    ami: stringType, arn: stringType, associate_public_ip_address: boolType, availability_zone: stringType,
    cpu_core_count: numberType, cpu_threads_per_core: numberType, disable_api_stop: boolType,
    disable_api_termination: boolType, ebs_optimized: boolType, get_password_data: boolType,
    hibernation: boolType, host_id: stringType, iam_instance_profile: stringType, id: stringType,
    instance_initiated_shutdown_behavior: stringType, instance_state: stringType, instance_type: stringType,
    ipv6_address_count: numberType, ipv6_addresses: listType(stringType), key_name: stringType,
    monitoring: boolType, outpost_arn: stringType, password_data: stringType, placement_group: stringType,
    primary_network_interface_id: stringType, private_dns: stringType, private_ip: stringType,
    public_dns: stringType, public_ip: stringType, secondary_private_ips: setType(stringType),
    security_groups: setType(stringType), source_dest_check: boolType, subnet_id: stringType,
    tags: mapType(stringType), tags_all: mapType(stringType), tenancy: stringType, user_data: stringType,
    user_data_replace_on_change: boolType, vpc_security_group_ids: setType(stringType),
    ebs_block_device: setType(ebs), root_block_device: listType(ebs),
  };
  const type = objectType(attrs);
  const tags = mapVal({ Name: stringVal("web-1"), Environment: stringVal("production"), Team: stringVal("platform") });
  const vol = (name, size) =>
    objectVal({
      delete_on_termination: boolVal(true), device_name: stringVal(name), encrypted: boolVal(false), iops: numberVal(3000),
      kms_key_id: stringVal(""), snapshot_id: stringVal(""), tags: mapVal({ Name: stringVal(`vol-${name}`) }), throughput: numberVal(125),
      volume_id: unknownVal(stringType), volume_size: numberVal(size), volume_type: stringVal("gp3"),
    });
  const v = {};
  for (const [k, t] of Object.entries(attrs)) v[k] = nullVal(t);
  Object.assign(v, {
    ami: stringVal("ami-0c55b159cbfafe1f0"), arn: unknownVal(stringType, { notNull: true, stringPrefix: "arn:aws:ec2:" }),
    associate_public_ip_address: boolVal(true), availability_zone: stringVal("eu-west-1a"), cpu_core_count: unknownVal(numberType),
    ebs_optimized: boolVal(false), id: unknownVal(stringType), instance_type: stringVal("t3.micro"),
    ipv6_addresses: unknownVal(listType(stringType)), key_name: stringVal("deployer"), monitoring: boolVal(false),
    private_ip: unknownVal(stringType), public_ip: unknownVal(stringType), security_groups: setValEmpty(stringType),
    source_dest_check: boolVal(true), subnet_id: stringVal("subnet-0bb1c79de3EXAMPLE"), tags, tags_all: tags,
    tenancy: stringVal("default"), user_data: stringVal("#!/bin/bash\necho hello > /tmp/hello\n"),
    user_data_replace_on_change: boolVal(false),
    vpc_security_group_ids: setVal([stringVal("sg-0123456789abcdef0"), stringVal("sg-0fedcba9876543210")]),
    ebs_block_device: setVal([vol("/dev/sdb", 100), vol("/dev/sdc", 200)]), root_block_device: listVal([vol("/dev/xvda", 8)]),
    secondary_private_ips: setValEmpty(stringType), hibernation: boolVal(false), ipv6_address_count: numberVal(0),
  });
  void listValEmpty;
  return { value: objectVal(v), type };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Workloads: name -> setup(cty, codec) returning the function to time. */
const WORKLOADS = {
  "plan encode": (cty, c, n) => {
    const { value, type } = buildPlanValue(cty, n ?? OBJECTS);
    return () => c.encode(value, type).length;
  },
  "plan decode": (cty, c, n) => {
    const { value, type } = buildPlanValue(cty, n ?? OBJECTS);
    const bytes = cty.toMsgpack(value, type);
    return () => c.decode(bytes, type).length();
  },
  "call encode+decode": (cty, c, n) => {
    const { value, type } = callValue(cty);
    const calls = n ?? CALLS;
    return () => {
      let s = 0;
      for (let i = 0; i < calls; i++) s += c.decode(c.encode(value, type), type).isKnown() ? 1 : 0;
      return s;
    };
  },
};

// ------------------------------------------------------------------ child: one measurement
if (process.argv[2] === "--child") {
  const [, , , codec, workload, mode, size] = process.argv;
  const { cty, codecs } = await load();
  const fn = WORKLOADS[workload](cty, codecs[codec], size === undefined ? undefined : Number(size));
  let sink = 0;
  if (mode === "time") {
    for (let i = 0; i < 3; i++) sink += fn();
    const runs = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const t0 = performance.now();
      sink += fn();
      runs.push(performance.now() - t0);
    }
    console.log(JSON.stringify({ ms: median(runs), sink }));
  } else if (mode === "count") {
    for (let i = 0; i < 3; i++) sink += fn();
    console.log(JSON.stringify({ sink }));
  } else {
    console.log(JSON.stringify({ setupOnly: true }));
  }
  process.exit(0);
}

// ------------------------------------------------------------------ parent
const built = spawnSync("npx", ["tsc", "-p", join(here, "tsconfig.compare.json")], { cwd: pkg, encoding: "utf8" });
if (built.status !== 0) throw new Error(`tsc failed:\n${built.stdout}${built.stderr}`);
const { cty, codecs } = await load();

// Same bytes and same errors.
const hex = (b) => Buffer.from(b).toString("hex");
const outcome = (f) => {
  try {
    return { ok: hex(f()) };
  } catch (e) {
    if (e?.code === undefined) throw e;
    return { code: e.code, path: e.path.toString() };
  }
};
for (const [name, { value, type }] of [["plan", buildPlanValue(cty, 2000)], ["call", callValue(cty)]]) {
  const a = hex(codecs.hand.encode(value, type));
  const b = hex(codecs.library.encode(value, type));
  if (a !== b) throw new Error(`${name}: the codecs write different bytes`);
  if (!codecs.library.decode(Buffer.from(b, "hex"), type).rawEquals(codecs.hand.decode(Buffer.from(a, "hex"), type))) {
    throw new Error(`${name}: the codecs read different values`);
  }
}
const vectors = JSON.parse(readFileSync(join(pkg, "testdata", "go-cty-vectors.json"), "utf8"));
const differ = [];
let checked = 0;
for (const v of [...vectors.values.filter((x) => x.msgpack !== undefined), ...vectors.msgpackDecode]) {
  const type = cty.typeFromJsonValue(v.type);
  const input = new Uint8Array(Buffer.from(v.msgpack ?? v.input, "hex"));
  const run = (c) => outcome(() => c.encode(c.decode(input, type), type));
  const a = JSON.stringify(run(codecs.hand));
  const b = JSON.stringify(run(codecs.library));
  checked++;
  if (a !== b) differ.push(`  ${v.name}: hand-written ${a}, library ${b}`);
}
console.log(`golden vectors: ${checked} decoded and re-encoded by both; ${differ.length} differ${differ.length ? ":" : ""}`);
for (const d of differ) console.log(d);

// Interleaved timing.
const nodeArgs = [fileURLToPath(import.meta.url), "--child"];
function child(codec, workload, mode, size) {
  const r = spawnSync(process.execPath, [...nodeArgs, codec, workload, mode, ...(size === undefined ? [] : [String(size)])], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`child ${codec} ${workload} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
if (ROUNDS > 0) console.log(`\ntiming: ${ROUNDS} rounds, A/B order alternating, one process per run (${ITERATIONS} timed iterations, median); load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const summary = [];
for (const workload of ROUNDS > 0 ? Object.keys(WORKLOADS) : []) {
  const t = { hand: [], library: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["hand", "library"] : ["library", "hand"];
    for (const c of order) t[c].push(child(c, workload, "time").ms);
  }
  const mh = median(t.hand);
  const ml = median(t.library);
  const spread = (xs) => `${Math.min(...xs).toFixed(1)}..${Math.max(...xs).toFixed(1)}`;
  const ratios = t.hand.map((h, i) => t.library[i] / h);
  summary.push({ workload, handMs: mh, libraryMs: ml, ratio: ml / mh, ratioRange: [Math.min(...ratios), Math.max(...ratios)] });
  console.log(
    `${workload}: hand-written ${mh.toFixed(2)} ms (runs ${spread(t.hand)}), library ${ml.toFixed(2)} ms (runs ${spread(t.library)}); ` +
      `library/hand ${(ml / mh).toFixed(2)} (per-round ratios ${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)})`,
  );
}

// Instruction counts (deterministic), where valgrind is present.
if (process.env.CALLGRIND === "1") {
  const which = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
  if (which.status !== 0) {
    console.log("callgrind: skipped (no valgrind)");
  } else {
    const sizes = { "plan encode": 2000, "plan decode": 2000, "call encode+decode": 200 };
    const count = (codec, workload, mode) => {
      const r = spawnSync(
        "valgrind",
        ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, ...nodeArgs, codec, workload, mode, String(sizes[workload])],
        { encoding: "utf8", maxBuffer: 64 << 20 },
      );
      const m = /Collected : (\d+)/.exec(r.stderr);
      if (r.status !== 0 || m === null) throw new Error(`callgrind ${codec} ${workload} failed: ${r.stderr.slice(-2000)}`);
      return Number(m[1]);
    };
    console.log(`\ncallgrind instructions (3 runs of each workload at the size given, minus setup only):`);
    for (const workload of Object.keys(WORKLOADS)) {
      const res = {};
      for (const c of ["hand", "library"]) res[c] = count(c, workload, "count") - count(c, workload, "setup");
      console.log(`${workload} (size ${sizes[workload]}): hand-written ${(res.hand / 1e6).toFixed(1)} M, library ${(res.library / 1e6).toFixed(1)} M; library/hand ${(res.library / res.hand).toFixed(2)}`);
    }
  }
}

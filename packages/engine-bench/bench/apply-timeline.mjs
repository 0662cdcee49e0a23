#!/usr/bin/env node
// Where case 1's apply walk spends its time (issue 21): starts @magma/fake-aws, writes case 1's
// configuration (MAGMA_BENCH_CHAINS × MAGMA_BENCH_CHAIN_LENGTH aws_ssm_parameter, default 10 × 10),
// and runs `node apply-timeline.mjs --child <dir>` <runs> times (default 3; a destroy, untimed,
// after each). The child does what magma-worker.mjs's `apply` does (providers launched first,
// plan, engine.apply with saveState after every object) and records a timeline: every provider
// call (its duration), every apply_start / apply_complete event, every state write (its wall time
// and the objects it held). Printed per run: the process's phases, the apply walk's wall and CPU
// time, the provider calls of the walk by operation (count, median, p90), the state writes
// (count, median), the fake-aws requests by action, and when each level of the chains was done.
//   node bench/apply-timeline.mjs [runs]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { writeSsmChains } from "./configs.mjs";
import { benchProviderSource, launchRequiredProviders } from "./magma-worker.mjs";

const here = fileURLToPath(import.meta.url);
const CHAINS = Number(process.env.MAGMA_BENCH_CHAINS ?? 10);
const LENGTH = Number(process.env.MAGMA_BENCH_CHAIN_LENGTH ?? 10);

async function child(dir) {
  const log = [];
  const now = () => performance.now();
  const ev = (what, extra = {}) => log.push({ t: now(), what, ...extra });
  ev("start");
  const factory = benchProviderSource();
  const launched = launchRequiredProviders(dir, factory);
  const [engine, state, config] = await Promise.all([import("@magma/engine"), import("@magma/state"), import("@magma/config")]);
  ev("modules");
  const base = engine.prelaunchedProviderSource(factory, launched);
  const timed = (p) =>
    new Proxy(p, {
      get(target, key) {
        const v = target[key];
        if (typeof v !== "function") return v;
        return async (...args) => {
          const s = now();
          try {
            return await v.apply(target, args);
          } finally {
            ev("call", { op: String(key), d: now() - s });
          }
        };
      },
    });
  const providers = {
    open: async (...a) => {
      const o = await base.open(...a);
      ev("opened");
      return { provider: timed(o.provider), schema: o.schema, stop: () => o.stop(), close: () => o.close() };
    },
  };
  const store = state.createLocalBackend({ dir }).store("default");
  const prior = (await state.loadState(store)) ?? state.newStateFile();
  const eng = engine.createEngine({ providers, parallelism: 10, cwd: dir });
  const loaded = config.loadConfig(dir);
  ev("loaded");
  const planned = await eng.plan(loaded.config, prior);
  if (planned.hasErrors) throw new Error("plan failed");
  ev("planned");
  const cpu0 = process.cpuUsage();
  const r = await eng.apply(planned, {
    state: prior,
    parallelism: 10,
    onEvent: (e) => {
      if (e.type === "apply_start" || e.type === "apply_complete") ev(e.type, { address: e.address });
    },
    persist: async (s) => {
      const p = now();
      await state.saveState(store, s);
      ev("write", { d: now() - p, objects: s.resources.reduce((n, x) => n + x.instances.length, 0) });
    },
  });
  const cpu = process.cpuUsage(cpu0);
  if (!r.success) throw new Error("apply failed");
  ev("applied", { cpuMs: (cpu.user + cpu.system) / 1000 });
  await eng.close();
  await base.close();
  ev("closed");
  process.stdout.write(JSON.stringify(log) + "\n");
}

const run = (args) =>
  new Promise((resolve) => {
    const c = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    c.stdout.on("data", (d) => (out += d));
    c.on("close", (code) => resolve({ code, out }));
  });

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN;
  return `n ${s.length}, median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms`;
};

function report(log, fakeCalls) {
  const at = (w) => log.find((x) => x.what === w).t;
  const [p0, p1] = [at("planned"), at("applied")];
  console.log(
    `  process: modules ${at("modules").toFixed(0)} ms, config loaded ${at("loaded").toFixed(0)}, planned ${p0.toFixed(0)}, applied ${p1.toFixed(0)}, closed ${at("closed").toFixed(0)} (ms since start)`,
  );
  console.log(`  apply walk: ${(p1 - p0).toFixed(0)} ms wall, ${log.find((x) => x.what === "applied").cpuMs.toFixed(0)} ms CPU of this process`);
  const walk = log.filter((x) => x.t > p0 && x.t <= p1);
  const ops = new Map();
  for (const c of walk.filter((x) => x.what === "call")) ops.set(c.op, [...(ops.get(c.op) ?? []), c.d]);
  for (const [op, ds] of ops) console.log(`  ${op}: ${stats(ds)}`);
  const writes = walk.filter((x) => x.what === "write");
  console.log(`  state writes: ${stats(writes.map((w) => w.d))}; objects per write: ${writes.map((w) => w.objects).join(" ")}`);
  const counts = {};
  for (const c of fakeCalls) counts[c.action] = (counts[c.action] ?? 0) + 1;
  console.log(`  fake-aws requests: ${JSON.stringify(counts)}`);
  const done = new Map(walk.filter((x) => x.what === "apply_complete").map((x) => [x.address, x.t]));
  const levels = [];
  for (let i = 0; i < LENGTH; i++) {
    let m = 0;
    for (let c = 0; c < CHAINS; c++) m = Math.max(m, done.get(`aws_ssm_parameter.c${c}_${i}`) ?? 0);
    levels.push((m - p0).toFixed(0));
  }
  console.log(`  level i of every chain acknowledged at (ms into the walk): ${levels.join(" ")}`);
}

async function main() {
  if (process.argv[2] === "--child") return child(process.argv[3]);
  const runs = Number(process.argv[2] ?? 3);
  const { startFakeAws } = await import("@magma/fake-aws");
  const fake = await startFakeAws();
  const dir = mkdtempSync(join(tmpdir(), "magma-apply-timeline-"));
  try {
    mkdirSync(dir, { recursive: true });
    writeSsmChains(dir, fake.url, { chains: CHAINS, length: LENGTH });
    for (let i = 0; i < runs; i++) {
      fake.resetCalls();
      const t0 = performance.now();
      const a = await run([here, "--child", dir]);
      if (a.code !== 0) throw new Error(`apply run ${i + 1} exited ${a.code}`);
      console.log(`run ${i + 1}: ${(performance.now() - t0).toFixed(0)} ms for the whole process`);
      report(JSON.parse(a.out.trim().split("\n").pop()), fake.calls);
      const d = await run([join(here, "../magma-worker.mjs"), "destroy", dir]);
      if (d.code !== 0) throw new Error(`destroy after run ${i + 1} exited ${d.code}`);
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`apply-timeline: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

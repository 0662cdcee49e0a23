import v8f from "node:v8"; for (const f of (process.env.SETFLAGS ?? "").split(" ").filter(Boolean)) v8f.setFlagsFromString(f);
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
const W = "/work/wt/case4-rss/packages/engine-bench/bench/magma-worker.mjs";
import { readFileSync } from "node:fs";
const smaps = () => { const agg = {}; let cur = ""; for (const l of readFileSync("/proc/self/smaps", "utf8").split("\n")) { const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(l); if (m) { cur = m[1] || "anon"; if (cur.includes("/")) cur = cur.split("/").pop(); continue; } const r = /^Rss:\s+(\d+) kB/.exec(l); if (r) agg[cur] = (agg[cur] ?? 0) + Number(r[1]); } return Object.entries(agg).filter(([, v]) => v > 1024).map(([k, v]) => `${k}=${(v / 1024).toFixed(1)}`).join(" "); };
const mu = (tag) => { if (process.env.SMAPS) console.log("   ", smaps()); const u = process.memoryUsage(); const h = v8.getHeapSpaceStatistics(); const sp = Object.fromEntries(h.map(s => [s.space_name.replace("_space",""), (s.space_size/1048576).toFixed(1)])); console.log(tag.padEnd(14), `rss ${(u.rss/1048576).toFixed(1)} maxRSS ${(process.resourceUsage().maxRSS/1024).toFixed(1)} heapTotal ${(u.heapTotal/1048576).toFixed(1)} heapUsed ${(u.heapUsed/1048576).toFixed(1)} ext ${(u.external/1048576).toFixed(1)} ab ${(u.arrayBuffers/1048576).toFixed(1)}`, process.env.SPACES ? JSON.stringify(sp) : ""); };
mu("start");
const { benchProviderSource, launchRequiredProviders } = await import(W);
mu("plugin");
const dir = process.argv[2];
const factory = benchProviderSource();
const launched = launchRequiredProviders(dir, factory);
const [config, engine, state] = await Promise.all([import("@magma/config"), import("@magma/engine"), import("@magma/state"), import("@magma/hcl"), import("@magma/cty")]);
mu("modules");
const providers = engine.prelaunchedProviderSource(factory, launched);
const store = state.createLocalBackend({ dir }).store("default");
const st = await state.loadState(store);
mu("state");
const eng = engine.createEngine({ providers, parallelism: 10, cwd: dir });
const loaded = config.loadConfig(dir);
mu("config");
let peak = 0; const iv = setInterval(() => { const r = process.memoryUsage().rss; if (r > peak) { peak = r; if (process.env.SNAP_AT && r/1048576 > Number(process.env.SNAP_AT) && !globalThis.snapped) { globalThis.snapped = 1; console.log("snap", v8.writeHeapSnapshot("/tmp/c4/peak.heapsnapshot")); } } }, 5);
let session;
if (process.env.ALLOC) { const { Session } = await import("node:inspector"); session = new Session(); session.connect(); const post = (m, p) => new Promise((res, rej) => session.post(m, p ?? {}, (e, r) => e ? rej(e) : res(r))); globalThis.post = post; await post("HeapProfiler.enable"); await post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }); }
const planned = await eng.plan(loaded.config, st);
if (process.env.ALLOC) { const { profile } = await globalThis.post("HeapProfiler.stopSampling"); (await import("node:fs")).writeFileSync(process.env.ALLOC, JSON.stringify(profile)); }
clearInterval(iv);
mu("plan");
console.log("sampled peak rss", (peak/1048576).toFixed(1), "changes", planned.plan.changes.filter(c => c.action !== "no-op").length);
globalThis.keep = planned;
if (global.gc) { global.gc(); mu("after gc"); }
await eng.close(); await providers.close();
if (process.env.SNAP_END) { console.log("snap", v8.writeHeapSnapshot(process.env.SNAP_END)); }

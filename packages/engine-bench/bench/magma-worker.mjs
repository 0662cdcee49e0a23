#!/usr/bin/env node
// One magma operation through the engine API, in its own process (as a `magma` command would
// run it): `node magma-worker.mjs <op> <dir> [runs]`.
//   apply    plan (with refresh) the configuration in <dir> against <dir>/terraform.tfstate,
//            then apply it, persisting the state after every object (saveState to the local
//            backend, as `magma apply` does)
//   plan     a plan with refresh; nothing applied
//   destroy  a destroy plan, applied
//   warm     one untimed apply/plan/destroy cycle, then <runs> timed cycles, all in this
//            process (providers' schemas cached by the factory, modules loaded, JIT warm)
//   validate load + validate <dir> with the providers' schemas (as `terraform validate`)
// Prints one JSON line on stdout: {op, ms (the operation, inside the process), phases
// (ms by phase), changes, maxRssKiB (process.resourceUsage().maxRSS)} — for warm an array
// of cycles. MAGMA_BENCH_PERSIST: "local" (default) saves the state after every object;
// "none" skips the writes (the engine still makes each snapshot: its own floor); "last"
// saves only the final snapshot (untimed set-up of large states). MAGMA_BENCH_MEMORY=1 adds
// `memory`: process.memoryUsage() in MiB (rss, heapTotal, heapUsed, external, arrayBuffers)
// at each phase of plan/apply/destroy (modules loaded, state read, configuration loaded,
// planned, applied), for finding where the peak RSS comes from.
//
// Start-up, as `magma plan|apply|destroy` does it (see packages/cli/src/bin/magma.ts): only
// node's modules and @magma/plugin are imported statically; a plan/apply/destroy starts
// launching the providers its configuration requires (terraform.required_providers of
// main.tf.json) and then imports the engine, config, hcl and state, so that the provider's
// start-up overlaps their loading. The engine takes the launched instances over through
// `prelaunchedProviderSource`; one it does not use is closed before the process exits.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { join, resolve } from "node:path";
import { createProviderFactory } from "@magma/plugin";

export const PLUGIN_DIRS = ["/opt/tf-plugins"];
export const RANDOM_SOURCE = "example.com/magma/random";
export const MEMORY_SOURCE = "example.com/magma/memory";

/** The provider source every magma figure uses: the filesystem mirror, and the native providers (loaded when opened). */
export function benchProviderSource() {
  return createProviderFactory({
    pluginDirs: PLUGIN_DIRS,
    natives: {
      [RANDOM_SOURCE]: async () => (await import("@magma/provider-random")).createRandomProvider(),
      [MEMORY_SOURCE]: async () => (await import("@magma/provider-api/testing")).createMemoryProvider(),
    },
  });
}

let L;
/** The engine, config, cty, hcl and state modules, imported on first use. */
async function libs() {
  if (L === undefined) {
    const [config, cty, hcl, engine, state] = await Promise.all([
      import("@magma/config"),
      import("@magma/cty"),
      import("@magma/hcl"),
      import("@magma/engine"),
      import("@magma/state"),
    ]);
    L = { ...config, ...cty, ...hcl, ...engine, ...state };
  }
  return L;
}

/**
 * Starts launching the plugin providers `<dir>/main.tf.json` requires (its
 * terraform.required_providers, at their version constraints); resolves nothing, returns the
 * launches by full source address (a native or unknown provider is not launched).
 */
export function launchRequiredProviders(dir, factory) {
  const launched = new Map();
  let doc;
  try {
    doc = JSON.parse(readFileSync(join(dir, "main.tf.json"), "utf8"));
  } catch {
    return launched;
  }
  for (const block of [doc.terraform ?? []].flat()) {
    for (const req of [block.required_providers ?? []].flat()) {
      for (const r of Object.values(req)) {
        if (typeof r?.source !== "string") continue;
        const parts = r.source.split("/");
        const address = parts.length === 2 ? `registry.terraform.io/${r.source}` : r.source;
        const version = typeof r.version === "string" ? r.version : undefined;
        const p = factory
          .resolve(address, version)
          .then((x) => (x.kind === "plugin" ? factory.open(address, version === undefined ? {} : { version }) : undefined));
        p.catch(() => undefined);
        launched.set(address, p);
      }
    }
  }
  return launched;
}

function errorsOf(diags) {
  return diags.filter((d) => d.severity === "error").map((d) => `${d.summary}: ${d.detail ?? ""}`);
}

const MEMORY = process.env.MAGMA_BENCH_MEMORY === "1";
const memory = {};
/** Records process.memoryUsage() (MiB) under a phase name when MAGMA_BENCH_MEMORY=1. */
function memoryAt(name) {
  if (!MEMORY) return;
  const u = process.memoryUsage();
  const mib = (x) => Math.round((x / 1048576) * 10) / 10;
  memory[name] = { rss: mib(u.rss), heapTotal: mib(u.heapTotal), heapUsed: mib(u.heapUsed), external: mib(u.external), arrayBuffers: mib(u.arrayBuffers) };
}

/** Plans (and for apply/destroy applies) once; returns {ms, phases, changes}. */
export async function runOnce(op, dir, providers, parallelism = 10) {
  const { createLocalBackend, loadState, newStateFile, saveState, createEngine, loadConfig } = await libs();
  memoryAt("modules");
  const store = createLocalBackend({ dir }).store("default");
  const persistMode = process.env.MAGMA_BENCH_PERSIST ?? "local";
  const t0 = performance.now();
  const phases = {};
  let t = t0;
  const lap = (name) => {
    const now = performance.now();
    phases[name] = (phases[name] ?? 0) + (now - t);
    t = now;
  };
  const state = (await loadState(store)) ?? newStateFile();
  lap("readState");
  memoryAt("state");
  const engine = createEngine({ providers, parallelism, cwd: dir });
  try {
    const loaded = loadConfig(dir);
    const loadErrors = errorsOf(loaded.diags);
    if (loadErrors.length > 0) throw new Error(`loading ${dir}: ${loadErrors.join("; ")}`);
    lap("load");
    memoryAt("config");
    const planned =
      op === "destroy"
        ? await engine.destroy(loaded.config, state)
        : await engine.plan(loaded.config, state);
    lap("plan");
    memoryAt("plan");
    if (planned.hasErrors) throw new Error(`plan: ${errorsOf(planned.diagnostics).join("; ")}`);
    const changes = planned.plan.changes.filter((c) => c.action !== "no-op").length;
    if (op === "plan") return { ms: performance.now() - t0, phases, changes };
    let persistMs = 0;
    let persists = 0;
    let last;
    // engine.apply of the plan's result: it takes over the providers the plan opened and
    // configured (one launch of hashicorp/aws per plan + apply, as `magma apply` does).
    const result = await engine.apply(planned, {
      state,
      parallelism,
      persist: async (s) => {
        const p0 = performance.now();
        if (persistMode === "local") await saveState(store, s);
        else if (persistMode === "last") last = s;
        persistMs += performance.now() - p0;
        persists++;
      },
    });
    if (last !== undefined) await saveState(store, last);
    lap("apply");
    memoryAt("apply");
    phases.applyPersist = persistMs;
    phases.persists = persists;
    const failed = errorsOf(result.diagnostics);
    if (!result.success || failed.length > 0)
      throw new Error(`apply: ${failed.join("; ") || "not successful"}`);
    return { ms: performance.now() - t0, phases, changes };
  } finally {
    await engine.close();
  }
}

/** Loads and validates a directory with its providers' schemas (opened through the factory). */
export async function validateOnce(dir, factory) {
  const { loadConfig, validateConfig, dynamicType, numberType, objectVal, unknownVal, terraformFunctions, decodeSchemaBody, evaluateSchemaBody } = await libs();
  const t0 = performance.now();
  const loaded = loadConfig(dir);
  const t1 = performance.now();
  const schemas = new Map();
  for (const c of [loaded.config]) {
    for (const r of [...c.module.managedResources.values()]) {
      const key = `${r.provider.hostname}/${r.provider.namespace}/${r.provider.type}`;
      if (!schemas.has(key)) {
        const live = await factory.open(key);
        schemas.set(key, live.schema);
        await live.close();
      }
    }
  }
  const t2 = performance.now();
  const diags = validateConfig(loaded.config, {
    schemas: (p, mode, type) => {
      const s = schemas.get(`${p.hostname}/${p.namespace}/${p.type}`);
      return (mode === "data" ? s?.dataSources.get(type) : s?.resources.get(type))?.block;
    },
  });
  const t3 = performance.now();
  // Evaluate every resource body against its schema as `terraform validate` does: variables
  // at their defaults, every resource (and count.index/each) unknown.
  const m = loaded.config.module;
  const vars = {};
  for (const [name, v] of m.variables) vars[name] = v.default ?? unknownVal(dynamicType);
  const roots = {
    var: objectVal(vars),
    count: objectVal({ index: unknownVal(numberType) }),
    each: objectVal({ key: unknownVal(dynamicType), value: unknownVal(dynamicType) }),
  };
  const byType = new Map();
  for (const r of m.managedResources.values()) {
    if (!byType.has(r.type)) byType.set(r.type, {});
    byType.get(r.type)[r.name] = unknownVal(dynamicType);
  }
  for (const [type, names] of byType) roots[type] = objectVal(names);
  const scope = { variables: roots, functions: terraformFunctions({ baseDir: dir }) };
  const evalDiags = [];
  let evaluated = 0;
  for (const r of m.managedResources.values()) {
    const s = schemas.get(`${r.provider.hostname}/${r.provider.namespace}/${r.provider.type}`);
    const block = s?.resources.get(r.type)?.block;
    if (block === undefined) continue;
    const decoded = decodeSchemaBody(r.config, block);
    evalDiags.push(...decoded.diags);
    evalDiags.push(...evaluateSchemaBody(decoded.decoded, block, scope).diags);
    evaluated++;
  }
  const t4 = performance.now();
  const errors = errorsOf([...loaded.diags, ...diags, ...evalDiags]);
  if (errors.length > 0) throw new Error(`validate ${dir}: ${errors.slice(0, 3).join("; ")}`);
  return {
    ms: t4 - t0,
    phases: { load: t1 - t0, schemas: t2 - t1, validate: t3 - t2, evaluate: t4 - t3 },
    changes: 0,
    evaluated,
  };
}

async function main() {
  const [op, dirArg, runsArg] = process.argv.slice(2);
  if (op === undefined || dirArg === undefined)
    throw new Error("usage: magma-worker.mjs <apply|plan|destroy|warm|validate> <dir> [runs]");
  const dir = resolve(dirArg);
  const factory = benchProviderSource();
  let out;
  if (op === "warm") {
    const runs = Number(runsArg ?? 3);
    const cycle = async () => ({
      apply: await runOnce("apply", dir, factory),
      plan: await runOnce("plan", dir, factory),
      destroy: await runOnce("destroy", dir, factory),
    });
    await cycle();
    const cycles = [];
    for (let i = 0; i < runs; i++) cycles.push(await cycle());
    out = { op, cycles };
  } else if (op === "validate") {
    out = { op, ...(await validateOnce(dir, factory)) };
  } else if (op === "apply" || op === "plan" || op === "destroy") {
    const launched = launchRequiredProviders(dir, factory);
    const { prelaunchedProviderSource } = await libs();
    const providers = prelaunchedProviderSource(factory, launched);
    try {
      out = { op, ...(await runOnce(op, dir, providers)) };
    } finally {
      await providers.close();
    }
  } else throw new Error(`unknown operation ${op}`);
  out.maxRssKiB = process.resourceUsage().maxRSS;
  if (MEMORY) out.memory = memory;
  process.stdout.write(JSON.stringify(out) + "\n");
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  main().catch((e) => {
    process.stderr.write(
      `magma-worker: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exit(1);
  });
}

/**
 * Test support for the plan oracles (plan-oracle.test.ts, plan-targets-oracle.test.ts):
 * terraform with the native memory and random providers served by @magma/provider-server
 * from a filesystem mirror, magma's engine with the same providers in-process (the memory
 * one over terraform's item store), and {@link bothPlans}, which plans with both on the same
 * working directory and state and gives their actions side by side.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromJson, type Value } from "@magma/cty";
import { impliedType } from "@magma/provider-api";
import { createMemoryProvider, memoryItemBlock } from "@magma/provider-api/testing";
import { createRandomProvider } from "@magma/provider-random";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { readStateFile } from "@magma/state";
import { createEngine, type EnginePlanResult, type ProviderSource } from "../../src/index.js";
import { expectExit, tempDir, terraform, terraformEnv, type TerraformRun } from "../../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../../provider-server/test/testdata/stored-memory-provider.mjs");
const randomModule = createRequire(import.meta.url).resolve("@magma/provider-random");

/** The memory provider's source address. */
export const MEMORY = "example.com/magma/memory";
/** The random provider's source address. */
export const RANDOM = "example.com/magma/random";
const itemType = impliedType(memoryItemBlock);

/** The providers for magma: the same native providers, the memory one over terraform's item store. */
function source(store: string): ProviderSource {
  return {
    async open(src) {
      if (src === MEMORY) {
        const saved = existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, string> }) : { items: {} };
        const items: [string, Value][] = Object.entries(saved.items).map(([id, json]) => [id, fromJson(json, itemType)]);
        const p = createMemoryProvider({ items });
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      if (src === RANDOM) {
        const p = createRandomProvider();
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      }
      throw new Error(`unknown provider ${src}`);
    },
  };
}

/** A working directory (`work`, with an empty `mod/`) for terraform with both providers in its mirror. */
export interface PlanOracleDir {
  readonly work: string;
  /** The memory provider's item store, shared by terraform's provider process and magma's. */
  readonly store: string;
  readonly env: Record<string, string | undefined>;
  /** Runs terraform in `work`. */
  tf(...args: string[]): Promise<TerraformRun>;
  cleanup(): void;
}

/** A fresh {@link PlanOracleDir} under a temp directory named with `prefix`. */
export function planOracleDir(prefix: string): PlanOracleDir {
  const tmp = tempDir(prefix);
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] }));
  bundleLauncherEntry(writeProviderLauncher({ mirrorDir: join(tmp.dir, "mirror"), hostname: "example.com", namespace: "magma", type: "random", version: "1.0.0", module: randomModule, exportName: "createRandomProvider", protocolVersions: [6] }));
  const work = join(tmp.dir, "work");
  mkdirSync(join(work, "mod"), { recursive: true });
  const store = join(tmp.dir, "store.json");
  const env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
  return { work, store, env, tf: (...args) => terraform(args, work, env), cleanup: () => tmp.cleanup() };
}

/** Writes files (relative to `work`). */
export function writeFiles(dir: PlanOracleDir, files: Readonly<Record<string, string>>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir.work, name), text);
}

/** terraform's action lists for each of magma's plan actions. */
export const ACTIONS: Readonly<Record<string, readonly string[]>> = {
  "no-op": ["no-op"],
  create: ["create"],
  read: ["read"],
  update: ["update"],
  "delete-then-create": ["delete", "create"],
  "create-then-delete": ["create", "delete"],
  delete: ["delete"],
  forget: ["forget"],
};

/** Per address: the actions, then `moved from …` and `import …` when the change has them; the root outputs' actions as `output.<name>`. */
function magmaActions(r: EnginePlanResult): Record<string, string[]> {
  return {
    ...Object.fromEntries(
      r.plan.changes.map((c) => [c.address, [...ACTIONS[c.action]!, ...(c.previousAddress !== undefined ? [`moved from ${c.previousAddress}`] : []), ...(c.importId !== undefined ? [`import ${c.importId}`] : [])]]),
    ),
    ...Object.fromEntries((r.plan.outputs ?? []).map((o) => [`output.${o.name}`, [o.action]])),
  };
}

/** The same from `terraform show -json` of a plan. */
function terraformActions(showJson: string): Record<string, string[]> {
  const plan = JSON.parse(showJson) as { resource_changes?: { address: string; previous_address?: string; change: { actions: string[]; importing?: { id: string } } }[]; output_changes?: Record<string, { actions: string[] }> };
  return {
    ...Object.fromEntries(
      (plan.resource_changes ?? []).map((c) => [
        c.address,
        [...c.change.actions, ...(c.previous_address !== undefined ? [`moved from ${c.previous_address}`] : []), ...(c.change.importing !== undefined ? [`import ${c.change.importing.id}`] : [])],
      ]),
    ),
    ...Object.fromEntries(Object.entries(plan.output_changes ?? {}).map(([k, v]) => [`output.${k}`, v.actions])),
  };
}

/** The plan mode both tools plan in. */
export type OracleMode = "normal" | "destroy" | "refresh-only";

/** What {@link bothPlans} gives. */
export interface BothPlans {
  /** magma's actions per address (resources and root outputs); for a refresh-only plan, its drift. */
  readonly magma: Record<string, string[]>;
  /** terraform's, from `show -json` of its saved plan. */
  readonly terraform: Record<string, string[]>;
  /** magma's plan. */
  readonly result: EnginePlanResult;
  /** The first warning terraform's plan printed, if any. */
  readonly warning: { readonly summary: string; readonly detail: string } | undefined;
}

/**
 * terraform's plan (`plan -json -out`, then `show -json`) and magma's on the same
 * configuration and state (`terraform.tfstate` in `work`, if any), in `mode` and with
 * `-target`s: per address, the resource changes and root output actions — for a
 * refresh-only plan, the drift. Throws with magma's errors when its plan has any.
 */
export async function bothPlans(dir: PlanOracleDir, options: { readonly mode?: OracleMode; readonly targets?: readonly string[] } = {}): Promise<BothPlans> {
  const mode = options.mode ?? "normal";
  const targets = options.targets ?? [];
  const flags = [...targets.map((t) => `-target=${t}`), ...{ normal: [], destroy: ["-destroy"], "refresh-only": ["-refresh-only"] }[mode]];
  const planRun = await dir.tf("plan", "-no-color", "-json", ...flags, "-out=tfplan");
  expectExit(planRun, 0, `plan ${flags.join(" ")}`, dir.env);
  const warning = planRun.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type: string; diagnostic?: { severity: string; summary: string; detail: string } })
    .find((m) => m.type === "diagnostic" && m.diagnostic?.severity === "warning")?.diagnostic;
  const show = await dir.tf("show", "-json", "tfplan");
  expectExit(show, 0, "show -json", dir.env);
  const statePath = join(dir.work, "terraform.tfstate");
  const state = existsSync(statePath) ? (readStateFile(readFileSync(statePath)) ?? null) : null;
  const engine = createEngine({ providers: source(dir.store), cwd: dir.work });
  try {
    const r = await engine.plan(dir.work, state, { env: {}, ...(targets.length > 0 ? { targets } : {}), ...(mode !== "normal" ? { mode } : {}) });
    const errs = r.diagnostics.filter((x) => x.severity === "error");
    if (errs.length > 0) throw new Error(errs.map((x) => `${x.address ?? ""} ${x.summary}: ${x.detail}`).join("\n"));
    const found = warning === undefined ? undefined : { summary: warning.summary, detail: warning.detail };
    if (mode === "refresh-only") {
      const tfDrift = (JSON.parse(show.stdout) as { resource_drift?: { address: string; change: { actions: string[] } }[] }).resource_drift ?? [];
      return {
        magma: Object.fromEntries((r.plan.drift ?? []).map((c) => [c.address, [...ACTIONS[c.action]!]])),
        terraform: Object.fromEntries(tfDrift.map((c) => [c.address, c.change.actions])),
        result: r,
        warning: found,
      };
    }
    return { magma: magmaActions(r), terraform: terraformActions(show.stdout), result: r, warning: found };
  } finally {
    await engine.close();
  }
}

import { resolve } from "node:path";
import { loadConfig } from "@magma/config";
import { planJson, planText, readPlanFile, stateJson, type Plan } from "@magma/engine";
import type { ProviderSchema } from "@magma/provider-api";
import { decodeOutput, loadState, newStateFile, parseProviderConfig, type StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { workdirProviders } from "../workdir/engine-providers.js";
import { providerRequirements } from "../workdir/provider-requirements.js";
import { stateInstances } from "../workdir/state-objects.js";
import type { WorkingDir } from "../workdir/working-dir.js";
import type { CommandContext } from "./command-context.js";
import { loadShowSchemas, schemaLoadError } from "../workdir/show-schemas.js";
import { terminalColumns } from "../terminal-columns.js";
import { outputValueText, showOrder } from "../workdir/state-text.js";
import { objectText } from "./state-show.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** The provider source addresses a state's resources use. */
function stateSources(state: StateFile): string[] {
  return [...new Set(state.resources.map((r) => `${r.provider.provider.hostname}/${r.provider.provider.namespace}/${r.provider.provider.type}`))];
}

/**
 * The providers of the data sources a plan read (its refreshed prior state holds them, and
 * `show -json` renders them there): a plan that only reads data sources names no provider in
 * its changes, and its state on disk may not have them yet.
 */
function dataReadSources(plan: Plan): string[] {
  return Object.values(plan.dataReadSources ?? {}).map((d) => {
    const p = parseProviderConfig(d.provider).provider;
    return `${p.hostname}/${p.namespace}/${p.type}`;
  });
}

/**
 * Opens each provider once for its schema, and closes it.
 *
 * @throws CliError terraform's "Failed to load plugin schemas" when one cannot be started.
 */
async function schemasOf(wd: WorkingDir, ctx: CommandContext, sources: readonly string[]): Promise<Map<string, ProviderSchema>> {
  const p = workdirProviders(wd.dataDir, ctx.io.env, undefined, wd.dir);
  try {
    for (const s of sources) {
      try {
        await p.source.open(s, ctx.signal === undefined ? {} : { signal: ctx.signal });
      } catch (e) {
        if (ctx.signal?.aborted === true) throw e;
        throw schemaLoadError(ctx, s, e);
      }
    }
  } finally {
    await Promise.all([...p.open].map((o) => o.close().catch(() => undefined)));
  }
  return p.schemas;
}

/** The human state as `terraform show` prints it, objects rendered with `schemas` (those present). */
export function stateText(state: StateFile | undefined, schemas: ReadonlyMap<string, ProviderSchema>): string {
  const objects = state === undefined ? [] : showOrder(stateInstances(state));
  if (state === undefined || (objects.length === 0 && state.outputs.size === 0)) return "The state file is empty. No resources are represented.\n";
  let out = objects.map(({ inst, obj }) => objectText(inst, obj, schemas)).join("\n");
  const names = [...state.outputs.keys()].sort();
  if (names.length > 0) {
    out += "\n\nOutputs:\n\n";
    for (const n of names) {
      const o = state.outputs.get(n)!;
      out += o.sensitive ? `${n} = (sensitive value)\n` : `${n} = ${outputValueText(decodeOutput(o).value)}\n`;
    }
  }
  return out;
}

/** Runs the command (its registration — name, flags, help — is in show-command.ts, which loads this module on demand). */
export async function showAction(ctx: CommandContext, planfile: string | undefined, o: WorkdirOptions): Promise<void> {
  await withWorkingDir(ctx, o, async (wd) => {
    const state = await loadState(wd.store());
    if (planfile === undefined) {
      if (o.json !== true) {
        const schemas = state === undefined ? new Map<string, ProviderSchema>() : await loadShowSchemas(wd, ctx, stateSources(state));
        return void ctx.print(stateText(state, schemas));
      }
      const st = state ?? newStateFile();
      ctx.print(`${stateJson(st, await schemasOf(wd, ctx, stateSources(st)))}\n`);
      return;
    }
    let plan: Plan;
    try {
      plan = await readPlanFile(resolve(ctx.cwd, planfile));
    } catch (e) {
      throw new CliError(CliErrorCode.BadInput, "Failed to read the given file as a state or plan file", { detail: `${planfile}: ${(e as Error).message}`, cause: e });
    }
    // The state the plan was made from, as terraform's show of a plan file (a plan file without one: the current state).
    const prior = plan.priorStateFile ?? state ?? { ...newStateFile(), lineage: plan.prior.lineage };
    // The JSON document's configuration covers every resource, those without a change too
    // (count = 0), so it needs the schemas of every provider the configuration uses, as
    // terraform's show loads them.
    const config = o.json === true ? loadConfig(wd.dir).config : undefined;
    const configSources = config === undefined ? [] : providerRequirements(config).map((r) => r.address);
    const sources = [...new Set([...(plan.providers ?? []).map((p) => p.source), ...stateSources(prior), ...configSources, ...dataReadSources(plan)])];
    const schemas = await schemasOf(wd, ctx, sources);
    if (o.json === true) {
      ctx.print(`${planJson(plan, { schemas, priorState: prior, ...(config !== undefined ? { config } : {}) })}\n`);
    } else ctx.print(planText(plan, { schemas, priorState: prior, columns: terminalColumns(ctx.io.stdout), color: ctx.colour.stdout }));
  }, undefined, "view");
}

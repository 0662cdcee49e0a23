import { loadConfig, collectVariableValues, type VariableArg } from "@magma/config";
import { toJson, type Value } from "@magma/cty";
import { configDigest, createEngine, createPlan, importResource, isEngineError, ProviderPool, resolveProviderConfig, schemaSensitivePaths } from "@magma/engine";
import { impliedType } from "@magma/provider-api";
import { encodeOutput, encodeSensitivePaths, formatResourceInstance, loadState, newStateFile, parseProviderConfig, parseResourceInstance, saveState, type ResourceState } from "@magma/state";
import { paint, paintf } from "../colour.js";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "../commands/command-context.js";
import { workdirProviders } from "./engine-providers.js";
import { formatDiagnostics } from "./format-diagnostic.js";
import { acquireLock, type LockSettings } from "./state-lock.js";
import type { WorkingDir } from "./working-dir.js";
import { terminalColumns } from "../terminal-columns.js";

/** Options of {@link runImport}. */
export interface ImportOptions {
  /** The resource instance address (`random_id.p`, `aws_x.y[0]`). */
  readonly address: string;
  /** The provider's import id. */
  readonly id: string;
  /** `-var`, `-var-file` (for the provider configuration). */
  readonly variableArgs: readonly VariableArg[];
  /** `-lock`, `-lock-timeout`. */
  readonly lock: LockSettings;
}

/**
 * `terraform import ADDR ID` on a working directory: the resource must be in the root
 * module's configuration; its provider configuration is evaluated and configured, the
 * engine's `importResource` imports and reads the object, and it is written into the
 * current workspace's state under its lock, as Terraform prints it.
 *
 * @throws CliError `bad_input` for an address without configuration or a failed import.
 */
export async function runImport(ctx: CommandContext, wd: WorkingDir, o: ImportOptions): Promise<void> {
  let addr;
  try {
    addr = parseResourceInstance(o.address);
  } catch (e) {
    throw new CliError(CliErrorCode.Usage, `Invalid address: ${o.address}`, { detail: (e as Error).message });
  }
  const text = formatResourceInstance(addr);
  if (addr.mode !== "managed") throw new CliError(CliErrorCode.Usage, "Invalid address", { detail: "A managed resource address is required. Importing into a data resource is not allowed." });
  if (addr.module.length > 0) throw new CliError(CliErrorCode.Unsupported, "magma import supports resources of the root module only", { detail: `${text} is in a module; use an import block, or terraform import.` });
  const { config, diags } = loadConfig(wd.dir);
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    ctx.io.stderr.write(formatDiagnostics(errors, wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
    throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
  }
  const resource = config.module.managedResources.get(`${addr.type}.${addr.name}`);
  if (resource === undefined) {
    throw new CliError(CliErrorCode.BadInput, "Configuration for import target does not exist", {
      detail: `The configuration for the given import target ${text} does not exist. All target instances must have an associated configuration to be imported.`,
    });
  }
  const ref = resource.providerConfigRef === undefined ? addr.type.split("_")[0]! : resource.providerConfigRef.alias === undefined ? resource.providerConfigRef.name : `${resource.providerConfigRef.name}.${resource.providerConfigRef.alias}`;
  const resolved = resolveProviderConfig(config, [], ref, resource.provider);
  if ("error" in resolved) throw new CliError(CliErrorCode.BadInput, "Provider configuration not present", { detail: resolved.error });

  const store = wd.store();
  const release = await acquireLock(store, { operation: "OperationTypeApply" }, o.lock, ctx.signal);
  const providers = workdirProviders(wd.dataDir, ctx.io.env, undefined, wd.dir);
  const engine = createEngine({ providers: providers.source, workspace: wd.currentWorkspace(), cwd: wd.dir });
  const pool = new ProviderPool(providers.source, ctx.signal === undefined ? {} : { signal: ctx.signal });
  try {
    const prior = (await loadState(store)) ?? newStateFile();
    // The provider configuration, evaluated with the variables as a plan would.
    const vars = collectVariableValues(config.module, { dir: wd.dir, args: o.variableArgs, env: ctx.io.env });
    const varErrors = vars.diags.filter((d) => d.severity === "error");
    if (varErrors.length > 0) {
      ctx.io.stderr.write(formatDiagnostics(varErrors, wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
      throw new CliError(CliErrorCode.BadInput, "variables", { silent: true });
    }
    const variables: Record<string, Value> = Object.create(null) as Record<string, Value>;
    for (const [k, v] of vars.values) variables[k] = v.value;
    const plan = { ...createPlan({ changes: [], prior: { lineage: prior.lineage, serial: prior.serial }, configDigest: configDigest(config) }), variables };
    const scope = await engine.applyScope(config, plan);
    const providerConfig = await scope.providerConfig(resolved.address, { instance: () => undefined });
    const opened = await pool.configure(resolved.address, resolved.source, providerConfig);
    const colour = ctx.colour.stdout;
    ctx.print(`${paintf(colour, "[reset][bold]%s: Importing from ID %s...", text, JSON.stringify(o.id))}\n`);
    const alreadyManaged = prior.resources.some((r) => r.module.length === 0 && r.mode === "managed" && r.type === addr.type && r.name === addr.name && r.instances.some((i) => i.deposed === undefined && JSON.stringify(i.indexKey ?? null) === JSON.stringify(addr.key ?? null)));
    const entry = opened.schema.resources.get(addr.type);
    if (entry === undefined) throw new CliError(CliErrorCode.BadInput, "Invalid resource type", { detail: `The provider ${resolved.source} does not support resource type ${JSON.stringify(addr.type)}.` });
    let result;
    try {
      result = await importResource({ provider: opened.provider, schema: opened.schema, providerAddress: resolved.address }, { address: text, typeName: addr.type, id: o.id, alreadyManaged });
    } catch (e) {
      if (isEngineError(e)) {
        // "[code] Summary: detail" → Terraform's "Error: Summary" and the detail.
        const m = /^(?:\[[a-z_]+\] )?([^:]+)(?:: ([\s\S]*))?$/.exec(e.message);
        throw new CliError(CliErrorCode.BadInput, m?.[1] ?? e.message, { detail: m?.[2] ?? "", cause: e });
      }
      throw e;
    }
    ctx.print(`${paintf(colour, "[reset][bold][green]%s: Import prepared!", text)}\n${paintf(colour, "[reset][green]  Prepared %s for import", addr.type)}\n`);
    const plain = result.object.state.unmarkDeep();
    const next = { ...prior, resources: prior.resources.map((r) => ({ ...r, instances: [...r.instances] })) };
    let r: ResourceState | undefined = next.resources.find((x) => x.module.length === 0 && x.mode === "managed" && x.type === addr.type && x.name === addr.name);
    if (r === undefined) {
      r = { module: [], mode: "managed", type: addr.type, name: addr.name, provider: parseProviderConfig(resolved.address), instances: [] };
      next.resources.push(r);
    }
    r.instances.push({
      indexKey: addr.key,
      deposed: undefined,
      tainted: false,
      schemaVersion: result.schemaVersion,
      attributesJson: toJson(plain.value, impliedType(entry.block)),
      attributesFlat: undefined,
      sensitiveAttributesJson: encodeSensitivePaths(schemaSensitivePaths(plain.value, entry.block)),
      private: result.object.private.length > 0 ? result.object.private : undefined,
      dependencies: [],
      createBeforeDestroy: false,
    });
    // Terraform's import walk writes the root outputs it can evaluate over the new state.
    const evaluated = await engine.plan(wd.dir, next, { mode: "refresh-only", refresh: false, validate: false, variableArgs: o.variableArgs, env: ctx.io.env, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) }).catch(() => undefined);
    if (evaluated !== undefined && !evaluated.hasErrors) {
      const outputs = new Map(next.outputs);
      for (const po of evaluated.plan.outputs ?? []) {
        const v = po.after.unmarkDeep().value;
        if (po.action === "delete" || !v.isWhollyKnown()) continue;
        if (v.isNull()) outputs.delete(po.name);
        else outputs.set(po.name, encodeOutput(v, v.type, po.sensitive));
      }
      next.outputs = outputs;
    }
    await saveState(store, next);
    const id = (JSON.parse(toJson(plain.value, impliedType(entry.block))) as { id?: unknown }).id;
    ctx.print(
      `${paintf(colour, "[reset][bold]%s: Refreshing state...%s", text, typeof id === "string" ? ` [id=${id}]` : "")}\n${paint(
        colour,
        "[reset][green]\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour Terraform state and will henceforth be managed by Terraform.\n",
      )}\n`,
    );
  } finally {
    await pool.close();
    await engine.close();
    await Promise.all([...providers.open].map((p) => p.close().catch(() => undefined)));
    await release();
  }
}

import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Value } from "@magma/cty";
import { configFromSnapshot, loadConfig, type VariableArg } from "@magma/config";
import {
  assertRefreshSafe,
  createImportOnConflict,
  countPlanChanges,
  createEngine,
  isEngineError,
  planText,
  readPlanFile,
  savedPlanVariables,
  TARGETED_APPLY_WARNING,
  writePlanFile,
  type ApplyResult,
  type Engine,
  type EngineEvent,
  type EnginePlanResult,
  type Plan,
  type PlanDiagnostic,
  type PlanMode,
} from "@magma/engine";
import type { Diag } from "@magma/provider-api";
import { decodeOutput, loadState, newStateFile, saveState, type StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "../commands/command-context.js";
import { ExitCode } from "../exit-code.js";
import { paint, paintf } from "../colour.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import { applyEventLine, ephemeralOpText } from "./apply-progress.js";
import { ApplySnapshots } from "./apply-snapshots.js";
import { saveErroredState, type ErroredState } from "./errored-state.js";
import { applyFailureDiagnostics, EXECUTION_HALTED, placedDiagnostic, terraformDiagnosticOrder } from "./apply-failure-diagnostics.js";
import { workdirProviders } from "./engine-providers.js";
import { formatDiagnostics, SourceCache, type AddressedDiagnostic } from "./format-diagnostic.js";
import { formatValue } from "./format-value.js";
import { JsonUi, jsonUiResource } from "./json-ui.js";
import { acquireLock, type LockSettings } from "./state-lock.js";
import { FATAL_INTERRUPT, onFatalInterrupt } from "../fatal-interrupt.js";
import { flushOutput } from "../flush-output.js";
import { terraformLogFor } from "../logging/terraform-log.js";
import { stateInstances } from "./state-objects.js";
import { LOCK_FILE_NAME, parseLockFile } from "./provider-lock-file.js";
import type { WorkingDir } from "./working-dir.js";

/** What the user asked for: `plan`, `apply`, `destroy` or `refresh`. */
export type OperationKind = "plan" | "apply" | "destroy" | "refresh";

/** The options of a working-directory plan or apply, from Terraform's flags. */
export interface OperationOptions {
  readonly kind: OperationKind;
  /** The plan mode. */
  readonly mode: PlanMode;
  /** `-refresh=false` turns the refresh off. */
  readonly refresh: boolean;
  /** `-replace=ADDR`. */
  readonly replace: readonly string[];
  /** `-target=ADDR` (repeatable). */
  readonly targets: readonly string[];
  /** `-var` and `-var-file`, in order. */
  readonly variableArgs: readonly VariableArg[];
  /** `-parallelism=N`. */
  readonly parallelism: number;
  /** `-lock`, `-lock-timeout`. */
  readonly lock: LockSettings;
  /** `-allow-mass-loss`: accept a refresh the guard judges suspect. */
  readonly allowMassLoss: boolean;
  /**
   * `-import-on-conflict` (magma's, apply only): a create failing because the object already
   * exists adopts it when it matches the configuration (`createImportOnConflict` of the engine).
   */
  readonly importOnConflict?: boolean;
  /** `-out=FILE` (plan only). */
  readonly out?: string;
  /** A saved plan file to apply (apply only). */
  readonly planFile?: string;
  /** `-auto-approve` (apply, destroy). */
  readonly autoApprove: boolean;
  /** `-detailed-exitcode` (plan). */
  readonly detailedExitcode: boolean;
  /** `-input=false`: never prompt. */
  readonly input: boolean;
  /** `-json`: Terraform's machine-readable UI on stdout instead of the human output. */
  readonly json: boolean;
}

/** The summary of the engine's diagnostic about a state write that failed. */
const PERSIST_FAILED = "Failed to persist state";

/** Terraform's "Interrupt received" notice, printed on the first Ctrl-C. */
const INTERRUPT_NOTICE = "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n";

/** A plan's diagnostics as terraform prints them: a provider's diagnostic about an object with its address (`with ADDR,`). */
function diagnosticsText(r: EnginePlanResult, dir: string, color: boolean, width: number): string {
  const shown = r.diagnostics.map(({ address, inConfigBody, ...d }) => (inConfigBody === true && address !== undefined ? { ...d, address } : d));
  return formatDiagnostics(terraformDiagnosticOrder(shown), dir, color, { width, addresses: true });
}

/**
 * A plan diagnostic as terraform's `-json` view gives it: `address` only on a provider's
 * diagnostic about an object (those terraform elaborates from the object's configuration, the
 * ones its human view prints `with ADDR,` for), with its `range` and `snippet` when it has a
 * place in the configuration.
 */
function jsonPlanDiagnostic(ui: JsonUi, d: PlanDiagnostic, sources: SourceCache): void {
  const { address, inConfigBody, ...rest } = d;
  ui.diagnostic(rest, inConfigBody === true ? address : undefined, sources);
}

/** Terraform's grey horizontal rule (its `format.HorizontalRule`: one column short of the width), from a new line, without the line end. */
function horizontalRule(color: boolean, width: number): string {
  return paint(color, `[dark_gray]\n${"─".repeat(Math.max(width - 1, 0))}`);
}

/** Reads one line of the confirmation prompt from stdin; "" at end of input. */
async function promptLine(ctx: CommandContext, question: string): Promise<string> {
  const stdin = ctx.io.stdin;
  if (stdin === undefined) return "";
  ctx.print(question);
  const rl = createInterface({ input: stdin, terminal: false });
  try {
    return await new Promise<string>((resolveLine, reject) => {
      const onAbort = (): void => reject(new CliError(CliErrorCode.Usage, "interrupted"));
      ctx.signal?.addEventListener("abort", onAbort, { once: true });
      rl.once("line", (l) => resolveLine(l));
      rl.once("close", () => resolveLine(""));
    });
  } finally {
    rl.close();
  }
}

function engineErrorToCli(e: unknown): never {
  if (isEngineError(e)) {
    const title = e.code === "refresh_suspect" ? "Refusing to trust this refresh" : e.code === "stale_plan" ? "Saved plan is stale" : e.code === "invalid_plan_file" ? "Failed to read plan file" : "Engine error";
    const hint = e.code === "refresh_suspect" ? "if these objects really are gone, run again with -allow-mass-loss" : undefined;
    throw new CliError(CliErrorCode.BadInput, title, { detail: e.message, ...(hint === undefined ? {} : { hint }), cause: e });
  }
  throw e;
}

/** The `Outputs:` section Terraform prints after an apply (its heading bold green in colour). */
function outputsText(state: StateFile, color: boolean): string {
  const names = [...state.outputs.keys()].sort();
  if (names.length === 0) return "";
  let out = paint(color, "[reset][bold][green]\nOutputs:\n\n");
  for (const n of names) {
    const o = state.outputs.get(n)!;
    out += o.sensitive ? `${n} = <sensitive>\n` : `${n} = ${formatValue(decodeOutput(o).value)}\n`;
  }
  return out;
}

/** Resources counted as Terraform's "Apply complete!" line counts them. */
function applyCounts(result: ApplyResult): { added: number; changed: number; destroyed: number } {
  let added = 0;
  let changed = 0;
  let destroyed = 0;
  for (const a of result.applied) {
    if (a.action === "create") added++;
    else if (a.action === "update") changed++;
    else if (a.action === "delete") destroyed++;
  }
  return { added, changed, destroyed };
}

/**
 * Runs `magma plan`, `apply`, `destroy` or `refresh` on a working directory, as terraform
 * does: the current workspace's state read under its lock, the configuration planned by the
 * engine, a suspect refresh refused, the plan printed (and saved with `-out`), and for the
 * applying commands a confirmation, the apply with live progress and the state persisted
 * through the backend after every object. Resolves to the exit code.
 */
export async function runOperation(ctx: CommandContext, wd: WorkingDir, o: OperationOptions): Promise<ExitCode> {
  if (o.json && o.kind !== "plan" && o.planFile === undefined && !o.autoApprove) {
    throw new CliError(CliErrorCode.Usage, "Plan file or auto-approve required", { detail: "Terraform cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option." });
  }
  const ui = o.json ? new JsonUi((l) => void ctx.io.stdout.write(l)) : undefined;
  ui?.version();
  // In -json mode the human output is replaced by the UI messages.
  const human: CommandContext = ui === undefined ? ctx : { ...ctx, print: () => undefined };
  return runOperationWith(human, wd, o, ui);
}

async function runOperationWith(ctx: CommandContext, wd: WorkingDir, o: OperationOptions, ui: JsonUi | undefined): Promise<ExitCode> {
  const store = wd.store();
  const operation = o.kind === "plan" ? "OperationTypePlan" : o.kind === "refresh" ? "OperationTypeRefresh" : "OperationTypeApply";
  const release = await acquireLock(store, { operation }, o.lock, ctx.signal);
  // An applying command's snapshots: after a second interrupt the latest durable one is saved once more, as terraform's is.
  const snapshots = new ApplySnapshots(store);
  const uninstall = onFatalInterrupt(() => fatalInterrupt(ctx, wd.dir, ui, snapshots, release));
  const providers = workdirProviders(wd.dataDir, ctx.io.env, ctx.earlyLaunch, wd.dir);
  const engine = createEngine({ providers: providers.source, parallelism: o.parallelism, workspace: wd.currentWorkspace(), cwd: wd.dir });
  try {
    const stored = await loadState(store);
    if (o.planFile !== undefined) return await applySaved(ctx, wd, snapshots, stored, engine, o, ui);
    const prior = stored ?? newStateFile();
    const r = await engine
      .plan(wd.dir, prior, {
        mode: o.mode,
        refresh: o.refresh,
        replace: o.replace,
        ...(o.targets.length > 0 ? { targets: o.targets } : {}),
        variableArgs: o.variableArgs,
        env: ctx.io.env,
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
        // Only the core's log lines: the CLI prints the plan's other events itself, from the result.
        onEvent: (e) => logEvent(ctx, e),
      })
      .catch(engineErrorToCli);
    if (ctx.signal?.aborted === true) throw new CliError(CliErrorCode.BadInput, "interrupted");
    if (o.refresh) {
      let refreshing = "";
      // Under -target only the objects the plan walked were refreshed.
      const refreshed = o.targets.length > 0 ? new Set(r.refreshOutcomes.map((x) => x.address)) : undefined;
      // Each current object, and each deposed one (terraform refreshes those too, shown as "ADDR (deposed object KEY)" in its human view).
      const objects = stateInstances(prior).flatMap((i) => [
        ...(i.current === undefined ? [] : [{ i, object: i.current, shown: i.text }]),
        ...i.resource.instances.filter((x) => x.indexKey === i.addr.key && x.deposed !== undefined).map((x) => ({ i, object: x, shown: `${i.text} (deposed object ${x.deposed!})` })),
      ]);
      for (const { i, object, shown } of objects) {
        if (i.resource.mode !== "managed" || object.attributesJson === undefined) continue;
        if (refreshed !== undefined && !refreshed.has(shown)) continue;
        const id = (JSON.parse(object.attributesJson) as { id?: unknown }).id;
        refreshing += `${paintf(ctx.colour.stdout, "[reset][bold]%s: Refreshing state...%s", shown, typeof id === "string" ? ` [id=${id}]` : "")}\n`;
        if (ui !== undefined) {
          const hook = { resource: jsonUiResource(i.text), ...(typeof id === "string" ? { id_key: "id", id_value: id } : {}) };
          ui.message("info", `${i.text}: Refreshing state...${typeof id === "string" ? ` [id=${id}]` : ""}`, { hook, type: "refresh_start" });
          ui.message("info", `${i.text}: Refresh complete${typeof id === "string" ? ` [id=${id}]` : ""}`, { hook, type: "refresh_complete" });
        }
      }
      ctx.print(refreshing);
    }
    // An import block's object: terraform's "Preparing import..." and the refresh of what the import returned.
    let importing = "";
    for (const c of r.plan.changes) {
      if (c.importId === undefined) continue;
      const before = c.before.unmarkDeep().value;
      const idv = before.isKnown() && !before.isNull() && before.type.kind === "object" && "id" in before.type.attributes ? before.getAttr("id") : undefined;
      const id = idv !== undefined && idv.isKnown() && !idv.isNull() && idv.type.kind === "string" ? idv.asString() : undefined;
      importing += `${paintf(ctx.colour.stdout, "[reset][bold]%s: Preparing import... [id=%s]", c.address, c.importId)}\n`;
      importing += `${paintf(ctx.colour.stdout, "[reset][bold]%s: Refreshing state...%s", c.address, id === undefined ? "" : ` [id=${id}]`)}\n`;
    }
    ctx.print(importing);
    // The data sources read while planning, as terraform's UI hook prints them (after the refreshes here; terraform's walk interleaves them).
    if ((r.dataReadEvents ?? []).length > 0) {
      const ids = new Map<string, string>();
      let reading = "";
      for (const e of r.dataReadEvents ?? []) {
        if (ui !== undefined) ui.event(e, false);
        const line = applyEventLine(e, ids, ctx.colour.stdout);
        if (line !== undefined) reading += `${line}\n`;
      }
      if (ui === undefined) ctx.print(reading);
    }
    // The ephemeral resources opened and closed while planning, as terraform's UI hook prints them.
    if ((r.ephemeralEvents ?? []).length > 0) {
      let lines = "";
      for (const e of r.ephemeralEvents ?? []) {
        if (ui !== undefined) ui.ephemeralOp(e.address, e.phase, e.action, e.elapsedSeconds ?? 0);
        else lines += `${paintf(ctx.colour.stdout, "[reset][bold]%s: %s", e.address, ephemeralOpText(e.phase, e.action, e.elapsedSeconds ?? 0))}\n`;
      }
      if (ui === undefined) ctx.print(lines);
    }
    if (r.hasErrors) {
      // Terraform still shows what it did plan before the errors (its errored plan: "Terraform planned the following actions, but then
      // encountered a problem:"): `plan` always, `apply` and `destroy` when the plan holds any object's change or output. Nothing is applied.
      const partial = r.partial === true && o.kind !== "refresh" && (o.kind === "plan" || r.plan.changes.length > 0 || (r.plan.outputs ?? []).length > 0);
      if (ui !== undefined) {
        if (partial) {
          ui.plannedChanges(r.plan);
          ui.planSummary(countPlanChanges(r.plan));
          ui.planOutputs(r.plan);
        }
        const sources = new SourceCache(wd.dir);
        for (const d of r.diagnostics) jsonPlanDiagnostic(ui, d, sources);
        return ExitCode.Error;
      }
      if (partial) ctx.print(planText(r.plan, { schemas: providers.schemas, priorState: prior, columns: terminalColumns(ctx.io.stdout), color: ctx.colour.stdout, errored: true }));
      // As terraform's view: the warnings on stdout, the errors on stderr.
      const warned = r.diagnostics.filter((d) => d.severity !== "error");
      if (warned.length > 0) ctx.print(diagnosticsText({ ...r, diagnostics: warned }, wd.dir, ctx.colour.stdout, terminalColumns(ctx.io.stdout)));
      ctx.io.stderr.write(diagnosticsText({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === "error") }, wd.dir, ctx.colour.stderr, terminalColumns(ctx.io.stderr)));
      return ExitCode.Error;
    }
    try {
      if (o.refresh) assertRefreshSafe(r.refreshOutcomes, { allowMassLoss: o.allowMassLoss });
    } catch (e) {
      engineErrorToCli(e);
    }
    // An applying command shows the plan's warnings at the end, before its summary, as terraform does.
    const applying = o.kind === "apply" || o.kind === "destroy";
    const columns = terminalColumns(ctx.io.stdout);
    const warnings = applying ? "" : diagnosticsText(r, wd.dir, ctx.colour.stdout, columns);
    // terraform refresh prints no plan.
    if (o.kind !== "refresh") ctx.print(planText(r.plan, { schemas: providers.schemas, priorState: prior, columns, color: ctx.colour.stdout }));
    if (warnings !== "") ctx.print(warnings);
    const counts = countPlanChanges(r.plan);
    if (ui !== undefined) {
      ui.plannedChanges(r.plan);
      ui.planSummary(counts);
      ui.planOutputs(r.plan);
      if (!applying) {
        const sources = new SourceCache(wd.dir);
        for (const d of r.diagnostics) jsonPlanDiagnostic(ui, d, sources);
      }
    }
    // An apply evaluates the checks again and reports them itself: terraform leaves the plan's `check` block diagnostics out (they were shown before its question, if it asked).
    // (A refresh-only apply stores the plan's check results as they are: its plan's diagnostics stay.)
    let deferred: EnginePlanResult["diagnostics"] = applying ? r.diagnostics.filter((d) => d.fromCheckBlock !== true || r.plan.mode === "refresh-only") : [];
    // Terraform's `Applyable`: an output planned as an update counts even when its renderer shows
    // no change (pow(2, 64) against the 18446744073709550000 its state holds: exit code 2, Note).
    const hasChanges = counts.shown > 0 || (r.plan.outputs ?? []).some((po) => po.action !== "no-op");
    if (o.kind === "plan") {
      // TF_IN_AUTOMATION: terraform leaves out the next step (its PlanNextStep), saved plan or not.
      const automation = (ctx.io.env["TF_IN_AUTOMATION"] ?? "") !== "";
      if (o.out !== undefined) {
        // With the provider selections it was made with (and, from the engine, the configuration's files): the apply of the file checks them.
        const locks = readDependencyLocks(wd.dir);
        await writePlanFile(resolve(wd.dir, o.out), locks === undefined ? r.plan : { ...r.plan, dependencyLocks: locks });
      }
      if (!automation && o.out !== undefined) {
        // Terraform wraps its template for the width, then fills in the path.
        const saved = wordWrap("Saved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    terraform apply %q", columns).trim();
        ctx.print(`${horizontalRule(ctx.colour.stdout, columns)}\n\n${saved.replace("%s", () => o.out!).replace("%q", () => JSON.stringify(o.out))}\n`);
      } else if (!automation && hasChanges) {
        const note = wordWrap(`Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these actions if you run "terraform apply" now.`, columns).trim();
        ctx.print(`${horizontalRule(ctx.colour.stdout, columns)}\n\n${note}\n`);
      }
      return o.detailedExitcode && hasChanges ? ExitCode.Changes : ExitCode.Ok;
    }
    // apply, destroy, refresh.
    // Without changes the apply still runs when there are checks (they are evaluated again and their results stored)
    // or ephemeral resources (terraform opens and closes them), as terraform's.
    const walksEphemerals = o.kind === "apply" && (r.ephemeralEvents ?? []).length > 0;
    if (!hasChanges && o.kind !== "refresh" && (r.plan.checks ?? []).length === 0 && !walksEphemerals) {
      const verb = o.kind === "destroy" ? "Destroy" : "Apply";
      if (ui !== undefined) {
        const sources = new SourceCache(wd.dir);
        for (const d of deferred) jsonPlanDiagnostic(ui, d, sources);
      }
      else ctx.print(formatDiagnostics(deferred, wd.dir, ctx.colour.stdout, { width: columns }));
      let after = prior;
      if (stored !== undefined) {
        // Terraform applies a plan without changes too (only the question is skipped): the plan's refreshed state is
        // written, so a deposed object the refresh found gone (a create_before_destroy replace killed while it destroyed
        // the old object) leaves the state, and a drifted object is stored as read.
        const applied = await applyRefreshedOnly(ctx, engine, snapshots, r, prior, o, ui, wd.dir);
        if (typeof applied === "number") return applied;
        after = applied;
      }
      if (ui !== undefined) {
        // As terraform's apply: the change summary, then the outputs (none after a destroy).
        const outputs = Object.fromEntries([...after.outputs].map(([name, x]) => [name, x.sensitive ? { sensitive: true, typeJson: x.typeJson } : { sensitive: false, typeJson: x.typeJson, valueJson: x.valueJson }]));
        ui.event({ type: "outputs", outputs }, o.kind === "destroy");
        ui.event({ type: "change_summary", operation: o.kind === "destroy" ? "destroy" : "apply", add: 0, change: 0, import: 0, remove: 0, forget: 0 }, o.kind === "destroy");
      }
      ctx.print(`${paint(ctx.colour.stdout, `[reset][bold][green]\n${verb} complete! Resources: ${o.kind === "destroy" ? "0 destroyed" : "0 added, 0 changed, 0 destroyed"}.\n`)}${o.kind === "destroy" ? "" : outputsText(after, ctx.colour.stdout)}`);
      if (stored === undefined && o.kind !== "destroy") await saveState(store, prior);
      return ExitCode.Ok;
    }
    if (!o.autoApprove && o.kind !== "refresh" && hasChanges) {
      // Terraform shows the plan's warnings before its question, and not again.
      if (ui === undefined && r.diagnostics.length > 0) ctx.print(formatDiagnostics(terraformDiagnosticOrder(r.diagnostics), wd.dir, ctx.colour.stdout, { width: columns }));
      deferred = [];
      const question = paint(
        ctx.colour.stdout,
        o.kind === "destroy"
          ? "[reset][bold]\nDo you really want to destroy all resources?[reset]\n  Terraform will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  [bold]Enter a value:[reset] "
          : "[reset][bold]\nDo you want to perform these actions?[reset]\n  Terraform will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  [bold]Enter a value:[reset] ",
      );
      if (!o.input) throw new CliError(CliErrorCode.Usage, "cannot ask for approval with -input=false: add -auto-approve");
      const answer = await promptLine(ctx, question);
      ctx.print("\n");
      if (answer.trim() !== "yes") {
        throw new CliError(CliErrorCode.BadInput, o.kind === "destroy" ? "Destroy cancelled." : "Apply cancelled.", { plain: true });
      }
    }
    return await runApply(ctx, engine, snapshots, r, prior, o, ui, deferred, wd.dir);
  } finally {
    await engine.close();
    await Promise.all([...providers.open].map((p) => p.close().catch(() => undefined)));
    await providers.close();
    uninstall();
    await release();
  }
}

/**
 * A second interrupt during an operation, as terraform's: its words (word-wrapped on stderr,
 * or a `-json` log message) and an `operation canceled` error, then — without waiting for
 * the operation — during an apply its latest durable state snapshot saved once more (after
 * any write under way: the prior state when no object was applied yet, so a working
 * directory without a state gets an empty one, as terraform's), the state lock released (at
 * most 5 s for both), the output flushed and exit 1.
 */
function fatalInterrupt(ctx: CommandContext, dir: string, ui: JsonUi | undefined, snapshots: ApplySnapshots, release: () => Promise<void>): void {
  const canceled = { severity: "error", summary: "operation canceled", detail: "" } as const;
  if (ui !== undefined) {
    ui.message("info", FATAL_INTERRUPT, { type: "log" });
    ui.diagnostic(canceled);
  } else {
    const width = terminalColumns(ctx.io.stderr);
    ctx.io.stderr.write(`${wordWrap(FATAL_INTERRUPT, width)}\n${formatDiagnostics([canceled], dir, ctx.colour.stderr, { width })}`);
  }
  const saved = snapshots.saveLatest().catch(() => undefined);
  const released = Promise.race([saved.then(() => release()).catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  void released.then(flushOutput).finally(() => process.exit(ExitCode.Error));
}

async function applySaved(
  ctx: CommandContext,
  wd: WorkingDir,
  snapshots: ApplySnapshots,
  stored: StateFile | undefined,
  engine: Engine,
  o: OperationOptions,
  ui: JsonUi | undefined,
): Promise<ExitCode> {
  const plan = await readPlanFile(resolve(ctx.cwd, o.planFile!)).catch(engineErrorToCli);
  if (!sameDependencyLocks(plan.dependencyLocks, readDependencyLocks(wd.dir))) {
    throw new CliError(CliErrorCode.BadInput, "Inconsistent dependency lock file", {
      detail: "The given plan file was created with a different set of external dependency selections than the current configuration. A saved plan can be applied only to the same configuration it was created from.\n\nCreate a new plan from the updated configuration.",
    });
  }
  // The variables given now: the ephemeral ones set when planning must be set again (terraform keeps no ephemeral value in a plan).
  const config = (plan.configSnapshot !== undefined ? configFromSnapshot(plan.configSnapshot) : loadConfig(wd.dir)).config;
  const vars = savedPlanVariables(config.module, plan, { dir: wd.dir, args: o.variableArgs, env: ctx.io.env });
  if (vars.diagnostics.some((d) => d.severity === "error")) {
    if (ui !== undefined) {
      const sources = new SourceCache(wd.dir);
      for (const d of vars.diagnostics) jsonPlanDiagnostic(ui, d, sources);
    } else {
      // As terraform's view: warnings on stdout, errors on stderr.
      const warnings = vars.diagnostics.filter((d) => d.severity === "warning");
      if (warnings.length > 0) ctx.print(formatDiagnostics(warnings, wd.dir, ctx.colour.stdout, { width: terminalColumns(ctx.io.stdout) }));
      ctx.io.stderr.write(formatDiagnostics(vars.diagnostics.filter((d) => d.severity === "error"), wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
    }
    return ExitCode.Error;
  }
  const prior = stored ?? { ...newStateFile(), lineage: plan.prior.lineage };
  ui?.plannedChanges(plan);
  return runApply(ctx, engine, snapshots, plan, prior, o, ui, vars.diagnostics, wd.dir, wd.dir, vars.values);
}

/** The working directory's dependency lock file text; undefined when there is none. */
function readDependencyLocks(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, LOCK_FILE_NAME), "utf8");
  } catch {
    return undefined;
  }
}

/** Whether two dependency lock files select the same providers (versions, constraints, hashes), as terraform's `Locks.Equal`. */
function sameDependencyLocks(a: string | undefined, b: string | undefined): boolean {
  const selections = (text: string | undefined): string => JSON.stringify([...parseLockFile(text ?? "")].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return selections(a) === selections(b);
}

/**
 * Applies a plan through `engine.apply` (the same apply path as the engine's API): the
 * state persisted through the backend after every object, live progress, Ctrl-C as a
 * graceful stop. A saved plan is applied with its configuration directory.
 */
async function runApply(
  ctx: CommandContext,
  engine: Engine,
  snapshots: ApplySnapshots,
  plan: EnginePlanResult | Plan,
  prior: StateFile,
  o: OperationOptions,
  ui: JsonUi | undefined,
  planWarnings: EnginePlanResult["diagnostics"],
  dir: string,
  configDir?: string,
  applyTimeVariables?: Readonly<Record<string, Value>>,
): Promise<ExitCode> {
  const mode = "applyScope" in plan ? plan.plan.mode : plan.mode;
  // The apply's warnings (e.g. "Applied changes may be incomplete" after a targeted plan) come from its result;
  // in -json they are emitted with the plan's, before the apply's change_summary, as terraform does.
  let applyWarnings: readonly Diag[] = [];
  let warned = false;
  const warnJson = (): void => {
    if (warned || ui === undefined) return;
    warned = true;
    const sources = new SourceCache(dir);
    for (const d of planWarnings) jsonPlanDiagnostic(ui, d, sources);
    for (const d of applyWarnings) ui.diagnostic(d);
  };
  const targeted = ("applyScope" in plan ? plan.plan.targets : plan.targets) !== undefined;
  if (targeted) applyWarnings = [{ severity: "warning", summary: TARGETED_APPLY_WARNING.summary, detail: TARGETED_APPLY_WARNING.detail }];
  const controller = new AbortController();
  /** The objects whose apply is under way (`address\0deposed key`), and those that were when the stop came. */
  const inFlight = new Set<string>();
  /** The apply's change summary (terraform counts an imported or moved object without changes as neither added nor changed). */
  let summary: { add: number; change: number; import: number; remove: number } | undefined;
  let stoppedInFlight: number | undefined;
  const onAbort = (): void => {
    if (ui !== undefined) {
      // terraform -json: the same notice as two log messages.
      ui.message("info", INTERRUPT_NOTICE.slice(0, INTERRUPT_NOTICE.indexOf("\nStopping operation...")), { type: "log" });
      ui.message("info", "Stopping operation...", { type: "log" });
    } else ctx.print(INTERRUPT_NOTICE);
    stoppedInFlight = inFlight.size;
    controller.abort(ctx.signal?.reason);
  };
  if (ctx.signal?.aborted === true) onAbort();
  else ctx.signal?.addEventListener("abort", onAbort, { once: true });
  const ids = new Map<string, string>();
  snapshots.start(prior);
  // -json: the change summary and the outputs wait for the result (terraform prints neither after a failed apply).
  const held: EngineEvent[] = [];
  let result: ApplyResult;
  try {
    result = await engine
      .apply(plan, {
        state: prior,
        persist: (s) => snapshots.save(s),
        ...(configDir === undefined ? {} : { config: configDir }),
        ...(applyTimeVariables === undefined ? {} : { variables: applyTimeVariables }),
        parallelism: o.parallelism,
        signal: controller.signal,
        ...(o.importOnConflict === true
          ? {
              onCreateConflict: createImportOnConflict({
                all: true,
                // Tell the user about every conflict it looked at (adopted, or why not).
                onDecision: (d) => {
                  if (d.outcome === "not-a-conflict") return;
                  const text = `${d.address}: import on conflict: ${d.outcome}: ${d.detail}`;
                  if (ui !== undefined) ui.message(d.outcome === "adopted" ? "info" : "warn", text, { type: "import_on_conflict", address: d.address, outcome: d.outcome, ...(d.id === undefined ? {} : { id: d.id }) });
                  else ctx.print(`${text}\n`);
                },
              }),
            }
          : {}),
        onEvent: (e) => {
          if (logEvent(ctx, e)) return;
          if (e.type === "change_summary") summary = e;
          if (e.type === "apply_start") inFlight.add(`${e.address}\0${e.deposedKey ?? ""}`);
          else if (e.type === "apply_complete" || e.type === "apply_errored") inFlight.delete(`${e.address}\0${e.deposedKey ?? ""}`);
          if (ui !== undefined) {
            if (e.type === "change_summary" || e.type === "outputs") held.push(e);
            // Errors are reported after the walk, as terraform does (once, with their place in the configuration).
            else if (!(e.type === "diagnostic" && e.diagnostic.severity === "error")) ui.event(e, mode === "destroy");
            return;
          }
          const line = applyEventLine(e, ids, ctx.colour.stdout);
          if (line !== undefined) ctx.print(`${line}\n`);
        },
      })
      .catch(engineErrorToCli);
  } finally {
    ctx.signal?.removeEventListener("abort", onAbort);
  }
  // Terraform writes the state at the end of every apply, failed or stopped too: a working directory without a state gets an empty one (serial 1) even when no object was applied.
  // When a write of this apply failed, the apply's complete state is written once more, and if the backend still refuses it, it goes to errored.tfstate (or is printed).
  const errored = await saveFinalState(ctx, snapshots, result.state, ui, dir);
  const isApplyWarning = (d: Diag): boolean => d.severity === "warning" && applyWarnings.some((w) => w.summary === d.summary);
  // A stop that came once everything was done changes nothing.
  const stopped = stoppedInFlight !== undefined && (stoppedInFlight > 0 || result.interrupted || !result.success);
  if (stopped || !result.success || errored !== undefined) {
    // Terraform's diagnostics after a failed or stopped apply: each failed object's, with its address and its place in the configuration, any other error,
    // and after a stop the "execution halted" errors of its stop hook (two for each object whose apply was under way: its post-apply and state-update hooks).
    // A saved plan's objects are placed in the configuration it carries (what was applied), not in the files as they are now.
    const snapshot = "applyScope" in plan ? undefined : plan.configSnapshot;
    // An object whose only failure is that its state could not be persisted is in errored.tfstate, and terraform's "Failed to save state" says why: no error of its own.
    const failed = errored === undefined ? result.failed : result.failed.filter((f) => !(f.diagnostics.length > 0 && f.diagnostics.every((d) => d.summary === PERSIST_FAILED)));
    const failures = applyFailureDiagnostics(failed, failed.length > 0 ? (snapshot !== undefined ? configFromSnapshot(snapshot) : loadConfig(configDir ?? dir)).config : undefined);
    const accounted = new Set(result.failed.flatMap((f) => f.diagnostics).map((d) => `${d.summary}\n${d.detail ?? ""}`));
    // The engine's own word that the end-of-walk write failed is replaced by terraform's about errored.tfstate.
    const others = result.diagnostics
      .filter((d) => d.severity === "error" && !accounted.has(`${d.summary}\n${d.detail ?? ""}`) && !(errored !== undefined && d.summary === PERSIST_FAILED))
      .map((d) => ({ ...d, detail: d.detail ?? "" }));
    const halted = stopped ? Array.from({ length: Math.max(1, 2 * (stoppedInFlight ?? 0)) }, () => EXECUTION_HALTED) : [];
    const saving = errored?.diagnostics ?? [];
    if (ui === undefined) ctx.io.stderr.write(formatDiagnostics([...terraformDiagnosticOrder([...halted, ...failures, ...others]), ...saving], dir, ctx.colour.stderr, { addresses: true, width: terminalColumns(ctx.io.stderr) }));
    else {
      // terraform -json: in the order the operation collected them (not sorted as its human view sorts them), and no change summary.
      const sources = new SourceCache(dir);
      const all: AddressedDiagnostic[] = [...failures, ...others, ...halted, ...saving];
      for (const d of all) ui.diagnostic(d, d.address, sources);
    }
    // A stopped apply fails as terraform's does (exit 1); what was applied is in the state.
    return ExitCode.Error;
  }
  if (ui !== undefined) {
    warnJson();
    for (const e of held) ui.event(e, mode === "destroy");
    for (const d of result.diagnostics) if (!isApplyWarning(d)) ui.diagnostic(d);
  }
  const colour = ctx.colour.stdout;
  if (ui === undefined) {
    // An object's warning (the engine gives its address) is placed in its block, as terraform's.
    const warnings = result.diagnostics.filter((d) => d.severity === "warning") as readonly AddressedDiagnostic[];
    const placing = warnings.some((d) => d.address !== undefined && d.subject === undefined);
    const snapshot = "applyScope" in plan ? undefined : plan.configSnapshot;
    const config = placing ? (snapshot !== undefined ? configFromSnapshot(snapshot) : loadConfig(configDir ?? dir)).config : undefined;
    const placed = warnings.map((d) => (d.address !== undefined && d.subject === undefined ? placedDiagnostic(d, d.address, config) : { ...d, detail: d.detail ?? "" }));
    // (A plan's diagnostic names its object only when it is a provider's about it, as diagnosticsText.)
    const planned = planWarnings.map(({ address, inConfigBody, ...d }) => (inConfigBody === true && address !== undefined ? { ...d, address } : d));
    ctx.print(formatDiagnostics(terraformDiagnosticOrder([...planned, ...placed]), dir, colour, { addresses: true, width: terminalColumns(ctx.io.stdout) }));
  }
  const c = summary === undefined ? applyCounts(result) : { added: summary.add, changed: summary.change, destroyed: summary.remove };
  const imported = summary?.import ?? 0;
  if (o.kind === "destroy") ctx.print(paint(colour, `[reset][bold][green]\nDestroy complete! Resources: ${c.destroyed} destroyed.\n`));
  else if (o.kind === "refresh") ctx.print(outputsText(result.state, colour));
  else ctx.print(`${paint(colour, `[reset][bold][green]\nApply complete! Resources: ${imported > 0 ? `${imported} imported, ` : ""}${c.added} added, ${c.changed} changed, ${c.destroyed} destroyed.\n`)}${outputsText(result.state, colour)}`);
  return ExitCode.Ok;
}

/**
 * The end of an apply: its complete state saved once more (see {@link ApplySnapshots.finish}),
 * and when the backend still refuses it, kept in errored.tfstate or printed (terraform's
 * "Emergency state dump"). Resolves to what was done then, undefined when the state is stored.
 */
async function saveFinalState(ctx: CommandContext, snapshots: ApplySnapshots, state: StateFile, ui: JsonUi | undefined, dir: string): Promise<ErroredState | undefined> {
  const unsaved = await snapshots.finish(state);
  // errored.tfstate keeps the serial the failed write would have had (state push takes it, as terraform's).
  const errored = unsaved === undefined ? undefined : saveErroredState({ ...state, serial: Math.max(state.serial, snapshots.unsavedSerial) }, unsaved, dir);
  if (errored?.dump !== undefined) {
    if (ui !== undefined) ui.message("info", "Emergency state dump", { state: JSON.parse(errored.dump) as unknown, type: "log" });
    else ctx.io.stderr.write(`${errored.dump}\n`);
  }
  return errored;
}

/**
 * The apply of a plan without changes, as terraform's (it applies such a plan without asking):
 * no provider is called, but what the plan's refresh found is written — an object changed
 * outside stored as read, a deposed object found gone removed — through the engine's apply (so
 * the same writes and serials as any apply). Nothing is printed when it succeeds. Resolves to
 * the state written once it is stored; when a write failed, its diagnostics are printed (the
 * state kept in errored.tfstate as after any apply) and it resolves to exit code 1.
 */
async function applyRefreshedOnly(ctx: CommandContext, engine: Engine, snapshots: ApplySnapshots, plan: EnginePlanResult, prior: StateFile, o: OperationOptions, ui: JsonUi | undefined, dir: string): Promise<ExitCode | StateFile> {
  snapshots.start(prior);
  const result = await engine.apply(plan, { state: prior, persist: (s) => snapshots.save(s), parallelism: o.parallelism }).catch(engineErrorToCli);
  const errored = await saveFinalState(ctx, snapshots, result.state, ui, dir);
  if (result.success && errored === undefined) return result.state;
  const errors: AddressedDiagnostic[] = [
    ...result.diagnostics.filter((d) => d.severity === "error" && !(errored !== undefined && d.summary === PERSIST_FAILED)).map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "" })),
    ...(errored?.diagnostics ?? []),
  ];
  if (ui !== undefined) for (const d of errors) ui.diagnostic(d);
  else ctx.io.stderr.write(formatDiagnostics(errors, dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
  return ExitCode.Error;
}

/**
 * Writes an engine `log` event to the run's log (`TF_LOG`), as terraform's core logs it
 * (e.g. what a provider on the legacy type system is forgiven); nothing without `TF_LOG`.
 * Whether the event was one.
 */
function logEvent(ctx: CommandContext, e: EngineEvent): boolean {
  if (e.type !== "log") return false;
  terraformLogFor(ctx.io.env)?.log(e.level, e.message);
  return true;
}

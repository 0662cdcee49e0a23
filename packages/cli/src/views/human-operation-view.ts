import { createInterface } from "node:readline";
import { planText, type ApplyResult, type EngineEvent, type EphemeralOpEvent, type ImportOnConflictDecision, type Plan, type PlanDiagnostic, type PlanMode } from "@magma/engine";
import { decodeOutput, type StateFile } from "@magma/state";
import type { Config } from "@magma/config";
import type { Diag } from "@magma/provider-api";
import type { CliIo } from "../cli-io.js";
import { paint, paintf } from "../colour.js";
import type { Colour } from "../decide-colour.js";
import { FATAL_INTERRUPT } from "../fatal-interrupt.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import { placedDiagnostic } from "../workdir/apply-failure-diagnostics.js";
import { terraformDiagnosticOrder } from "../workdir/terraform-diagnostic-order.js";
import { applyEventLine, ephemeralOpText } from "../workdir/apply-progress.js";
import { formatDiagnostics, type AddressedDiagnostic } from "../workdir/format-diagnostic.js";
import { formatValue } from "../workdir/format-value.js";
import { INTERRUPT_NOTICE } from "./interrupt-notice.js";
import type { ApplyFailure, AppliedOperation, OperationKind, OperationView, PlannedImport, PlannedOperation, RefreshedObject } from "./operation-view.js";

/** What {@link HumanOperationView} writes to and how. */
export interface HumanOperationViewOptions {
  /** The operation shown. */
  readonly kind: OperationKind;
  /** stdout (the plan, progress, results), stderr (errors), stdin (the approval's answer). */
  readonly io: Pick<CliIo, "stdout" | "stderr" | "stdin">;
  /** Whether each stream is coloured. */
  readonly colour: Colour;
  /** The working directory: the diagnostics' file names are relative to it. */
  readonly dir: string;
  /** `TF_IN_AUTOMATION`: leave out the next steps a person would take (terraform's `inAutomation`). */
  readonly inAutomation: boolean;
  /** Interrupts the approval's question. */
  readonly signal?: AbortSignal;
}

/**
 * Terraform's human view of an operation (its `OperationHuman`, `PlanHuman`, `ApplyHuman`
 * and `UiHook`): the plan as text, progress lines, diagnostics boxed or plain for each
 * stream's width, the question, and the result with the outputs.
 */
export class HumanOperationView implements OperationView {
  readonly #o: HumanOperationViewOptions;
  /** Each object's id from its start event, for the "Still …" lines. */
  readonly #ids = new Map<string, string>();
  /** The apply's change summary (terraform counts an imported or moved object without changes as neither added nor changed). */
  #summary: { readonly add: number; readonly change: number; readonly import: number; readonly remove: number } | undefined;

  /** A view writing to the streams of `options`. */
  constructor(options: HumanOperationViewOptions) {
    this.#o = options;
  }

  #print(text: string): void {
    this.#o.io.stdout.write(text);
  }

  #columns(): number {
    return terminalColumns(this.#o.io.stdout);
  }

  #errColumns(): number {
    return terminalColumns(this.#o.io.stderr);
  }

  /** Nothing: the human output has no heading. */
  begin(): void {}

  /** `ADDR: Refreshing state... [id=…]` for each object (a deposed one as `ADDR (deposed object KEY)`). */
  refreshed(objects: readonly RefreshedObject[]): void {
    let refreshing = "";
    for (const { address, deposedKey, id } of objects) {
      const shown = deposedKey === undefined ? address : `${address} (deposed object ${deposedKey})`;
      refreshing += `${paintf(this.#o.colour.stdout, "[reset][bold]%s: Refreshing state...%s", shown, id === undefined ? "" : ` [id=${id}]`)}\n`;
    }
    this.#print(refreshing);
  }

  /** `ADDR: Preparing import... [id=…]` and the refresh of what was imported, for each object. */
  importsPlanned(imports: readonly PlannedImport[]): void {
    let importing = "";
    for (const c of imports) {
      importing += `${paintf(this.#o.colour.stdout, "[reset][bold]%s: Preparing import... [id=%s]", c.address, c.importId)}\n`;
      importing += `${paintf(this.#o.colour.stdout, "[reset][bold]%s: Refreshing state...%s", c.address, c.id === undefined ? "" : ` [id=${c.id}]`)}\n`;
    }
    this.#print(importing);
  }

  /** `data.x.y: Reading...`, `Read complete after 0s [id=…]`. */
  dataRead(events: readonly EngineEvent[]): void {
    if (events.length === 0) return;
    const ids = new Map<string, string>();
    let reading = "";
    for (const e of events) {
      const line = applyEventLine(e, ids, this.#o.colour.stdout);
      if (line !== undefined) reading += `${line}\n`;
    }
    this.#print(reading);
  }

  /** `ephemeral.x.y: Opening...`, `Closing complete after 0s`. */
  ephemeralOps(events: readonly EphemeralOpEvent[]): void {
    if (events.length === 0) return;
    let lines = "";
    for (const e of events) lines += `${paintf(this.#o.colour.stdout, "[reset][bold]%s: %s", e.address, ephemeralOpText(e.phase, e.action, e.elapsedSeconds ?? 0))}\n`;
    this.#print(lines);
  }

  /** terraform's errored plan ("Planning failed.") on stdout when there is one, the diagnostics on stderr. */
  planFailed(partial: PlannedOperation | undefined, diagnostics: readonly PlanDiagnostic[]): void {
    if (partial !== undefined) this.#print(planText(partial.plan, { schemas: partial.schemas, priorState: partial.prior, columns: this.#columns(), color: this.#o.colour.stdout, errored: true }));
    // As terraform's view: the warnings on stdout, the errors on stderr.
    const warned = diagnostics.filter((d) => d.severity !== "error");
    if (warned.length > 0) this.#print(planDiagnosticsText(warned, this.#o.dir, this.#o.colour.stdout, this.#columns()));
    this.#o.io.stderr.write(planDiagnosticsText(diagnostics.filter((d) => d.severity === "error"), this.#o.dir, this.#o.colour.stderr, this.#errColumns()));
  }

  /** The plan as text (none for `refresh`), then the diagnostics. */
  planned(planned: PlannedOperation, diagnostics: readonly PlanDiagnostic[]): void {
    const columns = this.#columns();
    const warnings = planDiagnosticsText(diagnostics, this.#o.dir, this.#o.colour.stdout, columns);
    // terraform refresh prints no plan.
    if (this.#o.kind !== "refresh") this.#print(planText(planned.plan, { schemas: planned.schemas, priorState: planned.prior, columns, color: this.#o.colour.stdout }));
    if (warnings !== "") this.#print(warnings);
  }

  /** terraform's `PlanNextStep`: a rule, then where the plan was saved or the note about `-out` (nothing in automation). */
  planNextStep(savedTo: string | undefined, hasChanges: boolean): void {
    if (this.#o.inAutomation) return;
    const columns = this.#columns();
    if (savedTo !== undefined) {
      // Terraform wraps its template for the width, then fills in the path.
      const saved = wordWrap("Saved the plan to: %s\n\nTo perform exactly these actions, run the following command to apply:\n    terraform apply %q", columns).trim();
      this.#print(`${horizontalRule(this.#o.colour.stdout, columns)}\n\n${saved.replace("%s", () => savedTo).replace("%q", () => JSON.stringify(savedTo))}\n`);
    } else if (hasChanges) {
      const note = wordWrap(`Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these actions if you run "terraform apply" now.`, columns).trim();
      this.#print(`${horizontalRule(this.#o.colour.stdout, columns)}\n\n${note}\n`);
    }
  }

  /** The diagnostics on stderr. */
  variablesInvalid(diagnostics: readonly PlanDiagnostic[]): void {
    // As terraform's view: warnings on stdout, errors on stderr.
    const warnings = diagnostics.filter((d) => d.severity === "warning");
    if (warnings.length > 0) this.#print(formatDiagnostics(warnings, this.#o.dir, this.#o.colour.stdout, { width: this.#columns() }));
    this.#o.io.stderr.write(formatDiagnostics(diagnostics.filter((d) => d.severity === "error"), this.#o.dir, this.#o.colour.stderr, { width: this.#errColumns() }));
  }

  /** Nothing: terraform shows no saved plan before applying it. */
  savedPlan(_plan: Plan): void {}

  /** The diagnostics on stdout, as they come. */
  deferredWarnings(diagnostics: readonly PlanDiagnostic[]): void {
    this.#print(formatDiagnostics(diagnostics, this.#o.dir, this.#o.colour.stdout, { width: this.#columns() }));
  }

  /** The diagnostics on stdout, in terraform's order. */
  warningsBeforeApproval(diagnostics: readonly PlanDiagnostic[]): void {
    if (diagnostics.length > 0) this.#print(formatDiagnostics(terraformDiagnosticOrder(diagnostics), this.#o.dir, this.#o.colour.stdout, { width: this.#columns() }));
  }

  /** terraform's question, answered by a line of stdin ("" at its end); a line end after the answer. */
  async askApproval(): Promise<string | undefined> {
    const question = paint(
      this.#o.colour.stdout,
      this.#o.kind === "destroy"
        ? "[reset][bold]\nDo you really want to destroy all resources?[reset]\n  Terraform will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  [bold]Enter a value:[reset] "
        : "[reset][bold]\nDo you want to perform these actions?[reset]\n  Terraform will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  [bold]Enter a value:[reset] ",
    );
    const answer = await this.#promptLine(question);
    if (answer !== undefined) this.#print("\n");
    return answer;
  }

  /** Reads one line of stdin after the question; "" at end of input (or without stdin); undefined when interrupted. */
  async #promptLine(question: string): Promise<string | undefined> {
    const stdin = this.#o.io.stdin;
    if (stdin === undefined) return "";
    this.#print(question);
    const rl = createInterface({ input: stdin, terminal: false });
    const signal = this.#o.signal;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<string | undefined>((resolveLine) => {
        onAbort = (): void => resolveLine(undefined);
        signal?.addEventListener("abort", onAbort, { once: true });
        rl.once("line", (l) => resolveLine(l));
        rl.once("close", () => resolveLine(""));
      });
    } finally {
      if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
      rl.close();
    }
  }

  /** Nothing: the human view words a destroy's objects as it words any apply's. */
  applyStarting(_mode: PlanMode | undefined): void {}

  /** terraform's UI hook lines (`aws_x.y: Creating...`, `Still creating... [10s elapsed]`, …); the change summary is kept for the result. */
  applyEvent(e: EngineEvent): void {
    if (e.type === "change_summary") this.#summary = e;
    const line = applyEventLine(e, this.#ids, this.#o.colour.stdout);
    if (line !== undefined) this.#print(`${line}\n`);
  }

  /** `ADDR: import on conflict: OUTCOME: DETAIL`. */
  importOnConflict(d: ImportOnConflictDecision): void {
    this.#print(`${d.address}: import on conflict: ${d.outcome}: ${d.detail}\n`);
  }

  /** terraform's "Interrupt received." notice and "Stopping operation...". */
  interrupted(): void {
    this.#print(INTERRUPT_NOTICE);
  }

  /** terraform's words, word-wrapped on stderr, and an `operation canceled` error. */
  fatalInterrupt(): void {
    const width = this.#errColumns();
    this.#o.io.stderr.write(`${wordWrap(FATAL_INTERRUPT, width)}\n${formatDiagnostics([CANCELED], this.#o.dir, this.#o.colour.stderr, { width })}`);
  }

  /** The state's text on stderr. */
  emergencyDumpState(dump: string): void {
    this.#o.io.stderr.write(`${dump}\n`);
  }

  /** The diagnostics on stderr, in terraform's order, with the objects' addresses; the saving's last. */
  applyFailed(f: ApplyFailure): void {
    // As terraform's view: the warnings (consolidated) on stdout first, then the errors on stderr.
    if (f.warnings !== undefined) {
      const warnings = this.#warnings(f.warnings.planWarnings, f.warnings.applyWarnings, f.warnings.config);
      if (warnings.length > 0) this.#print(formatDiagnostics(warnings, this.#o.dir, this.#o.colour.stdout, { addresses: true, width: this.#columns() }));
    }
    const diags = [...terraformDiagnosticOrder([...f.halted, ...f.failures, ...f.others]), ...f.saving];
    this.#o.io.stderr.write(formatDiagnostics(diags, this.#o.dir, this.#o.colour.stderr, { addresses: true, width: this.#errColumns() }));
  }

  /** The errors on stderr. */
  stateWriteFailed(errors: readonly AddressedDiagnostic[]): void {
    this.#o.io.stderr.write(formatDiagnostics(errors, this.#o.dir, this.#o.colour.stderr, { width: this.#errColumns() }));
  }

  /** The warnings (an object's placed in its block), then "Apply complete! …" (or "Destroy complete! …") and the outputs. */
  applied(a: AppliedOperation): void {
    const colour = this.#o.colour.stdout;
    this.#print(formatDiagnostics(this.#warnings(a.planWarnings, a.result.diagnostics, a.config), this.#o.dir, colour, { addresses: true, width: this.#columns() }));
    const c = this.#summary === undefined ? applyCounts(a.result) : { added: this.#summary.add, changed: this.#summary.change, destroyed: this.#summary.remove };
    const imported = this.#summary?.import ?? 0;
    if (this.#o.kind === "destroy") this.#print(paint(colour, `[reset][bold][green]\nDestroy complete! Resources: ${c.destroyed} destroyed.\n`));
    else if (this.#o.kind === "refresh") this.#print(outputsText(a.result.state, colour));
    else this.#print(`${paint(colour, `[reset][bold][green]\nApply complete! Resources: ${imported > 0 ? `${imported} imported, ` : ""}${c.added} added, ${c.changed} changed, ${c.destroyed} destroyed.\n`)}${outputsText(a.result.state, colour)}`);
  }

  /** The plan's and the apply's warnings in terraform's order, an object's warning (the engine gives its address) placed in its block, as terraform's. */
  #warnings(planWarnings: readonly PlanDiagnostic[], applyDiagnostics: readonly Diag[], config: () => Config): AddressedDiagnostic[] {
    const warnings = applyDiagnostics.filter((d) => d.severity === "warning") as readonly AddressedDiagnostic[];
    const placing = warnings.some((d) => d.address !== undefined && d.subject === undefined);
    const cfg = placing ? config() : undefined;
    const placed = warnings.map((d) => (d.address !== undefined && d.subject === undefined ? placedDiagnostic(d, d.address, cfg) : { ...d, detail: d.detail ?? "" }));
    // (A plan's diagnostic names its object only when it is a provider's about it, as planDiagnosticsText.)
    const planned = planWarnings.map(({ address, inConfigBody, ...d }) => (inConfigBody === true && address !== undefined ? { ...d, address } : d));
    return terraformDiagnosticOrder([...planned, ...placed]);
  }

  /** "Apply complete! Resources: 0 added, 0 changed, 0 destroyed." and the outputs (or "Destroy complete! Resources: 0 destroyed."). */
  appliedNothing(state: StateFile): void {
    const colour = this.#o.colour.stdout;
    const destroy = this.#o.kind === "destroy";
    this.#print(`${paint(colour, `[reset][bold][green]\n${destroy ? "Destroy" : "Apply"} complete! Resources: ${destroy ? "0 destroyed" : "0 added, 0 changed, 0 destroyed"}.\n`)}${destroy ? "" : outputsText(state, colour)}`);
  }
}

/** The error terraform reports after a second interrupt. */
const CANCELED: AddressedDiagnostic = { severity: "error", summary: "operation canceled", detail: "" };

/** A plan's diagnostics as terraform prints them: a provider's diagnostic about an object with its address (`with ADDR,`), in terraform's order. */
function planDiagnosticsText(diagnostics: readonly PlanDiagnostic[], dir: string, color: boolean, width: number): string {
  const shown = diagnostics.map(({ address, inConfigBody, ...d }) => (inConfigBody === true && address !== undefined ? { ...d, address } : d));
  return formatDiagnostics(terraformDiagnosticOrder(shown), dir, color, { width, addresses: true });
}

/** Terraform's grey horizontal rule (its `format.HorizontalRule`: one column short of the width), from a new line, without the line end. */
function horizontalRule(color: boolean, width: number): string {
  return paint(color, `[dark_gray]\n${"─".repeat(Math.max(width - 1, 0))}`);
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

/** Resources counted as Terraform's "Apply complete!" line counts them, from the objects applied. */
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

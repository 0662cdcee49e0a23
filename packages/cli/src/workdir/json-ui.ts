import { changeReason, type EngineEvent, type Plan, type PlanCounts, type PlannedInstanceChange } from "@magma/engine";
import type { Diag } from "@magma/provider-api";
import { formatModuleInstance, parseResourceInstance } from "@magma/state";
import { applyEventLine, ephemeralOpText } from "./apply-progress.js";
import { diagnosticRangeJson } from "./diagnostic-range-json.js";
import { snippetOf, type AddressedDiagnostic, type SourceCache } from "./format-diagnostic.js";

/** The `resource` object of Terraform's machine-readable UI messages. */
export function jsonUiResource(address: string): Record<string, unknown> {
  const a = parseResourceInstance(address);
  const module = formatModuleInstance(a.module);
  const resource = module === "" ? address : address.slice(module.length + 1);
  return {
    addr: address,
    module,
    resource,
    implied_provider: a.type.split("_")[0] ?? a.type,
    resource_type: a.type,
    resource_name: a.name,
    resource_key: a.key ?? null,
  };
}

/** A timestamp as Terraform's UI writes it (RFC 3339, microseconds, UTC). */
function timestamp(now: Date): string {
  return now.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

const PLANNED: Readonly<Record<string, string>> = {
  create: "create",
  update: "update",
  delete: "delete",
  "delete-then-create": "replace",
  "create-then-delete": "replace",
  read: "read",
  forget: "remove",
};

/**
 * Terraform's machine-readable UI (`-json`, UI version 1.2): one JSON object a line with
 * `@level`, `@message`, `@module` (`terraform.ui`), `@timestamp`, `type` and the type's
 * fields, keys in Terraform's order.
 */
export class JsonUi {
  readonly #write: (line: string) => void;
  readonly #now: () => Date;
  readonly #ids = new Map<string, string>();
  #pendingOutputs: (() => void) | undefined;

  /** Writes each message as one line through `write`. */
  constructor(write: (line: string) => void, now: () => Date = () => new Date()) {
    this.#write = write;
    this.#now = now;
  }

  /** Writes one message: the fields beyond `@…` are sorted by key as Go marshals Terraform's map. */
  message(level: string, message: string, fields: Record<string, unknown>): void {
    const doc: Record<string, unknown> = { "@level": level, "@message": message, "@module": "terraform.ui", "@timestamp": timestamp(this.#now()) };
    for (const k of Object.keys(fields).sort()) doc[k] = fields[k];
    // Go's encoder escapes `<`, `>`, `&`, U+2028 and U+2029 (HTML-safe JSON), as terraform's lines have them.
    this.#write(`${JSON.stringify(doc).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`);
  }

  /** The first message: `Terraform 1.11.4`. */
  version(): void {
    this.message("info", "Terraform 1.11.4", { terraform: "1.11.4", type: "version", ui: "1.2" });
  }

  /**
   * One `planned_change` per change that is not a no-op, in address order; in a destroy plan
   * in the order terraform's destroy walk plans them: an object after the objects that depend on it.
   */
  plannedChanges(plan: Plan): void {
    const sorted = [...plan.changes].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    for (const c of plan.mode === "destroy" ? destroyOrder(sorted) : sorted) {
      const action = PLANNED[c.action];
      if (action === undefined) continue;
      const change: Record<string, unknown> = { resource: jsonUiResource(c.address), action };
      // As terraform: the reason of a replace, a delete or a deferred read (`replace_triggered_by`, `delete_because_count_index`, `read_because_config_unknown`, …).
      const reason = changeReason(c);
      if (reason !== undefined) change["reason"] = reason;
      const verb = action === "remove" ? "Plan to forget" : `Plan to ${action}`;
      this.message("info", `${c.address}: ${verb}`, { change, type: "planned_change" });
    }
  }

  /** The plan's `change_summary`. */
  planSummary(counts: PlanCounts): void {
    // terraform's JSON view always counts ("Plan: 0 to add, …" where the human view says "No changes.").
    const message = `Plan: ${counts.import > 0 ? `${counts.import} to import, ` : ""}${counts.add} to add, ${counts.change} to change, ${counts.destroy} to destroy.`;
    this.message("info", message, { changes: { add: counts.add, change: counts.change, import: counts.import, remove: counts.destroy, operation: "plan" }, type: "change_summary" });
  }

  /** The plan's `outputs`: the changing outputs with their actions. */
  planOutputs(plan: Plan): void {
    // As terraform, unchanged outputs too (action "noop").
    const outs = plan.outputs ?? [];
    if (outs.length === 0) return;
    const outputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const o of [...outs].sort((a, b) => (a.name < b.name ? -1 : 1))) outputs[o.name] = { sensitive: o.sensitive, action: o.action === "no-op" ? "noop" : o.action };
    this.message("info", `Outputs: ${outs.length}`, { outputs, type: "outputs" });
  }

  /**
   * A diagnostic; with `sources`, one with a subject also gets its `range` and `snippet`
   * (as terraform's, for an object's diagnostic placed in its configuration).
   */
  diagnostic(d: Diag | AddressedDiagnostic, address?: string, sources?: SourceCache): void {
    const diagnostic: Record<string, unknown> = { severity: d.severity, summary: d.summary, detail: d.detail ?? "" };
    if (address !== undefined) diagnostic["address"] = address;
    const subject = "subject" in d ? d.subject : undefined;
    if (subject !== undefined && sources !== undefined) {
      diagnostic["range"] = diagnosticRangeJson(subject);
      const snippet = snippetOf(sources, subject, "values" in d ? d.values : undefined, "functionCall" in d ? d.functionCall : undefined);
      if (snippet !== undefined) diagnostic["snippet"] = snippet;
    }
    this.message(d.severity === "error" ? "error" : "warn", `${d.severity === "error" ? "Error" : "Warning"}: ${d.summary}`, { diagnostic, type: "diagnostic" });
  }

  /** An apply event of the engine, as Terraform's hook messages. */
  event(e: EngineEvent, destroy: boolean): void {
    switch (e.type) {
      case "apply_start":
      case "apply_progress":
      case "apply_complete":
      case "apply_errored": {
        const human = applyEventLine(e, this.#ids) ?? `${e.address}: Apply errored`;
        // Terraform's JSON hook words a read as a refresh ("Refreshing...", "Refresh complete after 0s"), its human one as a read.
        const line = e.action === "read" ? human.replace(": Reading...", ": Refreshing...").replace(": Still reading...", ": Still refreshing...").replace(": Read complete after", ": Refresh complete after") : human;
        const hook: Record<string, unknown> = { resource: jsonUiResource(e.address), action: e.action };
        if (e.type !== "apply_errored" && e.type !== "apply_progress" && e.idKey !== undefined && e.idValue !== undefined && !(e.type === "apply_complete" && e.action === "delete")) {
          hook["id_key"] = e.idKey;
          hook["id_value"] = e.idValue;
        }
        if (e.type !== "apply_start") hook["elapsed_seconds"] = e.elapsedSeconds;
        const message = e.type === "apply_errored" ? `${e.address}: ${e.action === "delete" ? "Destruction" : e.action === "create" ? "Creation" : "Modifications"} errored after ${e.elapsedSeconds}s` : line;
        // terraform logs an object's failure at info level; its diagnostics come after the walk, with the others.
        this.message("info", message, { hook, type: e.type });
        return;
      }
      case "change_summary": {
        const text = destroy ? `Destroy complete! Resources: ${e.remove} destroyed.` : `Apply complete! Resources: ${e.import > 0 ? `${e.import} imported, ` : ""}${e.add} added, ${e.change} changed, ${e.remove} destroyed.`;
        this.message("info", text, { changes: { add: e.add, change: e.change, import: e.import, remove: e.remove, operation: e.operation }, type: "change_summary" });
        // Terraform prints the outputs after the summary.
        this.#pendingOutputs?.();
        this.#pendingOutputs = undefined;
        return;
      }
      case "outputs": {
        // terraform destroy renders no outputs.
        if (destroy) return;
        const outputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
        const names = Object.keys(e.outputs).sort();
        for (const n of names) {
          const o = e.outputs[n]!;
          outputs[n] = o.valueJson === undefined ? { sensitive: o.sensitive, type: JSON.parse(o.typeJson) as unknown } : { sensitive: o.sensitive, type: JSON.parse(o.typeJson) as unknown, value: JSON.parse(o.valueJson) as unknown };
        }
        this.#pendingOutputs = () => this.message("info", `Outputs: ${names.length}`, { outputs, type: "outputs" });
        return;
      }
      case "diagnostic":
        this.diagnostic(e.diagnostic, e.address);
        return;
      case "ephemeral_op_start":
        this.ephemeralOp(e.address, "start", e.action, 0);
        return;
      case "ephemeral_op_complete":
        this.ephemeralOp(e.address, "complete", e.action, e.elapsedSeconds);
        return;
      default:
        return;
    }
  }

  /** An ephemeral resource instance's operation, as terraform's `ephemeral_op_start` / `ephemeral_op_complete` messages. */
  ephemeralOp(address: string, phase: "start" | "complete", action: "open" | "renew" | "close", elapsedSeconds: number): void {
    const hook = { resource: jsonUiResource(address), action, ...(phase === "complete" ? { elapsed_seconds: elapsedSeconds } : {}) };
    this.message("info", `${address}: ${ephemeralOpText(phase, action, elapsedSeconds)}`, { hook, type: phase === "start" ? "ephemeral_op_start" : "ephemeral_op_complete" });
  }
}

/** The resource (configuration) address of an instance address: its instance keys removed (`module.m[0].aws_x.y["k"]` → `module.m.aws_x.y`). */
function configAddress(address: string): string {
  return address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[0-9]+)\]/g, "");
}

/** Changes ordered so that each comes after every change whose object depends on it (by its recorded dependencies), else by address. */
function destroyOrder(changes: readonly PlannedInstanceChange[]): PlannedInstanceChange[] {
  const out: PlannedInstanceChange[] = [];
  const left = [...changes];
  while (left.length > 0) {
    const i = left.findIndex((c) => !left.some((o) => o !== c && (o.dependencies ?? []).includes(configAddress(c.address))));
    out.push(...left.splice(i < 0 ? 0 : i, 1));
  }
  return out;
}

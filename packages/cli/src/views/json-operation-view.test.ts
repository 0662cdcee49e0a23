import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApplyResult, Plan } from "@magma/engine";
import { newStateFile, type StateFile } from "@magma/state";
import { JsonOperationView } from "./json-operation-view.js";
import type { OperationKind } from "./operation-view.js";

/** A view collecting its messages, parsed, without their timestamps (checked once). */
function harness(kind: OperationKind, dir = tmpdir()): { view: JsonOperationView; messages: () => Record<string, unknown>[]; lines: string[] } {
  const lines: string[] = [];
  const view = new JsonOperationView({ kind, dir, write: (l) => lines.push(l), now: () => new Date("2026-01-02T03:04:05.678Z") });
  const messages = (): Record<string, unknown>[] =>
    lines.map((l) => {
      const { "@timestamp": at, "@module": module, ...rest } = JSON.parse(l) as Record<string, unknown>;
      expect({ at, module }).toEqual({ at: "2026-01-02T03:04:05.678000Z", module: "terraform.ui" });
      return rest;
    });
  return { view, messages, lines };
}

const PLAN: Plan = { changes: [], prior: { lineage: "l", serial: 1 }, configDigest: "", identity: "", mode: "normal" };

function stateWith(outputs: Record<string, { valueJson: string; typeJson: string; sensitive: boolean }>): StateFile {
  return { ...newStateFile(), outputs: new Map(Object.entries(outputs)) };
}

function applyResult(state: StateFile, more: Partial<ApplyResult> = {}): ApplyResult {
  return { success: true, state, applied: [], failed: [], skipped: [], canceled: [], interrupted: false, adoptions: [], diagnostics: [], outputs: {}, ...more };
}

const RANDOM_A = { addr: "random_id.a", module: "", resource: "random_id.a", implied_provider: "random", resource_type: "random_id", resource_name: "a", resource_key: null };

describe("JsonOperationView", () => {
  test("the version first; refreshes as refresh_start and refresh_complete (a deposed object under its instance); no message for a planned import", () => {
    const { view, messages, lines } = harness("plan");
    view.begin();
    view.refreshed([{ address: "random_id.a", id: "x" }, { address: "random_id.a", deposedKey: "00000001" }]);
    view.importsPlanned([{ address: "random_id.a", importId: "x" }]);
    expect(lines[0]).toBe('{"@level":"info","@message":"Terraform 1.11.4","@module":"terraform.ui","@timestamp":"2026-01-02T03:04:05.678000Z","terraform":"1.11.4","type":"version","ui":"1.2"}\n');
    expect(messages().slice(1)).toEqual([
      { "@level": "info", "@message": "random_id.a: Refreshing state... [id=x]", hook: { resource: RANDOM_A, id_key: "id", id_value: "x" }, type: "refresh_start" },
      { "@level": "info", "@message": "random_id.a: Refresh complete [id=x]", hook: { resource: RANDOM_A, id_key: "id", id_value: "x" }, type: "refresh_complete" },
      { "@level": "info", "@message": "random_id.a: Refreshing state...", hook: { resource: RANDOM_A }, type: "refresh_start" },
      { "@level": "info", "@message": "random_id.a: Refresh complete", hook: { resource: RANDOM_A }, type: "refresh_complete" },
    ]);
  });

  test("a data read worded as a refresh; ephemeral operations", () => {
    const { view, messages } = harness("plan");
    view.dataRead([{ type: "apply_complete", address: "data.random_id.a", action: "read", idKey: "id", idValue: "d", elapsedSeconds: 0 }]);
    view.ephemeralOps([{ phase: "complete", address: "ephemeral.random_id.a", action: "open", elapsedSeconds: 2 }]);
    expect(messages().map((m) => [m["@message"], m["type"]])).toEqual([
      ["data.random_id.a: Refresh complete after 0s [id=d]", "apply_complete"],
      ["ephemeral.random_id.a: Opening complete after 2s", "ephemeral_op_complete"],
    ]);
  });

  test("a plan: its change_summary always counted (also for refresh, which the human view does not show), then the diagnostics with a provider's object address and snippet", () => {
    const dir = mkdtempSync(join(tmpdir(), "json-view-"));
    writeFileSync(join(dir, "main.tf"), 'resource "x" "y" {\n  a = 1\n}\n');
    const { view, messages } = harness("refresh", dir);
    const subject = { filename: "main.tf", start: { line: 2, column: 3, byte: 21 }, end: { line: 2, column: 8, byte: 26 } };
    view.planned({ plan: PLAN, prior: newStateFile(), schemas: new Map() }, [
      { severity: "warning", summary: "Careful", detail: "d", subject, address: "x.y", inConfigBody: true },
      { severity: "warning", summary: "Not placed", detail: "", address: "var.v" },
    ]);
    view.planNextStep("tf.plan", true);
    const m = messages();
    expect(m[0]).toEqual({ "@level": "info", "@message": "Plan: 0 to add, 0 to change, 0 to destroy.", changes: { add: 0, change: 0, import: 0, remove: 0, operation: "plan" }, type: "change_summary" });
    expect(m[1]).toMatchObject({ "@level": "warn", "@message": "Warning: Careful", type: "diagnostic", diagnostic: { severity: "warning", summary: "Careful", detail: "d", address: "x.y", range: { filename: "main.tf" }, snippet: { context: 'resource "x" "y"', code: "  a = 1" } } });
    expect(m[2]).toEqual({ "@level": "warn", "@message": "Warning: Not placed", diagnostic: { severity: "warning", summary: "Not placed", detail: "" }, type: "diagnostic" });
    expect(m).toHaveLength(3);
  });

  test("an apply: progress as hook messages, error diagnostics left for the end, the summary and outputs held until the result, after the warnings", () => {
    const { view, messages } = harness("apply");
    view.applyStarting("normal");
    view.applyEvent({ type: "apply_start", address: "random_id.a", action: "create" });
    view.applyEvent({ type: "diagnostic", diagnostic: { severity: "error", summary: "later", detail: "" } });
    view.applyEvent({ type: "outputs", outputs: { o: { sensitive: false, typeJson: '"string"', valueJson: '"v"' } } });
    view.applyEvent({ type: "change_summary", operation: "apply", add: 1, change: 0, import: 0, remove: 0, forget: 0 });
    view.applyEvent({ type: "apply_complete", address: "random_id.a", action: "create", idKey: "id", idValue: "x", elapsedSeconds: 1 });
    const targeted = { severity: "warning" as const, summary: "Applied changes may be incomplete", detail: "t" };
    view.applied({
      result: applyResult(newStateFile(), { diagnostics: [targeted, { severity: "warning", summary: "From the apply", detail: "" }] }),
      planWarnings: [{ severity: "warning", summary: "From the plan", detail: "" }],
      applyWarnings: [targeted],
      config: () => fail("the JSON view places nothing"),
    });
    expect(messages().map((m) => m["@message"])).toEqual([
      "random_id.a: Creating...",
      "random_id.a: Creation complete after 1s [id=x]",
      "Warning: From the plan",
      "Warning: Applied changes may be incomplete",
      "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.",
      "Outputs: 1",
      "Warning: From the apply",
    ]);
  });

  test("a destroy plan's apply: 'Destroy complete!' and no outputs", () => {
    const { view, messages } = harness("apply");
    view.applyStarting("destroy");
    view.applyEvent({ type: "outputs", outputs: {} });
    view.applyEvent({ type: "change_summary", operation: "destroy", add: 0, change: 0, import: 0, remove: 2, forget: 0 });
    view.applied({ result: applyResult(newStateFile()), planWarnings: [], applyWarnings: [], config: () => fail("unused") });
    expect(messages()).toEqual([{ "@level": "info", "@message": "Destroy complete! Resources: 2 destroyed.", changes: { add: 0, change: 0, import: 0, remove: 2, operation: "destroy" }, type: "change_summary" }]);
  });

  test("a failed apply: the diagnostics in the order collected (not terraform's human order), the held summary never shown", () => {
    const { view, messages } = harness("apply");
    view.applyEvent({ type: "change_summary", operation: "apply", add: 1, change: 0, import: 0, remove: 0, forget: 0 });
    view.applyFailed({
      halted: [{ severity: "error", summary: "execution halted", detail: "" }],
      failures: [{ severity: "error", summary: "Create failed", detail: "no", address: "a.b" }],
      others: [{ severity: "warning", summary: "Hm", detail: "" }],
      saving: [{ severity: "error", summary: "Failed to save state", detail: "x" }],
    });
    expect(messages().map((m) => [m["@message"], (m["diagnostic"] as { address?: string }).address])).toEqual([
      ["Error: Create failed", "a.b"],
      ["Warning: Hm", undefined],
      ["Error: execution halted", undefined],
      ["Error: Failed to save state", undefined],
    ]);
  });

  test("the apply of nothing: outputs after the change summary, none for destroy", () => {
    const state = stateWith({ s: { valueJson: '"x"', typeJson: '"string"', sensitive: true }, o: { valueJson: "1", typeJson: '"number"', sensitive: false } });
    const apply = harness("apply");
    apply.view.appliedNothing(state);
    expect(apply.messages()).toEqual([
      { "@level": "info", "@message": "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.", changes: { add: 0, change: 0, import: 0, remove: 0, operation: "apply" }, type: "change_summary" },
      { "@level": "info", "@message": "Outputs: 2", outputs: { o: { sensitive: false, type: "number", value: 1 }, s: { sensitive: true, type: "string" } }, type: "outputs" },
    ]);
    const destroy = harness("destroy");
    destroy.view.appliedNothing(state);
    expect(destroy.messages().map((m) => m["@message"])).toEqual(["Destroy complete! Resources: 0 destroyed."]);
  });

  test("interrupts as log messages, the emergency dump with the state, no question", async () => {
    const { view, messages } = harness("apply");
    view.interrupted();
    view.fatalInterrupt();
    view.emergencyDumpState('{"version": 4}');
    view.warningsBeforeApproval([{ severity: "warning", summary: "W", detail: "" }]);
    expect(messages()).toEqual([
      { "@level": "info", "@message": "\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n", type: "log" },
      { "@level": "info", "@message": "Stopping operation...", type: "log" },
      { "@level": "info", "@message": "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n", type: "log" },
      { "@level": "error", "@message": "Error: operation canceled", diagnostic: { severity: "error", summary: "operation canceled", detail: "" }, type: "diagnostic" },
      { "@level": "info", "@message": "Emergency state dump", state: { version: 4 }, type: "log" },
    ]);
    await expect(view.askApproval()).rejects.toThrow("Plan file or auto-approve required");
  });

  test("import on conflict: info when adopted, else warn", () => {
    const { view, messages } = harness("apply");
    view.importOnConflict({ address: "a.b", typeName: "a", outcome: "adopted", detail: "it matches", id: "i-1" });
    view.importOnConflict({ address: "a.c", typeName: "a", outcome: "identity-mismatch", detail: "it differs" });
    expect(messages()).toEqual([
      { "@level": "info", "@message": "a.b: import on conflict: adopted: it matches", address: "a.b", id: "i-1", outcome: "adopted", type: "import_on_conflict" },
      { "@level": "warn", "@message": "a.c: import on conflict: identity-mismatch: it differs", address: "a.c", outcome: "identity-mismatch", type: "import_on_conflict" },
    ]);
  });
});

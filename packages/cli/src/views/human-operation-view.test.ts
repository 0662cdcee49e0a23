import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { ApplyResult, Plan } from "@magma/engine";
import { newStateFile, type StateFile } from "@magma/state";
import { HumanOperationView, type HumanOperationViewOptions } from "./human-operation-view.js";
import type { OperationKind } from "./operation-view.js";

/** A view writing into strings, uncoloured unless asked, with streams of `columns` when given (a terminal's width). */
function harness(kind: OperationKind, more: Partial<Omit<HumanOperationViewOptions, "io">> & { columns?: number; color?: boolean; stdin?: NodeJS.ReadableStream } = {}): { view: HumanOperationView; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  const tty = more.columns === undefined ? {} : { isTTY: true, columns: more.columns };
  const view = new HumanOperationView({
    kind,
    io: { stdout: { ...tty, write: (t: string) => (out += t) }, stderr: { ...tty, write: (t: string) => (err += t) }, ...(more.stdin === undefined ? {} : { stdin: more.stdin }) },
    colour: { stdout: more.color === true, stderr: more.color === true },
    dir: more.dir ?? tmpdir(),
    inAutomation: more.inAutomation ?? false,
    ...(more.signal === undefined ? {} : { signal: more.signal }),
  });
  return { view, out: () => out, err: () => err };
}

const PLAN: Plan = { changes: [], prior: { lineage: "l", serial: 1 }, configDigest: "", identity: "", mode: "normal" };

/** A state whose outputs are `outputs` (go-cty JSON). */
function stateWith(outputs: Record<string, { valueJson: string; typeJson: string; sensitive: boolean }>): StateFile {
  return { ...newStateFile(), outputs: new Map(Object.entries(outputs)) };
}

function applyResult(state: StateFile, more: Partial<ApplyResult> = {}): ApplyResult {
  return { success: true, state, applied: [], failed: [], skipped: [], canceled: [], interrupted: false, adoptions: [], diagnostics: [], outputs: {}, ...more };
}

describe("HumanOperationView", () => {
  test("the plan's refreshes, imports, data reads and ephemeral resources as terraform's UI hook lines", () => {
    const { view, out } = harness("plan");
    view.begin();
    view.refreshed([{ address: "random_id.a", id: "abc" }, { address: "random_id.b", deposedKey: "00000001" }]);
    view.importsPlanned([{ address: "aws_x.y", importId: "i-1", id: "i-1" }]);
    view.dataRead([
      { type: "apply_start", address: "data.x.y", action: "read" },
      { type: "apply_complete", address: "data.x.y", action: "read", idKey: "id", idValue: "d", elapsedSeconds: 0 },
    ]);
    view.ephemeralOps([
      { phase: "start", address: "ephemeral.x.y", action: "open" },
      { phase: "complete", address: "ephemeral.x.y", action: "close", elapsedSeconds: 61 },
    ]);
    expect(out()).toBe(
      [
        "random_id.a: Refreshing state... [id=abc]",
        "random_id.b (deposed object 00000001): Refreshing state...",
        "aws_x.y: Preparing import... [id=i-1]",
        "aws_x.y: Refreshing state... [id=i-1]",
        "data.x.y: Reading...",
        "data.x.y: Read complete after 0s [id=d]",
        "ephemeral.x.y: Opening...",
        "ephemeral.x.y: Closing complete after 1m1s",
        "",
      ].join("\n"),
    );
  });

  test("coloured: bold lines, the apply's starts with terraform's extra reset", () => {
    const { view, out } = harness("apply", { color: true });
    view.refreshed([{ address: "random_id.a" }]);
    view.applyStarting("normal");
    view.applyEvent({ type: "apply_start", address: "random_id.a", action: "create" });
    expect(out()).toBe("\x1b[0m\x1b[1mrandom_id.a: Refreshing state...\x1b[0m\n\x1b[0m\x1b[1mrandom_id.a: Creating...\x1b[0m\x1b[0m\n");
  });

  test("a plan without changes; refresh shows no plan; the next step after -out or the note, none in automation", () => {
    const plan = harness("plan");
    plan.view.planned({ plan: PLAN, prior: newStateFile(), schemas: new Map() }, []);
    expect(plan.out()).toContain("No changes. Your infrastructure matches the configuration.");
    const refresh = harness("refresh");
    refresh.view.planned({ plan: { ...PLAN, mode: "refresh-only" }, prior: newStateFile(), schemas: new Map() }, []);
    expect(refresh.out()).toBe("");

    const saved = harness("plan", { columns: 40 });
    saved.view.planNextStep("tf.plan", false);
    expect(saved.out()).toBe(`\n${"─".repeat(39)}\n\nSaved the plan to: tf.plan\n\nTo perform exactly these actions, run\nthe following command to apply:\n    terraform apply "tf.plan"\n`);
    const note = harness("plan");
    note.view.planNextStep(undefined, true);
    expect(note.out()).toContain(`Note: You didn't use the -out option to save this plan, so Terraform can't\nguarantee to take exactly these actions if you run "terraform apply" now.\n`);
    const none = harness("plan");
    none.view.planNextStep(undefined, false);
    expect(none.out()).toBe("");
    const automation = harness("plan", { inAutomation: true });
    automation.view.planNextStep("tf.plan", true);
    expect(automation.out()).toBe("");
  });

  test("a failed plan: its warnings on stdout, its errors on stderr with a provider's object address and the configuration's snippet", () => {
    const dir = mkdtempSync(join(tmpdir(), "human-view-"));
    writeFileSync(join(dir, "main.tf"), 'resource "x" "y" {\n  a = 1\n}\n');
    const { view, out, err } = harness("plan", { dir });
    const subject = { filename: "main.tf", start: { line: 2, column: 3, byte: 21 }, end: { line: 2, column: 8, byte: 26 } };
    view.planFailed(undefined, [
      { severity: "error", summary: "Bad a", detail: "It is bad.", subject, address: "x.y", inConfigBody: true },
      { severity: "warning", summary: "Careful", detail: "" },
    ]);
    expect(out()).toBe("\nWarning: Careful\n\n");
    expect(err()).toBe('\nError: Bad a\n\n  with x.y,\n  on main.tf line 2, in resource "x" "y":\n   2:   a = 1\n\nIt is bad.\n');
  });

  test("the apply's progress, its summary counted from the change summary, and the outputs sorted, a sensitive one hidden", () => {
    const { view, out } = harness("apply");
    view.applyStarting("normal");
    view.applyEvent({ type: "apply_start", address: "random_id.a", action: "update", idKey: "id", idValue: "x" });
    view.applyEvent({ type: "apply_progress", address: "random_id.a", action: "update", elapsedSeconds: 10 });
    view.applyEvent({ type: "apply_complete", address: "random_id.a", action: "update", idKey: "id", idValue: "x", elapsedSeconds: 12 });
    view.applyEvent({ type: "change_summary", operation: "apply", add: 0, change: 1, import: 2, remove: 0, forget: 0 });
    const state = stateWith({ b: { valueJson: '"s"', typeJson: '"string"', sensitive: true }, a: { valueJson: "1", typeJson: '"number"', sensitive: false } });
    view.applied({ result: applyResult(state), planWarnings: [], applyWarnings: [], config: () => fail("no warning to place") });
    expect(out()).toBe(
      "random_id.a: Modifying... [id=x]\nrandom_id.a: Still modifying... [id=x, 10s elapsed]\nrandom_id.a: Modifications complete after 12s [id=x]\n\nApply complete! Resources: 2 imported, 0 added, 1 changed, 0 destroyed.\n\nOutputs:\n\na = 1\nb = <sensitive>\n",
    );
  });

  test("without a change summary the result's objects are counted; destroy and refresh say their own", () => {
    const destroy = harness("destroy");
    destroy.view.applied({ result: applyResult(newStateFile(), { applied: [{ address: "a.b", action: "delete" }, { address: "a.c", action: "delete" }] }), planWarnings: [], applyWarnings: [], config: () => fail("unused") });
    expect(destroy.out()).toBe("\nDestroy complete! Resources: 2 destroyed.\n");
    const refresh = harness("refresh");
    refresh.view.applied({ result: applyResult(stateWith({ o: { valueJson: '"v"', typeJson: '"string"', sensitive: false } })), planWarnings: [], applyWarnings: [], config: () => fail("unused") });
    expect(refresh.out()).toBe('\nOutputs:\n\no = "v"\n');
    const nothing = harness("apply");
    nothing.view.appliedNothing(newStateFile());
    expect(nothing.out()).toBe("\nApply complete! Resources: 0 added, 0 changed, 0 destroyed.\n");
    const destroyNothing = harness("destroy");
    destroyNothing.view.appliedNothing(stateWith({ o: { valueJson: '"v"', typeJson: '"string"', sensitive: false } }));
    expect(destroyNothing.out()).toBe("\nDestroy complete! Resources: 0 destroyed.\n");
  });

  test("a failed apply: the diagnostics on stderr in terraform's order, the saving's last, and no summary", () => {
    const { view, out, err } = harness("apply");
    view.applyFailed({
      halted: [{ severity: "error", summary: "execution halted", detail: "" }],
      failures: [{ severity: "error", summary: "Create failed", detail: "no", address: "a.b" }],
      others: [{ severity: "warning", summary: "Hm", detail: "" }],
      saving: [{ severity: "error", summary: "Failed to save state", detail: "x" }],
    });
    expect(out()).toBe("");
    // With the plan's and the apply's warnings: those on stdout first, as terraform's view.
    const warned = harness("apply");
    warned.view.applyFailed({
      halted: [],
      failures: [{ severity: "error", summary: "Create failed", detail: "no", address: "a.b" }],
      others: [],
      saving: [],
      warnings: { planWarnings: [{ severity: "warning", summary: "Planned", detail: "p" }], applyWarnings: [{ severity: "warning", summary: "Applied", detail: "a" }], config: () => { throw new Error("not needed"); } },
    });
    expect(warned.out()).toBe("\nWarning: Planned\n\np\n\nWarning: Applied\n\na\n");
    expect(warned.err()).toBe("\nError: Create failed\n\n  with a.b,\nno\n");
    expect(err()).toBe("\nWarning: Hm\n\n\nError: execution halted\n\n\nError: Create failed\n\n  with a.b,\nno\n\nError: Failed to save state\n\nx\n");
  });

  test("interrupts: the notice on stdout, then terraform's words and an error on stderr", () => {
    const { view, out, err } = harness("apply");
    view.interrupted();
    view.fatalInterrupt();
    view.emergencyDumpState('{"version": 4}');
    expect(out()).toBe("\nInterrupt received.\nPlease wait for Terraform to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n");
    // Word-wrapped for the width (78 off a terminal: lines of at most 77).
    expect(err()).toBe('\nTwo interrupts received. Exiting immediately. Note that data loss may have\noccurred.\n\n\nError: operation canceled\n\n{"version": 4}\n');
  });

  test("the question: asked on stdout, answered by a line of stdin, a line end after it; undefined when interrupted; '' without stdin", async () => {
    const stdin = new PassThrough();
    const asked = harness("destroy", { stdin });
    const answer = asked.view.askApproval();
    stdin.write("yes\n");
    await expect(answer).resolves.toBe("yes");
    expect(asked.out()).toBe("\nDo you really want to destroy all resources?\n  Terraform will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  Enter a value: \n");

    const controller = new AbortController();
    const interrupted = harness("apply", { stdin: new PassThrough(), signal: controller.signal });
    const pending = interrupted.view.askApproval();
    controller.abort();
    await expect(pending).resolves.toBeUndefined();
    expect(interrupted.out()).toBe("\nDo you want to perform these actions?\n  Terraform will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ");

    const without = harness("apply");
    await expect(without.view.askApproval()).resolves.toBe("");
    expect(without.out()).toBe("\n");
  });

  test("warnings before the question in terraform's order; the JSON-only steps print nothing", () => {
    const { view, out, err } = harness("apply");
    view.warningsBeforeApproval([
      { severity: "error", summary: "E", detail: "" },
      { severity: "warning", summary: "W", detail: "" },
    ]);
    view.savedPlan(PLAN);
    view.importOnConflict({ address: "a.b", typeName: "a", outcome: "adopted", detail: "it matches", id: "i-1" });
    expect(out()).toBe("\nWarning: W\n\n\nError: E\n\na.b: import on conflict: adopted: it matches\n");
    expect(err()).toBe("");
  });
});

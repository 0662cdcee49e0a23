// Issue 20 item 5 (secrets) at the engine API level: a sensitive variable and a sensitive
// attribute never appear in EngineEvents, error messages, diagnostics or planText output
// (which shows "(sensitive value)"); plan files are written 0600.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { objectVal, stringVal, type Value } from "@magma/cty";
import { applyPlan, planText, ProviderPool, writePlanFile, type EngineEvent, type EnginePlanResult } from "@magma/engine";
import type { ApplyResult as ProviderApplyResult, ProviderSchema } from "@magma/provider-api";
import { createRandomProvider } from "@magma/provider-random";
import { createLocalBackend, loadState, newStateFile, saveState, type StateFile } from "@magma/state";
import { engineFor, nativeSource, workDir, type AnswerHook, type RecordedCall } from "./engine-support.js";

const SECRET = "SUPERSECRET-9f8e7d6c";
const RANDOM = "registry.terraform.io/hashicorp/random";

const HCL = `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

resource "random_password" "p" {
  length  = 24
  keepers = { k = var.secret }
}

resource "random_string" "s" {
  length  = 8
  special = false
  keepers = { k = var.secret }
}

output "pw" {
  value     = random_password.p.result
  sensitive = true
}

output "v" {
  value     = var.secret
  sensitive = true
}
`;

const calls: RecordedCall[] = [];
let hook: AnswerHook | undefined;
const source = nativeSource(createRandomProvider, calls, () => hook);
let root: string;
let schema: ProviderSchema;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "magma-secrets-"));
  schema = await createRandomProvider().getSchema();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every text a user or a log could see: diagnostics, events, error messages (with causes), plan text. */
class Seen {
  readonly texts: string[] = [];
  add(label: string, x: unknown): void {
    this.texts.push(`${label}: ${typeof x === "string" ? x : JSON.stringify(x, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : v))}`);
  }
  error(label: string, e: unknown): void {
    let cur: unknown = e;
    for (let depth = 0; cur !== undefined && depth < 5; depth++) {
      const err = cur as { message?: unknown; detail?: unknown; diagnostics?: unknown; stack?: unknown; cause?: unknown };
      this.add(label, { message: err.message, detail: err.detail, diagnostics: err.diagnostics, stack: err.stack });
      cur = err.cause;
    }
  }
  plan(label: string, r: EnginePlanResult): void {
    this.add(`${label} diagnostics`, r.diagnostics);
  }
  /** The secrets appear nowhere. */
  expectNone(secrets: readonly string[]): void {
    for (const s of secrets) expect(this.texts.filter((t) => t.includes(s))).toEqual([]);
  }
}

function render(r: EnginePlanResult, prior: StateFile): string {
  return planText(r.plan, { schemas: new Map([[RANDOM, schema]]), priorState: prior });
}

test("a sensitive variable and a sensitive attribute appear in no event, error, diagnostic or plan text; plan files are 0600", async () => {
  const w = workDir({ "main.tf": HCL });
  const engine = engineFor(source, w.dir);
  const store = createLocalBackend({ dir: join(root, "state") }).store("default");
  const seen = new Seen();
  const env = { TF_VAR_secret: SECRET };
  try {
    // 1. Plan and apply.
    const state0 = newStateFile();
    const p1 = await engine.plan(w.dir, state0, { env });
    expect(p1.hasErrors).toBe(false);
    seen.plan("plan 1", p1);
    const text1 = render(p1, state0);
    seen.add("plan 1 text", text1);
    expect(text1).toContain("(sensitive value)");
    const planFile = join(w.dir, "tfplan");
    await writePlanFile(planFile, p1.plan);
    expect(statSync(planFile).mode & 0o777).toBe(0o600);
    const events: EngineEvent[] = [];
    const pool1 = new ProviderPool(source);
    let r1;
    try {
      r1 = await applyPlan(p1.plan, { providers: pool1, state: state0, scope: p1.applyScope, persist: async (s) => void (await saveState(store, s)), onEvent: (e) => events.push(e), progressIntervalMs: 0 });
    } finally {
      await pool1.close();
    }
    expect(r1.success).toBe(true);
    seen.add("apply 1 diagnostics", r1.diagnostics);
    const st1 = (await loadState(store))!;
    const pw = (JSON.parse(st1.resources.find((r) => r.name === "p")!.instances[0]!.attributesJson!) as { result: string }).result;
    expect(pw).toHaveLength(24);
    expect(events.some((e) => e.type === "outputs")).toBe(true);

    // 2. A replace of both (the prior values are known now: the text must still hide them),
    //    applied through a provider whose answers break the result checks on sensitive values.
    const p2 = await engine.plan(w.dir, st1, { env, replace: ["random_password.p", "random_string.s"] });
    expect(p2.hasErrors).toBe(false);
    seen.plan("plan 2", p2);
    const text2 = render(p2, st1);
    seen.add("plan 2 text", text2);
    expect(text2).toContain("(sensitive value)");
    expect(text2).toMatch(/random_password\.p will be replaced, as requested/);
    hook = (op, _args, answer) => {
      if (op !== "applyResourceChange") return answer;
      const a = answer as ProviderApplyResult;
      if (a.newState.isNull()) return answer;
      const attrs: Record<string, Value> = { ...a.newState.attributes(), keepers: objectVal({ k: stringVal(`${SECRET}-changed`) }) };
      return { ...a, legacyTypeSystem: false, newState: objectVal(attrs) };
    };
    const pool2 = new ProviderPool(source);
    let r2;
    try {
      r2 = await applyPlan(p2.plan, { providers: pool2, state: st1, scope: p2.applyScope, persist: async (s) => void (await saveState(store, s)), onEvent: (e) => events.push(e), progressIntervalMs: 0 });
    } finally {
      hook = undefined;
      await pool2.close();
    }
    expect(r2.failed.length).toBeGreaterThanOrEqual(1);
    seen.add("apply 2 diagnostics", r2.diagnostics);
    for (const f of r2.failed) {
      seen.error(`apply 2 ${f.address}`, f.error);
      seen.add(`apply 2 ${f.address} diagnostics`, f.diagnostics);
    }
    const failedText = JSON.stringify(r2.failed.map((f) => f.diagnostics));
    expect(failedText).toMatch(/inconsistent result after apply/);
    const st2 = (await loadState(store))!;
    const pw2 = (JSON.parse(st2.resources.find((r) => r.name === "p")!.instances[0]!.attributesJson!) as { result: string }).result;
    seen.add("events", events);
    seen.expectNone([SECRET, pw, pw2]);
  } finally {
    await engine.close();
    w.cleanup();
  }
}, 120_000);

test.each([
  ["a precondition whose error message interpolates the secret", `resource "random_string" "x" {\n  length = 8\n  lifecycle {\n    precondition {\n      condition     = var.secret == "something else"\n      error_message = "wrong secret: \${var.secret}"\n    }\n  }\n}\n`],
  ["a variable validation whose error message interpolates the secret", ``, `validation {\n    condition     = length(var.secret) > 100\n    error_message = "too short: \${var.secret}"\n  }`],
  ["a sensitive value given to a number attribute", `resource "random_string" "x" {\n  length = var.secret\n}\n`],
  ["a sensitive value given to a number variable", ``, ``, `variable "n" {\n  type      = number\n  sensitive = true\n  default   = "${SECRET}"\n}\n`],
])("errors about a sensitive value do not show it: %s", async (_name, body, validation = "", extra = "") => {
  const main = `terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}\n\nvariable "secret" {\n  type      = string\n  sensitive = true\n  ${validation}\n}\n\n${extra}${body}`;
  const w = workDir({ "main.tf": main });
  const engine = engineFor(source, w.dir);
  const seen = new Seen();
  try {
    const r = await engine.plan(w.dir, newStateFile(), { env: { TF_VAR_secret: SECRET } });
    expect(r.hasErrors).toBe(true);
    seen.plan("plan", r);
    seen.expectNone([SECRET]);
  } catch (e) {
    seen.error("plan threw", e);
    seen.expectNone([SECRET]);
    throw e;
  } finally {
    await engine.close();
    w.cleanup();
  }
}, 60_000);

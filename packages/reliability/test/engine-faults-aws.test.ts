// Issue 20 item 2 at the engine API level: provider faults mid-walk with the real
// hashicorp/aws provider against @magma/fake-aws, planned with createEngine and applied with
// applyPlan, every snapshot persisted to a local-backend StateStore. After every scenario the
// objects the endpoint holds are compared with state: each exactly once, nothing created twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { objectVal, stringVal } from "@magma/cty";
import { createImportOnConflict, type Engine } from "@magma/engine";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import type { ApplyResult as ProviderApplyResult } from "@magma/provider-api";
import { createLocalBackend, loadState, type StateStore } from "@magma/state";
import { AWS_BINARY, hasAwsProvider } from "@magma/test-support";
import { isGone, waitUntil } from "./support.js";
import { awsProviderHcl, chainsHcl, childPids, engineFor, fakeNames, planAndApply, recordingSource, stateObjects, workDir, type AnswerHook, type RecordedCall } from "./engine-support.js";

const d = hasAwsProvider() ? describe : describe.skip;
const LONG = 240_000;

d("provider faults mid-walk (createEngine + applyPlan, hashicorp/aws, fake-aws)", () => {
  let fake: FakeAws;
  let stateRoot: string;
  const calls: RecordedCall[] = [];
  let hook: AnswerHook | undefined;
  const source = recordingSource(AWS_BINARY, calls, () => hook);
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    fake = await startFakeAws();
    stateRoot = mkdtempSync(join(tmpdir(), "magma-engrel-state-"));
  });
  afterAll(async () => {
    for (const c of cleanups) c();
    await fake?.close();
    if (stateRoot !== undefined) rmSync(stateRoot, { recursive: true, force: true });
  });

  function scenario(prefix: string, branches: number, extra = ""): { dir: string; store: StateStore; engine: Engine } {
    const w = workDir({ "main.tf": `${awsProviderHcl(fake.url)}\n${chainsHcl(prefix, branches)}\n${extra}` });
    const engine = engineFor(source, w.dir);
    cleanups.push(() => w.cleanup());
    cleanups.push(() => void engine.close());
    const store = createLocalBackend({ dir: join(stateRoot, prefix.replace(/\//g, "_")) }).store("default");
    return { dir: w.dir, store, engine };
  }

  /** Every object at the endpoint is in state exactly once, and nothing else is. */
  async function expectConverged(store: StateStore, prefix: string, count: number): Promise<void> {
    const state = await loadState(store);
    const objs = stateObjects(state);
    expect(objs.filter((o) => o.tainted || o.deposed)).toEqual([]);
    expect(objs.map((o) => o.name)).toEqual(fakeNames(fake, prefix));
    expect(new Set(objs.map((o) => o.name)).size).toBe(count);
    // Nothing created twice: per name, the successful creates are one more than the successful deletes.
    const mine = (c: { params: Record<string, unknown> }): boolean => String(c.params["Name"]).startsWith(`${prefix}/`);
    const creates = fake.callsOf("PutParameter").filter((c) => mine(c) && c.errorCode === undefined && c.params["Overwrite"] !== true);
    const deletes = fake.callsOf("DeleteParameter").filter((c) => mine(c) && c.errorCode === undefined);
    const net = new Map<string, number>();
    for (const c of creates) net.set(String(c.params["Name"]), (net.get(String(c.params["Name"])) ?? 0) + 1);
    for (const c of deletes) net.set(String(c.params["Name"]), (net.get(String(c.params["Name"])) ?? 0) - 1);
    expect([...net].filter(([, n]) => n !== 1)).toEqual([]);
  }

  test(
    "throttling is retried by the provider under its max_retries budget and the apply converges",
    async () => {
      const prefix = "/thr";
      const { dir, store, engine } = scenario(prefix, 3);
      const fault = fake.inject({ action: "PutParameter", nth: 2, times: 1, error: { code: "ThrottlingException", message: "Rate exceeded", status: 400 } });
      const r = await planAndApply(engine, source, dir, store);
      expect(r.planned.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(r.result!.failed).toEqual([]);
      expect(r.result!.success).toBe(true);
      expect(fault.hits).toBe(1);
      await expectConverged(store, prefix, 9);
      // The budget: an always-throttled create surfaces after max_retries (2) attempts, as an error on that object.
      const { dir: dir2, store: store2, engine: engine2 } = scenario("/thr2", 1);
      const always = fake.inject({ action: "PutParameter", times: "always", error: { code: "ThrottlingException", message: "Rate exceeded", status: 400 } });
      try {
        const r2 = await planAndApply(engine2, source, dir2, store2);
        expect(r2.result!.failed.map((f) => f.address)).toEqual(["aws_ssm_parameter.a0"]);
        expect(r2.result!.skipped.map((s) => s.address).sort()).toEqual(["aws_ssm_parameter.b0", "aws_ssm_parameter.c0"]);
        expect(always.hits).toBe(2);
        expect(JSON.stringify(r2.result!.failed[0]!.diagnostics)).toMatch(/ThrottlingException|Rate exceeded/);
      } finally {
        always.remove();
      }
      expect(fakeNames(fake, "/thr2")).toEqual([]);
      expect(stateObjects(await loadState(store2))).toEqual([]);
    },
    LONG,
  );

  test(
    "a 500 on one create: the other branches finish, its dependents are skipped, finished objects are persisted; the next apply converges",
    async () => {
      const prefix = "/err";
      const { dir, store, engine } = scenario(prefix, 4);
      // parallelism 1: the provider's two attempts (max_retries = 2) are consecutive PutParameter calls of one object.
      const fault = fake.inject({ action: "PutParameter", nth: 3, times: 2, error: { code: "InternalError", message: "boom", status: 500 } });
      const r = await planAndApply(engine, source, dir, store, { parallelism: 1 });
      expect(fault.hits).toBe(2);
      const failedNames = [...new Set(fake.callsOf("PutParameter").filter((c) => c.errorCode === "InternalError").map((c) => String(c.params["Name"])))];
      expect(failedNames).toHaveLength(1);
      const [, , kind, branch] = /^\/err\/(([abc])(\d))$/.exec(failedNames[0]!)!;
      const failedAddr = `aws_ssm_parameter.${kind}${branch}`;
      const res = r.result!;
      expect(res.success).toBe(false);
      expect(res.failed.map((f) => f.address)).toEqual([failedAddr]);
      const dependents = kind === "a" ? [`aws_ssm_parameter.b${branch}`, `aws_ssm_parameter.c${branch}`] : kind === "b" ? [`aws_ssm_parameter.c${branch}`] : [];
      expect(res.skipped.map((s) => s.address).sort()).toEqual(dependents);
      expect(res.applied.filter((a) => a.action === "create")).toHaveLength(12 - 1 - dependents.length);
      // What finished is in the persisted state, and only that.
      const persisted = stateObjects(await loadState(store));
      expect(persisted.map((o) => o.name)).toEqual(fakeNames(fake, prefix));
      expect(persisted).toHaveLength(12 - 1 - dependents.length);
      const again = await planAndApply(engine, source, dir, store);
      expect(again.result!.success).toBe(true);
      expect(again.result!.applied.filter((a) => a.action === "create").map((a) => a.address).sort()).toEqual([failedAddr, ...dependents].sort());
      await expectConverged(store, prefix, 12);
    },
    LONG,
  );

  test(
    "a partial create (created, then its read fails) is kept tainted and replaced by the next plan and apply",
    async () => {
      const prefix = "/part";
      const { dir, store, engine } = scenario(prefix, 1);
      const fault = fake.inject({ action: "GetParameter", nth: 1, times: 2, error: { code: "InternalError", message: "read failed", status: 500 } });
      const r = await planAndApply(engine, source, dir, store, { parallelism: 1 });
      expect(fault.hits).toBe(2);
      expect(r.result!.failed.map((f) => f.address)).toEqual(["aws_ssm_parameter.a0"]);
      const persisted = stateObjects(await loadState(store));
      expect(persisted.map((o) => [o.name, o.tainted])).toEqual([[`${prefix}/a0`, true]]);
      expect(fakeNames(fake, prefix)).toEqual([`${prefix}/a0`]);
      const again = await planAndApply(engine, source, dir, store);
      const change = again.planned.plan.changes.find((c) => c.address === "aws_ssm_parameter.a0")!;
      expect(change.action).toBe("delete-then-create");
      expect(again.result!.success).toBe(true);
      expect(fake.callsOf("DeleteParameter").map((c) => c.params["Name"])).toEqual([`${prefix}/a0`]);
      await expectConverged(store, prefix, 3);
    },
    LONG,
  );

  // Kill trials: CI runs KILL_TRIALS (default 2: one during a held create, one right after a
  // create was answered); `pnpm engine-trials` runs more (MAGMA_ENGINE_KILL_TRIALS).
  const KILL_TRIALS = Number(process.env["MAGMA_ENGINE_KILL_TRIALS"] ?? 2);
  test(
    `the provider SIGKILLed mid-apply (${KILL_TRIALS} trials): a typed error naming the object, finished objects persisted; a fresh apply converges, nothing created twice`,
    async () => {
      for (let trial = 0; trial < KILL_TRIALS; trial++) {
        const prefix = `/kill${trial}`;
        const { dir, store, engine } = scenario(prefix, 3);
        // Which create, and when: even trials hold it at the endpoint (6 s, then it lands
        // though nobody sees the answer) and kill during it; odd trials kill right after it
        // was answered (while the provider reads the object back, or between objects).
        const during = trial % 2 === 0;
        // Spread over the 9 creates (the 9th only while held: after it is answered the apply may be done).
        const nth = 1 + ((trial * 5 + 3) % (during ? 9 : 8));
        const held = fake.inject({ action: "PutParameter", nth, times: 1, delayMs: during ? 6_000 : 1 });
        const before = new Set(childPids(AWS_BINARY));
        const killed: number[] = [];
        const mine = (): number => fake.callsOf("PutParameter").filter((c) => String(c.params["Name"]).startsWith(`${prefix}/`)).length;
        const watcher = (async () => {
          await waitUntil(() => (during ? held.hits >= 1 : mine() >= nth), 200_000);
          const pid = childPids(AWS_BINARY).find((p) => !before.has(p));
          if (pid !== undefined) {
            process.kill(pid, "SIGKILL");
            killed.push(pid);
          }
        })();
        const r = await planAndApply(engine, source, dir, store, { parallelism: 1 });
        await watcher;
        held.remove();
        expect(killed).toHaveLength(1);
        expect(await waitUntil(() => isGone(killed[0]!))).toBe(true);
        const res = r.result!;
        expect(res.success).toBe(false);
        // Every failure is typed (the provider is gone); the object in flight names its call.
        const failed = res.failed.map((f) => ({ address: f.address, code: (f.error as { code?: string }).code, message: (f.error as Error).message }));
        expect(failed.length).toBeGreaterThanOrEqual(1);
        expect(failed.every((f) => f.code === "plugin_exited" && /killed by signal SIGKILL/.test(f.message) && /^aws_ssm_parameter\.[abc]\d$/.test(f.address))).toBe(true);
        const inFlight = failed.filter((f) => /(ApplyResourceChange|PlanResourceChange|ReadResource) call/.test(f.message) && !/before the/.test(f.message));
        if (during) {
          expect(inFlight).toHaveLength(1);
          expect(inFlight[0]!.message).toContain("ApplyResourceChange call");
        }
        const errored = r.events.filter((e) => e.type === "apply_errored").map((e) => (e as { address?: string }).address);
        for (const f of failed) expect(errored).toContain(f.address);
        // Every object that finished before the kill is in state, and only those.
        const persisted = stateObjects(await loadState(store));
        expect(persisted.map((o) => o.address).sort()).toEqual(res.applied.filter((a) => a.action === "create").map((a) => a.address).sort());
        if (during) {
          // The held create lands after the provider is gone: the endpoint holds an object state does not know.
          const heldName = `${prefix}/${inFlight[0]!.address.split(".")[1]!}`;
          expect(await waitUntil(() => fakeNames(fake, prefix).includes(heldName), 30_000)).toBe(true);
        }
        const endpointAfterKill = fakeNames(fake, prefix);
        const unknownToState = endpointAfterKill.filter((n) => !persisted.some((o) => o.name === n));
        expect(unknownToState.length).toBeLessThanOrEqual(1);
        // A fresh plan + apply: a create conflict is adopted (import on create conflict), nothing is created twice.
        const again = await planAndApply(engine, source, dir, store, { onCreateConflict: createImportOnConflict({ types: ["aws_ssm_parameter"] }) });
        expect(again.result!.failed).toEqual([]);
        expect(again.result!.adoptions.map((a) => a.id)).toEqual(unknownToState);
        await expectConverged(store, prefix, 9);
        process.stdout.write(
          `[engine-kill] trial=${trial} moment=${during ? "during" : "after"} create#${nth} failed=${failed.length} persisted=${persisted.length} endpoint=${endpointAfterKill.length} adopted=${unknownToState.length} final endpoint=${fakeNames(fake, prefix).length} state=${stateObjects(await loadState(store)).length} duplicates=0 leaks=0\n`,
        );
      }
    },
    LONG * Math.max(1, KILL_TRIALS / 2),
  );

  test(
    "a provider call hanging mid-apply, ended by cancellation: StopProvider, the object named, finished objects persisted; a fresh apply converges",
    async () => {
      const prefix = "/hang";
      const { dir, store, engine } = scenario(prefix, 2);
      // The 3rd create hangs at the endpoint (20 s, then an error: it never lands).
      const held = fake.inject({ action: "PutParameter", nth: 3, times: 1, delayMs: 20_000, error: { code: "InternalError", message: "late", status: 500 } });
      const ac = new AbortController();
      const watcher = (async () => {
        await waitUntil(() => held.hits >= 1, 200_000);
        ac.abort(new Error("operator cancel"));
      })();
      const r = await planAndApply(engine, source, dir, store, { parallelism: 1, signal: ac.signal });
      await watcher;
      const res = r.result!;
      expect(res.interrupted).toBe(true);
      expect(res.success).toBe(false);
      const named = [...res.failed, ...res.canceled].map((f) => f.address);
      // The call in flight ends with the provider's "context canceled" (StopProvider reached it), naming the object.
      const inFlight = res.failed.filter((f) => /context canceled/.test((f.error as Error).message));
      expect(inFlight).toHaveLength(1);
      expect((inFlight[0]!.error as Error).message).toContain(`${prefix}/${inFlight[0]!.address.split(".")[1]!}`);
      expect(res.skipped.length + res.canceled.length).toBeGreaterThanOrEqual(1);
      expect(named.length).toBeGreaterThanOrEqual(1);
      const persisted = stateObjects(await loadState(store));
      expect(persisted.map((o) => o.address).sort()).toEqual(res.applied.filter((a) => a.action === "create").map((a) => a.address).sort());
      expect(persisted.map((o) => o.name)).toEqual(fakeNames(fake, prefix));
      expect(persisted).toHaveLength(2);
      const again = await planAndApply(engine, source, dir, store);
      expect(again.result!.success).toBe(true);
      await expectConverged(store, prefix, 6);
    },
    LONG,
  );

  test(
    "a provider answer breaking the result checks: Terraform's error, and the object is saved",
    async () => {
      const prefix = "/bad";
      const { dir, store, engine } = scenario(prefix, 1);
      // A native wrapper over the real provider: its apply answer changes a known planned value
      // and claims the modern type system (legacy providers are exempt from the check).
      hook = (op, args, answer) => {
        if (op !== "applyResourceChange") return answer;
        void args;
        const a = answer as ProviderApplyResult;
        if (a.newState.getAttr("name").asString() !== `${prefix}/a0`) return answer;
        const changed: ProviderApplyResult = { ...a, legacyTypeSystem: false, newState: objectVal({ ...a.newState.attributes(), description: stringVal("changed by the provider") }) };
        return changed;
      };
      let r;
      try {
        r = await planAndApply(engine, source, dir, store, { parallelism: 1 });
      } finally {
        hook = undefined;
      }
      const res = r.result!;
      expect(res.failed.map((f) => f.address)).toEqual(["aws_ssm_parameter.a0"]);
      const text = res.failed[0]!.diagnostics.map((x) => `${x.summary}: ${x.detail}`).join("\n");
      expect(text).toContain("Provider produced inconsistent result after apply");
      expect(text).toContain(".description");
      const persisted = stateObjects(await loadState(store));
      expect(persisted.map((o) => [o.name, o.tainted])).toEqual([[`${prefix}/a0`, true]]);
      expect(fakeNames(fake, prefix)).toEqual([`${prefix}/a0`]);
    },
    LONG,
  );
  test(
    "a provider answer breaking the plan checks: Terraform's \"Provider produced invalid plan\", nothing applied",
    async () => {
      const prefix = "/badplan";
      const { dir, store, engine } = scenario(prefix, 1);
      hook = (op, _args, answer) => {
        if (op !== "planResourceChange") return answer;
        const a = answer as { plannedState: ProviderApplyResult["newState"]; legacyTypeSystem: boolean };
        if (a.plannedState.isNull() || a.plannedState.getAttr("name").asString() !== `${prefix}/a0`) return answer;
        return { ...a, legacyTypeSystem: false, plannedState: objectVal({ ...a.plannedState.attributes(), name: stringVal(`${prefix}/not-what-was-configured`) }) };
      };
      let r;
      try {
        r = await planAndApply(engine, source, dir, store);
      } finally {
        hook = undefined;
      }
      expect(r.planned.hasErrors).toBe(true);
      expect(r.result).toBeUndefined();
      const text = r.planned.diagnostics.filter((x) => x.severity === "error").map((x) => `${x.summary}: ${x.detail}`).join("\n");
      expect(text).toContain("Provider produced invalid plan");
      expect(text).toContain("aws_ssm_parameter.a0");
      expect(fakeNames(fake, prefix)).toEqual([]);
      expect(fake.callsOf("PutParameter").filter((c) => String(c.params["Name"]).startsWith(`${prefix}/`))).toEqual([]);
    },
    LONG,
  );
});

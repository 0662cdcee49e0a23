import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyInstance } from "../instance/apply-instance.js";
import { planInstance } from "../instance/plan-instance.js";
import { itemConfig, memoryTarget } from "../instance/test-support.js";
import { assertPlanCurrent, formatPlan, parsePlan, readPlanFile, writePlanFile } from "./plan-file.js";
import { nullVal, objectVal, stringType, stringVal } from "@magma/cty";
import { encodeValue } from "./encode-change.js";
import { createPlan, planIdentity, withPlanIdentity, type Plan } from "./plan.js";

const lineage = "3a1f4c2e-0000-4000-8000-000000000001";

async function samplePlan(): Promise<Plan> {
  const { target } = await memoryTarget();
  const create = await planInstance(target, { address: "memory_item.new", typeName: "memory_item", prior: null, config: itemConfig({ name: "n", tags: { a: "b" }, rule: [{ port: 80 }] }) });
  const made = await applyInstance(target, await planInstance(target, { address: "memory_item.old", typeName: "memory_item", prior: null, config: itemConfig({ name: "old" }) }));
  const replace = await planInstance(target, { address: "memory_item.old", typeName: "memory_item", prior: made.object, config: itemConfig({ name: "renamed" }), createBeforeDestroy: true });
  return createPlan({ changes: [create, replace], prior: { lineage, serial: 7 }, configDigest: "c0ffee" });
}

describe("plan files", () => {
  it("round-trips a plan with unknowns, private data and requires-replace paths", async () => {
    const plan = await samplePlan();
    const back = parsePlan(formatPlan(plan));
    expect(back.identity).toBe(plan.identity);
    expect(back.prior).toEqual(plan.prior);
    expect(back.changes).toHaveLength(2);
    const [c0, c1] = [back.changes[0]!, back.changes[1]!];
    expect(c0.action).toBe("create");
    expect(c0.after.getAttr("id").isKnown()).toBe(false);
    expect(c0.after.rawEquals(plan.changes[0]!.after)).toBe(true);
    expect(c0.config.rawEquals(plan.changes[0]!.config)).toBe(true);
    expect(c1).toMatchObject({ action: "create-then-delete", replaceReason: "cannot-update", priorTainted: false });
    expect(c1.requiresReplace.map(String)).toEqual(plan.changes[1]!.requiresReplace.map(String));
    expect(c1.before.rawEquals(plan.changes[1]!.before)).toBe(true);
    expect(c1.plannedPrivate).toEqual(plan.changes[1]!.plannedPrivate);
  });

  it("keeps a change's persistedConfig in place of its configuration (no write-only value in a plan file), with the same identity", async () => {
    const plan = await samplePlan();
    const c = plan.changes[0]!;
    const persisted = itemConfig({ name: "n", tags: { a: "b" }, rule: [{ port: 80 }] });
    const secret = objectVal({ ...c.config.attributes(), name: stringVal("write-only-secret") });
    const withSecret = createPlan({ changes: [{ ...c, config: secret, persistedConfig: persisted }], prior: plan.prior, configDigest: plan.configDigest });
    const text = formatPlan(withSecret);
    const decoded = [...text.matchAll(/"msgpack": ?"([^"]*)"/g)].map((m) => Buffer.from(m[1]!, "base64").toString("latin1")).join("");
    expect(decoded).not.toContain("write-only-secret");
    const back = parsePlan(text);
    expect(back.changes[0]!.config.rawEquals(persisted)).toBe(true);
    expect(back.changes[0]!.persistedConfig).toBeUndefined();
    expect(back.identity).toBe(withSecret.identity);
  });

  it("computes the identity when it is first read, once, and keeps it through spreads and clones", async () => {
    const fields = { ...(await samplePlan()) };
    const expected = planIdentity({ ...fields, mode: "normal" });
    const plan = withPlanIdentity({ changes: fields.changes, prior: fields.prior, configDigest: fields.configDigest, mode: "normal" as const });
    expect(Object.keys(plan)).toEqual(["changes", "prior", "configDigest", "identity", "mode"]);
    expect(Object.getOwnPropertyDescriptor(plan, "identity")?.get).toBeDefined();
    expect(plan.identity).toBe(expected);
    expect(plan.identity).toBe(expected);
    expect({ ...plan }.identity).toBe(expected);
    expect(JSON.parse(JSON.stringify({ identity: plan.identity })).identity).toBe(expected);
    expect(parsePlan(formatPlan(plan)).identity).toBe(expected);
  });

  it("has an identity that changes with the changes, the prior state and the configuration", async () => {
    const plan = await samplePlan();
    const again = createPlan({ changes: plan.changes, prior: plan.prior, configDigest: plan.configDigest });
    expect(again.identity).toBe(plan.identity);
    expect(createPlan({ changes: plan.changes, prior: { lineage, serial: 8 }, configDigest: "c0ffee" }).identity).not.toBe(plan.identity);
    expect(createPlan({ changes: plan.changes, prior: plan.prior, configDigest: "other" }).identity).not.toBe(plan.identity);
    expect(createPlan({ changes: plan.changes.slice(0, 1), prior: plan.prior, configDigest: "c0ffee" }).identity).not.toBe(plan.identity);
  });

  it("writes and reads a file, and refuses an edited one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "magma-plan-"));
    try {
      const plan = await samplePlan();
      const file = join(dir, "tfplan.json");
      await writePlanFile(file, plan);
      expect((await readPlanFile(file)).identity).toBe(plan.identity);
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace('"action": "create"', '"action": "no-op"'));
      await expect(readPlanFile(file)).rejects.toMatchObject({ code: "invalid_plan_file", message: expect.stringContaining("edited or damaged") as string });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps the checks, and reads plan files written before they existed", async () => {
    const plan = await samplePlan();
    const checks: Plan["checks"] = [
      { kind: "resource", address: "module.m.memory_item.c", module: "module.m", mode: "managed", type: "memory_item", name: "c", status: "fail", instances: [{ address: 'module.m["a"].memory_item.c[0]', module: 'module.m["a"]', instanceKey: 0, status: "fail", problems: ["too small"] }] },
      { kind: "var", address: "var.n", name: "n", status: "unknown", instances: [] },
    ];
    expect(parsePlan(formatPlan({ ...plan, checks })).checks).toEqual(checks);
    expect(parsePlan(formatPlan(plan)).checks).toBeUndefined();
    const bad = JSON.parse(formatPlan({ ...plan, checks })) as { checks: { instances: { status: string }[] }[] };
    bad.checks[0]!.instances[0]!.status = "maybe";
    expect(() => parsePlan(JSON.stringify(bad), "p.json")).toThrow(/^\[invalid_plan_file\] p\.json: checks\[0\]\.instances\[0\] is not/);
  });

  it("keeps read and delete reasons and where data sources were read; names a bad one", async () => {
    const base = await samplePlan();
    const [c0, c1] = [base.changes[0]!, base.changes[1]!];
    const changes = [{ ...c0, mode: "data" as const, action: "read" as const, readReason: "check-nested" as const }, { ...c1, action: "delete" as const, deleteReason: "delete_because_no_move_target" as const }];
    const plan: Plan = { ...createPlan({ changes, prior: base.prior, configDigest: base.configDigest }), dataReads: {}, dataReadSources: { "data.x.y": { provider: 'provider["example.com/magma/memory"].alt', schemaVersion: 2 } } };
    const back = parsePlan(formatPlan(plan));
    expect(back.changes.map((c) => [c.readReason, c.deleteReason])).toEqual([
      ["check-nested", undefined],
      [undefined, "delete_because_no_move_target"],
    ]);
    expect(back.dataReadSources).toEqual(plan.dataReadSources);
    const bad = JSON.parse(formatPlan(plan)) as { changes: { read_reason?: string }[]; data_read_sources: Record<string, unknown> };
    bad.changes[0]!.read_reason = "because";
    expect(() => parsePlan(JSON.stringify(bad), "p.json")).toThrow(/changes\[0\]\.read_reason is "because", not a read reason/);
    const badSource = JSON.parse(formatPlan(plan)) as { data_read_sources: Record<string, unknown> };
    badSource.data_read_sources["data.x.y"] = { provider: 1 };
    expect(() => parsePlan(JSON.stringify(badSource), "p.json")).toThrow(/data_read_sources\.data\.x\.y is not \{provider, schemaVersion\}/);
  });

  it("names what is wrong in a bad plan file", () => {
    expect(() => parsePlan("{", "p.json")).toThrow(/^\[invalid_plan_file\] p\.json is not valid JSON/);
    // Only the offending character is quoted (as terraform), never the file's first bytes.
    expect(() => parsePlan("supersecretcontents\n", "p.json")).toThrow(/^\[invalid_plan_file\] p\.json is not valid JSON: invalid character 's' looking for beginning of value$/);
    expect(() => parsePlan('{"format":"x"}')).toThrow(/format is "x"/);
    expect(() => parsePlan(JSON.stringify({ format: "magma-plan/1", prior_state: { lineage, serial: 1 }, config_digest: "d", changes: [{ address: "a", mode: "weird" }] }))).toThrow(/changes\[0\]\.mode is "weird"/);
  });

  it("keeps the provider function results (digests) and names a bad entry", async () => {
    const base = await samplePlan();
    const functionResults = [{ key: "a".repeat(64), result: "b".repeat(64) }];
    const text = formatPlan({ ...base, functionResults });
    expect(JSON.parse(text).function_results).toEqual(functionResults);
    expect(parsePlan(text).functionResults).toEqual(functionResults);
    // None made: nothing written, nothing read back.
    expect(formatPlan({ ...base, functionResults: [] })).not.toContain("function_results");
    expect(parsePlan(formatPlan(base)).functionResults).toBeUndefined();
    const bad = JSON.parse(text) as Record<string, unknown>;
    bad["function_results"] = [{ key: "not hex", result: "b".repeat(64) }];
    expect(() => parsePlan(JSON.stringify(bad), "p.json")).toThrow(/^\[invalid_plan_file\] p\.json: function_results\[0\] is not \{key, result\}/);
  });

  it("refuses a saved plan whose state moved on", async () => {
    const plan = await samplePlan();
    expect(() => assertPlanCurrent(plan, { lineage, serial: 7 })).not.toThrow();
    expect(() => assertPlanCurrent(plan, { lineage, serial: 8 })).toThrow(expect.objectContaining({ code: "stale_plan", message: expect.stringContaining("serial 7") as string }) as Error);
    expect(() => assertPlanCurrent(plan, { lineage: "other", serial: 7 })).toThrow(/different state/);
  });

  it("has an identity over everything the file holds: an edited output, variable, mode, target, drift or configuration is refused", async () => {
    const base = await samplePlan();
    const plan: Plan = {
      ...base,
      mode: "normal",
      outputs: [{ name: "token", action: "create", before: nullVal(stringType), after: stringVal("secret"), sensitive: true }],
      variables: { region: stringVal("eu-west-1") },
      targets: ["memory_item.new"],
      drift: [base.changes[0]!],
      configSnapshot: { modules: [{ path: [], dir: "/work/root", files: [["main.tf", 'resource "memory_item" "new" {}\n']] }] },
      dependencyLocks: "# locks\n",
    };
    const text = formatPlan(plan);
    const back = parsePlan(text);
    expect(back.configSnapshot).toEqual(plan.configSnapshot);
    expect(back.dependencyLocks).toBe(plan.dependencyLocks);
    expect(back.identity).toBe(planIdentity(plan));
    const edits: ((j: Record<string, any>) => void)[] = [
      // The probe's edit: an output's planned value rewritten and its sensitivity flipped.
      (j) => {
        j.outputs[0].after = encodeValue(stringVal("shown"));
        j.outputs[0].sensitive = false;
      },
      (j) => (j.outputs[0].sensitive = false),
      (j) => (j.variables.region = encodeValue(stringVal("us-east-1"))),
      (j) => (j.mode = "destroy"),
      (j) => (j.targets = ["memory_item.old"]),
      (j) => (j.drift = []),
      (j) => (j.config_snapshot.modules[0].files[0][1] = 'resource "memory_item" "other" {}\n'),
      (j) => (j.dependency_locks = "# other\n"),
    ];
    for (const edit of edits) {
      const j = JSON.parse(text) as Record<string, any>;
      edit(j);
      expect(() => parsePlan(JSON.stringify(j, null, 2), "p1")).toThrow(/^\[invalid_plan_file\] p1: the content does not match the plan identity/);
    }
  });
});

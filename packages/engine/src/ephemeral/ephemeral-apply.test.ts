// The apply opens the configuration's ephemeral resources again (as Terraform's apply graph
// does), before what needs them, and closes every instance it opened — after a success, a
// failed object, a failed open and a cancellation — with nothing of their values in state or
// plan files.
import { fromJson, numberType, numberVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import { createNativeProvider, createSchemaEntry, errorDiag, type NativeProviderImpl } from "@magma/provider-api";
import { formatStateFile, newStateFile, type StateFile } from "@magma/state";
import { createEngine } from "../engine.js";
import type { EngineEvent } from "../events/engine-event.js";
import { formatPlan, parsePlan } from "../plan/plan-file.js";
import type { ProviderSource } from "../provider-source.js";
import { configOf } from "../planner/test-support.js";

/** What the lease provider saw: opens, closes and every configure's token; `failOpens` makes opens fail, `slowMs` creates slow. */
interface LeaseLog {
  readonly lines: string[];
  failOpens: boolean;
  slowMs: number;
}

/**
 * hashicorp/lease: ephemeral `lease_token` (`prefix` → `value`, a fresh secret per open,
 * recorded as `open N` / `close N`), provider configuration `token`, managed `lease_probe`
 * (`name`; `fail = "apply"` fails its apply; `token_length` the configured token's length).
 */
function leaseSource(log: LeaseLog): ProviderSource {
  let n = 0;
  const token = createSchemaEntry({ attributes: { prefix: { type: stringType, optional: true }, value: { type: stringType, computed: true, sensitive: true } } });
  const probe = createSchemaEntry({ attributes: { id: { type: stringType, computed: true }, name: { type: stringType, required: true }, fail: { type: stringType, optional: true }, token_length: { type: numberType, computed: true } } });
  return {
    async open() {
      let configured = "";
      const impl: NativeProviderImpl = {
        getSchema: () => ({ provider: createSchemaEntry({ attributes: { token: { type: stringType, optional: true } } }), resources: new Map([["lease_probe", probe]]), dataSources: new Map(), ephemeralResources: new Map([["lease_token", token]]) }),
        configure: (c) => {
          const t = c.getAttr("token");
          configured = t.isNull() ? "" : t.asString();
          log.lines.push(`configure ${configured === "" ? "-" : configured}`);
        },
        planResourceChange: (_t, prior, proposed) => (proposed.isNull() ? { plannedState: proposed } : { plannedState: objectVal({ ...proposed.attributes(), id: prior.isNull() ? unknownVal(stringType) : prior.getAttr("id"), token_length: unknownVal(numberType) }) }),
        applyResourceChange: async (_t, _prior, planned) => {
          if (planned.isNull()) return { newState: planned };
          if (log.slowMs > 0) await new Promise((r) => setTimeout(r, log.slowMs));
          const fail = planned.getAttr("fail");
          if (!fail.isNull() && fail.asString() === "apply") return { diagnostics: [errorDiag("lease_probe refused")] };
          return { newState: objectVal({ ...planned.attributes(), id: stringVal(`p-${planned.getAttr("name").asString()}`), token_length: numberVal(configured.length) }) };
        },
        readResource: (_t, s) => ({ newState: s }),
        readDataSource: () => {
          throw new Error("no data sources");
        },
        importResourceState: () => {
          throw new Error("no import");
        },
        upgradeResourceState: (_t, _v, rawJson, _o, ctx) => ({ upgradedState: fromJson(rawJson, ctx.entry.type) }),
        ephemeralResources: {
          lease_token: {
            open: (c) => {
              if (log.failOpens) return { diagnostics: [errorDiag("lease server down")] };
              const id = ++n;
              log.lines.push(`open ${id}`);
              const prefix = c.getAttr("prefix");
              return { result: objectVal({ prefix, value: stringVal(`${prefix.isNull() ? "" : prefix.asString()}secret${id}`) }), private: new TextEncoder().encode(String(id)) };
            },
            close: (p) => void log.lines.push(`close ${new TextDecoder().decode(p)}`),
          },
        },
      };
      const provider = createNativeProvider(impl);
      return { provider, schema: await provider.getSchema(), stop: async () => "", close: async () => undefined };
    },
  };
}

const MAIN = `
terraform {
  required_providers {
    lease = { source = "hashicorp/lease" }
  }
}
provider "lease" {
  alias = "plain"
}
ephemeral "lease_token" "t" {
  provider = lease.plain
  prefix   = "tok-"
}
module "m" {
  source = "./m"
  tok    = ephemeral.lease_token.t.value
}
provider "lease" {
  token = module.m.tok
}
resource "lease_probe" "a" {
  name = "a"
}
`;
const CHILD = `
variable "tok" {
  type      = string
  ephemeral = true
}
output "tok" {
  value     = "m-\${var.tok}"
  ephemeral = true
}
`;

/** Plans and applies `files` (optionally through a plan file), with the lease log and the events of the apply. */
async function run(files: Record<string, string>, options: { viaFile?: boolean; before?: (log: LeaseLog) => void; signalAfterMs?: number } = {}) {
  const log: LeaseLog = { lines: [], failOpens: false, slowMs: 0 };
  const c = configOf(files);
  const engine = createEngine({ providers: leaseSource(log), cwd: c.dir, keepProvidersMs: 0 });
  const events: EngineEvent[] = [];
  let saved = "";
  try {
    const planned = await engine.plan(c.dir, null, { env: {} });
    expect(planned.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const planLines = log.lines.splice(0);
    options.before?.(log);
    saved = formatPlan(planned.plan);
    const controller = new AbortController();
    if (options.signalAfterMs !== undefined) setTimeout(() => controller.abort(), options.signalAfterMs);
    let state: StateFile = newStateFile();
    const result = await engine.apply(options.viaFile === true ? parsePlan(saved) : planned, { state: null, persist: async (s) => void (state = s), signal: controller.signal, onEvent: (e) => events.push(e) });
    return { planLines, lines: log.lines, events, result, state: formatStateFile(state), saved };
  } finally {
    await engine.close();
    c.cleanup();
  }
}

const opens = (lines: readonly string[]): string[] => lines.filter((l) => l.startsWith("open ")).map((l) => l.slice(5));
const closes = (lines: readonly string[]): string[] => lines.filter((l) => l.startsWith("close ")).map((l) => l.slice(6));

describe("ephemeral resources during an apply", () => {
  test.each([["the plan's result", false], ["a plan file", true]] as const)("applying %s opens them again, configures the provider with the new value, and closes them", async (_what, viaFile) => {
    const r = await run({ "main.tf": MAIN, "m/main.tf": CHILD }, { viaFile });
    expect(r.result.success).toBe(true);
    expect(r.planLines).toEqual(["configure -", "open 1", "configure m-tok-secret1", "close 1"]);
    // The apply opened a new instance, configured the default provider with it, applied the probe, then closed it.
    const order = r.lines.filter((l) => l !== "configure -");
    expect(order).toEqual(["open 2", "configure m-tok-secret2", "close 2"]);
    const ops = r.events.filter((e) => e.type === "ephemeral_op_start" || e.type === "ephemeral_op_complete" || e.type === "apply_start" || e.type === "apply_complete").map((e) => `${e.type} ${e.address} ${"action" in e ? e.action : ""}`);
    expect(ops).toEqual([
      "ephemeral_op_start ephemeral.lease_token.t open",
      "ephemeral_op_complete ephemeral.lease_token.t open",
      "apply_start lease_probe.a create",
      "apply_complete lease_probe.a create",
      "ephemeral_op_start ephemeral.lease_token.t close",
      "ephemeral_op_complete ephemeral.lease_token.t close",
    ]);
    expect(r.result.state.resources[0]!.instances[0]!.attributesJson).toContain('"token_length":13');
    for (const text of [r.state, r.saved]) expect(text).not.toMatch(/secret\d/);
  }, 60_000);

  test("a failed object, a failed open and a cancellation still close every instance opened", async () => {
    const failing = await run({ "main.tf": MAIN.replace('name = "a"', 'name = "a"\n  fail = "apply"'), "m/main.tf": CHILD });
    expect(failing.result.success).toBe(false);
    expect(opens(failing.lines)).toEqual(["2"]);
    expect(closes(failing.lines)).toEqual(["2"]);

    const second = `${MAIN}\nephemeral "lease_token" "u" {\n  provider = lease.plain\n  prefix   = lease_probe.a.id\n}\n`;
    const openFails = await run({ "main.tf": second, "m/main.tf": CHILD }, { before: (log) => void (log.failOpens = true) });
    expect(openFails.result.success).toBe(false);
    expect(openFails.result.failed.map((f) => `${f.action} ${f.address}`)).toContain("open ephemeral.lease_token.t");
    expect(openFails.lines.filter((l) => l.startsWith("open") || l.startsWith("close"))).toEqual([]);

    const canceled = await run({ "main.tf": second, "m/main.tf": CHILD }, { before: (log) => void (log.slowMs = 1500), signalAfterMs: 300 });
    expect(canceled.result.interrupted).toBe(true);
    expect(opens(canceled.lines).length).toBeGreaterThan(0);
    expect(closes(canceled.lines).sort()).toEqual(opens(canceled.lines).sort());
  }, 60_000);

  test("a saved plan keeps no ephemeral variable's value: its apply needs the variable again and uses the new value", async () => {
    const log: LeaseLog = { lines: [], failOpens: false, slowMs: 0 };
    const c = configOf({ "main.tf": 'terraform {\n  required_providers {\n    lease = { source = "hashicorp/lease" }\n  }\n}\nvariable "v" {\n  type      = string\n  ephemeral = true\n}\nprovider "lease" {\n  token = var.v\n}\nresource "lease_probe" "a" {\n  name = "a"\n}\n' });
    const engine = createEngine({ providers: leaseSource(log), cwd: c.dir, keepProvidersMs: 0 });
    try {
      const planned = await engine.plan(c.dir, null, { env: {}, variableArgs: [{ kind: "var", arg: "v=s3cret-plan" }] });
      expect(planned.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const saved = formatPlan(planned.plan);
      expect(saved).not.toContain("s3cret");
      const plan = parsePlan(saved);
      expect(plan.applyTimeVariables).toEqual(["v"]);
      let state = "";
      const persist = async (s: StateFile): Promise<void> => void (state = formatStateFile(s));
      await expect(engine.apply(plan, { state: null, persist })).rejects.toThrow(/No value for required variable/);
      const r = await engine.apply(plan, { state: null, persist, variables: { v: stringVal("s3cret-apply") } });
      expect(r.success).toBe(true);
      expect(log.lines).toContain("configure s3cret-apply");
      expect(state).toMatch(/"token_length": 12/);
      expect(state).not.toContain("s3cret");
    } finally {
      await engine.close();
      c.cleanup();
    }
  }, 60_000);
});

describe("ephemeral resources during a destroy plan", () => {
  test.each([
    ["refreshing: twice, as terraform's refresh walk and destroy walk", true, ["open 3", "close 3", "open 4", "close 4"]],
    ["without a refresh: once, as terraform's one walk", false, ["open 3", "close 3"]],
  ] as const)("%s", async (_what, refresh, expected) => {
    const log: LeaseLog = { lines: [], failOpens: false, slowMs: 0 };
    const c = configOf({ "main.tf": MAIN, "m/main.tf": CHILD });
    const engine = createEngine({ providers: leaseSource(log), cwd: c.dir, keepProvidersMs: 0 });
    try {
      const planned = await engine.plan(c.dir, null, { env: {} });
      const applied = await engine.apply(planned, { state: null, persist: async () => undefined });
      expect(applied.success).toBe(true);
      log.lines.splice(0);
      const destroy = await engine.plan(c.dir, applied.state, { env: {}, mode: "destroy", refresh });
      expect(destroy.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(destroy.plan.changes.map((ch) => `${ch.action} ${ch.address}`)).toEqual(["delete lease_probe.a"]);
      expect(log.lines.filter((l) => !l.startsWith("configure"))).toEqual(expected);
      expect((destroy.ephemeralEvents ?? []).filter((e) => e.phase === "complete").map((e) => `${e.action} ${e.address}`)).toEqual(expected.map((l) => `${l.startsWith("open") ? "open" : "close"} ephemeral.lease_token.t`));
    } finally {
      await engine.close();
      c.cleanup();
    }
  }, 60_000);
});

test("a destroy's second walk and its apply open only the ephemeral resources its deletes need (terraform prunes the others)", async () => {
  const log: LeaseLog = { lines: [], failOpens: false, slowMs: 0 };
  const unused = `${MAIN}\nephemeral "lease_token" "u" {\n  provider = lease.plain\n  prefix   = "u-"\n}\nprovider "lease" {\n  alias = "unused"\n  token = ephemeral.lease_token.u.value\n}\n`;
  const c = configOf({ "main.tf": unused, "m/main.tf": CHILD });
  const engine = createEngine({ providers: leaseSource(log), cwd: c.dir, keepProvidersMs: 0 });
  const opened = (events: readonly EngineEvent[] | undefined): string[] => (events ?? []).filter((e) => e.type === "ephemeral_op_complete" && e.action === "open").map((e) => ("address" in e ? e.address : "")).sort();
  try {
    const planned = await engine.plan(c.dir, null, { env: {} });
    const applied = await engine.apply(planned, { state: null, persist: async () => undefined });
    expect(applied.success).toBe(true);
    const destroy = await engine.plan(c.dir, applied.state, { env: {}, mode: "destroy" });
    expect(destroy.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // The first walk opens both; the second only t, which the default provider (deleting lease_probe.a) needs.
    expect(destroy.ephemeralEvents!.filter((e) => e.phase === "complete" && e.action === "open").map((e) => e.address).sort()).toEqual(["ephemeral.lease_token.t", "ephemeral.lease_token.t", "ephemeral.lease_token.u"]);
    const events: EngineEvent[] = [];
    const r = await engine.apply(destroy, { state: applied.state, persist: async () => undefined, onEvent: (e) => events.push(e) });
    expect(r.success).toBe(true);
    expect(opened(events)).toEqual(["ephemeral.lease_token.t"]);
  } finally {
    await engine.close();
    c.cleanup();
  }
}, 60_000);

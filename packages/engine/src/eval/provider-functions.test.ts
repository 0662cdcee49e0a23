import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { numberType, numberVal, stringType, stringVal, type Value } from "@magma/cty";
import { checkFunctionCall, createSchemaEntry, functionCallError, functionSignature, type Block, type FunctionCaller, type Provider, type ProviderSchema } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { evaluate, parseExpression } from "@magma/hcl";
import { decodeOutput } from "@magma/state";
import { createEngine, type EnginePlanResult } from "../engine.js";
import type { ProviderSource } from "../provider-source.js";
import { configOf, MEMORY } from "../planner/test-support.js";
import type { OpenedProvider } from "../provider-source.js";
import { INCONSISTENT_FUNCTION_RESULT, ProviderFunctionCalls, settleProviderCalls } from "./provider-functions.js";

/** The provider meta schema the recording provider declares. */
const metaBlock: Block = { attributes: { module_name: { type: stringType, optional: true } } };

interface Call {
  readonly instance: number;
  readonly op: string;
  /** The object's `name` (from the config, planned or prior state), when there is one. */
  readonly name?: string;
  /** The provider meta sent, as text (`null` for a null value, `-` for none sent). */
  readonly meta: string;
}

const str = (v: Value): string => (v.isNull() ? "null" : v.isKnown() ? JSON.stringify(v.getAttr("module_name").isNull() ? null : v.getAttr("module_name").asString()) : "unknown");
const nameOf = (...vs: Value[]): string | undefined => {
  for (const v of vs) {
    if (v.isNull() || !v.isKnown()) continue;
    const n = v.getAttr("name");
    if (n.isKnown() && !n.isNull()) return n.asString();
  }
  return undefined;
};

/**
 * `hashicorp/memory` with a provider meta schema and three functions, recording every call
 * with the meta it carried: the in-memory provider underneath does the work.
 * Functions: `upper(s string) string`, `count_of(s string) number` (its length), `fail()`.
 */
function recordingSource(log: Call[]): ProviderSource {
  let instances = 0;
  // One store of objects behind every instance, as a real API would be.
  const inner = createMemoryProvider();
  return {
    async open(source: string) {
      if (source !== MEMORY) throw new Error(`no provider ${source}`);
      const instance = ++instances;
      const base = await inner.getSchema();
      const schema: ProviderSchema = {
        ...base,
        providerMeta: createSchemaEntry(metaBlock),
        functions: new Map([
          ["upper", { parameters: [{ name: "s", type: stringType }], returnType: stringType }],
          ["count_of", { parameters: [{ name: "s", type: stringType }], returnType: numberType }],
          ["fail", { parameters: [], returnType: stringType }],
        ]),
      };
      const meta = (o: { providerMeta?: Value } | undefined): string => (o?.providerMeta === undefined ? "-" : str(o.providerMeta));
      const rec = (op: string, o: { providerMeta?: Value } | undefined, ...vs: Value[]): void => {
        const name = nameOf(...vs);
        log.push({ instance, op, meta: meta(o), ...(name !== undefined ? { name } : {}) });
      };
      const p: Provider & FunctionCaller = {
        getSchema: async () => schema,
        configure: async (c, v, o) => {
          log.push({ instance, op: "configure", meta: "-" });
          return inner.configure(c, v, o);
        },
        upgradeResourceState: (t, v, j, o) => inner.upgradeResourceState(t, v, j, o),
        planResourceChange: async (t, prior, proposed, config, o) => {
          rec("plan", o, config, prior);
          return inner.planResourceChange(t, prior, proposed, config, o);
        },
        applyResourceChange: async (t, prior, planned, config, o) => {
          rec("apply", o, planned, prior);
          return inner.applyResourceChange(t, prior, planned, config, o);
        },
        readResource: async (t, state, o) => {
          rec("read", o, state);
          return inner.readResource(t, state, o);
        },
        readDataSource: async (t, config, o) => {
          rec("read-data", o, config);
          return inner.readDataSource(t, config, o);
        },
        importResourceState: (t, id, o) => inner.importResourceState(t, id, o),
        callFunction: async (name, args) => {
          const sig = functionSignature(schema, name);
          const skip = checkFunctionCall(name, sig, args);
          if (skip !== undefined) return skip;
          log.push({ instance, op: `call ${name}(${args.map((a) => JSON.stringify(a.asString())).join(", ")})`, meta: "-" });
          if (name === "upper") return stringVal(args[0]!.asString().toUpperCase());
          if (name === "count_of") return numberVal(args[0]!.asString().length);
          throw functionCallError(name, "boom");
        },
      };
      return { provider: p, schema, stop: async () => "", close: async () => undefined };
    },
  };
}

const REQUIRED = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
`;

async function planOf(files: Record<string, string>): Promise<{ r: EnginePlanResult; log: Call[] }> {
  const c = configOf(files);
  const log: Call[] = [];
  const engine = createEngine({ providers: recordingSource(log), cwd: c.dir });
  try {
    return { r: await engine.plan(c.config, null, { env: {} }), log };
  } finally {
    await engine.close();
    c.cleanup();
  }
}

function errors(r: EnginePlanResult): { summary: string; detail: string; at: string }[] {
  return r.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({ summary: d.summary, detail: d.detail, at: d.subject === undefined ? "" : `${d.subject.filename.split("/").slice(-1)[0]}:${d.subject.start.line}` }));
}

describe("provider_meta and provider-defined functions through plan and apply", () => {
  const files = {
    "main.tf": `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
  provider_meta "memory" {
    module_name = "ROOT-X"
  }
}
variable "suffix" {
  default = "x"
}
locals {
  up = provider::memory::upper("hello")
}
resource "memory_item" "a" {
  count = provider::memory::count_of("ab")
  name  = "\${local.up}-\${count.index}"
}
resource "memory_item" "b" {
  name = provider::memory::upper(memory_item.a[0].id)
  lifecycle {
    precondition {
      condition     = provider::memory::upper(var.suffix) == "X"
      error_message = "upper"
    }
  }
}
data "memory_lookup" "l" {
  name = memory_item.a[1].name
}
module "child" {
  source = "./child"
  prefix = provider::memory::upper("c")
}
module "plain" {
  source = "./plain"
}
output "up" {
  value = local.up
}
output "b" {
  value = provider::memory::upper(memory_item.b.name)
}
output "looked_up" {
  value = data.memory_lookup.l.id
}
`,
    "child/main.tf": `
terraform {
  required_providers {
    mem = { source = "hashicorp/memory" }
  }
  provider_meta "mem" {
    module_name = "child"
  }
}
variable "prefix" {
  type = string
}
resource "memory_item" "c" {
  provider = mem
  name     = provider::mem::upper("\${var.prefix}-item")
}
`,
    "plain/main.tf": `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
resource "memory_item" "p" {
  name = "plain"
}
`,
  };

  test("each call carries its module's meta (null without a block); functions answer at plan and apply, on an unconfigured instance", async () => {
    const c = configOf(files);
    const log: Call[] = [];
    const engine = createEngine({ providers: recordingSource(log), cwd: c.dir });
    try {
      const first = await engine.plan(c.config, null, { env: {} });
      expect(errors(first)).toEqual([]);
      const actions = Object.fromEntries(first.plan.changes.map((ch) => [ch.address, ch.action]));
      expect(actions).toEqual({
        "data.memory_lookup.l": "read",
        "memory_item.a[0]": "create",
        "memory_item.a[1]": "create",
        "memory_item.b": "create",
        "module.child.memory_item.c": "create",
        "module.plain.memory_item.p": "create",
      });
      // Known at plan: the function results; unknown: a call on an unknown argument (no call made).
      expect(first.plan.changes.find((ch) => ch.address === "memory_item.a[1]")!.after.getAttr("name").asString()).toBe("HELLO-1");
      expect(first.plan.changes.find((ch) => ch.address === "module.child.memory_item.c")!.after.getAttr("name").asString()).toBe("C-ITEM");
      // The child's `mem` is the root's default configuration of the same provider (inherited by source address, as terraform does).
      expect(first.plan.changes.find((ch) => ch.address === "module.child.memory_item.c")!.providerConfig).toBe(`provider["${MEMORY}"]`);
      expect(first.plan.changes.find((ch) => ch.address === "memory_item.b")!.after.getAttr("name").isKnown()).toBe(false);
      expect(first.plan.outputs!.find((o) => o.name === "up")!.after.asString()).toBe("HELLO");
      const planMeta = log.filter((l) => l.op === "plan").map((l) => [l.name ?? "?", l.meta]);
      expect(planMeta.sort()).toEqual(
        [
          ["?", '"ROOT-X"'], // memory_item.b: its name is unknown at plan
          ["C-ITEM", '"child"'],
          ["HELLO-0", '"ROOT-X"'],
          ["HELLO-1", '"ROOT-X"'],
          ["plain", "null"],
        ].sort(),
      );
      // Functions run on an instance never configured; each distinct call once.
      const fnInstances = new Set(log.filter((l) => l.op.startsWith("call ")).map((l) => l.instance));
      const configured = new Set(log.filter((l) => l.op === "configure").map((l) => l.instance));
      expect(fnInstances.size).toBeGreaterThan(0);
      for (const i of fnInstances) expect(configured.has(i)).toBe(false);
      const calls = log.filter((l) => l.op.startsWith("call ")).map((l) => l.op);
      expect(calls.sort()).toEqual([...new Set(calls)].sort());
      expect(calls.sort()).toEqual(['call count_of("ab")', 'call upper("C-item")', 'call upper("c")', 'call upper("hello")', 'call upper("x")'].sort());

      log.length = 0;
      let state = null as Parameters<typeof engine.plan>[1];
      const applied = await engine.apply(first, { persist: async (s) => void (state = s) });
      expect(applied.failed).toEqual([]);
      // The items' ids (the memory provider numbers them in the order the apply created them).
      const idOf = (name: string, key?: number): string => {
        const r = state!.resources.find((x) => x.type === "memory_item" && x.name === name && x.module.length === 0)!;
        return (JSON.parse(r.instances.find((i) => i.indexKey === key)!.attributesJson!) as { id: string }).id;
      };
      const b = idOf("a", 0).toUpperCase();
      const applyMeta = log.filter((l) => l.op === "apply" || l.op === "read-data" || l.op === "plan").map((l) => `${l.op} ${l.name ?? "?"} ${l.meta}`);
      expect(applyMeta).toEqual(
        expect.arrayContaining([
          'apply HELLO-0 "ROOT-X"',
          'apply HELLO-1 "ROOT-X"',
          'apply C-ITEM "child"',
          "apply plain null",
          `apply ${b} "ROOT-X"`,
          'read-data HELLO-1 "ROOT-X"',
        ]),
      );
      for (const l of log.filter((x) => x.op === "apply" || x.op === "read-data" || x.op === "plan")) expect(l.meta).not.toBe("-");
      // At apply, memory_item.b's name and the output come from calls with the now-known id.
      const outputs = state!.outputs;
      expect(decodeOutput(outputs.get("b")!).value.asString()).toBe(b);
      expect(decodeOutput(outputs.get("up")!).value.asString()).toBe("HELLO");
      expect(decodeOutput(outputs.get("looked_up")!).value.asString()).toBe(idOf("a", 1));

      // Plan again: the refresh reads carry the meta too, and nothing changes.
      log.length = 0;
      const again = await engine.plan(c.config, state, { env: {} });
      expect(errors(again)).toEqual([]);
      expect(again.plan.changes.filter((ch) => ch.action !== "no-op").map((ch) => ch.address)).toEqual([]);
      const reads = log.filter((l) => l.op === "read").map((l) => `${l.name} ${l.meta}`);
      expect(reads.sort()).toEqual(['C-ITEM "child"', 'HELLO-0 "ROOT-X"', 'HELLO-1 "ROOT-X"', `${b} "ROOT-X"`, "plain null"].sort());
      expect(log.filter((l) => l.op === "read-data").map((l) => l.meta)).toEqual(['"ROOT-X"']);

      // Destroy: the destroy plans and applies carry it as well.
      log.length = 0;
      const destroy = await engine.destroy(c.config, state, { env: {} });
      expect(errors(destroy)).toEqual([]);
      await engine.apply(destroy, { state: state!, persist: async (s) => void (state = s) });
      const deletes = log.filter((l) => l.op === "apply").map((l) => `${l.name} ${l.meta}`);
      expect(deletes.sort()).toEqual(['C-ITEM "child"', 'HELLO-0 "ROOT-X"', 'HELLO-1 "ROOT-X"', `${b} "ROOT-X"`, "plain null"].sort());
    } finally {
      await engine.close();
      c.cleanup();
    }
  }, 120_000);

  test("a plan file keeps the meta for the apply", async () => {
    const { r } = await planOf({ "main.tf": `${REQUIRED.replace("}\n}", '}\n  provider_meta "memory" {\n    module_name = "saved"\n  }\n}')}\nresource "memory_item" "a" {\n  name = "a"\n}\n` });
    expect(errors(r)).toEqual([]);
    const { formatPlan, parsePlan } = await import("../plan/plan-file.js");
    const back = parsePlan(formatPlan(r.plan));
    expect(str(back.changes[0]!.providerMeta!)).toBe('"saved"');
  }, 60_000);
});

describe("provider-defined function errors, in Terraform's words", () => {
  const one = async (expr: string): Promise<{ summary: string; detail: string; at: string }[]> => {
    const { r } = await planOf({ "main.tf": `${REQUIRED}\nlocals {\n  v = ${expr}\n}\nresource "memory_item" "a" {\n  name = local.v\n}\n` });
    return errors(r);
  };

  test("unknown function, undeclared provider, bad argument, failing function", async () => {
    expect(await one('provider::memory::nope("a")')).toEqual([{ summary: "Unknown provider function", detail: 'The function "nope" is not available from the provider "memory".', at: "main.tf:9" }]);
    expect(await one('provider::other::upper("a")')).toEqual([
      {
        summary: "Unknown provider function",
        detail: 'There is no function named "provider::other::upper". Ensure that provider name "other" is declared in this module\'s required_providers block, and that this provider offers a function named "upper".',
        at: "main.tf:9",
      },
    ]);
    expect(await one("provider::memory::upper(null)")).toEqual([{ summary: "Invalid function argument", detail: 'Invalid value for "s" parameter: argument must not be null.', at: "main.tf:9" }]);
    expect(await one("provider::memory::upper([])")).toEqual([{ summary: "Invalid function argument", detail: 'Invalid value for "s" parameter: string required.', at: "main.tf:9" }]);
    expect(await one("provider::memory::fail()")).toEqual([{ summary: "Error in function call", detail: 'Call to function "provider::memory::fail" failed: boom.', at: "main.tf:9" }]);
  }, 120_000);

  test("provider_meta errors: attributes outside the schema", async () => {
    const { r } = await planOf({ "main.tf": `${REQUIRED.replace("}\n}", '}\n  provider_meta "memory" {\n    nope = 1\n  }\n}')}\nresource "memory_item" "a" {\n  name = "a"\n}\n` });
    expect(errors(r).map((e) => e.summary)).toContain("Unsupported argument");
    expect(r.plan.changes).toEqual([]);
  }, 60_000);

  test("provider_meta errors: references and function calls are load errors, as in Terraform (the plan of the directory reports them)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "meta-load-"));
    writeFileSync(join(dir, "main.tf"), `${REQUIRED.replace("}\n}", '}\n  provider_meta "memory" {\n    module_name = var.v\n    other = provider::memory::upper("x")\n  }\n}')}\nvariable "v" {\n  default = "x"\n}\nresource "memory_item" "a" {\n  name = "a"\n}\n`);
    const log: Call[] = [];
    const engine = createEngine({ providers: recordingSource(log), cwd: dir });
    try {
      const r = await engine.plan(dir, null, { env: {} });
      expect(errors(r).map((e) => `${e.summary} ${e.at}`)).toEqual(["Variables not allowed main.tf:7", "Function calls not allowed main.tf:8"]);
      expect(r.plan.changes).toEqual([]);
      expect(log).toEqual([]); // nothing launched: the configuration did not load
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("a provider without a meta schema refuses a provider_meta block for it", async () => {
    const c = configOf({
      "main.tf": `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
  provider_meta "memory" {
    module_name = "x"
  }
}
resource "memory_item" "a" {
  name = "a"
}
`,
    });
    const engine = createEngine({
      providers: {
        async open(source: string) {
          const p = createMemoryProvider();
          if (source !== MEMORY) throw new Error(`no provider ${source}`);
          return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
        },
      },
      cwd: c.dir,
    });
    try {
      const r = await engine.plan(c.config, null, { env: {} });
      expect(errors(r)).toEqual([
        { summary: "Provider registry.terraform.io/hashicorp/memory doesn't support provider_meta", detail: "The resource memory_item.a belongs to a provider that doesn't support provider_meta blocks", at: "main.tf:6" },
      ]);
    } finally {
      await engine.close();
      c.cleanup();
    }
  }, 60_000);
});



describe("the results table: the apply's calls must answer as the plan's", () => {
  const SOURCE = "example.com/magma/stamp";
  /** A provider whose `stamp(s)` answers `s:<suffix>`, counting its calls. */
  function stampProvider(): { open: () => Promise<OpenedProvider>; calls: () => number; setSuffix(s: string): void } {
    let suffix = "one";
    let calls = 0;
    const functions = new Map([["stamp", { parameters: [{ name: "s", type: stringType }], returnType: stringType }]]);
    const provider = {
      callFunction: async (_name: string, args: readonly Value[]) => {
        calls++;
        return stringVal(`${args[0]!.asString()}:${suffix}`);
      },
    } as unknown as Provider & FunctionCaller;
    const open = async (): Promise<OpenedProvider> => ({ provider, schema: { ...(await createMemoryProvider().getSchema()), functions } as ProviderSchema, stop: async () => "", close: async () => undefined });
    return { open, calls: () => calls, setSuffix: (s) => void (suffix = s) };
  }
  const evalWith = async (calls: ProviderFunctionCalls, text: string): Promise<{ value: string; diags: string[] }> => {
    const { expr } = parseExpression(text);
    const r = await settleProviderCalls(calls, () => evaluate(expr, { providerFunction: calls.resolver(new Map([["stamp", SOURCE]])) }));
    return { value: r.value.isKnown() ? r.value.asString() : "(unknown)", diags: r.diags.map((d) => `${d.summary}: ${d.detail}`) };
  };

  test("a call made again at apply must give the plan's result; calls the plan did not make join the table", async () => {
    const p = stampProvider();
    const plan = new ProviderFunctionCalls(p.open);
    expect(await evalWith(plan, 'provider::stamp::stamp("a")')).toEqual({ value: "a:one", diags: [] });
    const results = plan.functionResults();
    expect(results).toHaveLength(1);
    expect(results[0]!.key).toMatch(/^[0-9a-f]{64}$/);
    expect(results[0]!.result).toMatch(/^[0-9a-f]{64}$/);

    // The same answer at apply: called again, accepted.
    plan.checkAgainst(results);
    expect(await evalWith(plan, 'provider::stamp::stamp("a")')).toEqual({ value: "a:one", diags: [] });
    expect(p.calls()).toBe(2);

    // Another answer at apply (a saved plan's table, in a fresh set of calls): Terraform's error in place of the value.
    p.setSuffix("two");
    const apply = new ProviderFunctionCalls(p.open);
    apply.checkAgainst(results);
    expect(await evalWith(apply, 'provider::stamp::stamp("a")')).toEqual({
      value: "(unknown)",
      diags: [`Error in function call: Call to function "provider::stamp::stamp" failed: ${INCONSISTENT_FUNCTION_RESULT}.`],
    });
    // A call the plan did not make is answered and recorded.
    expect(await evalWith(apply, 'provider::stamp::stamp("b")')).toEqual({ value: "b:two", diags: [] });
    expect(apply.functionResults()).toHaveLength(2);
    await Promise.all([plan.close(), apply.close()]);
  });
});

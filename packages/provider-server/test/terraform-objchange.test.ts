/**
 * Terraform's object-change rules, checked against terraform 1.11.4 itself with the "probe"
 * provider (test/testdata/objchange-provider.mjs) served over protocol 6:
 *
 * - the plan of a data source whose read must wait for apply (Terraform plans it with a
 *   wholly unknown prior) equals `proposedNewState(block, unknown, config)`;
 * - a plan that ignores its configuration, plans with a nested block (or block element)
 *   unknown, an apply that leaves unknowns and one that
 *   changes a planned value — injected after `createNativeProvider`'s checks, so that
 *   terraform sees them — are rejected by terraform with exactly the diagnostics that
 *   `assertPlanValid` and `assertObjectCompatible` give for the same values, and a
 *   well-behaved resource passes both;
 * - a read that finds the object gone, with a warning: terraform shows the warning, and
 *   `@magma/plugin`'s client gets `{ gone: true, warnings }`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nullVal, numberType, numberVal, objectVal, setVal, mapVal, listVal, stringType, stringVal, unknownVal, dynamicType, type Value } from "@magma/cty";
import { dialProvider, type LiveProvider } from "@magma/plugin";
import { assertObjectCompatible, assertPlanValid, createSchemaEntry, impliedType, proposedNewState, type Block, type Diag } from "@magma/provider-api";
import { expectExit, fixtureLauncher, tempDir, terraform, terraformEnv } from "./support/harness.js";
import { hasTerraform } from "@magma/test-support";

const d = hasTerraform() ? describe : describe.skip;

const probeModule = join(dirname(fileURLToPath(import.meta.url)), "testdata/objchange-provider.mjs");
const PROVIDER = "example.com/magma/probe";

const HEADER = `
terraform {
  required_providers {
    probe = { source = "${PROVIDER}", version = "1.0.0" }
  }
}
`;

// The fixture's schemas, restated (the fixture is plain JS).
const str = stringType;
const member: Block["attributes"] = { a: { type: str, optional: true }, c: { type: str, computed: true } };
const probeDataBlock: Block = {
  attributes: {
    name: { type: str, required: true },
    c: { type: str, computed: true },
    dyn: { type: dynamicType, optional: true },
    nm: { optional: true, nestedType: { nesting: "map", attributes: member! } },
    nl: { optional: true, nestedType: { nesting: "list", attributes: member! } },
    ns: { optional: true, nestedType: { nesting: "set", attributes: member! } },
    nsingle: { optional: true, nestedType: { nesting: "single", attributes: member! } },
  },
  blockTypes: {
    mp: { nesting: "map", block: { attributes: member } },
    lst: { nesting: "list", block: { attributes: member } },
    st: { nesting: "set", block: { attributes: member } },
    one: { nesting: "single", block: { attributes: member } },
  },
};
const probeItemBlock: Block = {
  attributes: {
    id: { type: str, computed: true },
    value: { type: str, optional: true },
    mode: { type: str, optional: true },
    size: { type: numberType, optional: true, computed: true },
  },
};
const itemType = impliedType(probeItemBlock);
const probeBlocksBlock: Block = { attributes: { mode: { type: str, optional: true } }, blockTypes: { b: { nesting: "list", block: { attributes: { c: { type: str, optional: true } } } } } };

/** terraform's `after` of a planned value: unknown object attributes left out, unknown elements null. */
function after(v: Value): unknown {
  if (v.isNull() || !v.isKnown()) return null;
  switch (v.type.kind) {
    case "string":
      return v.asString();
    case "bool":
      return v.asBool();
    case "number":
      return v.asNumber().toNumber();
    case "list":
    case "set":
    case "tuple":
      return v.elements().map(after);
    default: {
      const m = v.type.kind === "map" ? v.entries() : new Map(Object.entries(v.attributes()));
      return Object.fromEntries([...m].filter(([, e]) => e.isKnown()).map(([k, e]) => [k, after(e)]));
    }
  }
}

/** terraform's `after_unknown`: true for unknowns; objects keep only what is not false. */
function afterUnknown(v: Value): unknown {
  if (!v.isKnown()) return true;
  if (v.isNull()) return false;
  switch (v.type.kind) {
    case "list":
    case "set":
    case "tuple":
      return v.elements().map(afterUnknown);
    case "map":
    case "object": {
      const m = v.type.kind === "map" ? v.entries() : new Map(Object.entries(v.attributes()));
      return Object.fromEntries([...m].map(([k, e]) => [k, afterUnknown(e)] as const).filter(([, x]) => x !== false));
    }
    default:
      return false;
  }
}

/** A diagnostic as terraform prints it with -no-color, whitespace collapsed. */
function printed(diag: Diag): string {
  return squash(`Error: ${diag.summary} ${diag.detail ?? ""}`);
}

function squash(text: string): string {
  return text.replace(/[│╷╵]/g, " ").replace(/\s+/g, " ").trim();
}

d("terraform 1.11.4 and the object-change rules (probe provider, protocol 6)", () => {
  let tmp: { dir: string; cleanup(): void };
  let env: Record<string, string | undefined>;
  let n = 0;

  beforeAll(() => {
    tmp = tempDir("tfoc-");
    fixtureLauncher(tmp.dir, [6], probeModule, "createProvider", "probe");
    env = terraformEnv(tmp.dir);
  });
  afterAll(() => tmp.cleanup());

  /** A fresh working directory with `main.tf`, initialised. */
  async function workdir(body: string): Promise<(...args: string[]) => ReturnType<typeof terraform>> {
    const work = join(tmp.dir, `w${++n}`);
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), HEADER + body);
    const tf = (...args: string[]) => terraform(args, work, env);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    return tf;
  }

  test("a deferred data source is planned as proposedNewState with a wholly unknown prior", async () => {
    const tf = await workdir(`
resource "terraform_data" "x" { input = "a" }
data "probe_data" "d" {
  name    = terraform_data.x.id
  dyn     = { k = "v" }
  nm      = { k1 = { a = "x" } }
  nl      = [{ a = "y" }]
  ns      = [{ a = "z" }]
  nsingle = { a = "s" }
  mp "k1" { a = "m" }
  lst { a = "l" }
  st { a = "t" }
  one { a = "o" }
}
`);
    expectExit(await tf("plan", "-no-color", "-out", "plan.bin"), 0, "plan", env);
    const show = await tf("show", "-json", "plan.bin");
    expectExit(show, 0, "show", env);
    const changes = (JSON.parse(show.stdout) as { resource_changes: { address: string; change: { after: unknown; after_unknown: unknown } }[] }).resource_changes;
    const planned = changes.find((c) => c.address === "data.probe_data.d")!.change;

    const nul = nullVal(str);
    const m = (a: string): Value => objectVal({ a: stringVal(a), c: nul });
    const config = objectVal({
      name: unknownVal(str),
      c: nul,
      dyn: objectVal({ k: stringVal("v") }),
      nm: mapVal({ k1: m("x") }),
      nl: listVal([m("y")]),
      ns: setVal([m("z")]),
      nsingle: m("s"),
      mp: mapVal({ k1: m("m") }),
      lst: listVal([m("l")]),
      st: setVal([m("t")]),
      one: m("o"),
    });
    const t = createSchemaEntry(probeDataBlock).type;
    const ours = proposedNewState(probeDataBlock, unknownVal(t), config);
    expect(planned.after).toEqual(after(ours));
    expect(planned.after_unknown).toEqual(afterUnknown(ours));
    // what terraform printed is not trivially the config: list and single members became unknown
    expect(planned.after_unknown).toMatchObject({ lst: [{ c: true }], one: { c: true }, mp: { k1: {} } });
  });

  test("a plan that ignores the config or plans blocks unknown: terraform and assertPlanValid reject it with the same diagnostics", async () => {
    const tf = await workdir(`
resource "probe_item" "bad" {
  value = "asked"
  mode  = "ignore-config"
}
resource "probe_item" "good" {
  value = "asked"
}
resource "probe_blocks" "u" {
  mode = "unknown-block"
  b { c = "x" }
}
resource "probe_blocks" "e" {
  mode = "unknown-element"
  b { c = "x" }
}
`);
    const plan = await tf("plan", "-no-color");
    expectExit(plan, 1, "plan", env);
    const config = (mode: string): Value => objectVal({ id: nullVal(str), value: stringVal("asked"), mode: stringVal(mode), size: nullVal(numberType) });
    const plannedBy = (mode: string, value: string): Value => objectVal({ id: unknownVal(str), value: stringVal(value), mode: stringVal(mode), size: numberVal(1) });
    const bad = assertPlanValid(probeItemBlock, nullVal(itemType), config("ignore-config"), plannedBy("ignore-config", "not-what-you-asked"), { provider: PROVIDER, address: "probe_item.bad" });
    expect(bad).toHaveLength(1);
    // nested blocks planned unknown, as a whole or element by element
    const blocksType = impliedType(probeBlocksBlock);
    const elem = blocksType.attributes["b"]!;
    const blocksConfig = (mode: string): Value => objectVal({ mode: stringVal(mode), b: listVal([objectVal({ c: stringVal("x") })]) });
    const unknownBlock = assertPlanValid(probeBlocksBlock, nullVal(blocksType), blocksConfig("unknown-block"), objectVal({ mode: stringVal("unknown-block"), b: unknownVal(elem) }), { provider: PROVIDER, address: "probe_blocks.u" });
    const unknownElement = assertPlanValid(
      probeBlocksBlock,
      nullVal(blocksType),
      blocksConfig("unknown-element"),
      objectVal({ mode: stringVal("unknown-element"), b: listVal([unknownVal(elem.kind === "list" ? elem.element : elem)]) }),
      { provider: PROVIDER, address: "probe_blocks.e" },
    );
    expect([...unknownBlock, ...unknownElement].map((x) => x.attribute?.toString())).toEqual(["b", "b[0]"]);
    const out = squash(plan.stderr);
    for (const diag of [...bad, ...unknownBlock, ...unknownElement]) expect(out).toContain(printed(diag));
    expect(out.match(/Error: /g)).toHaveLength(3);
    // the well-behaved plan passes both
    expect(assertPlanValid(probeItemBlock, nullVal(itemType), config(""), plannedBy("", "asked"), { provider: PROVIDER, address: "probe_item.good" })).toEqual([]);
    expect(out).not.toContain("probe_item.good");
  });

  test("apply results with unknowns left or a planned value changed: terraform and assertObjectCompatible reject them alike", async () => {
    const tf = await workdir(`
resource "probe_item" "u" {
  mode = "unknowns-after-apply"
}
resource "probe_item" "c" {
  mode = "changed-after-apply"
}
resource "probe_item" "ok" {
  mode = "fine"
}
`);
    const apply = await tf("apply", "-auto-approve", "-no-color");
    expectExit(apply, 1, "apply", env);
    const out = squash(apply.stderr);
    const planned = (mode: string): Value => objectVal({ id: unknownVal(str), value: nullVal(str), mode: stringVal(mode), size: numberVal(1) });
    const applied = (mode: string, id: Value, size: Value): Value => objectVal({ id, value: nullVal(str), mode: stringVal(mode), size });
    const opts = (address: string) => ({ provider: `provider[${JSON.stringify(PROVIDER)}]`, address });

    const unknowns = assertObjectCompatible(probeItemBlock, planned("unknowns-after-apply"), applied("unknowns-after-apply", unknownVal(str), unknownVal(numberType)), opts("probe_item.u"));
    expect(unknowns.map((x) => x.attribute?.toString())).toEqual(["id", "size"]);
    const changed = assertObjectCompatible(probeItemBlock, planned("changed-after-apply"), applied("changed-after-apply", stringVal("probe-1"), numberVal(99)), opts("probe_item.c"));
    expect(changed).toHaveLength(1);
    for (const diag of [...unknowns, ...changed]) expect(out).toContain(printed(diag));
    expect(out.match(/Error: /g)).toHaveLength(unknowns.length + changed.length);
    expect(assertObjectCompatible(probeItemBlock, planned("fine"), applied("fine", stringVal("probe-1"), numberVal(1)), opts("probe_item.ok"))).toEqual([]);
    expect(apply.stdout).toContain("probe_item.ok: Creation complete");
  });

  test("a read that finds the object gone: terraform shows its warning and plans to create it again", async () => {
    const tf = await workdir(`
resource "probe_item" "g" {
  value = "gone"
}
`);
    expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", env);
    const plan = await tf("plan", "-no-color", "-detailed-exitcode");
    expectExit(plan, 2, "plan", env);
    const out = squash(plan.stdout + plan.stderr);
    expect(out).toContain("Warning: probe_item vanished with probe_item.g,");
    expect(out).toContain("it was deleted outside terraform");
    expect(plan.stdout).toContain("probe_item.g will be created");
  });
});

describe("@magma/plugin's client and a served read that finds the object gone", () => {
  let tmp: { dir: string; cleanup(): void };
  let live: LiveProvider | undefined;
  beforeAll(() => {
    tmp = tempDir("oclive-");
  });
  afterAll(async () => {
    await live?.close();
    tmp.cleanup();
  });

  test.each([6, 5] as const)("protocol %d: gone, with the warning", async (version) => {
    // Without probe_data, whose v6 nested attributes protocol 5 cannot carry.
    const { executable } = fixtureLauncher(join(tmp.dir, `v${version}`), [version], probeModule, "createItemProvider", "probe");
    live = await dialProvider({ binary: executable, protocolVersions: [version], startTimeoutMs: 60_000 });
    await live.provider.configure(objectVal({}), "1.11.4");
    const state = (value: string): Value => objectVal({ id: stringVal("probe-1"), value: stringVal(value), mode: nullVal(str), size: numberVal(1) });
    const found = await live.provider.readResource("probe_item", state("here"));
    expect(found.gone).toBe(false);
    const gone = await live.provider.readResource("probe_item", state("gone"));
    expect(gone).toEqual({ gone: true, warnings: [{ severity: "warning", summary: "probe_item vanished", detail: "it was deleted outside terraform" }] });
    await live.close();
    live = undefined;
  });
});

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as cty from "@magma/cty";
import {
  listVal,
  listValEmpty,
  mapVal,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  setVal,
  stringType,
  stringVal,
  typeFromJsonValue,
  unknownVal,
  type Type,
  type Value,
} from "@magma/cty";
import { configValue } from "./config-value.js";
import { proposedNewState } from "./proposed-new-state.js";
import { impliedType, type Attribute, type Block } from "./schema.js";

const here = dirname(fileURLToPath(import.meta.url));
const s = (x: string): Value => stringVal(x);

const block: Block = {
  attributes: {
    id: { type: stringType, computed: true },
    name: { type: stringType, required: true },
    oc: { type: stringType, optional: true, computed: true },
    opt: { type: stringType, optional: true },
    nested_oc: { optional: true, computed: true, nestedType: { nesting: "single", attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    nested_list: { optional: true, nestedType: { nesting: "list", attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
  },
  blockTypes: {
    single: { nesting: "single", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    group: { nesting: "group", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    lst: { nesting: "list", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
    st: { nesting: "set", block: { attributes: { a: { type: stringType, optional: true }, n: { type: numberType, optional: true }, c: { type: stringType, computed: true } } } },
    mp: { nesting: "map", block: { attributes: { a: { type: stringType, optional: true }, c: { type: stringType, computed: true } } } },
  },
};
const t = impliedType(block);
const cfg = (plain: Record<string, unknown>): Value => configValue(block, plain);

/** A prior state: the config with computed values filled in. */
function state(plain: Record<string, unknown>): Value {
  return configValue(block, plain);
}

describe("proposedNewState (hand-built cases)", () => {
  test("both null → null; null config (destroy) → null; null config with an unknown prior → the prior", () => {
    expect(proposedNewState(block, nullVal(t), nullVal(t)).rawEquals(nullVal(t))).toBe(true);
    const prior = state({ id: "i", name: "n" });
    expect(proposedNewState(block, prior, nullVal(t)).rawEquals(nullVal(t))).toBe(true);
    expect(proposedNewState(block, unknownVal(t), nullVal(t)).rawEquals(unknownVal(t))).toBe(true);
  });

  test("create: the proposal equals the config (computed attributes stay null)", () => {
    const c = cfg({ name: "n", single: { a: "x" }, lst: [{ a: "1" }], st: [{ a: "s" }], mp: { k: { a: "m" } } });
    expect(proposedNewState(block, nullVal(t), c).rawEquals(c)).toBe(true);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>, (v: Value) => void]>([
    [
      "computed attribute null in config takes the prior value; optional takes config even when null",
      { id: "i1", name: "n", oc: "computed-before", opt: "o" },
      { name: "n2" },
      (v) => {
        expect(v.getAttr("id").rawEquals(s("i1"))).toBe(true);
        expect(v.getAttr("oc").rawEquals(s("computed-before"))).toBe(true);
        expect(v.getAttr("opt").isNull()).toBe(true);
        expect(v.getAttr("name").rawEquals(s("n2"))).toBe(true);
      },
    ],
    [
      "optional+computed set in config takes config",
      { id: "i1", name: "n", oc: "old" },
      { name: "n", oc: "new" },
      (v) => expect(v.getAttr("oc").rawEquals(s("new"))).toBe(true),
    ],
    [
      "optional+computed nested attribute removed from config: prior with a non-computed leaf → null",
      { id: "i", name: "n", nested_oc: { a: "user", c: "gen" } },
      { name: "n" },
      (v) => expect(v.getAttr("nested_oc").isNull()).toBe(true),
    ],
    [
      "optional+computed nested attribute whose prior has only computed leaves keeps the prior",
      { id: "i", name: "n", nested_oc: { c: "gen" } },
      { name: "n" },
      (v) => expect(v.getAttr("nested_oc").getAttr("c").rawEquals(s("gen"))).toBe(true),
    ],
    [
      "nested list attribute pairs by index and carries computed values",
      { id: "i", name: "n", nested_list: [{ a: "1", c: "c1" }] },
      { name: "n", nested_list: [{ a: "1x" }, { a: "2" }] },
      (v) => {
        const l = v.getAttr("nested_list");
        expect(l.index(0).getAttr("c").rawEquals(s("c1"))).toBe(true);
        expect(l.index(0).getAttr("a").rawEquals(s("1x"))).toBe(true);
        expect(l.index(1).getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "single block: null in config stays null; present recurses",
      { id: "i", name: "n", single: { a: "x", c: "cs" } },
      { name: "n", single: { a: "y" } },
      (v) => expect(v.getAttr("single").getAttr("c").rawEquals(s("cs"))).toBe(true),
    ],
    [
      "single block removed from config → null",
      { id: "i", name: "n", single: { a: "x", c: "cs" } },
      { name: "n" },
      (v) => expect(v.getAttr("single").isNull()).toBe(true),
    ],
    [
      "group block always recurses",
      { id: "i", name: "n", group: { a: "x", c: "cg" } },
      { name: "n" },
      (v) => {
        expect(v.getAttr("group").getAttr("c").rawEquals(s("cg"))).toBe(true);
        expect(v.getAttr("group").getAttr("a").isNull()).toBe(true);
      },
    ],
    [
      "list block pairs by index; extra config elements are taken as is",
      { id: "i", name: "n", lst: [{ a: "1", c: "c1" }] },
      { name: "n", lst: [{ a: "other" }, { a: "2" }] },
      (v) => {
        const l = v.getAttr("lst");
        expect(l.index(0).getAttr("c").rawEquals(s("c1"))).toBe(true);
        expect(l.index(1).getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "map block pairs by key",
      { id: "i", name: "n", mp: { k1: { a: "1", c: "c1" }, k2: { a: "2", c: "c2" } } },
      { name: "n", mp: { k2: { a: "2x" }, k3: { a: "3" } } },
      (v) => {
        const m = v.getAttr("mp");
        expect(m.index("k2").getAttr("c").rawEquals(s("c2"))).toBe(true);
        expect(m.index("k3").getAttr("c").isNull()).toBe(true);
        expect(m.length()).toBe(2);
      },
    ],
    [
      "set block: an element pairs with the prior element that differs only in computed attributes",
      { id: "i", name: "n", st: [{ a: "x", n: 1, c: "cx" }, { a: "y", n: 2, c: "cy" }] },
      { name: "n", st: [{ a: "y", n: 2 }, { a: "z", n: 3 }] },
      (v) => {
        const es = v.getAttr("st").elements();
        const y = es.find((e) => e.getAttr("a").rawEquals(s("y")))!;
        const z = es.find((e) => e.getAttr("a").rawEquals(s("z")))!;
        expect(y.getAttr("c").rawEquals(s("cy"))).toBe(true);
        expect(z.getAttr("c").isNull()).toBe(true);
      },
    ],
    [
      "set block: a change in a non-computed attribute breaks the pairing",
      { id: "i", name: "n", st: [{ a: "x", n: 1, c: "cx" }] },
      { name: "n", st: [{ a: "x", n: 2 }] },
      (v) => expect(v.getAttr("st").elements()[0]!.getAttr("c").isNull()).toBe(true),
    ],
  ])("%s", (_name, priorPlain, configPlain, check) => {
    check(proposedNewState(block, state(priorPlain), cfg(configPlain)));
  });

  test("set block: a config element with a computed attribute set does not pair", () => {
    const prior = state({ id: "i", name: "n", st: [{ a: "x", c: "cx" }] });
    const v = proposedNewState(block, prior, cfg({ name: "n", st: [{ a: "x", c: "mine" }] }));
    expect(v.getAttr("st").elements()[0]!.getAttr("c").rawEquals(s("mine"))).toBe(true);
  });

  test("set block: an unknown (refined) value in a non-computed attribute prevents pairing", () => {
    const prior = state({ id: "i", name: "n", st: [{ a: "x", c: "cx" }] });
    const refined = unknownVal(stringType, { notNull: true, stringPrefix: "x" });
    const config = objectVal({ ...cfg({ name: "n" }).attributes(), st: setVal([objectVal({ a: refined, n: nullVal(numberType), c: nullVal(stringType) })]) });
    // the unknown `a` differs from the prior's "x" and `a` is not computed: no pairing, c stays null
    const v = proposedNewState(block, prior, config);
    expect(v.getAttr("st").elements()[0]!.getAttr("c").isNull()).toBe(true);
  });

  test("unknown block collection in config is taken as is", () => {
    const prior = state({ id: "i", name: "n", lst: [{ a: "1", c: "c1" }] });
    const unknownList = unknownVal(t.attributes["lst"]!);
    const config = objectVal({ ...cfg({ name: "n" }).attributes(), lst: unknownList });
    expect(proposedNewState(block, prior, config).getAttr("lst").rawEquals(unknownList)).toBe(true);
  });

  test("unknown attribute in config is taken as is", () => {
    const prior = state({ id: "i", name: "n", opt: "o" });
    const config = cfg({ name: "n", opt: unknownVal(stringType) });
    expect(proposedNewState(block, prior, config).getAttr("opt").isKnown()).toBe(false);
  });

  test("the result has the block's implied type", () => {
    const prior = state({ id: "i", name: "n", lst: [{ a: "1", c: "c1" }], mp: { k: { a: "a" } } });
    const v = proposedNewState(block, prior, cfg({ name: "n", lst: [] }));
    expect(cty.typeEquals(v.type, t)).toBe(true);
    expect(v.getAttr("lst").rawEquals(listValEmpty(impliedType(block.blockTypes!["lst"]!.block)))).toBe(true);
    expect(mapVal({ x: numberVal(1) }).type.kind).toBe("map");
    expect(listVal([s("a")]).length()).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------
// Cases derived from Terraform's TestProposedNew (internal/plans/objchange/objchange_test.go)
// and from terraform 1.11.4's plan of a deferred data source (its prior is wholly unknown;
// test/terraform-objchange.test.ts in @magma/provider-server checks that plan against this
// function end to end).

describe("proposedNewState (Terraform's ProposedNew table)", () => {
  const str = stringType;
  const obj = cty.objectType;
  const member: Record<string, Attribute> = { a: { type: str, optional: true }, c: { type: str, computed: true } };
  const m = (a: Value, c: Value): Value => objectVal({ a, c });
  const nul = nullVal(str);
  const same = (got: Value, want: Value): void => {
    if (!got.rawEquals(want)) expect(got.toString()).toBe(want.toString());
    expect(got.rawEquals(want)).toBe(true);
  };

  test("no prior: unset computed attributes are null, an explicit unknown in config is kept", () => {
    const b: Block = {
      attributes: {
        foo: { type: str, optional: true },
        bar: { type: str, computed: true },
        bloop: { computed: true, nestedType: { nesting: "single", attributes: { blop: { type: str, required: true } } } },
      },
      blockTypes: { baz: { nesting: "single", block: { attributes: { boz: { type: str, optional: true, computed: true }, biz: { type: str, optional: true, computed: true } } } } },
    };
    const config = objectVal({ foo: s("hello"), bar: nul, bloop: nullVal(obj({ blop: str })), baz: objectVal({ boz: s("world"), biz: unknownVal(str) }) });
    same(proposedNewState(b, nullVal(impliedType(b)), config), config);
  });

  test("prior attributes: computed and optional+computed unset keep the prior, set ones take config", () => {
    const b: Block = {
      attributes: {
        foo: { type: str, optional: true },
        bar: { type: str, computed: true },
        baz: { type: str, optional: true, computed: true },
        boz: { type: str, optional: true, computed: true },
        bloop: { optional: true, nestedType: { nesting: "single", attributes: { blop: { type: str, required: true } } } },
      },
    };
    const prior = objectVal({ foo: s("bonjour"), bar: s("petit dejeuner"), baz: s("grande dejeuner"), boz: s("a la monde"), bloop: objectVal({ blop: s("glub") }) });
    const config = objectVal({ foo: s("hello"), bar: nul, baz: nul, boz: s("world"), bloop: objectVal({ blop: s("bleep") }) });
    same(proposedNewState(b, prior, config), objectVal({ foo: s("hello"), bar: s("petit dejeuner"), baz: s("grande dejeuner"), boz: s("world"), bloop: objectVal({ blop: s("bleep") }) }));
  });

  test("prior optional+computed nested single set to null: null (the prior holds a non-computed value)", () => {
    const b: Block = { attributes: { bloop: { optional: true, computed: true, nestedType: { nesting: "single", attributes: { blop: { type: str, required: true }, bleep: { type: str, optional: true } } } } } };
    const t2 = obj({ blop: str, bleep: str });
    same(proposedNewState(b, objectVal({ bloop: objectVal({ blop: s("glub"), bleep: nul }) }), objectVal({ bloop: nullVal(t2) })), objectVal({ bloop: nullVal(t2) }));
  });

  test("computed within optional+computed: the nested computed values of the prior are kept", () => {
    const inner: Attribute = { optional: true, nestedType: { nesting: "single", attributes: { optional: { type: str, optional: true }, computed: { type: str, computed: true } } } };
    const b: Block = { attributes: { list_obj: { optional: true, computed: true, nestedType: { nesting: "list", attributes: { obj: inner } } } } };
    const o = (opt: string, comp: Value): Value => objectVal({ obj: objectVal({ optional: s(opt), computed: comp }) });
    const prior = objectVal({ list_obj: listVal([o("prior", s("prior computed"))]) });
    same(proposedNewState(b, prior, objectVal({ list_obj: listVal([o("prior", nul)]) })), prior);
    const t2 = impliedType(b).attributes["list_obj"]!;
    same(proposedNewState(b, prior, objectVal({ list_obj: nullVal(t2) })), objectVal({ list_obj: nullVal(t2) }));
  });

  test("config add within optional+computed set: prior elements pair by their non-computed values, the new one gets null", () => {
    const inner: Attribute = { optional: true, nestedType: { nesting: "single", attributes: { optional: { type: str, optional: true }, computed: { type: str, computed: true } } } };
    const b: Block = { attributes: { set_obj: { optional: true, computed: true, nestedType: { nesting: "set", attributes: { obj: inner } } } } };
    const o = (opt: string, comp: Value): Value => objectVal({ obj: objectVal({ optional: s(opt), computed: comp }) });
    const prior = objectVal({ set_obj: setVal([o("first", s("first computed")), o("second", s("second computed"))]) });
    const config = objectVal({ set_obj: setVal([o("first", nul), o("second", nul), o("third", nul)]) });
    same(proposedNewState(b, prior, config), objectVal({ set_obj: setVal([o("first", s("first computed")), o("second", s("second computed")), o("third", nul)]) }));
  });

  test("unknown prior nested objects, null config: the unknown prior (how data sources are planned)", () => {
    const b: Block = {
      attributes: { list: { computed: true, nestedType: { nesting: "list", attributes: { list: { computed: true, nestedType: { nesting: "list", attributes: { foo: { type: str, optional: true } } } } } } } },
    };
    const t2 = impliedType(b);
    same(proposedNewState(b, unknownVal(t2), nullVal(t2)), unknownVal(t2));
    // and a null prior with a null config stays null; a known prior with a null config is a destroy: null
    same(proposedNewState(b, nullVal(t2), nullVal(t2)), nullVal(t2));
  });

  test("prior null nested objects: map and list nested attributes take the config", () => {
    const listOf = (n: string): Attribute => ({ optional: true, nestedType: { nesting: "list", attributes: { foo: { type: str, optional: true } } }, description: n });
    const b: Block = {
      attributes: {
        single: { optional: true, nestedType: { nesting: "single", attributes: { list: listOf("l") } } },
        map: { optional: true, nestedType: { nesting: "map", attributes: { map: listOf("m") } } },
      },
    };
    const l = listVal([objectVal({ foo: s("a") }), objectVal({ foo: s("b") })]);
    const config = objectVal({ single: objectVal({ list: l }), map: mapVal({ one: objectVal({ map: l }) }) });
    same(proposedNewState(b, nullVal(impliedType(b)), config), config);
  });

  // Every nesting with a computed member `c`, as in the probe provider's `probe_data`.
  const every: Block = {
    attributes: {
      name: { type: str, required: true },
      c: { type: str, computed: true },
      dyn: { type: cty.dynamicType, optional: true },
      nm: { optional: true, nestedType: { nesting: "map", attributes: member } },
      nl: { optional: true, nestedType: { nesting: "list", attributes: member } },
      ns: { optional: true, nestedType: { nesting: "set", attributes: member } },
      nsingle: { optional: true, nestedType: { nesting: "single", attributes: member } },
    },
    blockTypes: {
      mp: { nesting: "map", block: { attributes: member } },
      lst: { nesting: "list", block: { attributes: member } },
      st: { nesting: "set", block: { attributes: member } },
      one: { nesting: "single", block: { attributes: member } },
    },
  };
  const everyType = impliedType(every);
  const everyConfig = (name: Value): Value =>
    objectVal({
      name,
      c: nul,
      dyn: objectVal({ k: s("v") }),
      nm: mapVal({ k1: m(s("x"), nul) }),
      nl: listVal([m(s("y"), nul)]),
      ns: setVal([m(s("z"), nul)]),
      nsingle: m(s("s"), nul),
      mp: mapVal({ k1: m(s("m"), nul) }),
      lst: listVal([m(s("l"), nul)]),
      st: setVal([m(s("t"), nul)]),
      one: m(s("o"), nul),
    });

  test("wholly unknown prior (terraform 1.11.4's deferred data source): computed members of list and single nesting become unknown; map keys and set elements absent from the prior take the config (null)", () => {
    const u = unknownVal(str);
    same(
      proposedNewState(every, unknownVal(everyType), everyConfig(u)),
      objectVal({
        name: u,
        c: u,
        dyn: objectVal({ k: s("v") }),
        nm: mapVal({ k1: m(s("x"), nul) }),
        nl: listVal([m(s("y"), u)]),
        ns: setVal([m(s("z"), nul)]),
        nsingle: m(s("s"), u),
        mp: mapVal({ k1: m(s("m"), nul) }),
        lst: listVal([m(s("l"), u)]),
        st: setVal([m(s("t"), nul)]),
        one: m(s("o"), u),
      }),
    );
  });

  test("known prior: keys and elements absent from it get null computed members; present ones keep theirs", () => {
    const prior = objectVal({
      name: s("n"),
      c: s("pc"),
      dyn: objectVal({ k: s("v") }),
      nm: mapVal({ k0: m(s("x"), s("c0")) }),
      nl: listVal([m(s("y"), s("cl"))]),
      ns: setVal([m(s("other"), s("cs"))]),
      nsingle: m(s("s"), s("c1")),
      mp: mapVal({ k1: m(s("m"), s("cm")), k9: m(s("gone"), s("c9")) }),
      lst: listValEmpty(obj({ a: str, c: str })),
      st: setVal([m(s("t"), s("ct"))]),
      one: m(s("o"), s("co")),
    });
    same(
      proposedNewState(every, prior, everyConfig(s("n"))),
      objectVal({
        name: s("n"),
        c: s("pc"),
        dyn: objectVal({ k: s("v") }),
        nm: mapVal({ k1: m(s("x"), nul) }),
        nl: listVal([m(s("y"), s("cl"))]),
        ns: setVal([m(s("z"), nul)]),
        nsingle: m(s("s"), s("c1")),
        mp: mapVal({ k1: m(s("m"), s("cm")) }),
        lst: listVal([m(s("l"), nul)]),
        st: setVal([m(s("t"), s("ct"))]),
        one: m(s("o"), s("co")),
      }),
    );
  });

  test("unknown below a known root: an unknown nested collection in the prior makes list members unknown, map and set members null", () => {
    const known = proposedNewState(every, nullVal(everyType), everyConfig(s("n")));
    const prior = objectVal({
      ...known.attributes(),
      c: s("pc"),
      nl: unknownVal(everyType.attributes["nl"]!),
      nm: unknownVal(everyType.attributes["nm"]!),
      lst: unknownVal(everyType.attributes["lst"]!),
      mp: unknownVal(everyType.attributes["mp"]!),
      st: unknownVal(everyType.attributes["st"]!),
      nsingle: unknownVal(everyType.attributes["nsingle"]!),
    });
    const got = proposedNewState(every, prior, everyConfig(s("n")));
    const u = unknownVal(str);
    same(got.getAttr("c"), s("pc"));
    same(got.getAttr("nl"), listVal([m(s("y"), u)]));
    same(got.getAttr("lst"), listVal([m(s("l"), u)]));
    same(got.getAttr("nsingle"), m(s("s"), u));
    same(got.getAttr("nm"), mapVal({ k1: m(s("x"), nul) }));
    same(got.getAttr("mp"), mapVal({ k1: m(s("m"), nul) }));
    same(got.getAttr("st"), setVal([m(s("t"), nul)]));
  });

  test("dynamic-typed attributes: list blocks are tuples and map blocks objects, paired by index and key", () => {
    const b: Block = {
      attributes: { top: { type: cty.dynamicType, optional: true, computed: true } },
      blockTypes: {
        foo: { nesting: "list", block: { attributes: { bar: { type: str, optional: true, computed: true }, baz: { type: cty.dynamicType, optional: true, computed: true } } } },
        bar: { nesting: "map", block: { attributes: { d: { type: cty.dynamicType, optional: true }, c: { type: str, computed: true } } } },
      },
    };
    const t2 = impliedType(b);
    expect(t2.attributes["foo"]!.kind).toBe("dynamic");
    const prior = objectVal({
      top: s("prior top"),
      foo: cty.tupleVal([objectVal({ bar: s("beep"), baz: s("boop") })]),
      bar: objectVal({ k: objectVal({ d: numberVal(1), c: s("ck") }) }),
    });
    const config = objectVal({
      top: nullVal(cty.dynamicType),
      foo: cty.tupleVal([objectVal({ bar: s("bap"), baz: nullVal(cty.dynamicType) }), objectVal({ bar: s("blep"), baz: nullVal(cty.dynamicType) })]),
      bar: objectVal({ k: objectVal({ d: numberVal(1), c: nul }), n: objectVal({ d: s("new"), c: nul }) }),
    });
    same(
      proposedNewState(b, prior, config),
      objectVal({
        top: s("prior top"),
        foo: cty.tupleVal([objectVal({ bar: s("bap"), baz: s("boop") }), objectVal({ bar: s("blep"), baz: nullVal(cty.dynamicType) })]),
        bar: objectVal({ k: objectVal({ d: numberVal(1), c: s("ck") }), n: objectVal({ d: s("new"), c: nul }) }),
      }),
    );
    // with a wholly unknown prior, the tuple's elements recurse into unknowns
    const planned = proposedNewState(b, unknownVal(t2), config);
    same(planned.getAttr("top"), unknownVal(cty.dynamicType));
    same(planned.getAttr("foo").index(1).getAttr("baz"), unknownVal(cty.dynamicType));
    same(planned.getAttr("bar").getAttr("n").getAttr("c"), nul);
  });
});

// ---------------------------------------------------------------------------------------
// Proposals captured from terraform 1.11.4 (testdata/capture, see capture.mjs)

type JsonAttribute = { type?: unknown; nestedType?: { nesting: string; attributes: Record<string, JsonAttribute> } } & Record<string, unknown>;
type JsonBlock = { attributes?: Record<string, JsonAttribute>; blockTypes?: Record<string, { nesting: string; block: JsonBlock }> };

function attributeFromJson(a: JsonAttribute): Attribute {
  const { type, nestedType, ...rest } = a;
  const out: Record<string, unknown> = { ...rest };
  if (type !== undefined) out["type"] = typeFromJsonValue(type) as Type;
  if (nestedType !== undefined) {
    out["nestedType"] = { nesting: nestedType.nesting, attributes: Object.fromEntries(Object.entries(nestedType.attributes).map(([n, x]) => [n, attributeFromJson(x)])) };
  }
  return out as Attribute;
}

function blockFromJson(b: JsonBlock): Block {
  return {
    attributes: Object.fromEntries(Object.entries(b.attributes ?? {}).map(([n, a]) => [n, attributeFromJson(a)])),
    blockTypes: Object.fromEntries(Object.entries(b.blockTypes ?? {}).map(([n, nb]) => [n, { nesting: nb.nesting, block: blockFromJson(nb.block) } as Block["blockTypes"] extends infer R ? R extends Record<string, infer V> ? V : never : never])),
  };
}

const schemaJson = JSON.parse(readFileSync(join(here, "../testdata/capture/schema.json"), "utf8")) as { block: JsonBlock };
const captured = JSON.parse(readFileSync(join(here, "../testdata/capture/proposals.json"), "utf8")) as {
  terraform: string;
  proposals: { phase: string; typeName: string; prior: string; config: string; proposed: string }[];
};
const fromMsgpack = (cty as unknown as { fromMsgpack?: (bytes: Uint8Array, type: Type) => Value }).fromMsgpack;
const withCodec = fromMsgpack === undefined ? describe.skip : describe;

withCodec(`proposedNewState matches ${captured.terraform}`, () => {
  const capturedBlock = blockFromJson(schemaJson.block);
  const ct = impliedType(capturedBlock);
  const decode = (hex: string): Value => fromMsgpack!(Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)), ct);

  test("the fixtures cover creates, updates and destroys", () => {
    expect(new Set(captured.proposals.map((p) => p.phase))).toEqual(new Set(["create", "update1", "update2", "destroy"]));
    expect(captured.proposals.length).toBeGreaterThanOrEqual(10);
  });

  test.each(captured.proposals.map((p, i) => [`${i} ${p.phase} ${p.typeName}`, p] as const))("%s", (_name, p) => {
    const prior = decode(p.prior);
    const config = decode(p.config);
    const want = decode(p.proposed);
    const got = proposedNewState(capturedBlock, prior, config);
    if (!got.rawEquals(want)) expect(got.toString()).toBe(want.toString());
    expect(got.rawEquals(want)).toBe(true);
  });

  test("configValue builds the config terraform sent on create", () => {
    const first = captured.proposals.find((p) => p.phase === "create" && decode(p.config).getAttr("name").rawEquals(s("one")))!;
    const built = configValue(capturedBlock, {
      name: "one",
      opt: "o1",
      oc: "set-by-user",
      num: "0.1",
      tags: { a: "1", b: "2" },
      labels: ["z", "a", "m"],
      nested_single: { a: "s1" },
      nested_oc: { a: "noc" },
      nested_list: [{ a: "l1" }, { a: "l2" }],
      nested_set: [{ a: "s1" }, { a: "s2" }],
      nested_map: { k1: { a: "m1" }, k2: { a: "m2" } },
      single_blk: { a: "sb" },
      group_blk: { a: "gb" },
      list_blk: [{ a: "lb1" }, { a: "lb2", oc: "user" }],
      set_blk: [{ a: "sb1", n: 1, inner: [{ x: "i1" }] }, { a: "sb2", n: 2 }],
      map_blk: { k1: { a: "mb1" }, k2: { a: "mb2" } },
    });
    const want = decode(first.config);
    if (!built.rawEquals(want)) expect(built.toString()).toBe(want.toString());
    expect(built.rawEquals(want)).toBe(true);
  });
});

// Cases derived from Terraform's TestAssertPlanValid (internal/plans/objchange/plan_valid_test.go):
// each wanted string is Terraform's `tfdiags.FormatError` of one problem (path, then message).
import {
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  numberType,
  numberVal,
  objectType,
  objectVal,
  setVal,
  setValEmpty,
  stringType,
  stringVal,
  unknownVal,
  type Value,
} from "@magma/cty";
import { hasErrors } from "./diagnostic.js";
import { formatProblemPath } from "./object-change-problem.js";
import { assertPlanValid, planProblems } from "./plan-valid.js";
import { impliedType, type Block } from "./schema.js";

const s = stringVal;
const str = stringType;
const nul = nullVal(str);
const errs = (b: Block, prior: Value, config: Value, planned: Value): string[] => planProblems(b, prior, config, planned).map((p) => `${formatProblemPath(p.steps)}: ${p.message}`);

const listBlock = (c: Block["attributes"]): Block => ({ attributes: { a: { type: str, optional: true } }, blockTypes: { b: { nesting: "list", block: { attributes: c ?? {} } } } });
const optC: Block["attributes"] = { c: { type: str, optional: true } };
const ab = (a: Value, c: Value): Value => objectVal({ a, b: listVal([objectVal({ c })]) });

describe("assertPlanValid (Terraform's AssertPlanValid table)", () => {
  test.each<[string, Block, Value, Value, Value, string[]]>([
    ["all empty", {}, objectVal({}), objectVal({}), objectVal({}), []],
    ["no computed, all match", listBlock(optC), ab(s("a value"), s("c value")), ab(s("a value"), s("c value")), ab(s("a value"), s("c value")), []],
    ["no computed, plan matches, no prior", listBlock(optC), nullVal(impliedType(listBlock(optC))), ab(s("a value"), s("c value")), ab(s("a value"), s("c value")), []],
    [
      "no computed, invalid change in plan",
      listBlock(optC),
      nullVal(impliedType(listBlock(optC))),
      ab(s("a value"), s("c value")),
      ab(s("a value"), s("new c value")),
      ['.b[0].c: planned value cty.StringVal("new c value") does not match config value cty.StringVal("c value")'],
    ],
    [
      "no computed, invalid change in plan sensitive",
      listBlock({ c: { type: str, optional: true, sensitive: true } }),
      nullVal(impliedType(listBlock(optC))),
      ab(s("a value"), s("c value")),
      ab(s("a value"), s("new c value")),
      [".b[0].c: sensitive planned value does not match config value"],
    ],
    ["no computed, diff suppression in plan (the prior value is kept)", listBlock(optC), ab(s("a value"), s("c value")), ab(s("a value"), s("new c value")), ab(s("a value"), s("c value")), []],
    ["no computed, all null", listBlock(optC), ab(nul, nul), ab(nul, nul), ab(nul, nul), []],
    [
      "a known configured value changed with a prior",
      listBlock(optC),
      ab(s("old"), s("c")),
      ab(s("new"), s("c")),
      ab(s("other"), s("c")),
      ['.a: planned value cty.StringVal("other") does not match config value cty.StringVal("new") nor prior value cty.StringVal("old")'],
    ],
    [
      "an unknown planned where the config is known",
      listBlock(optC),
      nullVal(impliedType(listBlock(optC))),
      ab(s("a"), s("c")),
      ab(unknownVal(str), s("c")),
      ['.a: planned value cty.UnknownVal(cty.String) does not match config value cty.StringVal("a")'],
    ],
  ])("%s", (_name, b, prior, config, planned, want) => {
    expect(errs(b, prior, config, planned)).toEqual(want);
  });

  const nested = (nesting: "list" | "set" | "map"): Block => ({ blockTypes: { b: { nesting, block: { attributes: optC } } } });
  const cObj = objectType({ c: str });

  test("nested block collections are never null in a plan", () => {
    expect(errs(nested("list"), nullVal(impliedType(nested("list"))), objectVal({ b: listValEmpty(cObj) }), objectVal({ b: nullVal(impliedType(nested("list")).attributes["b"]!) }))).toEqual([
      ".b: attribute representing a list of nested blocks must be empty to indicate no blocks, not null",
    ]);
    expect(errs(nested("set"), nullVal(impliedType(nested("set"))), objectVal({ b: setValEmpty(cObj) }), objectVal({ b: nullVal(impliedType(nested("set")).attributes["b"]!) }))).toEqual([
      ".b: attribute representing a set of nested blocks must be empty to indicate no blocks, not null",
    ]);
    expect(errs(nested("map"), nullVal(impliedType(nested("map"))), objectVal({ b: mapValEmpty(cObj) }), objectVal({ b: nullVal(impliedType(nested("map")).attributes["b"]!) }))).toEqual([
      ".b: attribute representing a map of nested blocks must be empty to indicate no blocks, not null",
    ]);
    // but a null list in config (a legacy provider's, through ignore_changes) is no problem
    expect(errs(nested("list"), objectVal({ b: listValEmpty(cObj) }), objectVal({ b: nullVal(impliedType(nested("list")).attributes["b"]!) }), objectVal({ b: listValEmpty(cObj) }))).toEqual([]);
  });

  test("nested map, normal update", () => {
    const b = nested("map");
    expect(errs(b, objectVal({ b: mapVal({ boop: objectVal({ c: s("hello") }) }) }), objectVal({ b: mapVal({ boop: objectVal({ c: s("howdy") }) }) }), objectVal({ b: mapVal({ boop: objectVal({ c: s("howdy") }) }) }))).toEqual([]);
    expect(errs(b, nullVal(impliedType(b)), objectVal({ b: mapVal({ boop: objectVal({ c: s("howdy") }) }) }), objectVal({ b: mapVal({ boop: objectVal({ c: s("other") }) }) }))).toEqual([
      '.b["boop"].c: planned value cty.StringVal("other") does not match config value cty.StringVal("howdy")',
    ]);
  });

  test("an unknown dynamic block in config cannot be planned; an unknown one planned as unknown is fine", () => {
    const b: Block = { attributes: { computed: { type: str, computed: true } }, blockTypes: { b: { nesting: "set", block: { attributes: optC } } } };
    const bt = impliedType(b).attributes["b"]!;
    const prior = objectVal({ computed: nul, b: setVal([objectVal({ c: s("x") })]) });
    const config = objectVal({ computed: nul, b: unknownVal(bt) });
    expect(errs(b, prior, config, objectVal({ computed: s("default"), b: setVal([objectVal({ c: s("oops") })]) }))).toEqual([
      '.b: planned value cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"c":cty.StringVal("oops")})}) for unknown dynamic block',
    ]);
    expect(errs(b, prior, config, objectVal({ computed: s("default"), b: unknownVal(bt) }))).toEqual([]);
  });

  test("a known block collection planned as unknown, and unknown elements of block collections", () => {
    const b = nested("list");
    const bt = impliedType(b).attributes["b"]!;
    const config = objectVal({ b: listVal([objectVal({ c: s("x") })]) });
    expect(errs(b, nullVal(impliedType(b)), config, objectVal({ b: unknownVal(bt) }))).toEqual([
      ".b: attribute representing nested block must not be unknown itself; set nested attribute values to unknown instead",
    ]);
    expect(errs(b, nullVal(impliedType(b)), config, objectVal({ b: listVal([unknownVal(cObj)]) }))).toEqual([
      ".b[0]: element representing nested block must not be unknown itself; set nested attribute values to unknown instead",
    ]);
    const set = nested("set");
    expect(errs(set, nullVal(impliedType(set)), objectVal({ b: setVal([objectVal({ c: s("x") })]) }), objectVal({ b: setVal([unknownVal(cObj)]) }))).toEqual([
      ".b[...]: element representing nested block must not be unknown itself; set nested attribute values to unknown instead",
    ]);
  });

  test("block counts and keys must follow the config", () => {
    const b = nested("list");
    const one = objectVal({ c: s("x") });
    expect(errs(b, nullVal(impliedType(b)), objectVal({ b: listVal([one]) }), objectVal({ b: listVal([one, one]) }))).toEqual([".b: block count in plan (2) disagrees with count in config (1)"]);
    const m = nested("map");
    expect(errs(m, nullVal(impliedType(m)), objectVal({ b: mapVal({ a: one }) }), objectVal({ b: mapVal({ z: one }) }))).toEqual([
      '.b["z"]: block key "z" from plan is not present in config',
      '.b: block key "a" from config is not present in plan',
    ]);
  });

  test("computed attributes: any value for computed-only; optional+computed only when unset in config", () => {
    const b: Block = { attributes: { id: { type: str, computed: true }, oc: { type: str, optional: true, computed: true }, n: { type: numberType, optional: true } } };
    const prior = nullVal(impliedType(b));
    expect(errs(b, prior, objectVal({ id: nul, oc: nul, n: nullVal(numberType) }), objectVal({ id: unknownVal(str), oc: s("default"), n: nullVal(numberType) }))).toEqual([]);
    expect(errs(b, prior, objectVal({ id: nul, oc: s("mine"), n: nullVal(numberType) }), objectVal({ id: s("x"), oc: s("theirs"), n: numberVal(1) }))).toEqual([
      '.oc: planned value cty.StringVal("theirs") does not match config value cty.StringVal("mine")',
      ".n: planned value cty.NumberIntVal(1) for a non-computed attribute",
    ]);
  });

  test("write-only attributes must be planned null", () => {
    const b: Block = { attributes: { secret: { type: str, optional: true, writeOnly: true } } };
    expect(errs(b, nullVal(impliedType(b)), objectVal({ secret: s("pw") }), objectVal({ secret: s("pw") }))).toEqual([]);
    expect(errs(b, nullVal(impliedType(b)), objectVal({ secret: s("pw") }), objectVal({ secret: s("other") }))).toEqual([".secret: planned value for write-only attribute is not null"]);
  });

  test("nested attribute types: presence, unknowns and counts follow the config", () => {
    const member = { c: { type: str, optional: true }, id: { type: str, computed: true } };
    const b: Block = {
      attributes: {
        single: { optional: true, nestedType: { nesting: "single", attributes: member } },
        list: { optional: true, nestedType: { nesting: "list", attributes: member } },
        map: { optional: true, nestedType: { nesting: "map", attributes: member } },
        set: { optional: true, nestedType: { nesting: "set", attributes: member } },
      },
    };
    const t = impliedType(b);
    const o = (c: string, id: Value = nul): Value => objectVal({ c: s(c), id });
    const config = objectVal({ single: o("s"), list: listVal([o("l")]), map: mapVal({ k: o("m") }), set: setVal([o("x")]) });
    const prior = nullVal(t);
    // computed members may be planned
    expect(errs(b, prior, config, objectVal({ single: o("s", unknownVal(str)), list: listVal([o("l", s("i"))]), map: mapVal({ k: o("m", unknownVal(str)) }), set: setVal([o("x", unknownVal(str))]) }))).toEqual([]);
    expect(
      errs(
        b,
        prior,
        config,
        objectVal({
          single: nullVal(t.attributes["single"]!),
          list: unknownVal(t.attributes["list"]!),
          map: mapVal({ z: o("m") }),
          set: setVal([o("x"), o("y")]),
        }),
      ),
    ).toEqual([
      ".single: planned for absence but config wants existence",
      ".list: planned unknown for configured value",
      '.map: map key "z" from plan is not present in config',
      '.map: map key "k" from config is not present in plan',
      ".set: count in plan (cty.NumberIntVal(2)) disagrees with count in config (cty.NumberIntVal(1))",
    ]);
    expect(errs(b, prior, config, objectVal({ ...config.attributes(), list: listVal([o("changed")]) }))).toEqual([
      '.list[0].c: planned value cty.StringVal("changed") does not match config value cty.StringVal("l")',
    ]);
  });

  test("diagnostics: Terraform's summary and detail, the path as attribute; warnings for a legacy type system", () => {
    const b = listBlock(optC);
    const config = ab(s("a value"), s("c value"));
    const planned = ab(s("a value"), s("new c value"));
    const diags = assertPlanValid(b, nullVal(impliedType(b)), config, planned, { provider: "example.com/magma/probe", address: "probe_item.a" });
    expect(diags).toHaveLength(1);
    expect(diags[0]!.severity).toBe("error");
    expect(diags[0]!.summary).toBe("Provider produced invalid plan");
    expect(diags[0]!.detail).toBe(
      'Provider "example.com/magma/probe" planned an invalid value for probe_item.a.b[0].c: planned value cty.StringVal("new c value") does not match config value cty.StringVal("c value").\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
    );
    expect(diags[0]!.attribute?.toString()).toBe("b[0].c");
    const legacy = assertPlanValid(b, nullVal(impliedType(b)), config, planned, { legacyTypeSystem: true });
    expect(legacy.map((d) => d.severity)).toEqual(["warning"]);
    expect(hasErrors(legacy)).toBe(false);
    expect(assertPlanValid(b, nullVal(impliedType(b)), config, config)).toEqual([]);
  });

  test("the whole object: absent and present", () => {
    const b = listBlock(optC);
    const t = impliedType(b);
    expect(errs(b, nullVal(t), ab(s("a"), s("c")), nullVal(t))).toEqual([": planned for absence but config wants existence"]);
    expect(errs(b, ab(s("a"), s("c")), nullVal(t), ab(s("a"), s("c")))).toEqual([": planned for existence but config wants absence"]);
    expect(errs(b, ab(s("a"), s("c")), nullVal(t), nullVal(t))).toEqual([]);
  });
});

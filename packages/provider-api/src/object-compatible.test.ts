// Cases derived from Terraform's TestAssertObjectCompatible (internal/plans/objchange/compatible_test.go)
// and the apply checks of terraform's core: each wanted string is `tfdiags.FormatError` of one problem.
import { listType, listVal, mapType, mapVal, nullVal, numberType, numberVal, objectVal, setVal, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { hasErrors } from "./diagnostic.js";
import { assertObjectCompatible, compatibilityProblems } from "./object-compatible.js";
import { formatProblemPath } from "./object-change-problem.js";
import { impliedType, type Block } from "./schema.js";

const s = stringVal;
const str = stringType;
const u = unknownVal(str);
const errs = (b: Block, planned: Value, actual: Value): string[] =>
  compatibilityProblems(b, planned, actual).map((p) => {
    const at = formatProblemPath(p.steps);
    return at === "" ? p.message : `${at}: ${p.message}`;
  });

const block: Block = {
  attributes: {
    id: { type: str, computed: true },
    name: { type: str, required: true },
    secret: { type: str, optional: true, sensitive: true },
    n: { type: numberType, optional: true, computed: true },
  },
};
const v = (id: Value, name: string, secret: Value = nullVal(str), n: Value = nullVal(numberType)): Value => objectVal({ id, name: s(name), secret, n });

describe("assertObjectCompatible (Terraform's AssertObjectCompatible table)", () => {
  test.each<[string, Value, Value, string[]]>([
    ["unknowns resolved, the rest unchanged", v(u, "a"), v(s("1"), "a"), []],
    ["a known planned value changed", v(u, "a"), v(s("1"), "b"), ['.name: was cty.StringVal("a"), but now cty.StringVal("b")']],
    ["a sensitive value changed: only named", v(u, "a", s("x")), v(s("1"), "a", s("y")), [".secret: inconsistent values for sensitive attribute"]],
    ["planned null, now set", v(u, "a"), v(s("1"), "a", nullVal(str), numberVal(3)), [".n: was null, but now cty.NumberIntVal(3)"]],
    ["planned set, now null", v(u, "a", nullVal(str), numberVal(3)), v(s("1"), "a"), [".n: was cty.NumberIntVal(3), but now null"]],
    ["a refined placeholder resolved outside its refinements", v(unknownVal(str, { stringPrefix: "i-" }), "a"), v(s("x-1"), "a"), ['.id: final value cty.StringVal("x-1") does not conform to planning placeholder cty.UnknownVal(cty.String).Refine().StringPrefixFull("i-").NewValue()']],
    ["a notNull placeholder resolved to null", v(unknownVal(str, { notNull: true }), "a"), v(nullVal(str), "a"), [".id: final value cty.NullVal(cty.String) does not conform to planning placeholder cty.UnknownVal(cty.String).RefineNotNull()"]],
    ["an object appearing", nullVal(impliedType(block)), v(s("1"), "a"), ["Root object was absent, but now present"]],
    ["an object vanishing", v(u, "a"), nullVal(impliedType(block)), ["Root object was present, but now absent"]],
  ])("%s", (_name, planned, actual, want) => {
    expect(errs(block, planned, actual)).toEqual(want);
  });

  const nested: Block = {
    attributes: { tags: { type: mapType(str), optional: true }, list: { type: listType(str), optional: true } },
    blockTypes: {
      lst: { nesting: "list", block: { attributes: { c: { type: str, optional: true, computed: true } } } },
      mp: { nesting: "map", block: { attributes: { c: { type: str, optional: true } } } },
      st: { nesting: "set", block: { attributes: { c: { type: str, optional: true, computed: true } } } },
    },
  };
  const c = (x: Value): Value => objectVal({ c: x });
  const nv = (tags: Value, list: Value, lst: Value[], mp: Record<string, Value>, st: Value[]): Value =>
    objectVal({ tags, list, lst: listVal(lst), mp: mapVal(mp), st: setVal(st) });

  test("collections: elements and blocks may not appear or vanish; set elements must correlate", () => {
    const planned = nv(mapVal({ a: s("1") }), listVal([s("x")]), [c(u)], { k: c(s("m")) }, [c(u)]);
    expect(errs(nested, planned, nv(mapVal({ a: s("1") }), listVal([s("x")]), [c(s("l"))], { k: c(s("m")) }, [c(s("z"))]))).toEqual([]);
    expect(
      errs(nested, planned, nv(mapVal({ b: s("1") }), listVal([s("x"), s("y")]), [c(s("l")), c(s("l2"))], { k: c(s("other")) }, [c(s("z")), c(s("w"))])),
    ).toEqual([
      '.tags: element "a" has vanished',
      '.tags: new element "b" has appeared',
      ".list: new element 1 has appeared",
      ".lst: block count changed from 1 to 2",
      '.mp["k"].c: was cty.StringVal("m"), but now cty.StringVal("other")',
      ".st: block set length changed from 1 to 2",
    ]);
    const knownSet = nv(mapVal({ a: s("1") }), listVal([s("x")]), [c(s("l"))], { k: c(s("m")) }, [c(s("p"))]);
    expect(errs(nested, knownSet, nv(mapVal({ a: s("1") }), listVal([s("x")]), [c(s("l"))], { k: c(s("m")) }, [c(s("q"))]))).toEqual([
      '.st: planned set element cty.ObjectVal(map[string]cty.Value{"c":cty.StringVal("p")}) does not correlate with any element in actual',
    ]);
  });

  test("diagnostics: each unknown left after apply is an error, even for a legacy type system, and stops the checks", () => {
    const diags = assertObjectCompatible(block, v(u, "a"), v(u, "b", nullVal(str), unknownVal(numberType)), { legacyTypeSystem: true, address: "probe_item.a" });
    expect(diags.map((d) => [d.severity, d.summary, d.attribute?.toString()])).toEqual([
      ["error", "Provider returned invalid result object after apply", "id"],
      ["error", "Provider returned invalid result object after apply", "n"],
    ]);
    expect(diags[0]!.detail).toBe(
      "After the apply operation, the provider still indicated an unknown value for probe_item.a.id. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. Terraform will still save the other known object values in the state.",
    );
  });

  test("diagnostics: inconsistent results in Terraform's words; warnings for a legacy type system; a destroy is fine", () => {
    const diags = assertObjectCompatible(block, v(u, "a", nullVal(str), numberVal(1)), v(s("1"), "a", nullVal(str), numberVal(99)), { provider: 'provider["example.com/magma/probe"]', address: "probe_item.a" });
    expect(diags.map((d) => [d.severity, d.summary, d.attribute?.toString()])).toEqual([["error", "Provider produced inconsistent result after apply", "n"]]);
    expect(diags[0]!.detail).toBe(
      'When applying changes to probe_item.a, provider "provider[\\"example.com/magma/probe\\"]" produced an unexpected new value: .n: was cty.NumberIntVal(1), but now cty.NumberIntVal(99).\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
    );
    const legacy = assertObjectCompatible(block, v(u, "a"), v(s("1"), "b"), { legacyTypeSystem: true });
    expect(hasErrors(legacy)).toBe(false);
    expect(legacy).toHaveLength(1);
    const t = impliedType(block);
    expect(assertObjectCompatible(block, nullVal(t), nullVal(t))).toEqual([]);
  });
});

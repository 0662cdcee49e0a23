import { Path, boolVal, nullVal, numberType, unknownVal } from "@magma/cty";
import { configValue, proposedNewState } from "@magma/provider-api";
import fc from "fast-check";
import {
  configuredProvider,
  create,
  diagsAt,
  named,
  plainOf,
  plan,
  rejectedDiags,
} from "../test/provider-harness.js";
import { bcryptCompare } from "./bcrypt.js";
import { CharClass } from "./generate-string.js";

const count = (s: string, set: string): number =>
  Array.from(s).filter((c) => set.includes(c)).length;

describe.each(["random_string", "random_password"] as const)("%s", (t) => {
  const password = t === "random_password";

  async function setup() {
    const { provider, entry } = await configuredProvider();
    return { provider, e: named(entry(t), t) };
  }

  test("plan create: defaults planned, number/numeric true, computed unknown, override_special stays null", async () => {
    const { provider, e } = await setup();
    const { plan: p } = await plan(provider, e, nullVal(e.type), { length: 10 });
    const s = p.plannedState;
    for (const a of ["special", "upper", "lower", "number", "numeric"])
      expect(s.getAttr(a).rawEquals(boolVal(true))).toBe(true);
    for (const a of ["min_numeric", "min_upper", "min_lower", "min_special"])
      expect(s.getAttr(a).asNumber().toString()).toBe("0");
    expect(s.getAttr("override_special").isNull()).toBe(true);
    expect(s.getAttr("keepers").isNull()).toBe(true);
    for (const a of password ? ["result", "id", "bcrypt_hash"] : ["result", "id"])
      expect(s.getAttr(a).isKnown()).toBe(false);
  });

  test("apply: a result of the right length and charset, minimums honoured, id and bcrypt_hash as hashicorp sets them", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, {
      length: 40,
      special: false,
      min_upper: 5,
      min_numeric: 6,
      min_lower: 7,
    });
    const result = state.getAttr("result").asString();
    expect(result).toHaveLength(40);
    expect(result).toMatch(/^[A-Za-z0-9]+$/);
    expect(count(result, CharClass.Upper)).toBeGreaterThanOrEqual(5);
    expect(count(result, CharClass.Numeric)).toBeGreaterThanOrEqual(6);
    expect(count(result, CharClass.Lower)).toBeGreaterThanOrEqual(7);
    expect(state.getAttr("id").asString()).toBe(password ? "none" : result);
    if (password) {
      const hash = state.getAttr("bcrypt_hash").asString();
      expect(hash).toMatch(/^\$2a\$10\$/);
      expect(bcryptCompare(hash, result)).toBe(true);
    }
  });

  test("override_special replaces the special characters; numeric=false leaves digits out", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, {
      length: 64,
      upper: false,
      lower: false,
      numeric: false,
      override_special: "_%@",
    });
    expect(state.getAttr("result").asString()).toMatch(/^[_%@]{64}$/);
    expect(state.getAttr("number").asBool()).toBe(false); // number follows numeric
  });

  test("the deprecated number sets numeric, and conflicting values are errors at both paths", async () => {
    const { provider, e } = await setup();
    const { plan: p } = await plan(provider, e, nullVal(e.type), { length: 5, number: false });
    expect(p.plannedState.getAttr("numeric").asBool()).toBe(false);
    expect(p.plannedState.getAttr("number").asBool()).toBe(false);
    const diags = await rejectedDiags(
      plan(provider, e, nullVal(e.type), { length: 5, number: false, numeric: true }),
    );
    expect(diagsAt(diags)).toEqual([
      "error: Number and numeric are both configured with different values @ number",
      "error: Number and numeric are both configured with different values @ numeric",
    ]);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ["length below 1", { length: 0 }, ["error: Invalid Attribute Value @ length"]],
    [
      "minimums above the length",
      { length: 3, min_upper: 2, min_lower: 2 },
      ["error: Invalid Attribute Value @ length"],
    ],
    [
      "a negative minimum",
      { length: 3, min_special: -1 },
      ["error: Invalid Attribute Value @ min_special"],
    ],
    ["a fractional length", { length: 2.5 }, ["error: Value Conversion Error @ length"]],
    [
      "every character class false",
      { length: 3, special: false, upper: false, lower: false, numeric: false },
      ["special", "upper", "lower", "numeric"].map(
        (a) => `error: Invalid Attribute Combination @ ${a}`,
      ),
    ],
  ])("%s is an error diagnostic with its path", async (_name, cfg, want) => {
    const { provider, e } = await setup();
    expect(diagsAt(await rejectedDiags(plan(provider, e, nullVal(e.type), cfg)))).toEqual(want);
  });

  test("the minimums are not checked against the length while one is unknown", async () => {
    const { provider, e } = await setup();
    const config = configValue(e.block, {
      length: 3,
      min_upper: 5,
      min_lower: unknownVal(numberType),
    });
    const prior = nullVal(e.type);
    const p = await provider.planResourceChange(
      t,
      prior,
      proposedNewState(e.block, prior, config),
      config,
    );
    expect(p.plannedState.getAttr("min_lower").isKnown()).toBe(false);
  });

  test.each<[string, Record<string, unknown>]>([
    ["length", { length: 11 }],
    ["special", { length: 10, special: false }],
    ["upper", { length: 10, upper: false }],
    ["lower", { length: 10, lower: false }],
    ["numeric", { length: 10, numeric: false }],
    ["min_upper", { length: 10, min_upper: 1 }],
    ["min_special", { length: 10, min_special: 2 }],
    ["override_special", { length: 10, override_special: "!" }],
  ])("a change of %s requires replacement", async (attr, cfg) => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { length: 10 });
    const { plan: p } = await plan(provider, e, state, cfg);
    expect(p.requiresReplace.map(String)).toContain(attr);
  });

  test('override_special from "" to null is an in-place update that keeps the result', async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { length: 10, override_special: "" });
    expect(state.getAttr("override_special").asString()).toBe("");
    const { plan: p, config } = await plan(provider, e, state, { length: 10 });
    expect(p.requiresReplace).toEqual([]);
    expect(p.plannedState.getAttr("override_special").isNull()).toBe(true);
    expect(p.plannedState.getAttr("result").rawEquals(state.getAttr("result"))).toBe(true);
    const applied = await provider.applyResourceChange(t, state, p.plannedState, config);
    expect(applied.newState.rawEquals(p.plannedState)).toBe(true);
    // …but from "x" to null requires replacement.
    const { state: s2 } = await create(provider, e, { length: 10, override_special: "x" });
    expect((await plan(provider, e, s2, { length: 10 })).plan.requiresReplace.map(String)).toEqual([
      "override_special",
    ]);
  });

  test("import: the value is the result, with defaults for everything else", async () => {
    const { provider } = await setup();
    const r = await provider.importResourceState(t, "Imp0rted!");
    const s = r!.resources[0]!.state;
    expect(r!.resources[0]!.typeName).toBe(t);
    expect(s.getAttr("result").asString()).toBe("Imp0rted!");
    expect(s.getAttr("id").asString()).toBe(password ? "none" : "Imp0rted!");
    expect(s.getAttr("length").asNumber().toString()).toBe("9");
    for (const a of ["special", "upper", "lower", "number", "numeric"])
      expect(s.getAttr(a).asBool()).toBe(true);
    expect(s.getAttr("keepers").isNull()).toBe(true);
    expect(s.getAttr("override_special").isNull()).toBe(true);
    if (password)
      expect(bcryptCompare(s.getAttr("bcrypt_hash").asString(), "Imp0rted!")).toBe(true);
  });

  test("after import, a configuration matching the defaults plans no change", async () => {
    const { provider, e } = await setup();
    const imported = (await provider.importResourceState(t, "abcdef"))!.resources[0]!.state;
    const found = await provider.readResource(t, imported);
    if (found.gone) throw new Error("the imported string is gone");
    const read = found.newState;
    const { plan: p } = await plan(provider, e, read, { length: 6 });
    expect(p.requiresReplace).toEqual([]);
    expect(p.plannedState.rawEquals(read)).toBe(true);
  });

  test("upgrade: the current version's JSON is read as is, unknown attributes dropped", async () => {
    const { provider, e } = await setup();
    const { state } = await create(provider, e, { length: 8, keepers: { a: "b" } });
    const json = JSON.stringify({ ...plainOf(state), some_removed_attribute: 1 });
    const up = await provider.upgradeResourceState(t, e.version, json);
    expect(up.upgradedState.rawEquals(state)).toBe(true);
  });

  test("upgrade from version 1 (no numeric): nulls from old imports get defaults, numeric follows number", async () => {
    const { provider } = await setup();
    const v1: Record<string, unknown> = {
      id: password ? "none" : "abc",
      keepers: null,
      length: null,
      special: null,
      upper: false,
      lower: null,
      number: false,
      min_numeric: null,
      min_upper: 1,
      min_lower: null,
      min_special: null,
      override_special: "",
      result: "abc",
    };
    if (password)
      v1["bcrypt_hash"] = "$2a$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq"; // kept as is from version 1
    const up = (await provider.upgradeResourceState(t, 1, JSON.stringify(v1))).upgradedState;
    expect(up.getAttr("length").asNumber().toString()).toBe("3");
    expect(up.getAttr("special").asBool()).toBe(true);
    expect(up.getAttr("upper").asBool()).toBe(false);
    expect(up.getAttr("number").asBool()).toBe(false);
    expect(up.getAttr("numeric").asBool()).toBe(false);
    expect(up.getAttr("min_upper").asNumber().toString()).toBe("1");
    expect(up.getAttr("min_lower").asNumber().toString()).toBe("0");
    expect(up.getAttr("override_special").asString()).toBe("");
    if (password) expect(up.getAttr("bcrypt_hash").asString()).toBe(v1["bcrypt_hash"]);
  });

  test("upgrade: malformed stored JSON is an error diagnostic", async () => {
    const { provider } = await setup();
    const diags = await rejectedDiags(provider.upgradeResourceState(t, 1, '{"length": "many"}'));
    expect(diags[0]!.summary).toBe(
      "Unable to Read Previously Saved State for UpgradeResourceState",
    );
  });

  test("property: results through the provider honour length, charset and minimums", async () => {
    const { provider, e } = await setup();
    const cfg = fc
      .record({
        special: fc.boolean(),
        upper: fc.boolean(),
        lower: fc.boolean(),
        numeric: fc.constant(true),
        min_upper: fc.nat(4),
        min_lower: fc.nat(4),
        min_numeric: fc.nat(4),
        min_special: fc.nat(4),
        extra: fc.nat(20),
        override_special: fc.constantFrom(undefined, "#", "-_"),
      })
      .map(({ extra, ...c }) => ({
        ...c,
        length: 1 + extra + c.min_upper + c.min_lower + c.min_numeric + c.min_special,
      }));
    await fc.assert(
      fc.asyncProperty(cfg, async (c) => {
        const { state } = await create(provider, e, c);
        const r = state.getAttr("result").asString();
        const special = c.override_special ?? CharClass.Special;
        expect(r).toHaveLength(c.length);
        expect(count(r, CharClass.Upper)).toBeGreaterThanOrEqual(c.min_upper);
        expect(count(r, CharClass.Lower)).toBeGreaterThanOrEqual(c.min_lower);
        expect(count(r, CharClass.Numeric)).toBeGreaterThanOrEqual(c.min_numeric);
        expect(count(r, special)).toBeGreaterThanOrEqual(c.min_special);
        if (!c.upper) expect(count(r, CharClass.Upper)).toBeLessThanOrEqual(c.min_upper);
        if (!c.lower) expect(count(r, CharClass.Lower)).toBeLessThanOrEqual(c.min_lower);
        if (!c.special) expect(count(r, special)).toBeLessThanOrEqual(c.min_special);
        for (const ch of r)
          expect(
            (CharClass.Upper + CharClass.Lower + CharClass.Numeric + special).includes(ch),
          ).toBe(true);
      }),
      { numRuns: password ? 8 : 60 },
    );
  });
});

describe("random_string upgrades", () => {
  test("version 0 has no upgrader (as in hashicorp/random)", async () => {
    const { provider } = await configuredProvider();
    const diags = await rejectedDiags(
      provider.upgradeResourceState("random_string", 0, '{"result":"x"}'),
    );
    expect(diags[0]!.summary).toBe("Unable to Upgrade Resource State");
  });
});

describe("random_password upgrades", () => {
  const base = {
    id: "none",
    keepers: { k: "v" },
    length: 8,
    special: true,
    upper: true,
    lower: true,
    number: true,
    min_numeric: 0,
    min_upper: 0,
    min_lower: 0,
    min_special: 0,
    override_special: null,
    result: "password",
  };

  test("from version 0 (no bcrypt_hash): the hash is generated", async () => {
    const { provider } = await configuredProvider();
    const up = (await provider.upgradeResourceState("random_password", 0, JSON.stringify(base)))
      .upgradedState;
    expect(bcryptCompare(up.getAttr("bcrypt_hash").asString(), "password")).toBe(true);
    expect(up.getAttr("numeric").asBool()).toBe(true);
    expect(up.getAttr("keepers").entries().get("k")!.asString()).toBe("v");
  });

  test("from version 2 with a hash that verifies: kept", async () => {
    const { provider } = await configuredProvider();
    const hash = "$2b$04$0123456789ABCDEFGHIJKO7uEIXUUPB88TlnFdgS8FrJgyksxrGUO"; // libxcrypt, of "password"
    const up = (
      await provider.upgradeResourceState(
        "random_password",
        2,
        JSON.stringify({ ...base, numeric: true, bcrypt_hash: hash }),
      )
    ).upgradedState;
    expect(up.getAttr("bcrypt_hash").asString()).toBe(hash);
  });

  test("from version 2 with a hash that does not verify (3.4.0–3.4.2): regenerated", async () => {
    const { provider } = await configuredProvider();
    const wrong = "$2a$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq"; // the hash of ""
    const up = (
      await provider.upgradeResourceState(
        "random_password",
        2,
        JSON.stringify({ ...base, numeric: true, bcrypt_hash: wrong }),
      )
    ).upgradedState;
    const hash = up.getAttr("bcrypt_hash").asString();
    expect(hash).not.toBe(wrong);
    expect(bcryptCompare(hash, "password")).toBe(true);
  });

  test("from version 2 with a malformed hash: an error at bcrypt_hash", async () => {
    const { provider } = await configuredProvider();
    const diags = await rejectedDiags(
      provider.upgradeResourceState(
        "random_password",
        2,
        JSON.stringify({ ...base, numeric: true, bcrypt_hash: "not-a-hash" }),
      ),
    );
    expect(diagsAt(diags)).toEqual(["error: Version 3 State Upgrade Error @ bcrypt_hash"]);
  });

  test("a stored version newer than 3 is a schema error", async () => {
    const { provider } = await configuredProvider();
    await expect(provider.upgradeResourceState("random_password", 4, "{}")).rejects.toMatchObject({
      code: "schema",
    });
  });

  test("the result is sensitive in the schema and the hash verifies after a create with a long result (first 72 bytes)", async () => {
    const { provider, entry } = await configuredProvider();
    const e = named(entry("random_password"), "random_password");
    const { state } = await create(provider, e, { length: 100 });
    const r = state.getAttr("result").asString();
    expect(bcryptCompare(state.getAttr("bcrypt_hash").asString(), r.slice(0, 72))).toBe(true);
    expect(e.block.attributes!["result"]!.sensitive).toBe(true);
    expect(Path.root.attr("result").toString()).toBe("result");
  });
});

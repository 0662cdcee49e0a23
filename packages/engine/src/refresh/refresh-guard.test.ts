import fc from "fast-check";
import { isEngineError } from "../engine-error.js";
import { assertRefreshSafe, DEFAULT_REFRESH_GUARD, judgeRefresh, RefreshSuspicion, RefreshVerdict, type RefreshGuardOptions } from "./refresh-guard.js";
import type { RefreshOutcome } from "./refresh-outcome.js";

type Result = RefreshOutcome["result"];

/** `n` outcomes of one result, addressed `aws_ssm_parameter.p[<start+i>]`. */
function many(result: Result, n: number, start = 0, provider?: string): RefreshOutcome[] {
  return Array.from({ length: n }, (_, i) => {
    const o: RefreshOutcome = { address: `aws_ssm_parameter.p[${start + i}]`, result, ...(result === "failed" ? { error: new Error("RequestError: send request failed: connection refused") } : {}) };
    return provider === undefined ? o : { ...o, provider };
  });
}

function refusal(outcomes: readonly RefreshOutcome[], options?: RefreshGuardOptions): Error & { code?: string } {
  try {
    assertRefreshSafe(outcomes, options);
  } catch (e) {
    if (!isEngineError(e)) throw e;
    return e;
  }
  throw new Error("expected the refresh to be refused");
}

describe("judgeRefresh: verdicts", () => {
  it("nothing to refresh is in sync", () => {
    const j = judgeRefresh([]);
    expect(j).toMatchObject({ verdict: "in-sync", safe: true, overridden: false, findings: [], counts: { total: 0, inSync: 0, changed: 0, gone: 0, failed: 0 } });
  });

  it("every object read and unchanged is in sync; some changed or gone is drift", () => {
    expect(judgeRefresh(many("in-sync", 40)).verdict).toBe(RefreshVerdict.InSync);
    const d = judgeRefresh([...many("in-sync", 30), ...many("changed", 5, 30), ...many("gone", 3, 35)]);
    expect(d).toMatchObject({ verdict: "drifted", safe: true, counts: { total: 38, inSync: 30, changed: 5, gone: 3, failed: 0 } });
    expect(d.message).toBe("Refresh found drift (38 objects: 30 in sync, 5 changed, 3 gone, 0 failed).");
  });

  it("a refresh in which every read failed is unknown — never in sync, never safe, even with allowMassLoss", () => {
    for (const n of [1, 2, 661]) {
      for (const allowMassLoss of [false, true]) {
        const j = judgeRefresh(many("failed", n), { allowMassLoss });
        expect(j).toMatchObject({ verdict: "unknown", safe: false, overridden: false });
        expect(j.findings.map((f) => f.suspicion)).toEqual([RefreshSuspicion.AllFailed]);
        const e = refusal(many("failed", n), { allowMassLoss });
        expect(e.code).toBe("refresh_suspect");
        expect(e.message).toContain(`every read failed (${n} object${n === 1 ? "" : "s"}: 0 in sync, 0 changed, 0 gone, ${n} failed)`);
        expect(e.message).toContain("aws_ssm_parameter.p[0]");
        expect(e.message).toContain("connection refused");
        expect(e.message).toContain("not \"in sync\" and state was not changed");
      }
    }
  });

  it("some reads failed but not most: incomplete and safe (the failures remain errors for the caller)", () => {
    const j = judgeRefresh([...many("in-sync", 5), ...many("failed", 5, 5)]);
    expect(j).toMatchObject({ verdict: "incomplete", safe: true });
    expect(j.message).toContain("First failure: aws_ssm_parameter.p[5]: RequestError");
  });

  it("most reads failed (more than half): suspect and refused, with counts and example addresses; allowMassLoss lets it through", () => {
    const outcomes = [...many("in-sync", 4), ...many("failed", 6, 4)];
    const j = judgeRefresh(outcomes);
    expect(j).toMatchObject({ verdict: "suspect", safe: false });
    expect(j.findings).toEqual([{ suspicion: "most-failed", counts: { total: 10, inSync: 4, changed: 0, gone: 0, failed: 6 }, examples: ["aws_ssm_parameter.p[4]", "aws_ssm_parameter.p[5]", "aws_ssm_parameter.p[6]", "aws_ssm_parameter.p[7]", "aws_ssm_parameter.p[8]"] }]);
    const e = refusal(outcomes);
    expect(e.code).toBe("refresh_suspect");
    expect(e.message).toMatch(/^\[refresh_suspect\] Refresh refused as suspect \(10 objects: 4 in sync, 0 changed, 0 gone, 6 failed\): most reads failed: 6 of 10 \(e\.g\. aws_ssm_parameter\.p\[4\], .*, … \(1 more\)\)/);
    expect(e.message).toContain("allowMassLoss");
    const ok = assertRefreshSafe(outcomes, { allowMassLoss: true });
    expect(ok).toMatchObject({ verdict: "suspect", safe: true, overridden: true });
    expect(ok.message).toMatch(/^Refresh suspect, accepted because mass loss was allowed/);
  });
});

describe("judgeRefresh: objects that vanish", () => {
  it("the 661 incident: every object read as gone is refused, naming the count and examples", () => {
    const outcomes = many("gone", 661);
    const e = refusal(outcomes);
    expect(e.message).toContain("every object the provider answered for is gone: 661 of 661 (e.g. aws_ssm_parameter.p[0], aws_ssm_parameter.p[1], aws_ssm_parameter.p[2], aws_ssm_parameter.p[3], aws_ssm_parameter.p[4], … (656 more))");
    expect(e.message).toContain("state was not changed");
    expect(judgeRefresh(outcomes, { allowMassLoss: true })).toMatchObject({ verdict: "suspect", safe: true, overridden: true });
  });

  it("a targeted real deletion (one object of many gone) passes", () => {
    for (const n of [1, 2, 3, 5, 10, 100, 1000]) {
      const j = judgeRefresh([...many("in-sync", n - 1), ...many("gone", 1, n - 1)]);
      expect(j.safe).toBe(true);
      expect(j.verdict).toBe("drifted");
    }
  });

  it("all gone: from two objects on (one of one cannot be told from a targeted deletion)", () => {
    expect(judgeRefresh(many("gone", 1)).safe).toBe(true);
    expect(judgeRefresh(many("gone", 2)).findings.map((f) => f.suspicion)).toEqual(["all-gone"]);
    expect(judgeRefresh(many("gone", 2), { minAllGone: 3 }).safe).toBe(true);
  });

  it("most gone: at least half of at least five objects answered for", () => {
    expect(judgeRefresh([...many("in-sync", 3), ...many("gone", 2, 3)]).safe).toBe(true); // 2 of 5 = 40%
    expect(judgeRefresh([...many("in-sync", 2), ...many("gone", 2, 2)]).safe).toBe(true); // 2 of 4: too few for a share
    const five = judgeRefresh([...many("in-sync", 2), ...many("gone", 3, 2)]); // 3 of 5
    expect(five.findings.map((f) => f.suspicion)).toEqual(["most-gone"]);
    expect(five.message).toContain("most objects are gone: 3 of 5 answered for");
    // Failed reads are not counted as answered: 5 gone of 8 answered (3 failed) is most.
    expect(judgeRefresh([...many("in-sync", 3), ...many("gone", 5, 3), ...many("failed", 3, 8)]).findings.map((f) => f.suspicion)).toEqual(["most-gone"]);
  });

  it("many gone at once: more than 25, whatever the share", () => {
    expect(judgeRefresh([...many("in-sync", 975), ...many("gone", 25, 975)]).safe).toBe(true);
    const j = judgeRefresh([...many("in-sync", 974), ...many("gone", 26, 974)]);
    expect(j.findings.map((f) => f.suspicion)).toEqual(["many-gone"]);
    expect(j.message).toContain("many objects are gone at once: 26 of 1000 answered for");
    expect(judgeRefresh([...many("in-sync", 974), ...many("gone", 26, 974)], { maxGone: 30 }).safe).toBe(true);
  });

  it("judges each provider configuration's objects on their own when outcomes name them", () => {
    const west = 'provider["registry.terraform.io/hashicorp/aws"].west';
    const east = 'provider["registry.terraform.io/hashicorp/aws"]';
    // 100 healthy objects in one region, all 4 of the other region's objects gone: 4% overall, 100% in that region.
    const outcomes = [...many("in-sync", 100, 0, east), ...many("gone", 4, 100, west)];
    expect(judgeRefresh(outcomes.map(({ address, result }) => ({ address, result }))).safe).toBe(true);
    const j = judgeRefresh(outcomes);
    expect(j.safe).toBe(false);
    expect(j.findings).toEqual([{ suspicion: "all-gone", provider: west, counts: { total: 4, inSync: 0, changed: 0, gone: 4, failed: 0 }, examples: many("gone", 4, 100).map((o) => o.address) }]);
    expect(j.message).toContain(`every object the provider answered for is gone (provider ${west}): 4 of 4`);
  });

  it("deposed objects gone are no loss: left out of the gone rules (a create_before_destroy replace killed after deleting the old objects)", () => {
    const p = 'provider["registry.terraform.io/hashicorp/aws"]';
    const deposed = (o: RefreshOutcome): RefreshOutcome => ({ ...o, address: `${o.address} (deposed object 0badc0de)`, deposed: true });
    // What the kill trials met: 9 current objects read, 10 deposed ones gone (19 answered, 53% gone).
    const killed = [...many("changed", 9, 0, p), ...many("gone", 10, 9, p).map(deposed)];
    expect(judgeRefresh(killed.map(({ deposed: _d, ...o }) => o)).findings.map((f) => f.suspicion)).toEqual(["most-gone"]);
    const j = judgeRefresh(killed);
    expect({ verdict: j.verdict, safe: j.safe, findings: j.findings }).toEqual({ verdict: "drifted", safe: true, findings: [] });
    expect(j.counts).toEqual({ total: 19, inSync: 0, changed: 9, gone: 10, failed: 0 });
    // An outage still shows in the current objects: every one of them gone, deposed ones or not.
    const outage = judgeRefresh([...many("gone", 9, 0, p), ...many("gone", 10, 9, p).map(deposed)]);
    expect(outage.findings.map((f) => f.suspicion)).toEqual(["all-gone"]);
    expect(outage.findings[0]!.counts.total).toBe(9);
    // Deposed objects do not dilute a current loss either: 3 of 5 current gone beside 20 deposed read.
    expect(judgeRefresh([...many("in-sync", 2), ...many("gone", 3, 2), ...many("in-sync", 20, 5).map(deposed)]).findings.map((f) => f.suspicion)).toEqual(["most-gone"]);
    // A deposed object's failed read still counts as failed.
    expect(judgeRefresh([...many("in-sync", 1), ...many("failed", 2, 1).map(deposed)]).verdict).toBe("suspect");
  });

  it("a single provider holding every object is reported once", () => {
    const p = 'provider["registry.terraform.io/hashicorp/aws"]';
    expect(judgeRefresh(many("gone", 10, 0, p)).findings).toHaveLength(1);
  });
});

describe("judgeRefresh: options", () => {
  it("has documented defaults", () => {
    expect(DEFAULT_REFRESH_GUARD).toEqual({ allowMassLoss: false, maxFailedShare: 0.5, maxGoneShare: 0.5, minObjectsForShare: 5, minAllGone: 2, maxGone: 25 });
  });

  it.each([
    [{ maxFailedShare: 1.5 }, /maxFailedShare must be a share between 0 and 1, got 1.5/],
    [{ maxGoneShare: -0.1 }, /maxGoneShare must be a share between 0 and 1/],
    [{ maxGoneShare: Number.NaN }, /maxGoneShare must be a share/],
    [{ minObjectsForShare: 2.5 }, /minObjectsForShare must be a non-negative integer, got 2.5/],
    [{ maxGone: -1 }, /maxGone must be a non-negative integer/],
    [{ allowMassLoss: "yes" as unknown as boolean }, /allowMassLoss must be a boolean/],
  ] as [RefreshGuardOptions, RegExp][])("refuses bad options %j with invalid_argument", (options, message) => {
    expect(() => judgeRefresh([], options)).toThrow(message);
    try {
      judgeRefresh([], options);
    } catch (e) {
      expect(e).toMatchObject({ name: "EngineError", code: "invalid_argument" });
    }
  });

  it("describes any failure value, even one that cannot be serialised", () => {
    const cyclic: Record<string, unknown> = { code: "E" };
    cyclic["self"] = cyclic;
    const msgs = [cyclic, "plain text", { code: "Throttled" }, undefined].map((error) => judgeRefresh([{ address: "t.a", result: "failed", error }]).message);
    expect(msgs[0]).toContain("First failure: t.a: [object Object]");
    expect(msgs[1]).toContain("First failure: t.a: plain text");
    expect(msgs[2]).toContain('First failure: t.a: {"code":"Throttled"}');
    expect(msgs[3]).toContain("First failure: t.a: undefined");
  });

  it("refuses an outcome with an unknown result", () => {
    expect(() => judgeRefresh([{ address: "x.y", result: "vanished" as Result }])).toThrow(/x\.y: unknown refresh result "vanished"/);
  });
});

describe("judgeRefresh: properties", () => {
  const result = fc.constantFrom<Result>("in-sync", "changed", "gone", "failed");
  const outcomesArb = fc.array(
    fc.record({ result, provider: fc.option(fc.constantFrom("p1", "p2", "p3"), { nil: undefined }) }),
    { maxLength: 120 },
  ).map((xs) => xs.map((x, i): RefreshOutcome => (x.provider === undefined ? { address: `t.r[${i}]`, result: x.result } : { address: `t.r[${i}]`, result: x.result, provider: x.provider })));
  const optionsArb = fc.record(
    {
      allowMassLoss: fc.boolean(),
      maxFailedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      maxGoneShare: fc.double({ min: 0, max: 1, noNaN: true }),
      minObjectsForShare: fc.nat(20),
      minAllGone: fc.nat(10),
      maxGone: fc.nat(60),
    },
    { requiredKeys: [] },
  );

  it("counts add up, and the verdict is in sync exactly when every object was read unchanged", () => {
    fc.assert(
      fc.property(outcomesArb, optionsArb, (outcomes, options) => {
        const j = judgeRefresh(outcomes, options);
        const c = j.counts;
        expect(c.inSync + c.changed + c.gone + c.failed).toBe(outcomes.length);
        expect(j.verdict === "in-sync").toBe(outcomes.every((o) => o.result === "in-sync"));
      }),
    );
  });

  it("every read failed ⇒ unknown and refused, whatever the options", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), optionsArb, (n, options) => {
        const j = judgeRefresh(many("failed", n), options);
        expect(j.verdict).toBe("unknown");
        expect(j.safe).toBe(false);
        expect(() => assertRefreshSafe(many("failed", n), options)).toThrow(/refresh_suspect/);
      }),
    );
  });

  it("one object gone, the others read: always safe under the defaults (a targeted deletion)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Result>("in-sync", "changed"), { maxLength: 300 }), fc.nat(300), (rest, at) => {
        const results = [...rest];
        results.splice(at % (rest.length + 1), 0, "gone");
        const j = judgeRefresh(results.map((result, i) => ({ address: `t.r[${i}]`, result })));
        expect(j.safe).toBe(true);
        expect(j.verdict).toBe("drifted");
      }),
    );
  });

  it("the order of the outcomes does not matter (apart from which examples are shown)", () => {
    fc.assert(
      fc.property(outcomesArb, optionsArb, fc.nat(), (outcomes, options, seed) => {
        const shuffled = [...outcomes].sort((a, b) => ((hash(a.address) ^ seed) >>> 0) - ((hash(b.address) ^ seed) >>> 0));
        const a = judgeRefresh(outcomes, options);
        const b = judgeRefresh(shuffled, options);
        const kinds = (j: typeof a): string[] => j.findings.map((f) => `${f.suspicion} ${f.provider ?? ""}`).sort();
        expect({ verdict: b.verdict, safe: b.safe, counts: b.counts, kinds: kinds(b) }).toEqual({ verdict: a.verdict, safe: a.safe, counts: a.counts, kinds: kinds(a) });
      }),
    );
  });

  it("more objects gone never makes a refused refresh safe (monotone in losses)", () => {
    fc.assert(
      fc.property(outcomesArb, optionsArb, fc.nat(), (outcomes, options, pick) => {
        const readable = outcomes.map((o, i) => [o, i] as const).filter(([o]) => o.result === "in-sync" || o.result === "changed");
        if (readable.length === 0) return;
        const [, i] = readable[pick % readable.length]!;
        const worse = outcomes.map((o, k) => (k === i ? { ...o, result: "gone" as const } : o));
        if (!judgeRefresh(outcomes, options).safe) expect(judgeRefresh(worse, options).safe).toBe(false);
      }),
    );
  });

  it("allowMassLoss makes every refresh safe except an unknown one, and marks the override", () => {
    fc.assert(
      fc.property(outcomesArb, optionsArb, (outcomes, options) => {
        const plain = judgeRefresh(outcomes, { ...options, allowMassLoss: false });
        const allowed = judgeRefresh(outcomes, { ...options, allowMassLoss: true });
        expect(allowed.verdict).toBe(plain.verdict);
        expect(allowed.safe).toBe(plain.verdict !== "unknown");
        expect(allowed.overridden).toBe(plain.verdict === "suspect");
        expect(plain.safe).toBe(plain.verdict !== "unknown" && plain.verdict !== "suspect");
      }),
    );
  });

  it("assertRefreshSafe throws exactly when the judgement is not safe, with the judgement's message", () => {
    fc.assert(
      fc.property(outcomesArb, optionsArb, (outcomes, options) => {
        const j = judgeRefresh(outcomes, options);
        let thrown: unknown;
        try {
          assertRefreshSafe(outcomes, options);
        } catch (e) {
          thrown = e;
        }
        if (j.safe) expect(thrown).toBeUndefined();
        else expect(thrown).toMatchObject({ name: "EngineError", code: "refresh_suspect", message: `[refresh_suspect] ${j.message}` });
      }),
    );
  });
});

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h;
}

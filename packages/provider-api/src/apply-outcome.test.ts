import { nullVal, objectType, objectVal, stringType, stringVal } from "@magma/cty";
import { classifyApplyOutcome, type ApplyResponse } from "./apply-outcome.js";
import { errorDiag, warningDiag } from "./diagnostic.js";

const t = objectType({ id: stringType });
const state = objectVal({ id: stringVal("i-1") });
const priv = Uint8Array.of(7);
const err = errorDiag("failed");
const warn = warningDiag("careful");

describe("classifyApplyOutcome", () => {
  test.each<[string, ApplyResponse, boolean, string]>([
    ["errors + new state (create)", { newState: state, private: priv, diagnostics: [err, warn] }, false, "partially_applied"],
    ["errors + new state (delete)", { newState: state, diagnostics: [err] }, true, "partially_applied"],
    ["errors + null state", { newState: nullVal(t), diagnostics: [err] }, false, "diagnostics"],
    ["errors + no state", { newState: undefined, diagnostics: [err] }, false, "diagnostics"],
    ["errors + no state (delete)", { newState: undefined, diagnostics: [err] }, true, "diagnostics"],
    ["no errors, no state, create/update", { newState: undefined, diagnostics: [warn] }, false, "no_new_state"],
    ["no errors, null state, create/update", { newState: nullVal(t) }, false, "no_new_state"],
    ["no errors, no state, delete", { newState: undefined, diagnostics: [warn] }, true, "ok"],
    ["no errors, null state, delete", { newState: nullVal(t) }, true, "ok"],
    ["no errors, new state", { newState: state, private: priv, diagnostics: [warn], legacyTypeSystem: true }, false, "ok"],
    ["no errors, state on delete (still success)", { newState: state }, true, "ok"],
  ])("%s → %s", (_name, response, isDelete, want) => {
    const o = classifyApplyOutcome(response, { typeName: "x_thing", type: t, isDelete });
    expect(o.ok ? "ok" : o.error.code).toBe(want);
  });

  test("partially_applied carries the state, private state and every diagnostic", () => {
    const o = classifyApplyOutcome({ newState: state, private: priv, diagnostics: [err, warn] }, { typeName: "x", type: t, isDelete: false });
    if (o.ok || o.error.code !== "partially_applied") throw new Error("expected partially_applied");
    expect(o.error.detail.newState).toBe(state);
    expect(o.error.detail.private).toBe(priv);
    expect(o.error.detail.diagnostics).toEqual([err, warn]);
  });

  test("success keeps warnings and private state; a delete without state gives a typed null", () => {
    const o = classifyApplyOutcome({ newState: state, private: priv, diagnostics: [warn], legacyTypeSystem: true }, { typeName: "x", type: t, isDelete: false });
    expect(o).toEqual({ ok: true, result: { newState: state, private: priv, legacyTypeSystem: true, warnings: [warn] } });
    const d = classifyApplyOutcome({ newState: undefined }, { typeName: "x", type: t, isDelete: true });
    if (!d.ok) throw new Error("expected success");
    expect(d.result.newState.rawEquals(nullVal(t))).toBe(true);
    expect(d.result.private).toHaveLength(0);
  });
});

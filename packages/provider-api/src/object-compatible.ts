import { typeEquals, typeString, type Value } from "@magma/cty";
import { ctyGoString, goQuote } from "./cty-go-string.js";
import type { Diag } from "./diagnostic.js";
import { formatProblemPath, problemDiag, type ObjectChangeCheckOptions, type ObjectChangeProblem, type ProblemStep } from "./object-change-problem.js";
import type { Block } from "./schema.js";

/**
 * Terraform's checks of an apply result against its plan (run on every
 * `ApplyResourceChange` answer of a create or update that reported no errors):
 *
 * 1. the new state must be wholly known — otherwise one diagnostic per unknown value,
 *    summary "Provider returned invalid result object after apply", detail naming
 *    `<address><path>` (an error even for legacy-type-system providers), and no further
 *    checks, as in Terraform;
 * 2. core's `objchange.AssertObjectCompatible`: `actual` must be a valid completion of
 *    `planned` — every known planned value unchanged (a sensitive attribute is only
 *    named), unknowns resolved within their refinements, no block or element appearing
 *    or vanishing, sets no larger. Each problem is a diagnostic with summary "Provider
 *    produced inconsistent result after apply" and Terraform's detail (`When applying
 *    changes to <address>, provider "<provider>" produced an unexpected new value:
 *    <path>: <problem>.`), the path as `attribute`; warnings instead of errors when
 *    `legacyTypeSystem` is set, as Terraform only logs them.
 *
 * A destroy (null planned and actual) is valid.
 *
 * @param planned The planned state the apply was given. Both values are of `impliedType(block)`.
 * @param actual The new state the provider returned.
 * @returns The diagnostics, none when the result is valid; `hasErrors` tells whether
 * Terraform would reject it.
 */
export function assertObjectCompatible(block: Block, planned: Value, actual: Value, options: ObjectChangeCheckOptions = {}): Diag[] {
  const address = options.address ?? "the resource";
  if (!actual.isNull() && !actual.isWhollyKnown()) {
    return unknownSteps(actual, []).map((steps) =>
      problemDiag(
        false,
        "Provider returned invalid result object after apply",
        `After the apply operation, the provider still indicated an unknown value for ${address}${formatProblemPath(steps)}. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. Terraform will still save the other known object values in the state.`,
        steps,
      ),
    );
  }
  const who = options.provider !== undefined ? `provider ${goQuote(options.provider)}` : "the provider";
  return compatibilityProblems(block, planned, actual).map((p) => {
    const at = formatProblemPath(p.steps);
    return problemDiag(
      options.legacyTypeSystem === true,
      "Provider produced inconsistent result after apply",
      `When applying changes to ${address}, ${who} produced an unexpected new value: ${at === "" ? "" : `${at}: `}${p.message}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.`,
      p.steps,
    );
  });
}

/** The problems of core's `AssertObjectCompatible` (check 2 of {@link assertObjectCompatible}). */
export function compatibilityProblems(block: Block, planned: Value, actual: Value): ObjectChangeProblem[] {
  const out: ObjectChangeProblem[] = [];
  checkObject(block, planned, actual, [], out);
  return out;
}

type Out = ObjectChangeProblem[];

function checkObject(block: Block, planned: Value, actual: Value, path: readonly ProblemStep[], out: Out): void {
  const atRoot = path.length === 0 ? "Root object " : "";
  if (planned.isNull() && !actual.isNull()) return void out.push({ steps: path, message: `${atRoot}was absent, but now present` });
  if (actual.isNull() && !planned.isNull()) return void out.push({ steps: path, message: `${atRoot}was present, but now absent` });
  if (planned.isNull()) return;

  for (const [name, attr] of Object.entries(block.attributes ?? {})) {
    const at: ProblemStep[] = [...path, { kind: "attr", name }];
    const found: Out = [];
    checkValue(planned.getAttr(name), actual.getAttr(name), at, found);
    if (attr.sensitive === true) {
      // A vague message instead, so as not to disclose the value.
      if (found.length > 0) out.push({ steps: at, message: "inconsistent values for sensitive attribute" });
    } else out.push(...found);
  }

  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const plannedV = planned.getAttr(name);
    const actualV = actual.getAttr(name);
    const at: ProblemStep[] = [...path, { kind: "attr", name }];
    switch (nb.nesting) {
      case "single":
      case "group":
        // An unknown placeholder may have expanded into no block at all.
        if (!plannedV.isKnown() && actualV.isNull()) continue;
        checkObject(nb.block, plannedV, actualV, at, out);
        break;
      case "list": {
        if (!plannedV.isKnown() || !actualV.isKnown() || plannedV.isNull() || actualV.isNull()) continue;
        const plannedL = plannedV.length();
        const actualL = actualV.length();
        if (plannedL !== actualL) {
          out.push({ steps: at, message: `block count changed from ${plannedL} to ${actualL}` });
          continue;
        }
        plannedV.elements().forEach((p, i) => checkObject(nb.block, p, actualV.index(i), [...at, { kind: "index", index: i }], out));
        break;
      }
      case "map": {
        if (plannedV.type.kind === "object" && actualV.type.kind === "object") {
          const plannedKeys = Object.keys(plannedV.type.attributes);
          const actualKeys = Object.keys(actualV.type.attributes);
          for (const k of plannedKeys) {
            if (!actualKeys.includes(k)) {
              out.push({ steps: at, message: `block key ${goQuote(k)} has vanished` });
              continue;
            }
            checkObject(nb.block, plannedV.getAttr(k), actualV.getAttr(k), [...at, { kind: "attr", name: k }], out);
          }
          // New blocks may appear where the plan had unknown ones.
          if (plannedV.isKnown()) for (const k of actualKeys) if (!plannedKeys.includes(k)) out.push({ steps: at, message: `new block key ${goQuote(k)} has appeared` });
        } else {
          if (!plannedV.isKnown() || plannedV.isNull() || actualV.isNull() || !actualV.isKnown()) continue;
          const plannedM = plannedV.entries();
          const actualM = actualV.entries();
          if (plannedM.size !== actualM.size) {
            out.push({ steps: at, message: `block count changed from ${plannedM.size} to ${actualM.size}` });
            continue;
          }
          for (const [k, p] of plannedM) {
            const a = actualM.get(k);
            if (a !== undefined) checkObject(nb.block, p, a, [...at, { kind: "key", key: k }], out);
          }
        }
        break;
      }
      case "set": {
        if (!plannedV.isKnown() || !actualV.isKnown() || plannedV.isNull() || actualV.isNull()) continue;
        out.push(...setProblems(plannedV, actualV, at, (p, a) => problemsOf((o) => checkObject(nb.block, p, a, [...at, { kind: "set", element: a }], o)) === 0));
        // Equal elements may coalesce once known, but a set never grows.
        const plannedL = plannedV.length();
        const actualL = actualV.length();
        if (plannedL < actualL) out.push({ steps: at, message: `block set length changed from ${plannedL} to ${actualL}` });
        break;
      }
    }
  }
}

/** The paths of the unknown values in `v`, depth first. */
function unknownSteps(v: Value, path: readonly ProblemStep[]): ProblemStep[][] {
  if (!v.isKnown()) return [[...path]];
  if (v.isNull()) return [];
  switch (v.type.kind) {
    case "object":
      return v.type.attributeNames.flatMap((name) => unknownSteps(v.getAttr(name), [...path, { kind: "attr", name }]));
    case "list":
    case "tuple":
      return v.elements().flatMap((e, i) => unknownSteps(e, [...path, { kind: "index", index: i }]));
    case "map":
      return [...v.entries()].flatMap(([key, e]) => unknownSteps(e, [...path, { kind: "key", key }]));
    case "set":
      return v.elements().flatMap((e) => unknownSteps(e, [...path, { kind: "set", element: e }]));
    default:
      return [];
  }
}

function problemsOf(run: (out: Out) => void): number {
  const o: Out = [];
  run(o);
  return o.length;
}

function checkValue(planned: Value, actual: Value, path: readonly ProblemStep[], out: Out): void {
  const t = planned.type;
  if (t.kind === "dynamic") return; // anything goes
  if (!typeEquals(actual.type, t)) {
    out.push({ steps: path, message: `wrong final value type: ${typeString(actual.type)} is not ${typeString(t)}` });
    return;
  }
  if (!planned.isKnown()) {
    // The final value only needs to fit the placeholder's type and refinements.
    if (!withinRefinements(planned, actual)) out.push({ steps: path, message: `final value ${ctyGoString(actual)} does not conform to planning placeholder ${ctyGoString(planned)}` });
    return;
  }
  if (actual.isNull()) {
    if (!planned.isNull()) out.push({ steps: path, message: `was ${ctyGoString(planned)}, but now null` });
    return;
  }
  if (planned.isNull()) {
    out.push({ steps: path, message: `was null, but now ${ctyGoString(actual)}` });
    return;
  }
  if (!actual.isKnown()) {
    out.push({ steps: path, message: "was known, but now unknown" });
    return;
  }
  switch (t.kind) {
    case "string":
    case "number":
    case "bool": {
      const eq = actual.equals(planned);
      if (!(eq.isKnown() && eq.asBool())) out.push({ steps: path, message: `was ${ctyGoString(planned)}, but now ${ctyGoString(actual)}` });
      return;
    }
    case "list":
    case "tuple": {
      const ps = planned.elements();
      const as = actual.elements();
      ps.forEach((p, i) => {
        if (i >= as.length) out.push({ steps: path, message: `element ${i} has vanished` });
        else checkValue(p, as[i]!, [...path, { kind: "index", index: i }], out);
      });
      for (let i = ps.length; i < as.length; i++) out.push({ steps: path, message: `new element ${i} has appeared` });
      return;
    }
    case "map": {
      const pm = planned.entries();
      const am = actual.entries();
      for (const [k, p] of pm) {
        const a = am.get(k);
        if (a === undefined) out.push({ steps: path, message: `element ${goQuote(k)} has vanished` });
        else checkValue(p, a, [...path, { kind: "key", key: k }], out);
      }
      for (const k of am.keys()) if (!pm.has(k)) out.push({ steps: path, message: `new element ${goQuote(k)} has appeared` });
      return;
    }
    case "object":
      for (const name of t.attributeNames) checkValue(planned.getAttr(name), actual.getAttr(name), [...path, { kind: "attr", name }], out);
      return;
    case "set": {
      out.push(...setProblems(planned, actual, path, (p, a) => problemsOf((o) => checkValue(p, a, [...path, { kind: "set", element: a }], o)) === 0));
      const plannedL = planned.length();
      const actualL = actual.length();
      if (plannedL < actualL) out.push({ steps: path, message: `length changed from ${plannedL} to ${actualL}` });
      return;
    }
  }
}

/**
 * Terraform's `assertSetValuesCompatible`: every planned element must correlate with some
 * actual element and the other way round; the planned side is reported first, alone.
 */
function setProblems(planned: Value, actual: Value, path: readonly ProblemStep[], correlates: (p: Value, a: Value) => boolean): Out {
  const ps = planned.elements();
  const as = actual.elements();
  const pok = ps.map(() => false);
  const aok = as.map(() => false);
  ps.forEach((p, i) => {
    as.forEach((a, j) => {
      if (pok[i] === true && aok[j] === true) return;
      if (correlates(p, a)) {
        pok[i] = true;
        aok[j] = true;
      }
    });
  });
  const out: Out = [];
  ps.forEach((p, i) => {
    if (pok[i] !== true) out.push({ steps: path, message: `planned set element ${ctyGoString(p)} does not correlate with any element in actual` });
  });
  if (out.length > 0) return out;
  as.forEach((a, j) => {
    if (aok[j] !== true) out.push({ steps: path, message: `actual set element ${ctyGoString(a)} does not correlate with any element in plan` });
  });
  return out;
}

/** Whether a final value falls within an unknown placeholder's refinements (cty's `Range().Includes`, where known). */
function withinRefinements(placeholder: Value, actual: Value): boolean {
  const r = placeholder.refinements;
  if (actual.isNull()) return r.notNull !== true;
  if (!actual.isKnown()) return true;
  switch (actual.type.kind) {
    case "string":
      return r.stringPrefix === undefined || actual.asString().startsWith(r.stringPrefix);
    case "number": {
      const n = actual.asNumber();
      if (r.numberLowerBound !== undefined) {
        const c = n.compare(r.numberLowerBound.value);
        if (c < 0 || (c === 0 && !r.numberLowerBound.inclusive)) return false;
      }
      if (r.numberUpperBound !== undefined) {
        const c = n.compare(r.numberUpperBound.value);
        if (c > 0 || (c === 0 && !r.numberUpperBound.inclusive)) return false;
      }
      return true;
    }
    case "list":
    case "set":
    case "map": {
      const len = actual.length();
      if (r.lengthLowerBound !== undefined && len < r.lengthLowerBound) return false;
      if (r.lengthUpperBound !== undefined && len > r.lengthUpperBound) return false;
      return true;
    }
    default:
      return true;
  }
}

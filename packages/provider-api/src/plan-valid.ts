import { listVal, mapVal, nullVal, numberVal, objectVal, setVal, tupleVal, unknownVal, type Type, type Value } from "@magma/cty";
import { ctyGoString, goQuote } from "./cty-go-string.js";
import type { Diag } from "./diagnostic.js";
import { formatProblemPath, problemDiag, type ObjectChangeCheckOptions, type ObjectChangeProblem, type ProblemStep } from "./object-change-problem.js";
import { attributeType, impliedType, nestedBlockType, type Attribute, type Block, type NestedAttributeType } from "./schema.js";

/**
 * Terraform's check of a planned new state (core's `objchange.AssertPlanValid`, run on
 * every `PlanResourceChange` answer): whether `planned` is a valid plan to get from
 * `prior` to `config`. A provider may only plan values that are null in the
 * configuration for computed attributes (any value, or unknown); every other planned
 * value must equal the configuration's — or the prior value, when both are set (the
 * provider says the two are equivalent). So a provider may not change a known configured
 * value, nor plan an unknown where the configuration is known, nor return a null or
 * unknown block collection, nor plan a non-null write-only attribute.
 *
 * Each problem becomes a diagnostic worded as Terraform's: summary "Provider produced
 * invalid plan", detail `Provider "<provider>" planned an invalid value for
 * <address><path>: <problem>.` (e.g. `…for aws_vpc.main.cidr_block: planned value
 * cty.StringVal("10.1.0.0/16") does not match config value cty.StringVal("10.0.0.0/16").`),
 * with the path as `attribute` (up to the first set). Errors, unless
 * `legacyTypeSystem` is set: then warnings, as Terraform only logs them.
 *
 * @param prior The prior state (null on create). All values are of `impliedType(block)`.
 * @param config The configuration sent to the provider (with unknowns).
 * @param planned The provider's planned state.
 * @returns The diagnostics, none when the plan is valid; `hasErrors` tells whether
 * Terraform would reject the plan.
 */
export function assertPlanValid(block: Block, prior: Value, config: Value, planned: Value, options: ObjectChangeCheckOptions = {}): Diag[] {
  const tolerated = options.legacyTypeSystem === true;
  const who = options.provider !== undefined ? `Provider ${goQuote(options.provider)}` : "The provider";
  const address = options.address ?? "the resource";
  return planProblems(block, prior, config, planned).map((p) =>
    problemDiag(
      tolerated,
      "Provider produced invalid plan",
      `${who} planned an invalid value for ${address}${formatProblemPath(p.steps)}: ${p.message}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.`,
      p.steps,
    ),
  );
}

/** The problems of {@link assertPlanValid}, in Terraform's order for each object (attributes, then blocks). */
export function planProblems(block: Block, prior: Value, config: Value, planned: Value): ObjectChangeProblem[] {
  const out: ObjectChangeProblem[] = [];
  checkBlock(block, prior, config, planned, [], out);
  return out;
}

type Out = ObjectChangeProblem[];

function problem(out: Out, steps: readonly ProblemStep[], message: string): void {
  out.push({ steps, message });
}

function attrOf(v: Value, name: string, type: Type): Value {
  return v.isNull() ? nullVal(type) : v.getAttr(name);
}

function checkBlock(block: Block, prior: Value, config: Value, planned: Value, path: readonly ProblemStep[], out: Out): void {
  if (planned.isNull() && !config.isNull()) return problem(out, path, "planned for absence but config wants existence");
  if (config.isNull() && !planned.isNull()) return problem(out, path, "planned for existence but config wants absence");
  if (planned.isNull()) return;

  checkAttributes(block.attributes ?? {}, prior, config, planned, path, out);

  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const at: ProblemStep[] = [...path, { kind: "attr", name }];
    const t = nestedBlockType(nb);
    const plannedV = planned.getAttr(name);
    const configV = config.getAttr(name);
    const priorV = attrOf(prior, name, t);

    if (nb.nesting !== "single" && plannedV.isNull()) {
      problem(out, at, `attribute representing a ${nb.nesting} of nested blocks must be empty to indicate no blocks, not null`);
      continue;
    }
    if (plannedV.rawEquals(configV)) continue;
    if (!configV.isKnown()) {
      problem(out, at, `planned value ${ctyGoString(plannedV)} for unknown dynamic block`);
      continue;
    }
    if (!plannedV.isKnown()) {
      problem(out, at, "attribute representing nested block must not be unknown itself; set nested attribute values to unknown instead");
      continue;
    }
    const elemNull = nullVal(impliedType(nb.block));
    const elementUnknown = (steps: readonly ProblemStep[]): void =>
      problem(out, steps, "element representing nested block must not be unknown itself; set nested attribute values to unknown instead");

    switch (nb.nesting) {
      case "single":
      case "group":
        checkBlock(nb.block, priorV, configV, plannedV, at, out);
        break;
      case "list": {
        // A null list (a legacy provider's, through ignore_changes) counts as empty.
        const plannedL = plannedV.length();
        const configL = configV.isNull() ? 0 : configV.length();
        if (plannedL !== configL) {
          problem(out, at, `block count in plan (${plannedL}) disagrees with count in config (${configL})`);
          break;
        }
        plannedV.elements().forEach((plannedEV, i) => {
          const steps: ProblemStep[] = [...at, { kind: "index", index: i }];
          if (!plannedEV.isKnown()) return elementUnknown(steps);
          const priorEV = !priorV.isNull() && priorV.isKnown() && i < priorV.length() ? priorV.index(i) : elemNull;
          checkBlock(nb.block, priorEV, configV.index(i), plannedEV, steps, out);
        });
        break;
      }
      case "map": {
        if (plannedV.type.kind === "object") {
          const plannedKeys = Object.keys(plannedV.type.attributes);
          const configKeys = configV.type.kind === "object" ? Object.keys(configV.type.attributes) : [];
          for (const k of plannedKeys) {
            if (!configKeys.includes(k)) {
              problem(out, at, `block key ${goQuote(k)} from plan is not present in config`);
              continue;
            }
            const steps: ProblemStep[] = [...at, { kind: "attr", name: k }];
            const plannedEV = plannedV.getAttr(k);
            if (!plannedEV.isKnown()) {
              elementUnknown(steps);
              continue;
            }
            const priorEV = !priorV.isNull() && priorV.isKnown() && priorV.hasAttr(k) ? priorV.getAttr(k) : elemNull;
            checkBlock(nb.block, priorEV, configV.getAttr(k), plannedEV, steps, out);
          }
          for (const k of configKeys) if (!plannedKeys.includes(k)) problem(out, at, `block key ${goQuote(k)} from config is not present in plan`);
        } else {
          const plannedM = plannedV.entries();
          const configM = configV.isNull() ? new Map<string, Value>() : configV.entries();
          if (plannedM.size !== configM.size) {
            problem(out, at, `block count in plan (${plannedM.size}) disagrees with count in config (${configM.size})`);
            break;
          }
          const priorM = !priorV.isNull() && priorV.isKnown() ? priorV.entries() : new Map<string, Value>();
          for (const [k, plannedEV] of plannedM) {
            const steps: ProblemStep[] = [...at, { kind: "key", key: k }];
            if (!plannedEV.isKnown()) {
              elementUnknown(steps);
              continue;
            }
            const configEV = configM.get(k);
            if (configEV === undefined) {
              problem(out, steps, `block key ${goQuote(k)} from plan is not present in config`);
              continue;
            }
            checkBlock(nb.block, priorM.get(k) ?? elemNull, configEV, plannedEV, steps, out);
          }
          for (const k of configM.keys()) if (!plannedM.has(k)) problem(out, at, `block key ${goQuote(k)} from config is not present in plan`);
        }
        break;
      }
      case "set":
        // Set elements cannot be correlated: Terraform only checks that none is unknown itself.
        for (const plannedEV of plannedV.elements()) if (!plannedEV.isKnown()) elementUnknown([...at, { kind: "set", element: plannedEV }]);
        break;
    }
  }
}

function checkAttributes(attrs: Readonly<Record<string, Attribute>>, prior: Value, config: Value, planned: Value, path: readonly ProblemStep[], out: Out): void {
  for (const [name, attr] of Object.entries(attrs)) {
    const t = attributeType(attr);
    checkValue(attr, attrOf(prior, name, t), attrOf(config, name, t), attrOf(planned, name, t), [...path, { kind: "attr", name }], out);
  }
}

function checkValue(attr: Attribute, priorV: Value, configV: Value, plannedV: Value, path: readonly ProblemStep[], out: Out): void {
  const plannedU = unrefinedValue(plannedV);
  if (plannedU.rawEquals(unrefinedValue(configV))) return; // nothing changed
  // The provider kept the prior value over a configured one: it says the two are equivalent.
  if (plannedU.rawEquals(unrefinedValue(priorV)) && !priorV.isNull() && !configV.isNull()) return;

  if (attr.writeOnly === true) {
    if (!plannedV.isNull()) problem(out, path, "planned value for write-only attribute is not null");
    return;
  }
  const computed = attr.computed === true;
  if (computed && attr.optional !== true) return; // computed only: any value
  if (configV.isNull() && computed) return; // optional+computed left unset: the provider decides
  if (configV.isNull() && !plannedV.isNull()) {
    problem(out, path, attr.sensitive === true ? "sensitive planned value for a non-computed attribute" : `planned value ${ctyGoString(plannedV)} for a non-computed attribute`);
    return;
  }
  if (attr.nestedType !== undefined) return checkObject(attr.nestedType, priorV, configV, plannedV, path, out);
  if (priorV.isNull()) {
    problem(out, path, attr.sensitive === true ? "sensitive planned value does not match config value" : `planned value ${ctyGoString(plannedV)} does not match config value ${ctyGoString(configV)}`);
    return;
  }
  problem(
    out,
    path,
    attr.sensitive === true
      ? "sensitive planned value does not match config value nor prior value"
      : `planned value ${ctyGoString(plannedV)} does not match config value ${ctyGoString(configV)} nor prior value ${ctyGoString(priorV)}`,
  );
}

function objectType(object: NestedAttributeType): Type {
  return impliedType({ attributes: object.attributes });
}

/** A collection's length as cty's `Length` gives it: known, or unknown within bounds (a set with unknowns may coalesce). */
function ctyLength(v: Value): { readonly known: true; readonly n: number } | { readonly known: false; readonly min: number; readonly max: number } {
  if (!v.isKnown()) return { known: false, min: v.refinements.lengthLowerBound ?? 0, max: v.refinements.lengthUpperBound ?? Infinity };
  const n = v.length();
  if (v.type.kind === "set" && n > 1 && !v.isWhollyKnown()) return { known: false, min: 1, max: n };
  return { known: true, n };
}

function lengthGoString(l: ReturnType<typeof ctyLength>): string {
  if (l.known) return ctyGoString(numberVal(l.n));
  const calls = [".NotNull()"];
  if (l.min > 0) calls.push(`.NumberRangeLowerBound(cty.NumberIntVal(${l.min}), true)`);
  if (l.max !== Infinity) calls.push(`.NumberRangeUpperBound(cty.NumberIntVal(${l.max}), true)`);
  return `cty.UnknownVal(cty.Number).Refine()${calls.join("")}.NewValue()`;
}

function checkObject(object: NestedAttributeType, prior: Value, config: Value, planned: Value, path: readonly ProblemStep[], out: Out): void {
  if (planned.isNull() && !config.isNull()) return problem(out, path, "planned for absence but config wants existence");
  if (config.isNull() && !planned.isNull()) return problem(out, path, "planned for existence but config wants absence");
  if (!config.isNull() && !planned.isKnown()) return problem(out, path, "planned unknown for configured value");
  if (planned.isNull()) return;
  const elemNull = nullVal(objectType(object));

  switch (object.nesting) {
    case "single":
      checkAttributes(object.attributes, prior, config, planned, path, out);
      return;
    case "list": {
      const plannedL = ctyLength(planned);
      const configL = ctyLength(config);
      if (!plannedL.known && !configL.known) return;
      if (!plannedL.known || !configL.known || plannedL.n !== configL.n) {
        problem(out, path, `count in plan (${lengthGoString(plannedL)}) disagrees with count in config (${lengthGoString(configL)})`);
        return;
      }
      planned.elements().forEach((plannedEV, i) => {
        const priorEV = !prior.isNull() && prior.isKnown() && i < prior.length() ? prior.index(i) : elemNull;
        checkAttributes(object.attributes, priorEV, config.index(i), plannedEV, [...path, { kind: "index", index: i }], out);
      });
      return;
    }
    case "map": {
      const plannedL = ctyLength(planned);
      const configL = ctyLength(config);
      if (!plannedL.known && !configL.known) return;
      if (!plannedL.known || !configL.known || plannedL.n !== configL.n) {
        problem(out, path, `count in plan (${lengthGoString(plannedL)}) disagrees with count in config (${lengthGoString(configL)})`);
        return;
      }
      const asMap = (v: Value): ReadonlyMap<string, Value> =>
        v.isNull() || !v.isKnown() ? new Map() : v.type.kind === "object" ? new Map(Object.entries(v.attributes())) : v.entries();
      const plannedM = asMap(planned);
      const configM = asMap(config);
      const priorM = asMap(prior);
      for (const [k, plannedEV] of plannedM) {
        const configEV = configM.get(k);
        if (configEV === undefined) {
          problem(out, path, `map key ${goQuote(k)} from plan is not present in config`);
          continue;
        }
        checkAttributes(object.attributes, priorM.get(k) ?? elemNull, configEV, plannedEV, [...path, { kind: "attr", name: k }], out);
      }
      for (const k of configM.keys()) if (!plannedM.has(k)) problem(out, path, `map key ${goQuote(k)} from config is not present in plan`);
      return;
    }
    case "set": {
      const plannedL = ctyLength(planned);
      const configL = ctyLength(config);
      // The plan's length range must include the config's length, when that is known.
      if (configL.known) {
        const lo = plannedL.known ? plannedL.n : plannedL.min;
        const hi = plannedL.known ? plannedL.n : plannedL.max;
        if (configL.n < lo || configL.n > hi) problem(out, path, `count in plan (${lengthGoString(plannedL)}) disagrees with count in config (${lengthGoString(configL)})`);
      }
      // Set elements cannot be correlated: Terraform trusts the provider here.
      return;
    }
  }
}

/** The value with every unknown's refinements dropped, deeply (Terraform's `unrefinedValue`). */
function unrefinedValue(v: Value): Value {
  if (!v.isKnown()) return unknownVal(v.type);
  if (v.isNull()) return v;
  switch (v.type.kind) {
    case "list":
      return v.length() === 0 ? v : listVal(v.elements().map(unrefinedValue));
    case "set":
      return v.length() === 0 ? v : setVal(v.elements().map(unrefinedValue));
    case "tuple":
      return tupleVal(v.elements().map(unrefinedValue));
    case "map":
      return v.length() === 0 ? v : mapVal(new Map([...v.entries()].map(([k, e]) => [k, unrefinedValue(e)])));
    case "object":
      return objectVal(Object.fromEntries(Object.entries(v.attributes()).map(([k, e]) => [k, unrefinedValue(e)])));
    default:
      return v;
  }
}

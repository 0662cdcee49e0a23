import {
  CtyNumber,
  Path,
  boolVal,
  isPathError,
  numberVal,
  objectVal,
  unknownVal,
  type ObjectType,
  type Value,
} from "@magma/cty";
import {
  attributeType,
  errorDiag,
  type Block,
  type Diag,
  type NativeApply,
  type NativeImport,
  type NativePlan,
  type NativeUpgrade,
  type SchemaEntry,
} from "@magma/provider-api";
import { decodeStateJson } from "./state-json.js";

/**
 * How a change of an attribute forces replacement (the plan modifiers hashicorp/random uses):
 * - `always`: any change between prior state and plan (`RequiresReplace`);
 * - `keepers`: hashicorp/random's `RequiresReplaceIfValuesNotNull` for map attributes — no
 *   replacement when the only differences are keys whose configured values are null;
 * - `unless_empty_to_null`: any change except from `""` in state to null in config
 *   (`RequiresReplaceUnlessEmptyStringToNull`), or while the config is unknown.
 */
export type ReplaceRule = "always" | "keepers" | "unless_empty_to_null";

/** The framework-level plan behaviour of one attribute. @internal */
export interface AttrRule {
  /** A static default, planned when the configuration leaves the attribute null. */
  readonly default?: Value;
  /** Keep the prior state's value instead of unknown while the resource exists (`UseStateForUnknown`). */
  readonly useStateForUnknown?: boolean;
  /** When a change forces replacement. */
  readonly replace?: ReplaceRule;
  /** Keep `number` and `numeric` in step (hashicorp/random's `NumberNumericAttributePlanModifier`). */
  readonly numberNumeric?: boolean;
}

/** One resource type of the provider, as the provider's dispatcher calls it. @internal */
export interface RandomResource {
  /** The resource type name. */
  readonly typeName: string;
  /** Its schema entry (version and block). */
  readonly entry: SchemaEntry;
  /** The plan behaviour of its attributes. */
  readonly rules: Readonly<Record<string, AttrRule>>;
  /** Configuration checks beyond the types (validators); run when planning a non-destroy. */
  validate?(config: Value): Diag[];
  /** Fills in the computed values of a planned create (a promise when it loads a module first). */
  create(planned: Value): NativeApply | Promise<NativeApply>;
  /** Imports by id; absent when the type does not support import. */
  importState?(id: string): NativeImport | Promise<NativeImport>;
  /**
   * Upgrades a stored state of an older schema version (the current version is handled for
   * it); `undefined` when there is no upgrader from that version.
   */
  upgradeFrom?(storedVersion: number, rawJson: string): NativeUpgrade | Promise<NativeUpgrade> | undefined;
}

/** The path of a top-level attribute. */
export function attrPath(name: string): Path {
  return Path.root.attr(name);
}

/** Replaces some attributes of a known object value. */
export function withAttrs(obj: Value, replace: Readonly<Record<string, Value>>): Value {
  return objectVal({ ...obj.attributes(), ...replace });
}

/** True when `v` is known and not null. */
export function isSet(v: Value): boolean {
  return v.isKnown() && !v.isNull();
}

/**
 * Reads a top-level number attribute as a 64-bit integer: `undefined` when it is null or
 * unknown; an error diagnostic (pushed on `diags`) when it is not an integer in int64 range,
 * as terraform-plugin-framework's `Int64` type reports it.
 */
export function int64Attr(obj: Value, name: string, diags: Diag[]): bigint | undefined {
  const v = obj.getAttr(name);
  if (!isSet(v)) return undefined;
  const n = v.asNumber();
  if (!n.isInt64()) {
    diags.push(
      errorDiag(
        "Value Conversion Error",
        `${name}: the value ${n.toString()} cannot be represented as a 64-bit integer.`,
        attrPath(name),
      ),
    );
    return undefined;
  }
  return n.toBigInt();
}

/** A cty number value of a 64-bit integer. */
export function int64Val(n: bigint | number): Value {
  return numberVal(CtyNumber.from(typeof n === "number" ? BigInt(n) : n));
}

function keepersRequireReplace(config: Value, state: Value): boolean {
  if (config.rawEquals(state)) return false;
  const configEntries =
    config.isKnown() && !config.isNull() ? config.entries() : new Map<string, Value>();
  if (state.isNull()) {
    // Only a configured non-null value forces replacement of a null map.
    for (const v of configEntries.values()) if (!v.isNull()) return true;
    return false;
  }
  const stateEntries = state.entries();
  for (const [k, v] of configEntries) {
    const s = stateEntries.get(k);
    if (s === undefined && v.isNull()) continue;
    if (s !== undefined && v.rawEquals(s)) continue;
    return true;
  }
  for (const k of stateEntries.keys()) if (!configEntries.has(k)) return true;
  return false;
}

function numberNumericPlan(name: string, config: Value, diags: Diag[]): Value | undefined {
  const number = config.getAttr("number");
  const numeric = config.getAttr("numeric");
  if (!number.isKnown() || !numeric.isKnown()) return undefined;
  if (!number.isNull() && !numeric.isNull()) {
    if (number.asBool() !== numeric.asBool()) {
      diags.push(
        errorDiag(
          "Number and numeric are both configured with different values",
          "number is deprecated: set numeric only.",
          attrPath(name),
        ),
      );
    }
    return undefined;
  }
  if (number.isNull() && numeric.isNull()) return boolVal(true);
  return number.isNull() ? numeric : number;
}

/**
 * Plans a change the way terraform-plugin-framework does for hashicorp/random's resources:
 *
 * 1. a destroy (null proposal) plans null;
 * 2. attributes with a default that are null in config get the default;
 * 3. when the result differs from the prior state, computed attributes that are null in
 *    config (and have no default) become unknown;
 * 4. the attribute plan modifiers run: `number`/`numeric` synchronisation,
 *    `UseStateForUnknown` (prior value while the resource exists), and the replace rules,
 *    which compare the planned value with the prior state's (never on create or destroy).
 *
 * Validation diagnostics from `resource.validate` are added on non-destroy plans.
 *
 * @internal
 */
export function planResource(
  resource: RandomResource,
  prior: Value,
  proposed: Value,
  config: Value,
): NativePlan {
  if (proposed.isNull()) return { plannedState: proposed };
  const diags: Diag[] = resource.validate?.(config) ?? [];
  const block: Block = resource.entry.block;
  const attrs = block.attributes ?? {};
  const planned: Record<string, Value> = { ...proposed.attributes() };

  for (const [name, rule] of Object.entries(resource.rules)) {
    if (rule.default !== undefined && config.getAttr(name).isNull()) planned[name] = rule.default;
  }
  if (!objectVal(planned).rawEquals(prior)) {
    for (const [name, a] of Object.entries(attrs)) {
      if (
        a.computed === true &&
        config.getAttr(name).isNull() &&
        resource.rules[name]?.default === undefined
      ) {
        planned[name] = unknownVal(attributeType(a));
      }
    }
  }

  const requiresReplace: Path[] = [];
  for (const [name, rule] of Object.entries(resource.rules)) {
    const configV = config.getAttr(name);
    if (rule.numberNumeric === true) {
      const v = numberNumericPlan(name, config, diags);
      if (v !== undefined) planned[name] = v;
    }
    if (rule.useStateForUnknown === true && !prior.isNull()) {
      const priorV = prior.getAttr(name);
      if (!priorV.isNull() && !planned[name]!.isKnown() && configV.isKnown())
        planned[name] = priorV;
    }
    if (rule.replace !== undefined && !prior.isNull()) {
      const stateV = prior.getAttr(name);
      const planV = planned[name]!;
      if (planV.rawEquals(stateV)) continue;
      let replace: boolean;
      switch (rule.replace) {
        case "always":
          replace = true;
          break;
        case "keepers":
          replace = keepersRequireReplace(configV, stateV);
          break;
        case "unless_empty_to_null":
          replace =
            configV.isKnown() && (!configV.isNull() || stateV.isNull() || stateV.asString() !== "");
          break;
      }
      if (replace) requiresReplace.push(attrPath(name));
    }
  }
  requiresReplace.sort((a, b) =>
    a.toString() < b.toString() ? -1 : a.toString() > b.toString() ? 1 : 0,
  );
  return { plannedState: objectVal(planned), requiresReplace, diagnostics: diags };
}

/** The diagnostic for stored state that cannot be read with the schema it claims. */
export function unreadableStateDiag(typeName: string, version: number, e: unknown): Diag {
  const why = isPathError(e) ? e.message : e instanceof Error ? e.message : String(e);
  return errorDiag(
    "Unable to Read Previously Saved State for UpgradeResourceState",
    `The stored ${typeName} state (schema version ${version}) could not be decoded: ${why}`,
  );
}

/**
 * Upgrades a stored state: the current version is decoded as is (attributes the schema no
 * longer has are dropped); older versions go to `resource.upgradeFrom`, and versions without
 * an upgrader are an error, as in terraform-plugin-framework.
 *
 * @internal
 */
export function upgradeResource(
  resource: RandomResource,
  storedVersion: number,
  rawJson: string,
): NativeUpgrade | Promise<NativeUpgrade> {
  const { typeName, entry } = resource;
  if (storedVersion === entry.version) {
    try {
      return { upgradedState: decodeStateJson(rawJson, entry.type) };
    } catch (e) {
      return { diagnostics: [unreadableStateDiag(typeName, storedVersion, e)] };
    }
  }
  const up = resource.upgradeFrom?.(storedVersion, rawJson);
  if (up !== undefined) return up;
  return {
    diagnostics: [
      errorDiag(
        "Unable to Upgrade Resource State",
        `${typeName} has no state upgrader from schema version ${storedVersion} to ${entry.version}; the stored state cannot be read by this provider.`,
      ),
    ],
  };
}

/** Decodes a stored state with an older schema's type, as a diagnostic on failure. */
export function decodeOlder(
  typeName: string,
  version: number,
  rawJson: string,
  type: ObjectType,
): { value: Value } | { diag: Diag } {
  try {
    return { value: decodeStateJson(rawJson, type) };
  } catch (e) {
    return { diag: unreadableStateDiag(typeName, version, e) };
  }
}

/** The diagnostic hashicorp/random returns when the platform cannot produce randomness. */
export function randomReadDiag(e: unknown): Diag {
  return errorDiag(
    "Random Read Error",
    `There was an error during random generation. Retrying the operation may help.\n\nOriginal Error: ${e instanceof Error ? e.message : String(e)}`,
  );
}

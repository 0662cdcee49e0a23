import { dynamicType, nullVal, objectVal, Path, stringType, stringVal, unknownVal, type Value } from "@magma/cty";
import { fromJson } from "@magma/cty/json";
import { createSchemaEntry, errorDiag, type NativeApply, type NativeImport, type NativePlan, type NativeUpgrade, type SchemaEntry } from "@magma/provider-api";

/** The schema of `terraform_data` (version 0), as Terraform 1.11 declares it. @internal */
export const terraformDataEntry: SchemaEntry = createSchemaEntry({
  attributes: {
    input: { type: dynamicType, optional: true },
    output: { type: dynamicType, computed: true },
    triggers_replace: { type: dynamicType, optional: true },
    id: { type: stringType, computed: true },
  },
});

const unknownId = (): Value => unknownVal(stringType, { notNull: true });

/** Replaces some attributes of an object value. */
function withAttrs(obj: Value, replace: Readonly<Record<string, Value>>): Value {
  return objectVal({ ...obj.attributes(), ...replace });
}

/** The output planned for a new object: the input's type, null when the input is null, else unknown. */
function plannedOutput(input: Value): Value {
  return input.isNull() ? input : unknownVal(input.type);
}

/**
 * Plans a change of `terraform_data` as Terraform's built-in provider does: a create makes
 * the id (and the output of a non-null input) unknown; a change of `triggers_replace` (by
 * raw equality) replaces the object; a change of `input` alone recomputes `output`.
 * The configuration may not set the read-only `id` and `output` (Terraform's validation).
 *
 * @internal
 */
export function planTerraformData(prior: Value, proposed: Value, config: Value): NativePlan {
  if (proposed.isNull()) return { plannedState: proposed };
  if (!config.isNull()) {
    const diags = ["id", "output"].filter((a) => !config.getAttr(a).isNull()).map((a) => errorDiag(`${JSON.stringify(a)} attribute is read-only`));
    if (diags.length > 0) return { diagnostics: diags };
  }
  const input = proposed.getAttr("input");
  const trigger = proposed.getAttr("triggers_replace");
  if (prior.isNull()) return { plannedState: withAttrs(proposed, { id: unknownId(), output: plannedOutput(input) }) };
  if (!prior.getAttr("triggers_replace").rawEquals(trigger)) {
    return { plannedState: withAttrs(proposed, { id: unknownId(), output: plannedOutput(input) }), requiresReplace: [Path.root.attr("triggers_replace")] };
  }
  if (!prior.getAttr("input").rawEquals(input)) return { plannedState: withAttrs(proposed, { output: unknownVal(input.type) }) };
  return { plannedState: proposed };
}

/**
 * Applies a planned `terraform_data`: an unknown output becomes the input, an unknown id a
 * new random UUID (version 4, as go-uuid makes it).
 *
 * @internal
 */
export function applyTerraformData(planned: Value): NativeApply {
  if (planned.isNull()) return { newState: planned };
  const replace: Record<string, Value> = {};
  if (!planned.getAttr("output").isKnown()) replace["output"] = planned.getAttr("input");
  if (!planned.getAttr("id").isKnown()) replace["id"] = stringVal(globalThis.crypto.randomUUID());
  return { newState: withAttrs(planned, replace) };
}

/** Imports a `terraform_data` by id: every other attribute null, as Terraform does. @internal */
export function importTerraformData(id: string): NativeImport {
  return {
    resources: [
      {
        typeName: "terraform_data",
        state: objectVal({ input: nullVal(dynamicType), output: nullVal(dynamicType), triggers_replace: nullVal(dynamicType), id: stringVal(id) }),
      },
    ],
  };
}

/** Reads a stored `terraform_data` (any stored version is decoded with the one schema, as Terraform does). @internal */
export function upgradeTerraformData(rawJson: string): NativeUpgrade {
  try {
    return { upgradedState: fromJson(rawJson, terraformDataEntry.type) };
  } catch (e) {
    return { diagnostics: [errorDiag(e instanceof Error ? e.message : String(e))] };
  }
}

import { planJson, stateJson, type EnginePlanResult } from "@magma/engine";
import type { ProviderSchema } from "@magma/provider-api";
import type { StateFile } from "@magma/state";
import { providerSchemasMapJson } from "../workdir/provider-schemas-json.js";

/** The raw text of a top-level member's value in a JSON object text (undefined when absent). */
export function jsonMember(text: string, key: string): string | undefined {
  let i = text.indexOf("{") + 1;
  const skipValue = (from: number): number => {
    let depth = 0;
    let j = from;
    for (; j < text.length; j++) {
      const c = text[j]!;
      if (c === '"') {
        j++;
        while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
        if (depth === 0) return j + 1;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) return j;
        depth--;
        if (depth === 0) return j + 1;
      } else if (depth === 0 && c === ",") return j;
    }
    return j;
  };
  while (i < text.length && text[i] === '"') {
    const keyEnd = skipValue(i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = keyEnd + 1;
    const valueEnd = skipValue(valueStart);
    if (name === key) return text.slice(valueStart, valueEnd);
    i = valueEnd + 1;
  }
  return undefined;
}

/** The schemas with the real providers' in place of their mocks' (terraform renders the real provider's schemas). */
function realSchemas(schemas: ReadonlyMap<string, ProviderSchema>, real: ReadonlyMap<string, ProviderSchema>): Map<string, ProviderSchema> {
  return new Map([...schemas].map(([k, v]) => [k, real.get(k) ?? v]));
}

function struct(fields: ReadonlyArray<readonly [string, string | undefined]>): string {
  return `{${fields.flatMap(([k, v]) => (v === undefined ? [] : [`${JSON.stringify(k)}:${v}`])).join(",")}}`;
}

/**
 * `-verbose -json`'s `test_state` document of an apply run (terraform's `jsonformat.State`):
 * the root module and outputs as `terraform show -json` has them, and the provider schemas.
 */
export function verboseStateJson(state: StateFile, planned: EnginePlanResult, real: ReadonlyMap<string, ProviderSchema>): string {
  const values = jsonMember(stateJson(state, planned.schemas), "values");
  return struct([
    ["state_format_version", '"1.0"'],
    ["root_module", (values === undefined ? undefined : jsonMember(values, "root_module")) ?? "{}"],
    ["outputs", values === undefined ? undefined : jsonMember(values, "outputs")],
    ["provider_format_version", '"1.0"'],
    ["provider_schemas", providerSchemasMapJson(realSchemas(planned.schemas, real))],
  ]);
}

/**
 * `-verbose -json`'s `test_plan` document of a plan run (terraform's `jsonformat.Plan`): the
 * output and resource changes, drift and relevant attributes as `terraform show -json` has
 * them, and the provider schemas.
 */
export function verbosePlanJson(planned: EnginePlanResult, config: Parameters<typeof planJson>[1]["config"], real: ReadonlyMap<string, ProviderSchema>): string {
  const text = planJson(planned.plan, { schemas: planned.schemas, ...(config !== undefined ? { config } : {}) });
  return struct([
    ["plan_format_version", '"1.2"'],
    ["output_changes", jsonMember(text, "output_changes")],
    ["resource_changes", jsonMember(text, "resource_changes")],
    ["resource_drift", jsonMember(text, "resource_drift")],
    ["relevant_attributes", jsonMember(text, "relevant_attributes")],
    ["provider_format_version", '"1.0"'],
    ["provider_schemas", providerSchemasMapJson(realSchemas(planned.schemas, real))],
  ]);
}

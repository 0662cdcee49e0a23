import { fromJson, typeToJson, type Value } from "@magma/cty";
import type { ProviderSchema } from "@magma/provider-api";
import { decodeOutput, decodeSensitivePaths, formatModuleInstance, formatProviderSource, formatResourceInstance, type ModuleInstanceAddress, type StateFile } from "@magma/state";
import { compareUtf8, goEscape, jsonArray, jsonMap, jsonString, jsonStruct } from "./go-json.js";
import { RenderError } from "./render-error.js";
import { entryFor, normaliseSchemas, type RenderSchemas } from "./render-schemas.js";
import { attributeValuesJson, schemaSensitivePaths, sensitiveAsBoolJson, valueJson } from "./value-json.js";

/** The `format_version` of `terraform show -json` for a state. */
export const STATE_JSON_FORMAT_VERSION = "1.0";

/**
 * `terraform show -json` of a state (format version 1.0): `terraform_version` and `values`
 * with the root module's `outputs` and the module tree's resources (`address`, `mode`,
 * `type`, `name`, `index`, `provider_name`, `schema_version`, `values`,
 * `sensitive_values`, `depends_on`, `tainted`, `deposed_key`), attributes decoded with the
 * resource schemas, sensitive values from the object's `sensitive_attributes` and the
 * schema's sensitive attributes. An empty state is `{"format_version":"1.0"}`. The text is
 * what Terraform prints, byte for byte (Go's field order, sorted maps, HTML escapes).
 *
 * @param state - the state.
 * @param schemas - the provider schemas, by provider source address.
 * @throws RenderError `missing_schema` for a resource type without a schema; `invalid_state`
 *   for an object whose schema version differs from the provider's (upgrade it first), whose
 *   attributes do not decode, or that holds legacy flatmap attributes only.
 */
export function stateJson(state: StateFile, schemas: RenderSchemas): string {
  return goEscape(stateJsonText(state, normaliseSchemas(schemas)));
}

/** Whether a state is empty as Terraform judges it: no resources and no outputs. */
function isEmpty(state: StateFile): boolean {
  return state.outputs.size === 0 && state.resources.every((r) => r.instances.length === 0);
}

/** @internal The unescaped document (reused as a plan's `prior_state`). */
export function stateJsonText(state: StateFile, schemas: ReadonlyMap<string, ProviderSchema>): string {
  if (isEmpty(state)) return jsonStruct([["format_version", jsonString(STATE_JSON_FORMAT_VERSION)]]);
  return jsonStruct([
    ["format_version", jsonString(STATE_JSON_FORMAT_VERSION)],
    ["terraform_version", state.terraformVersion === "" ? undefined : jsonString(state.terraformVersion)],
    ["values", jsonStruct([["outputs", outputsJson(state)], ["root_module", modulesJson(state, schemas)]])],
  ]);
}

function outputsJson(state: StateFile): string | undefined {
  if (state.outputs.size === 0) return undefined;
  const entries: [string, string][] = [];
  for (const [name, o] of state.outputs) {
    const d = decodeOutput(o);
    entries.push([name, jsonStruct([["sensitive", String(d.sensitive)], ["value", valueJson(d.value.unmarkDeep().value)], ["type", typeToJson(d.type)]])]);
  }
  return jsonMap(entries);
}

/** One module's resources (as rendered resources) by module address, and the module tree. */
function modulesJson(state: StateFile, schemas: ReadonlyMap<string, ProviderSchema>): string {
  const byModule = new Map<string, { addr: ModuleInstanceAddress; resources: { address: string; json: string }[] }>();
  const children = new Map<string, Map<string, ModuleInstanceAddress>>();
  const moduleOf = (addr: ModuleInstanceAddress) => {
    const key = formatModuleInstance(addr);
    let m = byModule.get(key);
    if (m === undefined) byModule.set(key, (m = { addr, resources: [] }));
    return m;
  };
  for (const r of state.resources) {
    if (r.instances.length === 0) continue;
    const m = moduleOf(r.module);
    for (let a = r.module; a.length > 0; a = a.slice(0, -1)) {
      const parent = formatModuleInstance(a.slice(0, -1));
      let set = children.get(parent);
      if (set === undefined) children.set(parent, (set = new Map()));
      set.set(formatModuleInstance(a), a);
    }
    const provider = formatProviderSource(r.provider.provider);
    for (const obj of r.instances) {
      const address = formatResourceInstance({ module: r.module, mode: r.mode, type: r.type, name: r.name, key: obj.indexKey });
      const entry = entryFor(schemas, provider, r.mode, r.type, address);
      const where = obj.deposed === undefined ? address : `${address} (deposed object ${obj.deposed})`;
      if (obj.deposed === undefined && obj.schemaVersion !== entry.version) {
        throw new RenderError("invalid_state", `schema version ${obj.schemaVersion} for ${where} in state does not match version ${entry.version} from the provider ${provider}`);
      }
      if (obj.attributesJson === undefined) throw new RenderError("invalid_state", `${where} holds legacy flatmap attributes only; upgrade the state first`);
      let value: Value;
      try {
        value = fromJson(obj.attributesJson, entry.type);
      } catch (e) {
        throw new RenderError("invalid_state", `the attributes of ${where} do not fit the schema of ${r.type}: ${e instanceof Error ? e.message : String(e)}`, e);
      }
      let paths;
      try {
        paths = decodeSensitivePaths(obj.sensitiveAttributesJson);
      } catch (e) {
        throw new RenderError("invalid_state", `the sensitive_attributes of ${where} do not decode: ${e instanceof Error ? e.message : String(e)}`, e);
      }
      paths.push(...schemaSensitivePaths(entry.block, value));
      const json = jsonStruct([
        ["address", jsonString(address)],
        ["mode", jsonString(r.mode)],
        ["type", jsonString(r.type)],
        ["name", jsonString(r.name)],
        ["index", obj.indexKey === undefined ? undefined : typeof obj.indexKey === "number" ? String(obj.indexKey) : jsonString(obj.indexKey)],
        ["provider_name", jsonString(provider)],
        // Terraform leaves a deposed object's schema version at zero.
        ["schema_version", String(obj.deposed === undefined ? obj.schemaVersion : 0)],
        ["values", attributeValuesJson(value)],
        ["sensitive_values", sensitiveAsBoolJson(value, paths)],
        ["depends_on", obj.dependencies.length === 0 ? undefined : jsonArray(obj.dependencies.map(jsonString))],
        ["tainted", obj.tainted ? "true" : undefined],
        ["deposed_key", obj.deposed === undefined ? undefined : jsonString(obj.deposed)],
      ]);
      m.resources.push({ address, json });
    }
  }
  const render = (key: string, isRoot: boolean): string => {
    const resources = [...(byModule.get(key)?.resources ?? [])].sort((a, b) => compareUtf8(a.address, b.address));
    const kids = [...(children.get(key)?.keys() ?? [])].sort(compareUtf8);
    return jsonStruct([
      ["resources", resources.length === 0 ? undefined : jsonArray(resources.map((r) => r.json))],
      ["address", isRoot ? undefined : jsonString(key)],
      ["child_modules", kids.length === 0 ? undefined : jsonArray(kids.map((k) => render(k, false)))],
    ]);
  };
  return render("", true);
}

import { dynamicType, emptyObjectVal, nullVal, objectVal, Path, stringType, type Value } from "@magma/cty";
import { createSchemaEntry, errorDiag, type Diag, type NativeReadDataSource, type SchemaEntry } from "@magma/provider-api";
import { backendConfigSchema, backendValueFromCty, decodeOutput, isStateError, loadState, openConfiguredBackend, type BackendConfigValue, type BackendConfigValues, type StateStore } from "@magma/state";

/** The schema of `terraform_remote_state`, as Terraform 1.11 declares it. @internal */
export const remoteStateEntry: SchemaEntry = createSchemaEntry({
  attributes: {
    backend: { type: stringType, required: true, description: "The remote backend to use, e.g. `remote` or `http`.", descriptionKind: "markdown" },
    config: {
      type: dynamicType,
      optional: true,
      description:
        'The configuration of the remote backend. Although this is optional, most backends require some configuration.\n\nThe object can use any arguments that would be valid in the equivalent `terraform { backend "<TYPE>" { ... } }` block.',
      descriptionKind: "markdown",
    },
    defaults: { type: dynamicType, optional: true, description: "Default values for outputs, in case the state file is empty or lacks a required output.", descriptionKind: "markdown" },
    outputs: { type: dynamicType, computed: true, description: "An object containing every root-level output in the remote state.", descriptionKind: "markdown" },
    workspace: { type: stringType, optional: true, description: "The Terraform workspace to use, if the backend supports workspaces.", descriptionKind: "markdown" },
  },
});

/** Where remote state is read from: relative local paths resolve against `dir`; backends read `env`. */
export interface RemoteStateContext {
  /** The working directory. */
  readonly dir: string;
  /** The environment (`PG_*`, `TF_HTTP_*`, AWS variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const BACKEND = Path.root.attr("backend");
const CONFIG = Path.root.attr("config");

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return isStateError(e) ? m.replace(/^\[[a-z_]+\] /, "") : m;
}

/**
 * The backend settings of `config` decoded as Terraform's `getBackend` coerces them into the
 * backend's schema; a diagnostic when the type is unknown or a setting does not fit.
 */
function backendValues(type: string, config: Value): { values: BackendConfigValues } | { diag: Diag } {
  const schema = backendConfigSchema(type === "_local" ? "local" : type);
  if (schema === undefined) return { diag: errorDiag("Invalid backend configuration", `There is no backend type named ${JSON.stringify(type)}.`, BACKEND) };
  const invalid = (why: string): { diag: Diag } => ({
    diag: errorDiag("Invalid backend configuration", `The given configuration is not valid for backend ${JSON.stringify(type)}: ${why}.`, CONFIG),
  });
  if (config.isNull()) return { values: {} };
  const k = config.type.kind;
  if (k !== "object" && k !== "map") return invalid("an object is required");
  const entries: [string, Value][] = k === "map" ? [...config.entries()] : Object.entries(config.attributes());
  const values: Record<string, BackendConfigValue> = {};
  for (const [name, raw] of entries) {
    const want = schema[name];
    if (want === undefined) return invalid(`unexpected attribute ${JSON.stringify(name)}`);
    let v: BackendConfigValue | undefined;
    try {
      v = backendValueFromCty(raw, want);
    } catch (e) {
      return invalid(`.${name}: ${message(e)}`);
    }
    if (v !== undefined) values[name] = v;
  }
  return { values };
}

async function readOutputs(store: StateStore): Promise<Record<string, Value> | undefined> {
  const state = await loadState(store);
  if (state === undefined) return undefined;
  const out: Record<string, Value> = {};
  for (const [name, o] of state.outputs) out[name] = decodeOutput(o).value;
  return out;
}

/**
 * Reads `terraform_remote_state` as Terraform's built-in provider does: opens the backend
 * named by `backend` with `config` (any backend magma implements), reads the `workspace`'s
 * state (default `default`) and returns its root outputs, with their stored types, over
 * `defaults`. A workspace without state is Terraform's "Unable to find remote state" error.
 *
 * @internal
 */
export async function readRemoteState(config: Value, ctx: RemoteStateContext): Promise<NativeReadDataSource> {
  const type = config.getAttr("backend").asString();
  const cfg = config.getAttr("config");
  const defaults = config.getAttr("defaults");
  if (!defaults.isNull() && defaults.type.kind !== "object" && defaults.type.kind !== "map" && defaults.type.kind !== "dynamic") {
    return { diagnostics: [errorDiag("Invalid default values", "Defaults must be given in an object value.", Path.root.attr("defaults"))] };
  }
  const decoded = backendValues(type, cfg);
  if ("diag" in decoded) return { diagnostics: [decoded.diag] };
  let opened;
  try {
    opened = await openConfiguredBackend(type === "_local" ? "local" : type, decoded.values, { dir: ctx.dir, env: ctx.env });
  } catch (e) {
    return { diagnostics: [errorDiag(message(e))] };
  }
  try {
    const workspaceVal = config.getAttr("workspace");
    const workspace = workspaceVal.isNull() ? "default" : workspaceVal.asString();
    let store: StateStore;
    try {
      store = opened.backend.store(workspace);
    } catch (e) {
      return { diagnostics: [errorDiag("Error loading state error", `error loading the remote state: ${message(e)}`, BACKEND)] };
    }
    let outputs: Record<string, Value> | undefined;
    try {
      outputs = await readOutputs(store);
    } catch (e) {
      return { diagnostics: [errorDiag(message(e))] };
    }
    const state: Record<string, Value> = { backend: config.getAttr("backend"), config: cfg, workspace: workspaceVal, defaults: defaults.isNull() ? nullVal(dynamicType) : defaults };
    if (outputs === undefined) {
      return {
        state: objectVal({ ...state, outputs: emptyObjectVal }),
        diagnostics: [errorDiag("Unable to find remote state", "No stored state was found for the given workspace in the given backend.", Path.root.attr("workspace"))],
      };
    }
    const merged: Record<string, Value> = {};
    if (!defaults.isNull()) {
      const d: [string, Value][] = defaults.type.kind === "map" ? [...defaults.entries()] : Object.entries(defaults.attributes());
      for (const [k, v] of d) merged[k] = v;
    }
    Object.assign(merged, outputs);
    return { state: objectVal({ ...state, outputs: objectVal(merged) }) };
  } finally {
    await opened.close();
  }
}

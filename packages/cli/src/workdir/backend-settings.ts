import type { Backend } from "@magma/config";
import { evaluate, type Diagnostic } from "@magma/hcl";
import { BACKEND_TYPES, backendConfigSchema, backendValueFromCty, type BackendConfigValue, type BackendConfigValues } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";

/**
 * Where the states of a working directory live: the configuration's `backend` block (type and
 * its settings, decoded against the backend's schema), or the local default.
 */
export interface BackendSettings {
  /** The backend type: `local`, `pg`, `http` or `s3`. */
  readonly type: string;
  /** The settings given (unset ones absent). */
  readonly values: BackendConfigValues;
}

/** @deprecated Use {@link BackendSettings} (its `values` carry `path` and `workspace_dir`). */
export type LocalBackendSettings = BackendSettings;
/** @deprecated Use {@link BackendSettings} (its `values` carry `conn_str`, `schema_name`, …). */
export type PgBackendSettings = BackendSettings;

function diagError(d: Diagnostic): CliError {
  const where = d.subject === undefined ? "" : ` (${d.subject.filename}:${d.subject.start.line})`;
  return new CliError(CliErrorCode.BadInput, `backend configuration: ${d.summary}${d.detail === "" ? "" : `: ${d.detail}`}${where}`);
}

/**
 * Decodes a configuration's `backend` block as Terraform decodes it for the backends magma
 * implements (`local`, `pg`, `http`, `s3`): only the backend's own arguments, each a constant
 * (backend blocks cannot refer to variables or other objects). No block means the local
 * backend with its defaults.
 *
 * @throws CliError `bad_input` for an unknown argument, a non-constant or mistyped value, or
 *   an unsupported backend type.
 */
export function backendSettingsFromConfig(backend: Backend | undefined): BackendSettings {
  if (backend === undefined) return { type: "local", values: {} };
  const schema = backendConfigSchema(backend.type);
  if (schema === undefined) {
    throw new CliError(CliErrorCode.BadInput, `backend ${JSON.stringify(backend.type)} is not supported by magma: the supported backends are ${BACKEND_TYPES.map((t) => JSON.stringify(t)).join(", ")}`);
  }
  const { content, diags } = backend.config.content({ attributes: Object.keys(schema).map((name) => ({ name })) });
  const firstError = diags.find((d) => d.severity === "error");
  if (firstError !== undefined) throw diagError(firstError);
  const values: Record<string, BackendConfigValue> = {};
  for (const [name, attr] of content.attributes) {
    const r = evaluate(attr.expr, { variables: {} });
    const bad = r.diags.find((d) => d.severity === "error");
    if (bad !== undefined) throw diagError({ ...bad, summary: `${name}: ${bad.summary}`, ...(bad.subject === undefined ? { subject: attr.range } : {}) });
    const want = schema[name]!;
    const v = r.value;
    if (!v.isWhollyKnown()) throw new CliError(CliErrorCode.BadInput, `backend configuration: ${name} must be a constant (${attr.range.filename}:${attr.range.start.line})`);
    let x;
    try {
      x = backendValueFromCty(v, want);
    } catch (e) {
      throw new CliError(CliErrorCode.BadInput, `backend configuration: ${name}: ${(e as Error).message} (${attr.range.filename}:${attr.range.start.line})`);
    }
    if (x !== undefined) values[name] = x;
  }
  return { type: backend.type, values };
}

import type { Backend } from "@magma/config";
import { evaluate, type Diagnostic } from "@magma/hcl";
import { CliError, CliErrorCode } from "../cli-error.js";

/** Terraform's `local` backend settings (`path`, `workspace_dir`). */
export interface LocalBackendSettings {
  readonly type: "local";
  /** The default workspace's state file, relative to the working directory (default `terraform.tfstate`). */
  readonly path?: string;
  /** Where the other workspaces' states live (default `terraform.tfstate.d`). */
  readonly workspaceDir?: string;
}

/** Terraform's `pg` backend settings (`conn_str`, `schema_name`, the `skip_*` switches); unset ones come from `PG_*` variables as Terraform reads them. */
export interface PgBackendSettings {
  readonly type: "pg";
  readonly connStr?: string;
  readonly schemaName?: string;
  readonly skipSchemaCreation?: boolean;
  readonly skipTableCreation?: boolean;
  readonly skipIndexCreation?: boolean;
}

/** Where the states of a working directory live: the configuration's `backend` block, or the local default. */
export type BackendSettings = LocalBackendSettings | PgBackendSettings;

const ATTRS = {
  local: { path: "string", workspace_dir: "string" },
  pg: { conn_str: "string", schema_name: "string", skip_schema_creation: "bool", skip_table_creation: "bool", skip_index_creation: "bool" },
} as const;

function diagError(d: Diagnostic): CliError {
  const where = d.subject === undefined ? "" : ` (${d.subject.filename}:${d.subject.start.line})`;
  return new CliError(CliErrorCode.BadInput, `backend configuration: ${d.summary}${d.detail === "" ? "" : `: ${d.detail}`}${where}`);
}

/**
 * Decodes a configuration's `backend` block as Terraform decodes it for `local` and `pg`: only
 * the backend's own arguments, each a constant (backend blocks cannot refer to variables or
 * other objects). No block means the local backend with its defaults.
 *
 * @throws CliError `bad_input` for an unknown argument, a non-constant or mistyped value, or
 *   an unsupported backend type.
 */
export function backendSettingsFromConfig(backend: Backend | undefined): BackendSettings {
  if (backend === undefined) return { type: "local" };
  if (backend.type !== "local" && backend.type !== "pg") {
    throw new CliError(CliErrorCode.BadInput, `backend ${JSON.stringify(backend.type)} is not supported by magma: the supported backends are "local" and "pg"`);
  }
  const schema = ATTRS[backend.type];
  const { content, diags } = backend.config.content({ attributes: Object.keys(schema).map((name) => ({ name })) });
  const firstError = diags.find((d) => d.severity === "error");
  if (firstError !== undefined) throw diagError(firstError);
  const values: Record<string, string | boolean> = {};
  for (const [name, attr] of content.attributes) {
    const r = evaluate(attr.expr, { variables: {} });
    const bad = r.diags.find((d) => d.severity === "error");
    if (bad !== undefined) throw diagError({ ...bad, summary: `${name}: ${bad.summary}`, ...(bad.subject === undefined ? { subject: attr.range } : {}) });
    const want = (schema as Record<string, "string" | "bool">)[name]!;
    const v = r.value;
    if (v.isNull()) continue;
    if (!v.isKnown()) throw new CliError(CliErrorCode.BadInput, `backend configuration: ${name} must be a constant (${attr.range.filename}:${attr.range.start.line})`);
    if (want === "string" && v.type.kind === "string") values[name] = v.asString();
    else if (want === "bool" && v.type.kind === "bool") values[name] = v.asBool();
    else throw new CliError(CliErrorCode.BadInput, `backend configuration: ${name} must be a ${want} (${attr.range.filename}:${attr.range.start.line})`);
  }
  if (backend.type === "local") {
    return {
      type: "local",
      ...(typeof values["path"] === "string" ? { path: values["path"] } : {}),
      ...(typeof values["workspace_dir"] === "string" ? { workspaceDir: values["workspace_dir"] } : {}),
    };
  }
  return {
    type: "pg",
    ...(typeof values["conn_str"] === "string" ? { connStr: values["conn_str"] } : {}),
    ...(typeof values["schema_name"] === "string" ? { schemaName: values["schema_name"] } : {}),
    ...(typeof values["skip_schema_creation"] === "boolean" ? { skipSchemaCreation: values["skip_schema_creation"] } : {}),
    ...(typeof values["skip_table_creation"] === "boolean" ? { skipTableCreation: values["skip_table_creation"] } : {}),
    ...(typeof values["skip_index_creation"] === "boolean" ? { skipIndexCreation: values["skip_index_creation"] } : {}),
  };
}

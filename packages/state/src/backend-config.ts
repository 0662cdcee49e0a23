import type { StateBackend } from "./backend.js";
import { createHttpBackend, type HttpBackendOptions } from "./backends/http.js";
import { createLocalBackend, type LocalBackendOptions } from "./backends/local.js";
import { openPgBackend, type PgBackendOptions } from "./backends/pg.js";
import { StateError } from "./state-error.js";

/** The type of one backend setting, as Terraform's backend schema declares it. */
export type BackendAttributeKind = "string" | "bool" | "number";

/** The backend types magma implements, in Terraform's spelling. */
export const BACKEND_TYPES = ["local", "pg", "http"] as const;

const SCHEMAS: Readonly<Record<(typeof BACKEND_TYPES)[number], Readonly<Record<string, BackendAttributeKind>>>> = {
  local: { path: "string", workspace_dir: "string" },
  pg: { conn_str: "string", schema_name: "string", skip_schema_creation: "bool", skip_table_creation: "bool", skip_index_creation: "bool" },
  http: {
    address: "string",
    update_method: "string",
    lock_address: "string",
    unlock_address: "string",
    lock_method: "string",
    unlock_method: "string",
    username: "string",
    password: "string",
    skip_cert_verification: "bool",
    retry_max: "number",
    retry_wait_min: "number",
    retry_wait_max: "number",
    client_ca_certificate_pem: "string",
    client_certificate_pem: "string",
    client_private_key_pem: "string",
  },
};

/**
 * The settings of a backend type (attribute name → type), as in its `backend` block; undefined
 * for a type magma does not implement.
 */
export function backendConfigSchema(type: string): Readonly<Record<string, BackendAttributeKind>> | undefined {
  return Object.hasOwn(SCHEMAS, type) ? SCHEMAS[type as keyof typeof SCHEMAS] : undefined;
}

/** A backend's settings, decoded (unset ones absent). */
export type BackendConfigValues = Readonly<Record<string, string | boolean | number>>;

/** Options of {@link openConfiguredBackend}. */
export interface OpenConfiguredBackendOptions {
  /** The directory relative paths (the local backend's) resolve against. */
  readonly dir: string;
  /** The environment backends read their variables from (`PG_*`, `TF_HTTP_*`). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A backend opened from its settings, and how to release it. */
export interface ConfiguredBackend {
  /** The backend. */
  readonly backend: StateBackend;
  /** Releases its resources (the pg pool); safe to call once. */
  close(): Promise<void>;
}

/**
 * Opens a backend of a type from its settings, as `terraform { backend "<type>" { … } }` or
 * `terraform_remote_state`'s `config` give them.
 *
 * @throws StateError `invalid_argument` for an unknown type or setting, or a setting of the
 *   wrong type; what the backend's own constructor throws for bad values.
 */
export async function openConfiguredBackend(type: string, values: BackendConfigValues, options: OpenConfiguredBackendOptions): Promise<ConfiguredBackend> {
  const schema = backendConfigSchema(type);
  if (schema === undefined) throw new StateError("invalid_argument", `There is no backend type named ${JSON.stringify(type)}.`);
  for (const [k, v] of Object.entries(values)) {
    const want = schema[k];
    if (want === undefined) throw new StateError("invalid_argument", `backend ${JSON.stringify(type)}: unsupported argument ${JSON.stringify(k)}`);
    if (typeof v !== (want === "bool" ? "boolean" : want)) throw new StateError("invalid_argument", `backend ${JSON.stringify(type)}: ${k} must be a ${want}`);
  }
  const s = (k: string): string | undefined => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  const b = (k: string): boolean | undefined => (typeof values[k] === "boolean" ? (values[k] as boolean) : undefined);
  const n = (k: string): number | undefined => (typeof values[k] === "number" ? (values[k] as number) : undefined);
  const env = options.env ?? process.env;
  const defined = <T extends object>(o: { [K in keyof T]: T[K] | undefined }): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  switch (type as keyof typeof SCHEMAS) {
    case "local":
      return { backend: createLocalBackend(defined<LocalBackendOptions>({ dir: options.dir, path: s("path"), workspaceDir: s("workspace_dir") })), close: () => Promise.resolve() };
    case "pg": {
      const pg = await openPgBackend(
        defined<PgBackendOptions>({
          env,
          connStr: s("conn_str"),
          schemaName: s("schema_name"),
          skipSchemaCreation: b("skip_schema_creation"),
          skipTableCreation: b("skip_table_creation"),
          skipIndexCreation: b("skip_index_creation"),
        }),
      );
      return { backend: pg, close: () => pg.close() };
    }
    case "http":
      return {
        backend: createHttpBackend(
          defined<HttpBackendOptions>({
            env,
            address: s("address"),
            updateMethod: s("update_method"),
            lockAddress: s("lock_address"),
            unlockAddress: s("unlock_address"),
            lockMethod: s("lock_method"),
            unlockMethod: s("unlock_method"),
            username: s("username"),
            password: s("password"),
            skipCertVerification: b("skip_cert_verification"),
            retryMax: n("retry_max"),
            retryWaitMin: n("retry_wait_min"),
            retryWaitMax: n("retry_wait_max"),
            clientCaCertificatePem: s("client_ca_certificate_pem"),
            clientCertificatePem: s("client_certificate_pem"),
            clientPrivateKeyPem: s("client_private_key_pem"),
          }),
        ),
        close: () => Promise.resolve(),
      };
  }
}

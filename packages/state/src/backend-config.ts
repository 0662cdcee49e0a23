import { boolType, convert, mapType, numberType, setType, stringType, type Value } from "@magma/cty";
import type { StateBackend } from "./backend.js";
import { createHttpBackend, type HttpBackendOptions } from "./backends/http.js";
import { createLocalBackend, type LocalBackendOptions } from "./backends/local.js";
import { openPgBackend, type PgBackendOptions } from "./backends/pg.js";
import type { S3AssumeRole, S3AssumeRoleWithWebIdentity, S3BackendOptions, S3Endpoints } from "./backends/s3.js";
import { StateError } from "./state-error.js";

/** The type of one backend setting, as Terraform's backend schema declares it (an object: its attributes' types). */
export type BackendAttributeKind = "string" | "bool" | "number" | "set(string)" | "map(string)" | { readonly object: Readonly<Record<string, BackendAttributeKind>> };

/** The backend types magma implements, in Terraform's spelling. */
export const BACKEND_TYPES = ["local", "pg", "http", "s3"] as const;

const S3_ENDPOINTS: BackendAttributeKind = { object: { dynamodb: "string", iam: "string", s3: "string", sso: "string", sts: "string" } };
const S3_ASSUME_ROLE: BackendAttributeKind = {
  object: {
    duration: "string",
    external_id: "string",
    policy: "string",
    policy_arns: "set(string)",
    role_arn: "string",
    session_name: "string",
    source_identity: "string",
    tags: "map(string)",
    transitive_tag_keys: "set(string)",
  },
};
const S3_WEB_IDENTITY: BackendAttributeKind = {
  object: { duration: "string", policy: "string", policy_arns: "set(string)", role_arn: "string", session_name: "string", web_identity_token: "string", web_identity_token_file: "string" },
};

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
  s3: {
    bucket: "string",
    key: "string",
    region: "string",
    allowed_account_ids: "set(string)",
    dynamodb_endpoint: "string",
    ec2_metadata_service_endpoint: "string",
    ec2_metadata_service_endpoint_mode: "string",
    endpoint: "string",
    endpoints: S3_ENDPOINTS,
    forbidden_account_ids: "set(string)",
    iam_endpoint: "string",
    sts_endpoint: "string",
    sts_region: "string",
    encrypt: "bool",
    acl: "string",
    access_key: "string",
    secret_key: "string",
    kms_key_id: "string",
    dynamodb_table: "string",
    use_lockfile: "bool",
    profile: "string",
    retry_mode: "string",
    shared_config_files: "set(string)",
    shared_credentials_file: "string",
    shared_credentials_files: "set(string)",
    token: "string",
    skip_credentials_validation: "bool",
    skip_requesting_account_id: "bool",
    skip_metadata_api_check: "bool",
    skip_region_validation: "bool",
    skip_s3_checksum: "bool",
    sse_customer_key: "string",
    workspace_key_prefix: "string",
    force_path_style: "bool",
    use_path_style: "bool",
    max_retries: "number",
    assume_role: S3_ASSUME_ROLE,
    assume_role_with_web_identity: S3_WEB_IDENTITY,
    custom_ca_bundle: "string",
    http_proxy: "string",
    https_proxy: "string",
    no_proxy: "string",
    insecure: "bool",
    use_fips_endpoint: "bool",
    use_dualstack_endpoint: "bool",
  },
};

/**
 * The s3 settings magma refuses (rather than ignore): proxies need a proxy agent node 20 does
 * not have; FIPS and dual-stack endpoints exist only on AWS's own hosts (unreachable here).
 * See the package README.
 */
const S3_UNSUPPORTED = ["http_proxy", "https_proxy", "no_proxy", "use_fips_endpoint", "use_dualstack_endpoint"];

/**
 * The settings of a backend type (attribute name → type), as in its `backend` block; undefined
 * for a type magma does not implement.
 */
export function backendConfigSchema(type: string): Readonly<Record<string, BackendAttributeKind>> | undefined {
  return Object.hasOwn(SCHEMAS, type) ? SCHEMAS[type as keyof typeof SCHEMAS] : undefined;
}

/** One decoded backend setting: a string, bool or number; a set of strings; a map of strings; an object of such. */
export type BackendConfigValue = string | boolean | number | readonly string[] | { readonly [name: string]: BackendConfigValue };

/** A backend's settings, decoded (unset ones absent). */
export type BackendConfigValues = Readonly<Record<string, BackendConfigValue>>;

function fits(v: BackendConfigValue, kind: BackendAttributeKind): boolean {
  if (typeof kind === "object") return typeof v === "object" && !Array.isArray(v) && Object.entries(v).every(([k, x]) => kind.object[k] !== undefined && fits(x, kind.object[k]));
  switch (kind) {
    case "string":
      return typeof v === "string";
    case "bool":
      return typeof v === "boolean";
    case "number":
      return typeof v === "number";
    case "set(string)":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
    case "map(string)":
      return typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
  }
}

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
    if (!fits(v, want)) throw new StateError("invalid_argument", `backend ${JSON.stringify(type)}: ${k} must be ${typeof want === "object" ? "an object" : `a ${want}`}`);
  }
  const s = (k: string): string | undefined => (typeof values[k] === "string" ? (values[k] as string) : undefined);
  const b = (k: string): boolean | undefined => (typeof values[k] === "boolean" ? (values[k] as boolean) : undefined);
  const n = (k: string): number | undefined => (typeof values[k] === "number" ? (values[k] as number) : undefined);
  const env = options.env ?? process.env;
  const defined = <T extends object>(o: { [K in keyof T]: T[K] | undefined }): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  const obj = (k: string): Readonly<Record<string, BackendConfigValue>> | undefined => (typeof values[k] === "object" && !Array.isArray(values[k]) ? (values[k] as Record<string, BackendConfigValue>) : undefined);
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
    case "s3": {
      const unsupported = S3_UNSUPPORTED.find((k) => values[k] !== undefined && values[k] !== false && values[k] !== "");
      if (unsupported !== undefined) throw new StateError("invalid_argument", `backend "s3": ${unsupported} is not supported by magma yet (see @magma/state's README)`);
      const envUnsupported = ["AWS_USE_FIPS_ENDPOINT", "AWS_USE_DUALSTACK_ENDPOINT"].find((k) => (env[k] ?? "") !== "" && env[k] !== "false");
      if (envUnsupported !== undefined) throw new StateError("invalid_argument", `backend "s3": the environment variable ${envUnsupported} is not supported by magma yet (see @magma/state's README)`);
      const endpoints = obj("endpoints") ?? {};
      const ep = (k: string, legacy: string): string | undefined => (typeof endpoints[k] === "string" ? (endpoints[k] as string) : s(legacy));
      const role = obj("assume_role");
      const web = obj("assume_role_with_web_identity");
      const str = (o: Readonly<Record<string, BackendConfigValue>>, k: string): string | undefined => (typeof o[k] === "string" ? o[k] : undefined);
      const list = (k: string): readonly string[] | undefined => (Array.isArray(values[k]) ? (values[k] as readonly string[]) : undefined);
      const strList = (o: Readonly<Record<string, BackendConfigValue>>, k: string): readonly string[] | undefined => (Array.isArray(o[k]) ? (o[k] as readonly string[]) : undefined);
      const strMap = (o: Readonly<Record<string, BackendConfigValue>>, k: string): Readonly<Record<string, string>> | undefined => {
        const v = o[k];
        return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Readonly<Record<string, string>>) : undefined;
      };
      const credentialsFile = s("shared_credentials_file");
      const { createS3Backend } = await import("./backends/s3.js");
      const s3 = createS3Backend(
        defined<S3BackendOptions>({
          env,
          bucket: s("bucket") ?? "",
          key: s("key") ?? "",
          region: s("region"),
          workspaceKeyPrefix: s("workspace_key_prefix"),
          useLockfile: b("use_lockfile"),
          dynamodbTable: s("dynamodb_table"),
          encrypt: b("encrypt"),
          kmsKeyId: s("kms_key_id"),
          sseCustomerKey: s("sse_customer_key"),
          skipCredentialsValidation: b("skip_credentials_validation"),
          skipRequestingAccountId: b("skip_requesting_account_id"),
          allowedAccountIds: list("allowed_account_ids"),
          forbiddenAccountIds: list("forbidden_account_ids"),
          assumeRoleWithWebIdentity:
            web === undefined
              ? undefined
              : defined<S3AssumeRoleWithWebIdentity>({
                  roleArn: str(web, "role_arn") ?? "",
                  sessionName: str(web, "session_name"),
                  duration: str(web, "duration"),
                  policy: str(web, "policy"),
                  policyArns: strList(web, "policy_arns"),
                  webIdentityToken: str(web, "web_identity_token"),
                  webIdentityTokenFile: str(web, "web_identity_token_file"),
                }),
          acl: s("acl"),
          customCaBundle: s("custom_ca_bundle"),
          insecure: b("insecure"),
          endpoints: defined<S3Endpoints>({ s3: ep("s3", "endpoint"), dynamodb: ep("dynamodb", "dynamodb_endpoint"), sts: ep("sts", "sts_endpoint"), iam: ep("iam", "iam_endpoint") }),
          usePathStyle: b("use_path_style") ?? b("force_path_style"),
          skipS3Checksum: b("skip_s3_checksum"),
          accessKey: s("access_key"),
          secretKey: s("secret_key"),
          token: s("token"),
          profile: s("profile"),
          sharedCredentialsFiles: list("shared_credentials_files") ?? (credentialsFile !== undefined ? [credentialsFile] : undefined),
          sharedConfigFiles: list("shared_config_files"),
          stsRegion: s("sts_region"),
          retryMode: s("retry_mode"),
          maxRetries: n("max_retries"),
          assumeRole:
            role === undefined
              ? undefined
              : defined<S3AssumeRole>({
                  roleArn: typeof role["role_arn"] === "string" ? role["role_arn"] : "",
                  sessionName: typeof role["session_name"] === "string" ? role["session_name"] : undefined,
                  externalId: typeof role["external_id"] === "string" ? role["external_id"] : undefined,
                  duration: typeof role["duration"] === "string" ? role["duration"] : undefined,
                  policy: typeof role["policy"] === "string" ? role["policy"] : undefined,
                  policyArns: strList(role, "policy_arns"),
                  sourceIdentity: str(role, "source_identity"),
                  tags: strMap(role, "tags"),
                  transitiveTagKeys: strList(role, "transitive_tag_keys"),
                }),
        }),
      );
      if ((values["allowed_account_ids"] as readonly string[] | undefined)?.length && (values["forbidden_account_ids"] as readonly string[] | undefined)?.length) {
        s3.close();
        throw new StateError("invalid_argument", 'backend "s3": Invalid Attribute Combination: Only one of allowed_account_ids, forbidden_account_ids can be set.');
      }
      try {
        await s3.verify();
      } catch (e) {
        s3.close();
        throw e;
      }
      return { backend: s3, close: () => Promise.resolve(s3.close()) };
    }
  }
}

/**
 * A backend setting's value from a cty value, converted to the setting's type as Terraform
 * coerces a backend block into the backend's schema: null is undefined (unset).
 *
 * @throws Error (a cty `PathError`) naming what does not convert, e.g. `.endpoints.s3: string required`.
 */
export function backendValueFromCty(value: Value, kind: BackendAttributeKind): BackendConfigValue | undefined {
  if (value.isNull()) return undefined;
  if (typeof kind === "object") {
    const k = value.type.kind;
    if (k !== "object" && k !== "map") throw new Error("object required");
    const entries: [string, Value][] = k === "map" ? [...value.entries()] : Object.entries(value.attributes());
    const out: Record<string, BackendConfigValue> = {};
    for (const [name, v] of entries) {
      const nested = kind.object[name];
      if (nested === undefined) throw new Error(`unexpected attribute ${JSON.stringify(name)}`);
      const x = backendValueFromCty(v, nested);
      if (x !== undefined) out[name] = x;
    }
    return out;
  }
  switch (kind) {
    case "string":
      return convert(value, stringType).asString();
    case "bool":
      return convert(value, boolType).asBool();
    case "number":
      return convert(value, numberType).asNumber().toNumber();
    case "set(string)":
      return convert(value, setType(stringType)).elements().map((e) => e.asString());
    case "map(string)":
      return Object.fromEntries([...convert(value, mapType(stringType)).entries()].map(([k, v]) => [k, v.asString()]));
  }
}

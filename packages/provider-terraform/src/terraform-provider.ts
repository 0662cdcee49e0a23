import { createNativeProvider, createSchemaEntry, type FunctionCaller, type Provider } from "@magma/provider-api";
import { readRemoteState, remoteStateEntry } from "./remote-state.js";
import { applyTerraformData, importTerraformData, planTerraformData, terraformDataEntry, upgradeTerraformData } from "./terraform-data.js";
import { terraformFunctions, terraformFunctionSignatures } from "./tfvars-functions.js";

/** The source address of Terraform's built-in provider. */
export const TERRAFORM_PROVIDER_SOURCE = "terraform.io/builtin/terraform";

/** Options of {@link createTerraformProvider}. */
export interface TerraformProviderOptions {
  /** The working directory: relative paths in `terraform_remote_state`'s config resolve against it. Default the process's. */
  readonly dir?: string;
  /** The environment the remote state backends read (`PG_*`, `TF_HTTP_*`). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Creates Terraform's built-in provider (`terraform.io/builtin/terraform`) as a native
 * provider with Terraform 1.11's schemas and behaviour:
 *
 * - the `terraform_data` resource (`input` → `output`, `triggers_replace` forcing
 *   replacement, importable by id), stored as Terraform stores it, so either tool takes the
 *   state over;
 * - the `terraform_remote_state` data source over the backends `@magma/state` implements
 *   (`local`, `pg`, `http`), with `config`, `workspace` and `defaults`; the outputs keep their
 *   stored types;
 * - the functions `encode_tfvars`, `decode_tfvars` and `encode_expr`.
 *
 * Configuration problems are error diagnostics with Terraform's wording (calls reject with
 * `ProviderError` code `diagnostics`).
 */
export function createTerraformProvider(options: TerraformProviderOptions = {}): Provider & FunctionCaller {
  const ctx = { dir: options.dir ?? process.cwd(), env: options.env ?? process.env };
  return createNativeProvider({
    getSchema: () => ({
      provider: createSchemaEntry({ attributes: {} }),
      resources: new Map([["terraform_data", terraformDataEntry]]),
      dataSources: new Map([["terraform_remote_state", remoteStateEntry]]),
      functions: terraformFunctionSignatures,
    }),
    configure: () => undefined,
    planResourceChange: (_typeName, prior, proposed, config) => planTerraformData(prior, proposed, config),
    applyResourceChange: (_typeName, _prior, planned) => applyTerraformData(planned),
    readResource: (_typeName, current) => ({ newState: current }),
    readDataSource: (_typeName, config) => readRemoteState(config, ctx),
    importResourceState: (_typeName, id) => importTerraformData(id),
    upgradeResourceState: (_typeName, _version, rawJson) => upgradeTerraformData(rawJson),
    functions: terraformFunctions,
  });
}


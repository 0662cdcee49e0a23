import { providerAddrString, providerSetupDiagnostics, validateConfig, walkConfig, type Config, type SchemaLookup } from "@magma/config";
import type { Diagnostic } from "@magma/hcl";
import type { Block, ProviderSchema } from "@magma/provider-api";
import { validateExpressions } from "../eval/validate-expressions.js";
import type { ProviderFunctionCalls } from "../eval/provider-functions.js";
import type { ProviderPool } from "../providers/provider-pool.js";
import { resolveResourceProviderConfig } from "./plan-configuration.js";
import { providerConfigValidator, providerResourceValidator } from "./provider-resource-validator.js";
import { setProviderVersions } from "./provider-versions.js";

/** Options of {@link validateBeforePlan}. */
export interface ValidateBeforePlanOptions {
  /** The working directory (`path.cwd`, the base of file functions). */
  readonly cwd: string;
  /** `terraform.workspace`. */
  readonly workspace: string;
}

/**
 * The validate walk Terraform runs before every plan (its local backend calls
 * `Context.Validate` before `plan`, `apply`, `destroy` and `refresh`): the static checks of
 * the configuration against the providers' schemas (`validateConfig`: references to what is
 * not declared, attributes a resource type does not have, arguments its schema does not
 * take) and every expression evaluated with unknown inputs (`validateExpressions`). So an
 * error that does not depend on values — an invalid expression in a `.tf.json` output, an
 * operator on a value of the wrong type, an attribute a resource does not have inside a
 * `for` over an empty list — fails the operation before planning, even with nothing to
 * plan (an empty state's destroy). The schemas come from the plan's pool (a provider that
 * cannot be opened leaves its resources unchecked: the plan reports why), and each
 * resource's configuration is validated by its provider ({@link providerResourceValidator}:
 * "Argument is deprecated" and the like, at the attribute).
 */
export async function validateBeforePlan(config: Config, pool: ProviderPool, calls: ProviderFunctionCalls, options: ValidateBeforePlanOptions): Promise<Diagnostic[]> {
  // An error in the provider configurations (a module call passing one its module does not have…) ends it before the walk.
  const setup = providerSetupDiagnostics(config);
  if (setup.some((d) => d.severity === "error")) return setup;
  setProviderVersions(config, pool);
  const bySource = new Map<string, ProviderSchema | undefined>();
  for (const c of walkConfig(config)) {
    for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values(), ...c.module.ephemeralResources.values()]) {
      const source = providerAddrString(r.provider);
      if (bySource.has(source)) continue;
      const resolved = resolveResourceProviderConfig(config, c.path, r);
      if ("error" in resolved) continue;
      bySource.set(source, await pool.schema(resolved.address, resolved.source).catch(() => undefined));
    }
  }
  const schemas: SchemaLookup = (provider, mode, type) => {
    const s = bySource.get(providerAddrString(provider));
    if (s === undefined) return undefined;
    const m = mode === "managed" ? s.resources : mode === "data" ? s.dataSources : s.ephemeralResources;
    return (m?.get(type) as { block: Block } | undefined)?.block;
  };
  // The providers' own validation of each resource (ValidateResourceConfig and its kin), with
  // the instance of its provider configuration, unconfigured: the plan configures the same one.
  const validateResource = providerResourceValidator(async (c, r) => {
    const resolved = resolveResourceProviderConfig(config, c.path, r);
    if ("error" in resolved) return undefined;
    return (await pool.open(resolved.address, resolved.source)).provider;
  });
  // And each provider block's (ValidateProviderConfig), with the instance of that configuration.
  const validateProvider = providerConfigValidator(
    config,
    async (source, address) => (await pool.open(address, source)).provider,
    (source) => bySource.get(source)?.provider.block,
  );
  return [...validateConfig(config, { schemas }), ...(await validateExpressions(config, calls, { cwd: options.cwd, workspace: options.workspace, schemas, validateResource, validateProvider }))];
}

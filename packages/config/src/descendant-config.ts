import type { Config } from "./model.js";

/**
 * The configuration of the module at `path` below `config` (Terraform's `Config.Descendent`
 * and `DescendentForInstance`): `[]` is `config` itself, `["net", "sub"]` the module `sub`
 * called by the module `net`. A step is a module call name, or a module instance step
 * (`{ name, key }`, as `@magma/state`'s addresses have) whose key is ignored — every
 * instance of a call has the same configuration.
 *
 * @returns undefined when a step names no module loaded at that point (an undeclared
 * call, or one whose module could not be loaded); never throws.
 */
export function descendantConfig(config: Config, path: readonly (string | { readonly name: string })[]): Config | undefined {
  let c: Config | undefined = config;
  for (const step of path) {
    c = c.children.get(typeof step === "string" ? step : step.name);
    if (c === undefined) return undefined;
  }
  return c;
}

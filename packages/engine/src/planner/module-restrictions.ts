import type { Config } from "@magma/config";
import type { SourceRange } from "@magma/hcl";
import { planError, type PlanDiagnostic } from "./plan-diagnostic.js";

/** `module.a.module.b`, Terraform's display of a module path (no instance keys). */
function modulePathText(path: readonly string[]): string {
  return path.map((n) => `module.${n}`).join(".");
}

/**
 * Terraform's configuration checks on child modules that the planner enforces
 * (`internal/configs`): a module called with `count`, `for_each` or `depends_on` — or any
 * module beneath such a call — may not configure its own providers ("Module is incompatible
 * with count, for_each, and depends_on"; a provider block with neither arguments nor a
 * version is allowed), and `import` blocks are only allowed in the root module ("Invalid
 * import configuration").
 */
export function moduleRestrictionDiagnostics(root: Config): PlanDiagnostic[] {
  const out: PlanDiagnostic[] = [];
  const visit = (cfg: Config, noProviderConfig: SourceRange | undefined): void => {
    const mod = cfg.module;
    if (cfg.path.length > 0) {
      const configured = [...mod.providerConfigs.values()].some((pc) => pc.versionConstraints.length > 0 || pc.config.content({}).diags.some((d) => d.severity === "error"));
      if (configured && noProviderConfig !== undefined) {
        out.push(
          planError(
            "Module is incompatible with count, for_each, and depends_on",
            `The module at ${modulePathText(cfg.path)} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module ${JSON.stringify(cfg.call?.sourceAddr ?? "")}, consider updating this module to instead expect provider configurations to be passed by its caller.`,
            { subject: noProviderConfig },
          ),
        );
      }
      const firstImport = mod.imports[0];
      if (firstImport !== undefined) {
        out.push(planError("Invalid import configuration", `An import block was detected in ${JSON.stringify(modulePathText(cfg.path))}. Import blocks are only allowed in the root module.`, { subject: firstImport.declRange }));
      }
    }
    for (const [name, child] of cfg.children) {
      const call = mod.moduleCalls.get(name);
      let range = noProviderConfig;
      if (call?.count !== undefined) range = call.count.range;
      else if (call?.forEach !== undefined) range = call.forEach.range;
      else if (call !== undefined && call.dependsOn.length > 0) range = call.dependsOn[0]!.range;
      visit(child, range);
    }
  };
  visit(root, undefined);
  return out;
}

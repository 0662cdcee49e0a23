import { formatRange, type Diagnostic, type SourceRange } from "@magma/hcl";
import { DEFAULT_REGISTRY_HOST } from "./provider-addr.js";
import type { Config, PassedProviderConfig, ProviderAddr } from "./model.js";

/**
 * The diagnostics of Terraform's `validateProviderConfigs` (run when a configuration is
 * loaded, before any other check; an error there ends the command), in its order: each child
 * module first (depth first), then the module itself — "Reference to undefined provider" for
 * a module call passing a configuration the calling module never declares (parent side) and
 * for one the child module never declares (child side); "Missing required provider
 * configuration", a warning for a module call passing a default configuration its (non-root)
 * module requires but neither configures nor is passed, and an error for a
 * `configuration_aliases` entry of a child module that its call does not pass; and
 * "Redundant empty provider block" for each provider local name a child module has empty
 * `provider` blocks ("proxy configurations") for.
 */
export function providerConfigDiagnostics(config: Config): Diagnostic[] {
  const diags: Diagnostic[] = [];
  visit(config, undefined, diags);
  return diags;
}

function forDisplay(p: ProviderAddr): string {
  return p.hostname === DEFAULT_REGISTRY_HOST ? `${p.namespace}/${p.type}` : `${p.hostname}/${p.namespace}/${p.type}`;
}

function refName(r: { readonly name: string; readonly alias?: string }): string {
  return r.alias === undefined ? r.name : `${r.name}.${r.alias}`;
}

function visit(cfg: Config, parentCall: Config["call"], diags: Diagnostic[]): void {
  const mod = cfg.module;
  for (const [name, child] of cfg.children) if (mod.moduleCalls.has(name)) visit(child, mod.moduleCalls.get(name), diags);

  // Provider blocks with something configured, and empty ones (only `alias`): possible proxies.
  const configured = new Set<string>();
  const emptyConfigs = new Map<string, SourceRange>();
  for (const pc of mod.providerConfigs.values()) {
    const name = refName(pc);
    if (pc.config.content({}).diags.some((d) => d.severity === "error") || pc.versionConstraints.length > 0) configured.add(name);
    else emptyConfigs.set(name, pc.declRange);
  }
  const localNames = new Map<string, ProviderAddr>();
  const configAliases = new Map<string, ProviderAddr>();
  for (const req of mod.requiredProviders.values()) {
    localNames.set(req.name, req.provider);
    for (const a of req.configurationAliases) configAliases.set(refName(a), req.provider);
  }
  const passedIn = new Map<string, PassedProviderConfig>();
  for (const p of parentCall?.providers ?? []) passedIn.set(refName(p.inChild), p);

  const isRoot = cfg.path.length === 0;
  const moduleText = isRoot ? "the root module" : cfg.path.map((p) => `module.${p}`).join(".");
  const parentModuleText = cfg.path.length <= 1 ? "the root module" : cfg.path.slice(0, -1).map((p) => `module.${p}`).join(".");

  // Module calls passing a default configuration this module does not declare, or declares
  // (not in the root) without configuring it or being passed one.
  for (const mc of mod.moduleCalls.values()) {
    for (const passed of mc.providers) {
      if (passed.inParent.alias !== undefined) continue;
      const name = passed.inParent.name;
      const def = `hashicorp/${name}`;
      if (configured.has(name) || localNames.has(name)) {
        if (!isRoot && !configured.has(name) && !passedIn.has(name)) {
          diags.push({
            severity: "warning",
            summary: "Missing required provider configuration",
            detail: `The configuration for ${moduleText} expects to inherit a configuration for provider ${def} with local name ${JSON.stringify(name)}, but ${parentModuleText} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for ${JSON.stringify(name)} to the "providers" argument in the module ${JSON.stringify(cfg.path[cfg.path.length - 1])} block.`,
            subject: parentCall!.declRange,
          });
        }
        continue;
      }
      diags.push({
        severity: "warning",
        summary: "Reference to undefined provider",
        detail: `There is no explicit declaration for local provider name ${JSON.stringify(name)} in ${moduleText}, so Terraform is assuming you mean to pass a configuration for provider ${JSON.stringify(def)}.\n\nTo clarify your intent and silence this warning, add to ${parentModuleText} a required_providers entry named ${JSON.stringify(name)} with source = ${JSON.stringify(def)}, or a different source address if appropriate.`,
        subject: passed.inParent.nameRange,
      });
    }
  }
  if (isRoot) return;

  // Configuration aliases the module requires: configured in it or passed by its call.
  for (const [name, provider] of configAliases) {
    if (configured.has(name) || passedIn.has(name)) continue;
    diags.push({
      severity: "error",
      summary: "Missing required provider configuration",
      detail: `The child module requires an additional configuration for provider ${forDisplay(provider)}, with the local name ${JSON.stringify(name)}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for ${name} in the "providers" meta-argument in the module block to choose which provider configuration the module should use for that purpose.`,
      subject: parentCall!.declRange,
    });
  }

  // Configurations passed in that this module declares neither in required_providers nor as an empty block.
  for (const [name, passed] of passedIn) {
    if (localNames.has(name) || configAliases.has(name) || emptyConfigs.has(name)) continue;
    const def = `hashicorp/${passed.inChild.name}`;
    diags.push({
      severity: "warning",
      summary: "Reference to undefined provider",
      detail: `There is no explicit declaration for local provider name ${JSON.stringify(name)} in ${moduleText}, so Terraform is assuming you mean to pass a configuration for ${JSON.stringify(def)}.\n\nIf you also control the child module, add a required_providers entry named ${JSON.stringify(name)} with the source address ${JSON.stringify(def)}.`,
      subject: passed.inChild.nameRange,
    });
  }

  // Empty provider blocks: one warning per local name, showing the required_providers entry that replaces them.
  const byName = new Map<string, { source: ProviderAddr; ranges: SourceRange[]; configs: string[]; aliases: number }>();
  for (const [name, range] of emptyConfigs) {
    const local = name.includes(".") ? name.slice(0, name.indexOf(".")) : name;
    let s = byName.get(local);
    if (s === undefined) {
      s = { source: localNames.get(name) ?? { hostname: DEFAULT_REGISTRY_HOST, namespace: "hashicorp", type: local }, ranges: [], configs: [], aliases: 0 };
      byName.set(local, s);
    }
    if (local !== name) s.aliases++;
    s.configs.push(name);
    s.ranges.push(range);
  }
  for (const [name, s] of byName) {
    let detail = `Earlier versions of Terraform used empty provider blocks ("proxy provider configurations") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider ${JSON.stringify(name)} blocks and then adding or updating an entry like the following to the required_providers block of ${moduleText}:\n`;
    detail += `    ${name} = {\n      source = ${JSON.stringify(forDisplay(s.source))}\n`;
    if (s.aliases > 0) {
      detail += "      configuration_aliases = [\n";
      for (const c of [...s.configs].sort()) detail += `        ${c},\n`;
      detail += "      ]\n";
    }
    detail += "    }";
    const first = [...s.ranges].sort((a, b) => (formatRange(a) < formatRange(b) ? -1 : formatRange(a) > formatRange(b) ? 1 : 0))[0]!;
    diags.push({ severity: "warning", summary: "Redundant empty provider block", detail, subject: first });
  }
}

import { bodyContent } from "./hcl-fixups.js";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { decodeSource, parseConfig, type Block, type Body, type Diagnostic } from "@magma/hcl";
import { at, errorDiag } from "./diagnostics.js";
import { decodeCheckBlock, decodeImportBlock, decodeLocalsBlock, decodeModuleBlock, decodeMovedBlock, decodeOutputBlock, decodeProviderBlock, decodeRemovedBlock, decodeVariableBlock } from "./decode-blocks.js";
import { decodeResourceBlock } from "./decode-resource.js";
import { checkBackendSupported, decodeTerraformBlock, type TerraformBlock } from "./decode-terraform.js";
import { jsonSniffDiagnostics } from "./json-sniff-diagnostics.js";
import { MergedBody } from "./merged-body.js";
import type { Backend, Check, Import, Local, Module, ModuleCall, Moved, Output, ProviderConfig, ProviderMeta, Removed, RequiredProvider, Resource, Variable } from "./model.js";
import { impliedProvider, resourceTypeProviderName } from "./provider-addr.js";

const FILE_SCHEMA = {
  blocks: [
    { type: "terraform" },
    { type: "required_providers" },
    { type: "provider", labelNames: ["name"] },
    { type: "variable", labelNames: ["name"] },
    { type: "locals" },
    { type: "output", labelNames: ["name"] },
    { type: "module", labelNames: ["name"] },
    { type: "resource", labelNames: ["type", "name"] },
    { type: "data", labelNames: ["type", "name"] },
    { type: "ephemeral", labelNames: ["type", "name"] },
    { type: "moved" },
    { type: "import" },
    { type: "removed" },
    { type: "check", labelNames: ["name"] },
  ],
} as const;

type Decl<T> = T & { readonly set?: ReadonlySet<string> };

/** One file's declarations (Terraform's `configs.File`). @internal */
interface FileContent {
  readonly filename: string;
  readonly terraform: TerraformBlock[];
  readonly providers: ProviderConfig[];
  readonly variables: Decl<Variable>[];
  readonly locals: Local[];
  readonly outputs: Decl<Output>[];
  readonly modules: ModuleCall[];
  readonly managed: Resource[];
  readonly data: Resource[];
  readonly ephemeral: Resource[];
  readonly moved: { value: Moved; range: Block["typeRange"] }[];
  readonly imports: { value: Import; range: Block["typeRange"] }[];
  readonly removed: { value: Removed; range: Block["typeRange"] }[];
  readonly checks: { value: Check; range: Block["typeRange"] }[];
}

/** Whether a file name is an override file (`override.tf`, `x_override.tf.json`). */
export function isOverrideFile(name: string): boolean {
  const base = name.replace(/\.tf\.json$|\.tf$/, "");
  return base === "override" || base.endsWith("_override");
}

/**
 * The configuration files of a module directory, as Terraform picks them: `*.tf` and
 * `*.tf.json`, not hidden or editor backup files, primaries and overrides each in name order.
 */
export function moduleFiles(dir: string): { primary: string[]; override: string[] } {
  const primary: string[] = [];
  const override: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!(name.endsWith(".tf") || name.endsWith(".tf.json"))) continue;
    if (name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"))) continue;
    const full = join(dir, name);
    if (!statSync(full).isFile()) continue;
    (isOverrideFile(name) ? override : primary).push(full);
  }
  return { primary, override };
}

/** Parses and decodes one configuration file. @internal */
export function decodeFile(filename: string, text: string, override: boolean, diags: Diagnostic[]): FileContent {
  const parsed = parseConfig(text, filename);
  diags.push(...parsed.diags);
  return decodeFileBody(filename, parsed.body, override, diags);
}

function decodeFileBody(filename: string, body: Body, override: boolean, diags: Diagnostic[]): FileContent {
  const f: FileContent = {
    filename,
    terraform: [],
    providers: [],
    variables: [],
    locals: [],
    outputs: [],
    modules: [],
    managed: [],
    data: [],
    ephemeral: [],
    moved: [],
    imports: [],
    removed: [],
    checks: [],
  };
  diags.push(...jsonSniffDiagnostics(body));
  const { content, diags: d } = bodyContent(body, FILE_SCHEMA);
  diags.push(...d);
  for (const b of content.blocks) {
    switch (b.type) {
      case "terraform":
        f.terraform.push(decodeTerraformBlock(b, diags));
        break;
      case "required_providers":
        diags.push(
          errorDiag(
            "Invalid required_providers block",
            "A \"required_providers\" block must be nested inside a \"terraform\" block.",
            b.typeRange,
          ),
        );
        break;
      case "provider":
        f.providers.push(decodeProviderBlock(b, diags));
        break;
      case "variable":
        f.variables.push(decodeVariableBlock(b, override, diags));
        break;
      case "locals":
        f.locals.push(...decodeLocalsBlock(b, diags));
        break;
      case "output":
        f.outputs.push(decodeOutputBlock(b, override, diags));
        break;
      case "module":
        f.modules.push(decodeModuleBlock(b, override, diags));
        break;
      case "resource":
        f.managed.push(decodeResourceBlock(b, "managed", diags));
        break;
      case "data":
        f.data.push(decodeResourceBlock(b, "data", diags));
        break;
      case "ephemeral":
        f.ephemeral.push(decodeResourceBlock(b, "ephemeral", diags));
        break;
      case "moved": {
        const m = decodeMovedBlock(b, diags);
        if (m !== undefined) f.moved.push({ value: m, range: b.typeRange });
        break;
      }
      case "import": {
        const m = decodeImportBlock(b, diags);
        if (m !== undefined) f.imports.push({ value: m, range: b.typeRange });
        break;
      }
      case "removed": {
        const m = decodeRemovedBlock(b, diags);
        if (m !== undefined) f.removed.push({ value: m, range: b.typeRange });
        break;
      }
      case "check":
        f.checks.push({ value: decodeCheckBlock(b, diags), range: b.typeRange });
        break;
      default:
        break;
    }
  }
  return f;
}

class ModuleBuilder {
  coreVersionConstraints: Module["coreVersionConstraints"][number][] = [];
  requiredProviders = new Map<string, RequiredProvider>();
  requiredProvidersBlock: RequiredProvider["declRange"] | undefined;
  providerMetas = new Map<string, ProviderMeta>();
  backend: Backend | undefined;
  providerConfigs = new Map<string, ProviderConfig>();
  variables = new Map<string, Variable>();
  locals = new Map<string, Local>();
  outputs = new Map<string, Output>();
  moduleCalls = new Map<string, ModuleCall>();
  managedResources = new Map<string, Resource>();
  dataResources = new Map<string, Resource>();
  ephemeralResources = new Map<string, Resource>();
  moved: Moved[] = [];
  imports: Import[] = [];
  removed: Removed[] = [];
  checks = new Map<string, Check>();

  readonly sourceDir: string;

  constructor(sourceDir: string) {
    this.sourceDir = sourceDir;
  }

  appendFile(f: FileContent, diags: Diagnostic[]): void {
    for (const t of f.terraform) {
      this.coreVersionConstraints.push(...t.requiredVersion);
      for (const b of t.backends) {
        if (this.backend !== undefined) {
          diags.push(
            errorDiag("Duplicate backend configuration", `A module may have only one backend configuration. The backend was previously configured at ${at(this.backend.declRange)}.`, b.declRange),
          );
          continue;
        }
        this.backend = b;
      }
      const rpRange = t.requiredProvidersRanges[0];
      if (rpRange !== undefined && this.requiredProvidersBlock !== undefined) {
        diags.push(
          errorDiag(
            "Duplicate required providers configuration",
            `A module may have only one required providers configuration. The required providers were previously configured at ${at(this.requiredProvidersBlock)}.`,
            rpRange,
          ),
        );
      }
      const takeProviders = rpRange === undefined || this.requiredProvidersBlock === undefined;
      if (rpRange !== undefined && this.requiredProvidersBlock === undefined) this.requiredProvidersBlock = rpRange;
      for (const rp of takeProviders ? t.requiredProviders : []) {
        const prev = this.requiredProviders.get(rp.name);
        if (prev !== undefined) {
          diags.push(
            errorDiag(
              "Duplicate required provider",
              `Provider ${rp.name} with the local name ${JSON.stringify(rp.name)} was previously required at ${at(prev.declRange)}. A provider can only be required once within required_providers.`,
              rp.declRange,
            ),
          );
          continue;
        }
        this.requiredProviders.set(rp.name, rp);
      }
      for (const pm of t.providerMetas) {
        const prev = this.providerMetas.get(pm.provider);
        if (prev !== undefined) {
          diags.push(errorDiag("Duplicate provider_meta block", `A provider_meta block for provider ${JSON.stringify(pm.provider)} was already declared at ${at(prev.declRange)}. Providers may only have one provider_meta block per module.`, pm.declRange));
          continue;
        }
        this.providerMetas.set(pm.provider, pm);
      }
    }
    for (const p of f.providers) {
      const key = p.alias === undefined ? p.name : `${p.name}.${p.alias}`;
      const prev = this.providerConfigs.get(key);
      if (prev !== undefined) {
        diags.push(
          errorDiag(
            "Duplicate provider configuration",
            p.alias === undefined
              ? `A default (non-aliased) provider configuration for ${JSON.stringify(p.name)} was already given at ${at(prev.declRange)}. If multiple configurations are required, set the "alias" argument for alternative configurations.`
              : `A provider configuration for ${JSON.stringify(p.name)} with alias ${JSON.stringify(p.alias)} was already given at ${at(prev.declRange)}. Each configuration for the same provider must have a distinct alias.`,
            p.declRange,
          ),
        );
        continue;
      }
      this.providerConfigs.set(key, p);
    }
    for (const v of f.variables) {
      const prev = this.variables.get(v.name);
      if (prev !== undefined) {
        diags.push(
          errorDiag("Duplicate variable declaration", `A variable named ${JSON.stringify(v.name)} was already declared at ${at(prev.declRange)}. Variable names must be unique within a module.`, v.declRange),
        );
        continue;
      }
      this.variables.set(v.name, stripSet(v));
    }
    for (const l of f.locals) {
      const prev = this.locals.get(l.name);
      if (prev !== undefined) {
        diags.push(
          errorDiag(
            "Duplicate local value definition",
            `A local value named ${JSON.stringify(l.name)} was already defined at ${at(prev.declRange)}. Local value names must be unique within a module.`,
            l.declRange,
          ),
        );
        continue;
      }
      this.locals.set(l.name, l);
    }
    for (const o of f.outputs) {
      const prev = this.outputs.get(o.name);
      if (prev !== undefined) {
        diags.push(
          errorDiag("Duplicate output definition", `An output named ${JSON.stringify(o.name)} was already defined at ${at(prev.declRange)}. Output names must be unique within a module.`, o.declRange),
        );
        continue;
      }
      this.outputs.set(o.name, stripSet(o));
    }
    for (const m of f.modules) {
      const prev = this.moduleCalls.get(m.name);
      if (prev !== undefined) {
        diags.push(
          errorDiag("Duplicate module call", `A module call named ${JSON.stringify(m.name)} was already defined at ${at(prev.declRange)}. Module calls must have unique names within a module.`, m.declRange),
        );
        continue;
      }
      this.moduleCalls.set(m.name, m);
    }
    for (const r of f.managed) this.addResource(this.managedResources, `${r.type}.${r.name}`, r, diags);
    for (const r of f.data) this.addResource(this.dataResources, `data.${r.type}.${r.name}`, r, diags);
    for (const r of f.ephemeral) this.addResource(this.ephemeralResources, `ephemeral.${r.type}.${r.name}`, r, diags);
    for (const c of f.checks) {
      const prev = this.checks.get(c.value.name);
      if (prev !== undefined) {
        diags.push(
          errorDiag(`Duplicate check ${JSON.stringify(c.value.name)} configuration`, `A check block named ${JSON.stringify(c.value.name)} was already declared at ${at(prev.declRange)}. Check blocks must be unique within each module.`, c.value.declRange),
        );
        continue;
      }
      this.checks.set(c.value.name, c.value);
      if (c.value.dataResource !== undefined) {
        const r = c.value.dataResource;
        this.addResource(this.dataResources, `data.${r.type}.${r.name}`, r, diags);
      }
    }
    this.moved.push(...f.moved.map((m) => m.value));
    this.imports.push(...f.imports.map((m) => m.value));
    this.removed.push(...f.removed.map((m) => m.value));
  }

  private addResource(into: Map<string, Resource>, key: string, r: Resource, diags: Diagnostic[]): void {
    const prev = into.get(key);
    if (prev !== undefined) {
      const kind = r.mode === "managed" ? "resource" : r.mode;
      diags.push(
        errorDiag(
          `Duplicate ${kind} ${JSON.stringify(r.type)} configuration`,
          `A ${r.type} ${r.mode === "managed" ? "resource" : r.mode === "data" ? "data resource" : "ephemeral resource"} named ${JSON.stringify(r.name)} was already declared at ${at(prev.declRange)}. Resource names must be unique per type in each module.`,
          r.declRange,
        ),
      );
      return;
    }
    into.set(key, r);
  }

  mergeFile(f: FileContent, diags: Diagnostic[]): void {
    for (const t of f.terraform) {
      if (t.requiredVersion.length > 0) this.coreVersionConstraints = [...t.requiredVersion];
      for (const b of t.backends) this.backend = b;
      const rpRange = t.requiredProvidersRanges[0];
      if (rpRange !== undefined && this.requiredProvidersBlock !== undefined) {
        diags.push(
          errorDiag(
            "Duplicate required providers configuration",
            `A module may have only one required providers configuration. The required providers were previously configured at ${at(this.requiredProvidersBlock)}.`,
            rpRange,
          ),
        );
      }
      const takeProviders = rpRange === undefined || this.requiredProvidersBlock === undefined;
      if (rpRange !== undefined && this.requiredProvidersBlock === undefined) this.requiredProvidersBlock = rpRange;
      for (const rp of takeProviders ? t.requiredProviders : []) {
        const prev = this.requiredProviders.get(rp.name);
        if (prev === undefined) this.requiredProviders.set(rp.name, rp);
        else
          this.requiredProviders.set(rp.name, {
            ...prev,
            ...(rp.source !== undefined ? { source: rp.source, provider: rp.provider } : {}),
            versionConstraints: rp.versionConstraints.length > 0 ? rp.versionConstraints : prev.versionConstraints,
          });
      }
    }
    for (const p of f.providers) {
      const key = p.alias === undefined ? p.name : `${p.name}.${p.alias}`;
      const prev = this.providerConfigs.get(key);
      if (prev === undefined) {
        diags.push(
          errorDiag(
            "Missing base provider configuration for override",
            p.alias === undefined
              ? `There is no ${p.name} provider configuration. An override file can only override a provider configuration that was already defined in a primary configuration file.`
              : `There is no ${p.name} provider configuration with the alias ${JSON.stringify(p.alias)}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.`,
            p.declRange,
          ),
        );
        continue;
      }
      this.providerConfigs.set(key, { ...prev, config: new MergedBody(prev.config, p.config), ...(p.versionConstraints.length > 0 ? { versionConstraints: p.versionConstraints } : {}) });
    }
    for (const v of f.variables) {
      const prev = this.variables.get(v.name);
      if (prev === undefined) {
        diags.push(
          errorDiag(
            "Missing base variable declaration to override",
            `There is no variable named ${JSON.stringify(v.name)}. An override file can only override a variable that was already declared in a primary configuration file.`,
            v.declRange,
          ),
        );
        continue;
      }
      const set = v.set ?? new Set<string>();
      const merged: Variable = {
        ...prev,
        ...(set.has("description") && v.description !== undefined ? { description: v.description } : {}),
        ...(set.has("type") ? { type: v.type, typeSet: true, ...(v.typeDefaults !== undefined ? { typeDefaults: v.typeDefaults } : {}) } : {}),
        ...(set.has("sensitive") ? { sensitive: v.sensitive } : {}),
        ...(set.has("nullable") ? { nullable: v.nullable } : {}),
        ...(set.has("ephemeral") ? { ephemeral: v.ephemeral } : {}),
        ...(v.validations.length > 0 ? { validations: v.validations } : {}),
      };
      let def = set.has("default") ? v.default : prev.default;
      if (def !== undefined && set.has("type") && !set.has("default")) def = prev.default;
      const { default: _drop, ...rest } = merged;
      void _drop;
      this.variables.set(v.name, def !== undefined ? { ...rest, default: def } : rest);
    }
    for (const l of f.locals) {
      const prev = this.locals.get(l.name);
      if (prev === undefined) {
        diags.push(
          errorDiag(
            "Missing base local value definition to override",
            `There is no local value named ${JSON.stringify(l.name)}. An override file can only override a local value that was already defined in a primary configuration file.`,
            l.declRange,
          ),
        );
        continue;
      }
      this.locals.set(l.name, l);
    }
    for (const o of f.outputs) {
      const prev = this.outputs.get(o.name);
      if (prev === undefined) {
        diags.push(
          errorDiag(
            "Missing base output definition to override",
            `There is no output named ${JSON.stringify(o.name)}. An override file can only override an output that was already defined in a primary configuration file.`,
            o.declRange,
          ),
        );
        continue;
      }
      const set = o.set ?? new Set<string>();
      this.outputs.set(o.name, {
        ...prev,
        ...(set.has("value") ? { expr: o.expr } : {}),
        ...(set.has("description") && o.description !== undefined ? { description: o.description } : {}),
        ...(set.has("sensitive") ? { sensitive: o.sensitive } : {}),
        ...(set.has("ephemeral") ? { ephemeral: o.ephemeral } : {}),
        ...(set.has("depends_on") ? { dependsOn: o.dependsOn } : {}),
        ...(o.preconditions.length > 0 ? { preconditions: o.preconditions } : {}),
      });
    }
    for (const m of f.modules) {
      const prev = this.moduleCalls.get(m.name);
      if (prev === undefined) {
        diags.push(
          errorDiag(
            "Missing module call to override",
            `There is no module call named ${JSON.stringify(m.name)}. An override file can only override a module call that was defined in a primary configuration file.`,
            m.declRange,
          ),
        );
        continue;
      }
      this.moduleCalls.set(m.name, {
        ...prev,
        ...(m.sourceAddr !== "" ? { sourceAddr: m.sourceAddr, sourceAddrRange: m.sourceAddrRange } : {}),
        ...(m.versionConstraints.length > 0 ? { versionConstraints: m.versionConstraints } : {}),
        ...(m.count !== undefined ? { count: m.count } : {}),
        ...(m.forEach !== undefined ? { forEach: m.forEach } : {}),
        ...(m.providers.length > 0 ? { providers: m.providers } : {}),
        ...(m.dependsOn.length > 0 ? { dependsOn: m.dependsOn } : {}),
        config: new MergedBody(prev.config, m.config),
      });
    }
    const mergeRes = (into: Map<string, Resource>, key: string, r: Resource, summary: string, detail: string): void => {
      const prev = into.get(key);
      if (prev === undefined) {
        diags.push(errorDiag(summary, detail, r.declRange));
        return;
      }
      into.set(key, {
        ...prev,
        config: new MergedBody(prev.config, r.config),
        ...(r.count !== undefined ? { count: r.count } : {}),
        ...(r.forEach !== undefined ? { forEach: r.forEach } : {}),
        ...(r.providerConfigRef !== undefined ? { providerConfigRef: r.providerConfigRef, provider: r.provider } : {}),
        ...(r.dependsOn.length > 0 ? { dependsOn: r.dependsOn } : {}),
        ...(r.preconditions.length > 0 ? { preconditions: r.preconditions } : {}),
        ...(r.postconditions.length > 0 ? { postconditions: r.postconditions } : {}),
        ...(r.managed !== undefined && prev.managed !== undefined ? { managed: mergeManaged(prev.managed, r.managed) } : {}),
      });
    };
    for (const r of f.managed) {
      mergeRes(
        this.managedResources,
        `${r.type}.${r.name}`,
        r,
        "Missing resource to override",
        `There is no ${r.type} resource named ${JSON.stringify(r.name)}. An override file can only override a resource block defined in a primary configuration file.`,
      );
    }
    for (const r of f.data) {
      mergeRes(
        this.dataResources,
        `data.${r.type}.${r.name}`,
        r,
        "Missing data resource to override",
        `There is no ${r.type} data resource named ${JSON.stringify(r.name)}. An override file can only override a data block defined in a primary configuration file.`,
      );
    }
    const refuse = (items: { range: Block["typeRange"] }[], kind: string, what: string): void => {
      for (const it of items) diags.push(errorDiag(`Cannot override '${kind}' blocks`, `${what} can appear only in normal files, not in override files.`, it.range));
    };
    refuse(f.moved, "moved", "Records of moved objects");
    refuse(f.imports, "import", "Import blocks");
    refuse(f.removed, "removed", "Removed blocks");
    refuse(f.checks, "check", "Check blocks");
  }

  build(): Module {
    const resolve = (r: Resource): Resource => {
      const local = r.providerConfigRef?.name ?? resourceTypeProviderName(r.type);
      const rp = this.requiredProviders.get(local);
      return { ...r, provider: rp?.provider ?? impliedProvider(local) };
    };
    const resolveAll = (m: Map<string, Resource>): Map<string, Resource> => new Map([...m].map(([k, r]) => [k, resolve(r)]));
    const checks = new Map([...this.checks].map(([k, c]) => [k, c.dataResource !== undefined ? { ...c, dataResource: resolve(c.dataResource) } : c]));
    return {
      sourceDir: this.sourceDir,
      coreVersionConstraints: this.coreVersionConstraints,
      requiredProviders: this.requiredProviders,
      providerMetas: this.providerMetas,
      ...(this.backend !== undefined ? { backend: this.backend } : {}),
      providerConfigs: this.providerConfigs,
      variables: this.variables,
      locals: this.locals,
      outputs: this.outputs,
      moduleCalls: this.moduleCalls,
      managedResources: resolveAll(this.managedResources),
      dataResources: resolveAll(this.dataResources),
      ephemeralResources: resolveAll(this.ephemeralResources),
      moved: this.moved,
      imports: this.imports,
      removed: this.removed,
      checks,
    };
  }
}

function stripSet<T extends { readonly set?: ReadonlySet<string> }>(v: T): Omit<T, "set"> {
  const { set: _s, ...rest } = v;
  void _s;
  return rest;
}

function mergeManaged(base: NonNullable<Resource["managed"]>, o: NonNullable<Resource["managed"]>): NonNullable<Resource["managed"]> {
  return {
    createBeforeDestroy: o.createBeforeDestroySet ? o.createBeforeDestroy : base.createBeforeDestroy,
    createBeforeDestroySet: base.createBeforeDestroySet || o.createBeforeDestroySet,
    preventDestroy: o.preventDestroy || base.preventDestroy,
    ignoreChanges: o.ignoreChanges.length > 0 ? o.ignoreChanges : base.ignoreChanges,
    ignoreAllChanges: o.ignoreAllChanges || base.ignoreAllChanges,
    replaceTriggeredBy: o.replaceTriggeredBy.length > 0 ? o.replaceTriggeredBy : base.replaceTriggeredBy,
  };
}

/** The files of a module, given as text (for tests and generated configurations). */
export interface ModuleSource {
  /** File name (with directory, as diagnostics should show it) → contents. */
  readonly files: ReadonlyMap<string, string>;
}

/**
 * Builds a module from file contents: primary files in the given order, then override
 * files merged over them (Terraform's `NewModule` + `mergeFile`). `dir` is recorded as
 * the module's source directory.
 */
export function loadModuleFromFiles(dir: string, files: ReadonlyMap<string, string>): { module: Module; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const b = new ModuleBuilder(dir);
  const names = [...files.keys()];
  const base = (n: string): string => n.slice(n.lastIndexOf("/") + 1);
  for (const n of names.filter((x) => !isOverrideFile(base(x)))) b.appendFile(decodeFile(n, files.get(n)!, false, diags), diags);
  for (const n of names.filter((x) => isOverrideFile(base(x)))) b.mergeFile(decodeFile(n, files.get(n)!, true, diags), diags);
  const module = b.build();
  if (module.backend !== undefined) checkBackendSupported(module.backend, diags);
  return { module, diags };
}

/**
 * Loads one module directory (Terraform's `Parser.LoadConfigDir`): every `*.tf` and
 * `*.tf.json`, overrides merged last. File names in diagnostics are relative to `cwd`
 * when given (Terraform prints them relative to the working directory). `onFiles` is told
 * the files read (by the names diagnostics give them) before they are parsed.
 */
export function loadModule(dir: string, options: { readonly displayDir?: string; readonly onFiles?: (files: ReadonlyMap<string, string>) => void } = {}): { module: Module; diags: Diagnostic[] } {
  const { primary, override } = moduleFiles(dir);
  const files = new Map<string, string>();
  const display = options.displayDir;
  const shown = (full: string): string => (display === undefined ? full : join(display, full.slice(full.lastIndexOf("/") + 1)));
  // Native files keep bytes that are not UTF-8 visible to the lexer ("Invalid character
  // encoding", as terraform); JSON files read them as U+FFFD, as terraform's JSON parser does.
  for (const f of [...primary, ...override]) files.set(shown(f), f.endsWith(".json") ? readFileSync(f, "utf8") : decodeSource(readFileSync(f)));
  options.onFiles?.(files);
  return loadModuleFromFiles(dir, files);
}

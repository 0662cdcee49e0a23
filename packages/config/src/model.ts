import type { Type, Value } from "@magma/cty";
import type { Body, Expression, SourceRange, Traversal } from "@magma/hcl";
import type { TypeDefaults } from "./type-expr.js";
import type { VersionConstraint } from "./version-constraint.js";

/** A provider's source address: `registry.terraform.io/hashicorp/aws` (Terraform's `addrs.Provider`). */
export interface ProviderAddr {
  readonly hostname: string;
  readonly namespace: string;
  readonly type: string;
}

/** A `required_providers` entry: the local name, its source and its version constraints. */
export interface RequiredProvider {
  /** The local name (`aws`), as the module refers to the provider. */
  readonly name: string;
  /** The source address; implied `hashicorp/<name>` when the entry gives none. */
  readonly provider: ProviderAddr;
  /** The `source` string as written, when given. */
  readonly source?: string;
  /** The `version` constraints (empty when none). */
  readonly versionConstraints: readonly VersionConstraint[];
  /** `configuration_aliases`: aliases the module expects its caller to pass. */
  readonly configurationAliases: readonly ProviderConfigRef[];
  readonly declRange: SourceRange;
}

/** A reference to a provider configuration: `aws` or `aws.west` (Terraform's `ProviderConfigRef`). */
export interface ProviderConfigRef {
  readonly name: string;
  readonly alias?: string;
  readonly nameRange: SourceRange;
  readonly aliasRange?: SourceRange;
}

/** The `backend` block of the `terraform` block. */
export interface Backend {
  /** `local`, `pg`, … */
  readonly type: string;
  /** The block's body, decoded by the backend's own schema. */
  readonly config: Body;
  readonly typeRange: SourceRange;
  readonly declRange: SourceRange;
}

/** A `provider` block. */
export interface ProviderConfig {
  /** The local name (`aws`). */
  readonly name: string;
  readonly nameRange: SourceRange;
  readonly alias?: string;
  readonly aliasRange?: SourceRange;
  /** The `version` argument (deprecated in Terraform, still accepted). */
  readonly versionConstraints: readonly VersionConstraint[];
  /** The body without the meta-arguments, for decoding with the provider's schema. */
  readonly config: Body;
  readonly declRange: SourceRange;
}

/** A `condition`/`error_message` pair: `validation`, `precondition`, `postcondition`, `assert`. */
export interface CheckRule {
  readonly condition: Expression;
  readonly errorMessage: Expression;
  readonly declRange: SourceRange;
}

/** A `variable` block. */
export interface Variable {
  readonly name: string;
  readonly description?: string;
  /** The default, already converted to the type constraint; `undefined` when required. */
  readonly default?: Value;
  /** The type constraint (`dynamicType` for `any` or none). */
  readonly type: Type;
  /** Whether a `type` argument was given. */
  readonly typeSet: boolean;
  /** Defaults of `optional(T, default)` attributes. */
  readonly typeDefaults?: TypeDefaults;
  readonly sensitive: boolean;
  readonly ephemeral: boolean;
  /** `nullable` (default true). */
  readonly nullable: boolean;
  readonly validations: readonly CheckRule[];
  readonly declRange: SourceRange;
}

/** A local value (one attribute of a `locals` block). */
export interface Local {
  readonly name: string;
  readonly expr: Expression;
  readonly declRange: SourceRange;
}

/** An `output` block. */
export interface Output {
  readonly name: string;
  readonly description?: string;
  readonly expr: Expression;
  readonly sensitive: boolean;
  readonly ephemeral: boolean;
  readonly dependsOn: readonly Traversal[];
  readonly preconditions: readonly CheckRule[];
  readonly declRange: SourceRange;
}

/** The `lifecycle` settings of a managed resource. */
export interface ManagedResourceSettings {
  readonly createBeforeDestroy: boolean;
  /** Whether `create_before_destroy` was written (it propagates to dependencies only when not). */
  readonly createBeforeDestroySet: boolean;
  readonly preventDestroy: boolean;
  /** `ignore_changes` paths, relative to the resource (`tags["Name"]` is root `tags`). */
  readonly ignoreChanges: readonly Traversal[];
  /** `ignore_changes = all`. */
  readonly ignoreAllChanges: boolean;
  /** `replace_triggered_by` expressions (references to resources, optionally with attributes). */
  readonly replaceTriggeredBy: readonly Expression[];
}

/** A `resource`, `data` or `ephemeral` block. */
export interface Resource {
  readonly mode: "managed" | "data" | "ephemeral";
  readonly type: string;
  readonly name: string;
  /** The body without meta-arguments: decode it with the provider's schema ({@link decodeSchemaBody}). */
  readonly config: Body;
  readonly count?: Expression;
  readonly forEach?: Expression;
  /** The `provider` argument, when given. */
  readonly providerConfigRef?: ProviderConfigRef;
  /** The provider this resource belongs to (from `provider`, or implied by the type's prefix). */
  readonly provider: ProviderAddr;
  readonly dependsOn: readonly Traversal[];
  readonly preconditions: readonly CheckRule[];
  readonly postconditions: readonly CheckRule[];
  /** Lifecycle settings of a managed resource (`undefined` for data sources). */
  readonly managed?: ManagedResourceSettings;
  /** A data source nested in a `check` block (scoped). */
  readonly inCheck?: string;
  readonly typeRange: SourceRange;
  readonly declRange: SourceRange;
}

/** One entry of a `providers` map in a module call: `aws.west = aws.east`. */
export interface PassedProviderConfig {
  readonly inChild: ProviderConfigRef;
  readonly inParent: ProviderConfigRef;
}

/** A `module` block. */
export interface ModuleCall {
  readonly name: string;
  /** `source` as written. */
  readonly sourceAddr: string;
  readonly sourceAddrRange: SourceRange;
  /** `version` constraints (registry sources). */
  readonly versionConstraints: readonly VersionConstraint[];
  /** The body without meta-arguments: the module's input variables. */
  readonly config: Body;
  readonly count?: Expression;
  readonly forEach?: Expression;
  readonly providers: readonly PassedProviderConfig[];
  readonly dependsOn: readonly Traversal[];
  readonly declRange: SourceRange;
}

/** A `moved` block. */
export interface Moved {
  readonly from: Traversal;
  readonly to: Traversal;
  readonly declRange: SourceRange;
}

/** An `import` block. */
export interface Import {
  /** The target resource address, a reference (may use `each` with `for_each`). */
  readonly to: Expression;
  readonly toRange: SourceRange;
  readonly id?: Expression;
  readonly identity?: Expression;
  readonly forEach?: Expression;
  readonly providerConfigRef?: ProviderConfigRef;
  readonly declRange: SourceRange;
}

/** A `removed` block. */
export interface Removed {
  readonly from: Traversal;
  /** `lifecycle { destroy = … }` (default true). */
  readonly destroy: boolean;
  readonly declRange: SourceRange;
}

/** A `check` block. */
export interface Check {
  readonly name: string;
  readonly dataResource?: Resource;
  readonly asserts: readonly CheckRule[];
  readonly declRange: SourceRange;
}

/** A `provider_meta` block of the `terraform` block. */
export interface ProviderMeta {
  readonly provider: string;
  readonly config: Body;
  readonly declRange: SourceRange;
}

/**
 * One module: everything declared in one directory's files, merged (Terraform's
 * `configs.Module`). Maps are keyed as Terraform keys them: resources by `type.name`,
 * data sources by `data.type.name`, provider configurations by `name` or `name.alias`.
 */
export interface Module {
  /** The directory the module was loaded from. */
  readonly sourceDir: string;
  /** `required_version` constraints from every `terraform` block. */
  readonly coreVersionConstraints: readonly VersionConstraint[];
  readonly requiredProviders: ReadonlyMap<string, RequiredProvider>;
  readonly providerMetas: ReadonlyMap<string, ProviderMeta>;
  readonly backend?: Backend;
  readonly providerConfigs: ReadonlyMap<string, ProviderConfig>;
  readonly variables: ReadonlyMap<string, Variable>;
  readonly locals: ReadonlyMap<string, Local>;
  readonly outputs: ReadonlyMap<string, Output>;
  readonly moduleCalls: ReadonlyMap<string, ModuleCall>;
  readonly managedResources: ReadonlyMap<string, Resource>;
  readonly dataResources: ReadonlyMap<string, Resource>;
  readonly ephemeralResources: ReadonlyMap<string, Resource>;
  readonly moved: readonly Moved[];
  readonly imports: readonly Import[];
  readonly removed: readonly Removed[];
  readonly checks: ReadonlyMap<string, Check>;
}

/** A module and the modules it calls: the whole configuration (Terraform's `configs.Config`). */
export interface Config {
  readonly module: Module;
  /** The module path from the root (`[]` for the root, `["net", "subnets"]` below). */
  readonly path: readonly string[];
  readonly children: ReadonlyMap<string, Config>;
  /** The call that loaded this module (undefined for the root). */
  readonly call?: ModuleCall;
}


import { StateError } from "../state-error.js";
import { takeModulePrefix } from "./module-address.js";
import { parseTraversal } from "./traversal.js";

/** A provider's fully-qualified source address: `registry.terraform.io/hashicorp/aws`. */
export interface ProviderSource {
  /** The registry host, `registry.terraform.io` by default. */
  readonly hostname: string;
  /** The namespace (`hashicorp` by default; `-` for legacy and `builtin` for terraform's own). */
  readonly namespace: string;
  /** The provider type, e.g. `aws`. */
  readonly type: string;
}

/** The absolute address of a provider configuration: `module.m.provider["…/aws"].west`. */
export interface ProviderConfigAddress {
  /** The module (names only: provider configurations are never inside module instances). */
  readonly module: readonly string[];
  /** The provider. */
  readonly provider: ProviderSource;
  /** The configuration's alias, or undefined for the default configuration. */
  readonly alias: string | undefined;
}

/** The default registry host of provider source addresses. */
export const DEFAULT_PROVIDER_HOST = "registry.terraform.io";

const PART = /^[0-9a-z](?:[0-9a-z-]*[0-9a-z])?$/;
const HOST = /^[0-9a-z](?:[0-9a-z.-]*[0-9a-z])?(?::[0-9]+)?$/;

function badSource(text: string, why: string): never {
  throw new StateError("invalid_address", `invalid provider source ${JSON.stringify(text)}: ${why}`);
}

/**
 * Parses a provider source string (`aws`, `hashicorp/aws`, `example.com/ns/aws`) as
 * Terraform's `ParseProviderSourceString` does: parts are case-folded to lower case and the
 * host defaults to `registry.terraform.io`, the namespace to `hashicorp`.
 *
 * @throws StateError `invalid_address`.
 */
export function parseProviderSource(text: string): ProviderSource {
  const parts = text.split("/");
  if (parts.length < 1 || parts.length > 3) badSource(text, 'expected the form "[hostname/]namespace/type"');
  const lower = parts.map((p) => p.toLowerCase());
  const type = lower[lower.length - 1]!;
  const namespace = lower.length >= 2 ? lower[lower.length - 2]! : "hashicorp";
  const hostname = lower.length === 3 ? lower[0]! : DEFAULT_PROVIDER_HOST;
  if (!PART.test(type)) badSource(text, `invalid provider type ${JSON.stringify(parts[parts.length - 1])}: only letters, digits and inner dashes are allowed`);
  if (type.startsWith("terraform-provider-")) badSource(text, 'the provider type must not include the "terraform-provider-" prefix');
  if (namespace !== "-" && !PART.test(namespace)) badSource(text, `invalid namespace ${JSON.stringify(namespace)}`);
  if (namespace === "-" && hostname !== DEFAULT_PROVIDER_HOST) badSource(text, "the legacy namespace \"-\" is only valid on the default registry");
  if (!HOST.test(hostname)) badSource(text, `invalid hostname ${JSON.stringify(hostname)}`);
  return { hostname, namespace, type };
}

/** Prints a provider source fully qualified: `registry.terraform.io/hashicorp/aws`. */
export function formatProviderSource(p: ProviderSource): string {
  return `${p.hostname}/${p.namespace}/${p.type}`;
}

function bad(text: string, why: string): never {
  throw new StateError("invalid_address", `invalid provider configuration address ${JSON.stringify(text)}: ${why}`);
}

/**
 * Parses an absolute provider configuration address as Terraform's
 * `ParseAbsProviderConfigStr` does (`provider["registry.terraform.io/hashicorp/aws"]`,
 * `….west`, `module.m.provider[…]`). The legacy form (`provider.aws`) is refused.
 *
 * @throws StateError `invalid_address`.
 */
export function parseProviderConfig(text: string): ProviderConfigAddress {
  const [path, rest] = takeModulePrefix(text, parseTraversal(text));
  if (path.some((s) => s.key !== undefined)) bad(text, "a provider address cannot contain module indexes");
  const first = rest[0];
  if (rest.length < 2 || first === undefined || first.kind === "index" || first.name !== "provider") {
    bad(text, 'it must begin with "provider", followed by a provider source in brackets');
  }
  if (rest.length > 3) bad(text, "extraneous operators after the provider configuration alias");
  const src = rest[1]!;
  if (src.kind !== "index" || typeof src.key !== "string") bad(text, 'the prefix "provider" must be followed by a quoted provider source in brackets');
  const provider = parseProviderSource(src.key);
  let alias: string | undefined;
  if (rest.length === 3) {
    const a = rest[2]!;
    if (a.kind !== "attr") bad(text, "the provider source must be followed by a configuration alias name");
    alias = a.name;
  }
  return { module: path.map((s) => s.name), provider, alias };
}

/** Prints a provider configuration address as Terraform does. */
export function formatProviderConfig(a: ProviderConfigAddress): string {
  let out = "";
  for (const m of a.module) out += `module.${m}.`;
  out += `provider[${JSON.stringify(formatProviderSource(a.provider))}]`;
  if (a.alias !== undefined) out += "." + a.alias;
  return out;
}

/**
 * Parses the legacy provider configuration form of Terraform 0.12 states (`provider.aws`,
 * `module.m.provider.aws.west`) as Terraform does when reading such a state: the provider
 * gets the legacy namespace `-` (`terraform` becomes `terraform.io/builtin/terraform`).
 *
 * @throws StateError `invalid_address`.
 */
export function parseLegacyProviderConfig(text: string): ProviderConfigAddress {
  const [path, rest] = takeModulePrefix(text, parseTraversal(text));
  if (path.some((s) => s.key !== undefined)) bad(text, "a provider address cannot contain module indexes");
  const first = rest[0];
  if (rest.length < 2 || rest.length > 3 || first === undefined || first.kind === "index" || first.name !== "provider") {
    bad(text, 'it must be "provider.<type>" optionally followed by an alias');
  }
  const t = rest[1]!;
  if (t.kind !== "attr") bad(text, 'the prefix "provider." must be followed by a provider type name');
  const provider: ProviderSource =
    t.name === "terraform"
      ? { hostname: "terraform.io", namespace: "builtin", type: "terraform" }
      : { hostname: DEFAULT_PROVIDER_HOST, namespace: "-", type: t.name };
  let alias: string | undefined;
  if (rest.length === 3) {
    const a = rest[2]!;
    if (a.kind !== "attr") bad(text, "the provider type must be followed by a configuration alias name");
    alias = a.name;
  }
  return { module: path.map((s) => s.name), provider, alias };
}

import type { ProviderAddr } from "./model.js";

/** Terraform's default provider registry host. */
export const DEFAULT_REGISTRY_HOST = "registry.terraform.io";

/** `registry.terraform.io/hashicorp/aws`: a provider address as Terraform prints it. */
export function providerAddrString(p: ProviderAddr): string {
  return `${p.hostname}/${p.namespace}/${p.type}`;
}

/**
 * The provider a local name implies when no `required_providers` entry names it
 * (Terraform's `addrs.ImpliedProviderForUnqualifiedType`): `hashicorp/<name>`, or the
 * built-in `terraform.io/builtin/terraform`.
 */
export function impliedProvider(localName: string): ProviderAddr {
  if (localName === "terraform") return { hostname: "terraform.io", namespace: "builtin", type: "terraform" };
  return { hostname: DEFAULT_REGISTRY_HOST, namespace: "hashicorp", type: localName };
}

/** The local provider name a resource type implies: the part before the first `_`. */
export function resourceTypeProviderName(resourceType: string): string {
  const i = resourceType.indexOf("_");
  return i < 0 ? resourceType : resourceType.slice(0, i);
}

const PART = /^[0-9A-Za-z](?:[0-9A-Za-z-]*[0-9A-Za-z])?$/;

/**
 * Parses a provider source string (`hashicorp/aws`, `example.com/acme/thing`, `aws`) as
 * Terraform's `tfaddr.ParseProviderSource` does; an error message when it is invalid.
 */
export function parseProviderSource(source: string): { addr: ProviderAddr } | { error: string } {
  const parts = source.split("/");
  if (parts.length === 0 || parts.length > 3 || parts.some((p) => p === "")) {
    return { error: `The "source" attribute must be in the format "[hostname/][namespace/]name"` };
  }
  const type = parts[parts.length - 1]!.toLowerCase();
  const namespace = parts.length >= 2 ? parts[parts.length - 2]!.toLowerCase() : "hashicorp";
  const hostname = parts.length === 3 ? parts[0]!.toLowerCase() : DEFAULT_REGISTRY_HOST;
  if (!PART.test(type)) return { error: `Invalid provider type ${JSON.stringify(type)} in source ${JSON.stringify(source)}: must be a valid provider type name.` };
  if (!PART.test(namespace)) return { error: `Invalid provider namespace ${JSON.stringify(namespace)} in source ${JSON.stringify(source)}: must be a valid provider namespace.` };
  if (type.startsWith("terraform-provider-") || type.startsWith("terraform-")) {
    return { error: `Invalid provider type ${JSON.stringify(type)} in source ${JSON.stringify(source)}: must not have a "terraform-provider-" or "terraform-" prefix.` };
  }
  return { addr: { hostname, namespace, type } };
}

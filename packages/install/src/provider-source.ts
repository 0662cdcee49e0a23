import type { AuthResult } from "./verify-signature.js";
import { InstallErrorCode, StepError } from "./install-error.js";

/** A provider's source address, split. */
export interface ProviderAddress {
  /** `registry.terraform.io`. */
  readonly hostname: string;
  /** `hashicorp`. */
  readonly namespace: string;
  /** `aws`. */
  readonly type: string;
}

/** `hostname/namespace/type`. */
export function providerAddressString(p: ProviderAddress): string {
  return `${p.hostname}/${p.namespace}/${p.type}`;
}

/** How terraform shows a provider: without the default registry's hostname. */
export function providerDisplay(p: ProviderAddress): string {
  return p.hostname === "registry.terraform.io" ? `${p.namespace}/${p.type}` : providerAddressString(p);
}

/** Where a package is. */
export type PackageLocation =
  | { readonly kind: "http"; readonly url: URL }
  | { readonly kind: "archive"; readonly path: string }
  | { readonly kind: "dir"; readonly path: string };

/** What a package's authentication found. */
export interface Authentication {
  /** `undefined` for an unauthenticated package. */
  readonly result: AuthResult | undefined;
  /** The signing key's ID, for a signed package. */
  readonly keyId?: string;
  /** The hashes to trust for the lock file: every platform's `zh:` of a signed checksum list. */
  readonly signedHashes: readonly string[];
}

/** The hashes of a downloaded archive its installer already has, so that authentication reads it no more. */
export interface ArchiveDigests {
  /** The archive's `zh:` hash (computed as it downloaded). */
  readonly zh: string;
  /** Its `h1:` hash (of the directory it unpacks to), computed once when first asked. */
  readonly h1: () => Promise<string>;
}

/** One installable package of a provider version for a platform. */
export interface PackageMeta {
  readonly provider: ProviderAddress;
  readonly version: string;
  /** `linux_amd64`. */
  readonly platform: string;
  /** `terraform-provider-<type>_<version>_<platform>.zip`. */
  readonly filename: string;
  readonly location: PackageLocation;
  /** Checks the downloaded archive (checksums, signature), with the hashes its installer has; absent for unauthenticated sources. */
  readonly authenticate?: (archive: Buffer, digests?: ArchiveDigests) => Promise<Authentication>;
  /** The hashes a network mirror gave for this package (lock file candidates). */
  readonly mirrorHashes?: readonly string[];
}

/** A place providers are installed from: a registry, a network mirror or a filesystem mirror. */
export interface ProviderSource {
  /** The available versions (and a registry's warnings). @throws StepError / SourceError */
  availableVersions(provider: ProviderAddress): Promise<{ versions: string[]; warnings: string[] }>;
  /** The package of `version` for `platform`. @throws StepError / SourceError */
  packageMeta(provider: ProviderAddress, version: string, platform: string): Promise<PackageMeta>;
  /** How terraform names the source in its "search locations" list. */
  forDisplay(provider: ProviderAddress): string;
}

/** Why a source has nothing: terraform's `ErrRegistryProviderNotKnown`, `ErrProviderNotFound`, `ErrPlatformNotSupported`. */
export class SourceError extends StepError {
  /** Which of terraform's errors. */
  readonly kind: "registry_not_known" | "provider_not_found" | "platform_not_supported";
  /** A network mirror's URL, for `platform_not_supported` from a mirror. */
  readonly mirrorUrl: string | undefined;
  /** The search locations, for `provider_not_found`. */
  readonly sources: readonly string[];
  /** Makes one. */
  constructor(kind: SourceError["kind"], message: string, extra: { mirrorUrl?: string; sources?: readonly string[] } = {}) {
    super(kind === "platform_not_supported" ? InstallErrorCode.PlatformNotSupported : InstallErrorCode.NotFound, message);
    this.kind = kind;
    this.mirrorUrl = extra.mirrorUrl;
    this.sources = extra.sources ?? [];
  }
}

/** Semver precedence of two versions (`1.2.3`, `1.2.3-beta1`), as go-version sorts them. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): [number[], string] => {
    const [core = "", pre = ""] = v.replace(/\+.*$/, "").split(/-(.*)/s, 2);
    return [core.split(".").map(Number), pre];
  };
  const [ac, ap] = split(a);
  const [bc, bp] = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (ac[i] ?? 0) - (bc[i] ?? 0);
    if (d !== 0) return d;
  }
  if (ap === bp) return 0;
  if (ap === "") return 1;
  if (bp === "") return -1;
  return ap < bp ? -1 : 1;
}

/** Whether a string is a version terraform accepts from a source. */
export function isVersion(v: string): boolean {
  return /^v?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(v);
}

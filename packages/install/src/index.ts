/**
 * Terraform's provider installation for magma, usable by the command line and by programs
 * that drive the engine: the CLI configuration (`provider_installation`, `host`,
 * `credentials`, `credentials_helper`, `plugin_cache_dir`), remote service discovery, the provider registry and
 * network mirror protocols, filesystem mirrors, package authentication (checksums and the
 * registry's OpenPGP signature), safe unpacking, and the dependency lock file.
 *
 * @packageDocumentation
 */
export { installProviders, installPackage, currentPlatform } from "./install-providers.js";
export type { ProviderRequirement, LockedProvider, InstallEvents, InstallProvidersOptions, InstallProvidersResult } from "./install-providers.js";
export { readCliConfig } from "./cli-config.js";
export { HostCredentials, hostCredentials } from "./host-credentials.js";
export { CredentialsHelper, credentialsHelperDirs, findCredentialsHelper } from "./credentials-helper.js";
export type { CliConfig, InstallationMethod, ReadCliConfigOptions } from "./cli-config.js";
export { createProviderSource, MultiSource, parseProviderPattern } from "./multi-source.js";
export type { ProviderSourceOptions, SourceSelector, ProviderPattern } from "./multi-source.js";
export { RegistrySource } from "./registry-source.js";
export { NetworkMirrorSource } from "./network-mirror-source.js";
export { FilesystemMirrorSource } from "./filesystem-mirror-source.js";
export { ServiceDiscovery } from "./service-discovery.js";
export { providerAddressString, providerDisplay, compareVersions, SourceError } from "./provider-source.js";
export type { ProviderAddress, ProviderSource, PackageMeta, PackageLocation, Authentication } from "./provider-source.js";
export { InstallError, InstallErrorCode, isInstallError } from "./install-error.js";
export { AuthResult, verifySignature } from "./verify-signature.js";
export type { SigningKey } from "./verify-signature.js";
export { packageHashV1 } from "./package-hash.js";
export { readZip, unpackZip, zipHash, zipPackageHashV1 } from "./zip-archive.js";
export type { ZipEntry } from "./zip-archive.js";
export { parseLockFile, formatLockFile, LOCK_FILE_NAME } from "./provider-lock-file.js";
export { httpGet, httpDownload, httpDownloadBuffer, trustedCas } from "./http-client.js";
export type { CredentialsLookup, HttpOptions, HttpResponse } from "./http-client.js";

// for sibling packages
export { StepError } from "./install-error.js";
export { parseModuleSource, splitSubdir } from "./module-source.js";
export type { ModuleSource } from "./module-source.js";
export { fetchModulePackage } from "./fetch-module-package.js";
export { ModuleRegistryClient } from "./module-registry.js";
export { unpackTar } from "./tar-archive.js";

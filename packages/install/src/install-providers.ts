import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join, resolve } from "node:path";
import { versionSatisfies, type VersionConstraint } from "@magma/config";
import { downloadArchive, withoutCredentials, type HttpOptions } from "./http-client.js";
import { InstallError, InstallErrorCode, StepError } from "./install-error.js";
import { packageHashV1 } from "./package-hash.js";
import { compareVersions, providerAddressString, providerDisplay, SourceError, type Authentication, type PackageMeta, type ProviderAddress, type ProviderSource } from "./provider-source.js";
import { unpackZipAsync, zipHash } from "./zip-archive.js";

/** One provider the configuration needs. */
export interface ProviderRequirement {
  readonly provider: ProviderAddress;
  /** Every constraint on it across the modules. */
  readonly constraints: readonly VersionConstraint[];
  /** terraform's canonical constraints string (`>= 1.0.0, < 2.0.0`), "" for none. */
  readonly constraintsText: string;
}

/** One `provider` block of `.terraform.lock.hcl`. */
export interface LockedProvider {
  /** `registry.terraform.io/hashicorp/aws`. */
  readonly address: string;
  readonly version: string;
  /** The canonical constraints string, or "" when the configuration has none. */
  readonly constraints: string;
  /** `h1:…`, `zh:…`, sorted. */
  readonly hashes: readonly string[];
}

/** What {@link installProviders} reports as it goes (each event in the providers' address order). */
export interface InstallEvents {
  /** Before asking for a provider's versions (`locked`: the lock file's version is kept). */
  queryBegin?(provider: ProviderAddress, req: ProviderRequirement, locked: LockedProvider | undefined): void;
  /** The registry's warnings for a provider. */
  queryWarnings?(provider: ProviderAddress, warnings: readonly string[]): void;
  /** The selected version is already in the data directory with a locked hash. */
  alreadyInstalled?(provider: ProviderAddress, version: string): void;
  /** The selected version is linked from the plugin cache. */
  linkFromCache?(provider: ProviderAddress, version: string): void;
  /** A package is about to be installed from its source. */
  fetchBegin?(provider: ProviderAddress, version: string): void;
  /** Bytes of a package's download so far. */
  progress?(provider: ProviderAddress, version: string, done: number, total: number | undefined): void;
  /** A package was installed (`auth` undefined: unauthenticated). */
  fetchSuccess?(provider: ProviderAddress, version: string, auth: Authentication | undefined): void;
}

/** Options of {@link installProviders}. */
export interface InstallProvidersOptions {
  /** The data directory (`.terraform`): packages go to `<dataDir>/providers/<address>/<version>/<platform>`. */
  readonly dataDir: string;
  /** Where packages come from. */
  readonly source: ProviderSource;
  /** The lock file's entries, by address. */
  readonly locks: ReadonlyMap<string, LockedProvider>;
  /** Select the newest matching versions, ignoring the lock file's (`-upgrade`). */
  readonly upgrade?: boolean;
  /** Install without checking packages against the lock file's hashes (terraform's `InstallNewProvidersForce`, for `providers lock`). */
  readonly forceInstallChecksums?: boolean;
  /** `<os>_<arch>` (default this machine's, as terraform names it). */
  readonly platform?: string;
  /** `plugin_cache_dir`: packages are installed there and linked into the data directory. */
  readonly pluginCacheDir?: string;
  /** `plugin_cache_may_break_dependency_lock_file`. */
  readonly pluginCacheMayBreakLockFile?: boolean;
  /** For downloads. */
  readonly http: HttpOptions;
  /** How many packages to download at once (default 4). */
  readonly concurrency?: number;
  readonly events?: InstallEvents;
}

/** What {@link installProviders} did. */
export interface InstallProvidersResult {
  /** The new lock entries (the requirements' only), by address. */
  readonly locks: Map<string, LockedProvider>;
  /** Per provider address, why it could not be installed. */
  readonly errors: Map<string, InstallError>;
  /** Providers whose lock entry holds only this platform's local hash (terraform's "incomplete lock file" warning), for display. */
  readonly incomplete: string[];
  /** Whether any package was signed by a third party (terraform then explains provider signing). */
  readonly thirdPartySigned: boolean;
}

/** This machine's platform as terraform names it (`linux_amd64`, `darwin_arm64`). */
export function currentPlatform(): string {
  const os = platform() === "win32" ? "windows" : platform();
  const a = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[arch()] ?? arch();
  return `${os}_${a}`;
}

const SUGGEST_DEFAULT = (d: string): string => `\n\nTo see which modules are currently depending on ${d} and what versions are specified, run the following command:\n    terraform providers`;

function queryError(p: ProviderAddress, e: unknown): InstallError {
  const d = providerDisplay(p);
  const summary = "Failed to query available provider packages";
  if (e instanceof SourceError && e.kind === "provider_not_found") {
    return new InstallError(InstallErrorCode.NotFound, summary, `Could not retrieve the list of available versions for provider ${d}: ${e.message}\n\n${e.sources.map((s) => `  - ${s}`).join("\n")}`, e, e.message);
  }
  if (e instanceof SourceError && e.kind === "registry_not_known") {
    if (/does not offer a Terraform provider registry$/.test(e.message)) {
      return new InstallError(InstallErrorCode.NotFound, "Invalid provider registry host", `The host ${JSON.stringify(p.hostname)} given in provider source address ${JSON.stringify(providerAddressString(p))} does not offer a Terraform provider registry.`);
    }
    return new InstallError(
      InstallErrorCode.NotFound,
      summary,
      `Could not retrieve the list of available versions for provider ${d}: ${e.message}\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on ${d}, run the following command:\n    terraform providers`,
      e,
      e.message,
    );
  }
  const step = e as StepError;
  return new InstallError(step.code ?? InstallErrorCode.QueryFailed, summary, `Could not retrieve the list of available versions for provider ${d}: ${step.message}${SUGGEST_DEFAULT(d)}`, e, step.message);
}

function fetchError(p: ProviderAddress, version: string, e: unknown, platformName: string): InstallError {
  const d = providerDisplay(p);
  if (e instanceof SourceError && e.kind === "platform_not_supported") {
    const a = providerAddressString(p);
    return new InstallError(
      InstallErrorCode.PlatformNotSupported,
      "Incompatible provider version",
      e.mirrorUrl !== undefined
        ? `Your chosen provider mirror at ${e.mirrorUrl} does not have a ${a} v${version} package available for your current platform, ${platformName}.\n\nProvider releases are separate from Terraform CLI releases, so this provider might not support your current platform. Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at ${p.hostname}.`
        : `Provider ${a} v${version} does not have a package available for your current platform, ${platformName}.\n\nProvider releases are separate from Terraform CLI releases, so not all providers are available for all platforms. Other versions of this provider may have different platforms supported.`,
      e,
      e.message,
    );
  }
  const step = e as StepError;
  return new InstallError(step.code ?? InstallErrorCode.Download, "Failed to install provider", `Error while installing ${d} v${version}: ${step.message}`, e, step.message);
}

/** Whether a package directory holds the provider's executable (`terraform-provider-<type>…`). */
function checkExecutable(dir: string, p: ProviderAddress): void {
  const prefix = `terraform-provider-${p.type}`;
  const ok = readdirSync(dir).some((n) => n.startsWith(prefix) && statSync(join(dir, n)).isFile());
  if (!ok) throw new StepError(InstallErrorCode.BadArchive, `provider binary not found: could not find executable file starting with ${prefix}`);
}

function linkDir(target: string, link: string): void {
  rmSync(link, { recursive: true, force: true });
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link);
}

/**
 * `h1:` hashes of package directories, each computed once per installation (by real path: a
 * data directory's link into the plugin cache is the cache entry), undefined for a missing or
 * unreadable directory.
 */
class DirHashes {
  readonly #memo = new Map<string, Promise<string | undefined>>();
  /** The hash of `dir`, started now or earlier. */
  of(dir: string): Promise<string | undefined> {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return Promise.resolve(undefined);
    }
    let p = this.#memo.get(real);
    if (p === undefined) {
      p = packageHashV1(real).catch(() => undefined);
      this.#memo.set(real, p);
    }
    return p;
  }
}

/**
 * Installs the configuration's providers as `terraform init` does: selects each version
 * (the lock file's, or the newest matching the constraints with `upgrade` or no lock entry),
 * reuses a package already in the data directory or the plugin cache when its hash is
 * locked, else downloads it (several at once), authenticates it (checksums, the registry's
 * signature, a mirror's hashes), checks it against the lock file's hashes, unpacks it
 * (refusing paths that leave its directory) and records the lock entry with terraform's
 * hashes (`h1:` of the package, and every platform's `zh:` of a signed checksum list).
 * A package that fails any check is not installed: it is unpacked beside its final place and
 * moved there only when complete.
 *
 * Never throws for a provider's failure: each is an {@link InstallError} in `errors`, worded
 * as terraform's diagnostics.
 */
export async function installProviders(reqs: readonly ProviderRequirement[], options: InstallProvidersOptions): Promise<InstallProvidersResult> {
  const target = options.platform ?? currentPlatform();
  const ev = options.events ?? {};
  const sorted = [...reqs].sort((a, b) => compareStr(providerAddressString(a.provider), providerAddressString(b.provider)));
  const errors = new Map<string, InstallError>();
  const locks = new Map<string, LockedProvider>();
  const incomplete: string[] = [];
  let thirdPartySigned = false;

  // Each provider's version is queried and its package installed as soon as the version is
  // known, all at once (downloads 4 at a time); the events come in the providers' order. A
  // locked package already in the data directory or the plugin cache is hashed while its
  // version is queried (terraform checks it against the lock file once that version is
  // confirmed; the hash is the same one).
  const dirHashes = new DirHashes();
  const limit = Math.max(1, options.concurrency ?? 4);
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async <T>(f: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await f();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  type Outcome =
    | { kind: "installed" }
    | { kind: "cache"; hash: string }
    | { kind: "fetched"; hash: string; auth: Authentication | undefined }
    | { kind: "error"; error: InstallError; during: "fetch" | "cache" };
  const relOf = (p: ProviderAddress, version: string): string => join(p.hostname, p.namespace, p.type, version, target);
  const install = async (req: ProviderRequirement, version: string, preferred: readonly string[]): Promise<Outcome> => {
    const rel = relOf(req.provider, version);
    const dest = join(options.dataDir, "providers", rel);
    if (preferred.length > 0) {
      const installed = await dirHashes.of(dest);
      if (installed !== undefined && preferred.includes(installed)) return { kind: "installed" };
    }
    const cache = options.pluginCacheDir;
    if (cache !== undefined) {
      const cached = join(cache, rel);
      if (existsSync(cached)) {
        const cachedHash = await dirHashes.of(cached);
        const acceptable = (preferred.length > 0 && cachedHash !== undefined && preferred.includes(cachedHash)) || options.pluginCacheMayBreakLockFile === true;
        if (acceptable) {
          try {
            checkExecutable(cached, req.provider);
            linkDir(resolve(cached), dest);
            return { kind: "cache", hash: cachedHash ?? (await packageHashV1(cached)) };
          } catch (e) {
            return { kind: "error", during: "cache", error: new InstallError((e as StepError).code ?? InstallErrorCode.BadArchive, "Failed to install provider from shared cache", `Error while importing ${providerDisplay(req.provider)} v${version} from the shared cache directory: ${(e as Error).message}.`) };
          }
        }
      }
    }
    try {
      const meta = await options.source.packageMeta(req.provider, version, target);
      const installTo = cache !== undefined ? join(cache, rel) : dest;
      const allowed = options.forceInstallChecksums === true ? [] : preferred;
      const { auth, hash } = await slot(() => installPackage(meta, installTo, allowed, options.http, ev.progress === undefined ? undefined : (done, total) => ev.progress?.(req.provider, version, done, total)));
      if (cache !== undefined) linkDir(resolve(installTo), dest);
      return { kind: "fetched", hash, auth };
    } catch (e) {
      return { kind: "error", during: "fetch", error: fetchError(req.provider, version, e, target) };
    }
  };
  const work = sorted.map((req) => {
    const addr = providerAddressString(req.provider);
    const lock = options.upgrade === true ? undefined : options.locks.get(addr);
    const preferredOf = (version: string): string[] => {
      const l = options.locks.get(addr);
      return l !== undefined && l.version === version ? l.hashes.filter((h) => h.startsWith("h1:") || h.startsWith("zh:")) : [];
    };
    if (lock !== undefined && !versionSatisfies(lock.version, req.constraints)) {
      const version = Promise.reject<string>(new StepError(InstallErrorCode.LockConflict, `locked provider ${addr} ${lock.version} does not match configured version constraint ${req.constraintsText}; must use terraform init -upgrade to allow selection of new versions`));
      version.catch(() => undefined);
      return { req, addr, lock, version, outcome: undefined, preferredOf };
    }
    if (lock !== undefined && preferredOf(lock.version).length > 0) {
      // the locked version is the one to install unless the source no longer has it
      const rel = relOf(req.provider, lock.version);
      void dirHashes.of(join(options.dataDir, "providers", rel));
      if (options.pluginCacheDir !== undefined) void dirHashes.of(join(options.pluginCacheDir, rel));
    }
    const version = (async () => {
      const { versions, warnings } = await options.source.availableVersions(req.provider);
      if (warnings.length > 0) ev.queryWarnings?.(req.provider, warnings);
      const ok = versions
        .filter((v) => (lock !== undefined ? v === lock.version : versionSatisfies(v, req.constraints) && (!v.includes("-") || req.constraints.some((c) => c.prerelease !== "" && c.op === "="))))
        .sort(compareVersions);
      const best = ok[ok.length - 1];
      if (best === undefined) {
        throw new StepError(InstallErrorCode.NotFound, lock !== undefined ? `the previously-selected version ${lock.version} is no longer available` : `no available releases match the given constraints ${req.constraintsText}`);
      }
      return best;
    })();
    version.catch(() => undefined);
    const outcome = version.then((v) => install(req, v, preferredOf(v)));
    outcome.catch(() => undefined);
    return { req, addr, lock, version, outcome, preferredOf };
  });

  // 1. versions, reported in order
  const chosen: { c: { req: ProviderRequirement; addr: string; lock: LockedProvider | undefined; version: string }; priorHashes: string[]; promise: Promise<Outcome> }[] = [];
  for (const w of work) {
    ev.queryBegin?.(w.req.provider, w.req, w.lock);
    try {
      const version = await w.version;
      chosen.push({ c: { req: w.req, addr: w.addr, lock: w.lock, version }, priorHashes: w.preferredOf(version), promise: w.outcome! });
    } catch (e) {
      errors.set(w.addr, queryError(w.req.provider, e));
    }
  }

  // 2. packages, reported in order
  for (const { c, priorHashes, promise } of chosen) {
    const sortedHashes = (hs: readonly string[]): string[] => [...new Set(hs)].sort();
    const o = await promise;
    if (o.kind === "installed") ev.alreadyInstalled?.(c.req.provider, c.version);
    else if (o.kind === "cache" || (o.kind === "error" && o.during === "cache")) ev.linkFromCache?.(c.req.provider, c.version);
    else ev.fetchBegin?.(c.req.provider, c.version);
    if (o.kind === "error") {
      errors.set(c.addr, o.error);
      continue;
    }
    if (o.kind === "installed") {
      // terraform keeps the entry as it was (its constraints too, until the version changes)
      locks.set(c.addr, options.locks.get(c.addr)!);
      continue;
    }
    if (o.kind === "cache") {
      locks.set(c.addr, { address: c.addr, version: c.version, constraints: c.req.constraintsText, hashes: sortedHashes([...priorHashes, o.hash]) });
      if (priorHashes.length === 0 || (priorHashes.length === 1 && priorHashes[0] === o.hash)) incomplete.push(providerDisplay(c.req.provider));
      continue;
    }
    const signed = o.auth?.result !== undefined && o.auth.result !== "verified checksum" ? o.auth.signedHashes : [];
    if (o.auth?.result === "self-signed" || o.auth?.result === "signed by a HashiCorp partner") thirdPartySigned = true;
    locks.set(c.addr, { address: c.addr, version: c.version, constraints: c.req.constraintsText, hashes: sortedHashes([o.hash, ...priorHashes, ...signed]) });
    if (signed.length === 0 && (priorHashes.length === 0 || (priorHashes.length === 1 && priorHashes[0] === o.hash))) incomplete.push(providerDisplay(c.req.provider));
    ev.fetchSuccess?.(c.req.provider, c.version, o.auth);
  }
  return { locks, errors, incomplete, thirdPartySigned };
}

function compareStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Installs one package into `dest`: downloads it (an `http` location), authenticates it,
 * checks it against `allowedHashes` (the lock file's), and unpacks it into a fresh sibling
 * directory moved into place only when complete; a `dir` location is linked instead.
 *
 * @returns the authentication (undefined for an unauthenticated source) and the package's `h1:` hash.
 * @throws StepError for any failed check; `dest` is then left as it was.
 */
export async function installPackage(
  meta: PackageMeta,
  dest: string,
  allowedHashes: readonly string[],
  http: HttpOptions,
  onProgress?: (done: number, total: number | undefined) => void,
): Promise<{ auth: Authentication | undefined; hash: string }> {
  if (meta.location.kind === "dir") {
    const src = realpathSync(meta.location.path);
    const hash = await packageHashV1(src);
    const h1s = allowedHashes.filter((h) => !h.startsWith("zh:"));
    if (h1s.length > 0 && !h1s.includes(hash)) {
      throw new StepError(
        InstallErrorCode.ChecksumMismatch,
        `the local package for ${providerAddressString(meta.provider)} ${meta.version} doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification`,
      );
    }
    checkExecutable(src, meta.provider);
    linkDir(src, dest);
    return { auth: undefined, hash };
  }
  let archive: Buffer;
  let zh: string;
  if (meta.location.kind === "http") {
    try {
      const got = await downloadArchive(meta.location.url, withoutCredentials(http), onProgress);
      archive = got.data;
      zh = `zh:${got.sha256}`;
    } catch (e) {
      const err = e as StepError;
      throw new StepError(err.code ?? InstallErrorCode.Download, `${meta.location.url.host}: ${err.message}`, e);
    }
  } else {
    archive = readFileSync(meta.location.path);
    zh = zipHash(archive);
  }
  try {
    if (lstatSync(dest).isSymbolicLink()) rmSync(dest);
  } catch {
    // absent
  }
  // Authenticated first (as terraform does: nothing unverified is unpacked, except where a
  // mirror's h1: hash needs it), unpacked beside its place, checked, then moved there: a refused
  // package leaves `dest` as it was.
  const staging = `${dest}.partial-${randomBytes(4).toString("hex")}`;
  let unpacking: Promise<string> | undefined;
  const unpack = (): Promise<string> => (unpacking ??= unpackZipAsync(archive, staging));
  try {
    let auth: Authentication | undefined;
    try {
      auth = meta.authenticate === undefined ? undefined : await meta.authenticate(archive, { zh, h1: unpack });
    } catch (e) {
      await unpacking?.catch(() => undefined);
      throw e;
    }
    const hash = await unpack();
    if (allowedHashes.length > 0 && !allowedHashes.includes(hash) && !allowedHashes.includes(zh)) {
      throw new StepError(
        InstallErrorCode.ChecksumMismatch,
        `the current package for ${providerAddressString(meta.provider)} ${meta.version} doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification`,
      );
    }
    checkExecutable(staging, meta.provider);
    rmSync(dest, { recursive: true, force: true });
    renameSync(staging, dest);
    return { auth, hash };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

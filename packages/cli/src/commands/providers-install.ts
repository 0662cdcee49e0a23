import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { loadConfig, parseProviderSource, providerAddrString } from "@magma/config";
import {
  currentPlatform,
  FilesystemMirrorSource,
  hostCredentials,
  formatLockFile,
  httpDownload,
  installProviders,
  LOCK_FILE_NAME,
  MultiSource,
  NetworkMirrorSource,
  parseLockFile,
  providerDisplay,
  readCliConfig,
  RegistrySource,
  ServiceDiscovery,
  zipPackageHashV1,
  compareVersions,
  type LockedProvider,
  type ProviderRequirement,
  type ProviderSource,
} from "@magma/install";
import { versionSatisfies } from "@magma/config";
import { CliError, CliErrorCode } from "../cli-error.js";
import { paint } from "../colour.js";
import { nativeProviders } from "../provider-session.js";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import { installHttpOptions } from "../workdir/init-providers.js";
import { providerRequirements } from "../workdir/provider-requirements.js";
import { versionConstraintsString } from "../workdir/version-constraints-string.js";
import { terminalColumns } from "../terminal-columns.js";
import type { CommandContext } from "./command-context.js";

/** The flags of `magma providers lock`. */
export interface ProvidersLockOptions {
  platform?: string[];
  fsMirror?: string;
  netMirror?: string;
  enablePluginCache?: boolean;
}

/** The flags of `magma providers mirror`. */
export interface ProvidersMirrorOptions {
  platform?: string[];
  lockFile?: string | boolean;
}

const PLATFORM = /^[a-z0-9]+_[a-z0-9]+$/;

function platforms(given: readonly string[] | undefined): string[] {
  if (given === undefined || given.length === 0) return [currentPlatform()];
  for (const p of given) {
    if (!PLATFORM.test(p)) throw new CliError(CliErrorCode.Usage, "Invalid target platform", { detail: `The string ${JSON.stringify(p)} given in the -platform option is not a valid target platform: must be two words separated by an underscore.` });
  }
  return [...given];
}

/** The configuration's installable requirements (native providers and terraform's built-in one left out). */
function requirements(ctx: CommandContext): ProviderRequirement[] {
  const { config, diags } = loadConfig(ctx.cwd);
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    ctx.io.stderr.write(formatDiagnostics(errors, ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
    throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
  }
  return providerRequirements(config)
    .filter((r) => !Object.keys(nativeProviders).some((k) => providerAddrString(r.provider) === `registry.terraform.io/${k}`))
    .map((r) => ({ provider: r.provider, constraints: r.constraints, constraintsText: versionConstraintsString(r.constraints) }));
}

function readLocks(dir: string): Map<string, LockedProvider> {
  const path = join(dir, LOCK_FILE_NAME);
  return existsSync(path) ? parseLockFile(readFileSync(path, "utf8")) : new Map<string, LockedProvider>();
}

/**
 * `magma providers lock`: as `terraform providers lock`, fetches every provider of the
 * configuration for each `-platform` from its origin registry (or `-fs-mirror`/`-net-mirror`)
 * and records all their hashes in the lock file.
 */
export async function providersLockAction(ctx: CommandContext, only: readonly string[], o: ProvidersLockOptions): Promise<void> {
  const targets = platforms(o.platform);
  const env = ctx.io.env;
  const cli = readCliConfig({ env });
  const http = installHttpOptions(env, hostCredentials(cli, currentPlatform(), env));
  let source: ProviderSource;
  if (o.fsMirror !== undefined) source = new FilesystemMirrorSource(isAbsolute(o.fsMirror) ? o.fsMirror : resolve(ctx.cwd, o.fsMirror));
  else if (o.netMirror !== undefined) {
    if (!/^https:\/\//.test(o.netMirror)) throw new CliError(CliErrorCode.Usage, "Invalid network mirror URL", { detail: "The -net-mirror option requires a valid https: URL as the mirror base URL." });
    source = new NetworkMirrorSource(o.netMirror, http);
  } else source = new MultiSource([{ source: new RegistrySource(new ServiceDiscovery(cli.hosts, http), http), include: [], exclude: [] }]);
  let reqs = requirements(ctx);
  if (only.length > 0) {
    const wanted = new Set<string>();
    for (const raw of only) {
      const parsed = parseProviderSource(raw);
      if ("error" in parsed) throw new CliError(CliErrorCode.Usage, "Invalid provider source address", { detail: `${JSON.stringify(raw)}: ${parsed.error}` });
      const s = providerAddrString(parsed.addr);
      if (!reqs.some((r) => providerAddrString(r.provider) === s)) throw new CliError(CliErrorCode.BadInput, "Invalid provider argument", { detail: `The provider ${s} is not required by the current configuration.` });
      wanted.add(s);
    }
    reqs = reqs.filter((r) => wanted.has(providerAddrString(r.provider)));
  }
  const oldLocks = readLocks(ctx.cwd);
  const perPlatform = new Map<string, Map<string, LockedProvider>>();
  for (const platform of targets) {
    const temp = mkdtempSync(join(tmpdir(), "magma-providers-lock-"));
    try {
      const r = await installProviders(reqs, {
        dataDir: temp,
        source,
        locks: oldLocks,
        platform,
        forceInstallChecksums: true,
        ...(o.enablePluginCache === true && cli.pluginCacheDir !== undefined ? { pluginCacheDir: cli.pluginCacheDir, pluginCacheMayBreakLockFile: cli.pluginCacheMayBreakLockFile } : {}),
        http,
        events: {
          fetchBegin: (p, v) => ctx.print(`- Fetching ${providerDisplay(p)} ${v} for ${platform}...\n`),
          fetchSuccess: (p, v, auth) => {
            const key = auth?.keyId !== undefined && (auth.result === "self-signed" || auth.result === "signed by a HashiCorp partner") ? `, key ID ${auth.keyId}` : "";
            ctx.print(`- Retrieved ${providerDisplay(p)} ${v} for ${platform} (${auth?.result ?? "unauthenticated"}${key})\n`);
          },
        },
      });
      if (r.errors.size > 0) {
        const lines = [...r.errors.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, e]) => `- ${a}: ${e.reason}`);
        throw new CliError(CliErrorCode.BadInput, "Could not retrieve providers for locking", {
          detail: `Terraform failed to fetch the requested providers for ${platform} in order to calculate their checksums: some providers could not be installed:\n${lines.join("\n")}.`,
        });
      }
      perPlatform.set(platform, r.locks);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  let changed = false;
  const next = new Map(oldLocks);
  for (const req of [...reqs].sort((a, b) => (providerAddrString(a.provider) < providerAddrString(b.provider) ? -1 : 1))) {
    const addr = providerAddrString(req.provider);
    const old = oldLocks.get(addr);
    let entry: LockedProvider | undefined = old;
    const hashes = new Set(old?.hashes ?? []);
    for (const platform of targets) {
      const got = perPlatform.get(platform)?.get(addr);
      if (got === undefined) continue;
      entry = got;
      for (const h of got.hashes) hashes.add(h);
      const d = providerDisplay(req.provider);
      if (old === undefined) {
        changed = true;
        ctx.print(`- Obtained ${d} checksums for ${platform}; This was a new provider and the checksums for this platform are now tracked in the lock file\n`);
      } else if (!got.hashes.every((h) => old.hashes.includes(h)) || got.version !== old.version) {
        changed = true;
        ctx.print(`- Obtained ${d} checksums for ${platform}; Additional checksums for this platform are now tracked in the lock file\n`);
      } else ctx.print(`- Obtained ${d} checksums for ${platform}; All checksums for this platform were already tracked in the lock file\n`);
    }
    if (entry !== undefined) next.set(addr, { ...entry, hashes: [...hashes].sort() });
  }
  writeFileSync(join(ctx.cwd, LOCK_FILE_NAME), formatLockFile(next.values()));
  const colour = ctx.colour.stdout;
  if (changed) {
    ctx.print(`${paint(colour, "\n[bold][green]Success![reset] [bold]Terraform has updated the lock file.[reset]")}\n`);
    ctx.print("\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n");
  } else ctx.print(`${paint(colour, "\n[bold][green]Success![reset] [bold]Terraform has validated the lock file and found no need for changes.[reset]")}\n`);
}

/** Go's `json.MarshalIndent(v, "", "  ")`: keys sorted, two-space indent, no trailing newline. */
function goJson(v: unknown): string {
  const sort = (x: unknown): unknown =>
    x !== null && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])])) : Array.isArray(x) ? x.map(sort) : x;
  return JSON.stringify(sort(v), null, 2);
}

/**
 * `magma providers mirror DIR`: as `terraform providers mirror`, downloads each provider
 * of the configuration (the lock file's version, else the newest match) for each
 * `-platform` from its origin registry, authenticates it, stores it in the packed layout and
 * writes the network mirror's `index.json` and `<version>.json`.
 */
export async function providersMirrorAction(ctx: CommandContext, outDir: string, o: ProvidersMirrorOptions): Promise<void> {
  const targets = platforms(o.platform);
  const out = isAbsolute(outDir) ? outDir : resolve(ctx.cwd, outDir);
  const env = ctx.io.env;
  const cli = readCliConfig({ env });
  const http = installHttpOptions(env, hostCredentials(cli, currentPlatform(), env));
  const source = new RegistrySource(new ServiceDiscovery(cli.hosts, http), http);
  const useLock = o.lockFile !== false && o.lockFile !== "false";
  const locks = readLocks(ctx.cwd);
  const problems: CliError[] = [];
  for (const req of requirements(ctx)) {
    const p = req.provider;
    const addr = providerAddrString(p);
    ctx.print(`- Mirroring ${providerDisplay(p)}...\n`);
    let selected: string;
    try {
      const { versions } = await source.availableVersions(p);
      const ok = versions.filter((v) => versionSatisfies(v, req.constraints) && !v.includes("-")).sort(compareVersions);
      if (ok.length === 0) throw new Error(`no releases match the given constraints ${req.constraintsText}`);
      selected = ok[ok.length - 1]!;
    } catch (e) {
      problems.push(new CliError(CliErrorCode.BadInput, "Provider not available", { detail: `Failed to download ${addr} from its origin registry: ${(e as Error).message}.` }));
      continue;
    }
    const locked = locks.get(addr);
    if (locks.size > 0 && useLock && locked !== undefined) {
      selected = locked.version;
      ctx.print(`  - Selected v${selected} to match dependency lock file\n`);
    } else if (req.constraintsText !== "") ctx.print(`  - Selected v${selected} to meet constraints ${req.constraintsText}\n`);
    else ctx.print(`  - Selected v${selected} with no constraints\n`);
    for (const platform of targets) {
      ctx.print(`  - Downloading package for ${platform}...\n`);
      let meta;
      try {
        meta = await source.packageMeta(p, selected, platform);
      } catch (e) {
        problems.push(new CliError(CliErrorCode.BadInput, "Provider release not available", { detail: `Failed to download ${addr} v${selected} for ${platform}: ${(e as Error).message}.` }));
        continue;
      }
      const dir = join(out, p.hostname, p.namespace, p.type);
      mkdirSync(dir, { recursive: true });
      const target = join(dir, `terraform-provider-${p.type}_${selected}_${platform}.zip`);
      const staging = join(dir, `.terraform-provider-${p.type}_${selected}_${platform}.zip`);
      try {
        if (meta.location.kind !== "http") throw new Error("unexpected location");
        await httpDownload(meta.location.url, staging, http);
      } catch (e) {
        rmSync(staging, { force: true });
        problems.push(new CliError(CliErrorCode.BadInput, "Cannot download provider release", { detail: `Failed to download ${addr} v${selected} for ${platform}: ${(e as Error).message}.` }));
        continue;
      }
      if (meta.authenticate !== undefined) {
        try {
          const auth = await meta.authenticate(readFileSync(staging));
          ctx.print(`  - Package authenticated: ${auth.result ?? "unauthenticated"}\n`);
        } catch (e) {
          rmSync(staging, { force: true });
          problems.push(new CliError(CliErrorCode.BadInput, "Invalid provider package", { detail: `Failed to authenticate ${addr} v${selected} for ${platform}: ${(e as Error).message}.` }));
          continue;
        }
      }
      rmSync(target, { force: true });
      renameSync(staging, target);
    }
  }
  // the JSON indexes of every provider in the directory (a network mirror's files)
  const list = (d: string): string[] => (existsSync(d) ? readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : []);
  for (const host of list(out)) {
    for (const ns of list(join(out, host))) {
      for (const type of list(join(out, host, ns))) {
        const dir = join(out, host, ns, type);
        const prefix = `terraform-provider-${type}_`;
        const byVersion = new Map<string, Record<string, { url: string; hashes: string[] }>>();
        for (const name of readdirSync(dir).sort()) {
          if (!name.startsWith(prefix) || !name.endsWith(".zip")) continue;
          const parts = name.slice(prefix.length, -4).split("_");
          if (parts.length !== 3) continue;
          const [version, os, arch] = parts as [string, string, string];
          const archives = byVersion.get(version) ?? {};
          archives[`${os}_${arch}`] = { url: name, hashes: [zipPackageHashV1(readFileSync(join(dir, name)))] };
          byVersion.set(version, archives);
        }
        if (byVersion.size === 0) continue;
        writeFileSync(join(dir, "index.json"), goJson({ versions: Object.fromEntries([...byVersion.keys()].map((v) => [v, {}])) }));
        for (const [version, archives] of byVersion) writeFileSync(join(dir, `${version}.json`), goJson({ archives }));
      }
    }
  }
  if (problems.length > 0) {
    for (const e of problems.slice(0, -1)) ctx.io.stderr.write(`\nError: ${e.message}\n\n${e.detail ?? ""}\n\n`);
    throw problems[problems.length - 1]!;
  }
}

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { providerAddrString, type Config } from "@magma/config";
import {
  createProviderSource,
  currentPlatform,
  hostCredentials,
  installProviders,
  providerAddressString,
  providerDisplay,
  readCliConfig,
  type CredentialsLookup,
  type HttpOptions,
  InstallError,
  InstallErrorCode,
  type LockedProvider,
  type ProviderAddress,
  type ProviderRequirement as InstallRequirement,
} from "@magma/install";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "../commands/command-context.js";
import { nativeProviders } from "../native-providers.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import { DownloadProgress } from "./download-progress.js";
import { isBuiltInProvider, providerForDisplay, providerRequirements } from "./provider-requirements.js";
import { versionConstraintsString } from "./version-constraints-string.js";
import type { WorkingDir } from "./working-dir.js";

/** What {@link installConfigProviders} did. */
export interface InitProvidersResult {
  /** Providers whose lock entry has only this platform's local hash (terraform's warning). */
  readonly incomplete: readonly string[];
}

/** The HTTP settings installation uses: `TF_REGISTRY_CLIENT_TIMEOUT` (seconds), `SSL_CERT_FILE`/`MAGMA_CA_FILE` CAs, the CLI configuration's tokens and credentials helper. */
export function installHttpOptions(env: Readonly<Record<string, string | undefined>>, credentials: CredentialsLookup): HttpOptions {
  const t = Number(env["TF_REGISTRY_CLIENT_TIMEOUT"] ?? "");
  return { timeoutMs: Number.isFinite(t) && t > 0 ? t * 1000 : 10_000, credentials };
}

/** The remote-module settings of `magma init`/`magma get`: the CLI configuration's hosts and tokens, `-upgrade`. */
export function moduleInstallOptions(env: Readonly<Record<string, string | undefined>>, upgrade: boolean): { env: Readonly<Record<string, string | undefined>>; http: HttpOptions; upgrade: boolean } {
  return { env, http: installHttpOptions(env, hostCredentials(readCliConfig({ env }), currentPlatform(), env)), upgrade };
}

function cliErrorOf(e: InstallError): CliError {
  return new CliError(e.code === "not_found" ? CliErrorCode.NotFound : CliErrorCode.BadInput, e.summary, { detail: e.detail, cause: e });
}

/**
 * `terraform init`'s provider step through `@magma/install`: the sources of the CLI
 * configuration (or `-plugin-dir`s), the lock file's selections, the plugin cache; prints
 * terraform's lines, fills `next` with the new lock entries (native providers keep theirs).
 *
 * @throws CliError with terraform's diagnostic for the last provider that failed (the others
 *   are written to stderr before it).
 */
export async function installConfigProviders(
  ctx: CommandContext,
  wd: WorkingDir,
  config: Config,
  previous: ReadonlyMap<string, LockedProvider>,
  o: { readonly pluginDir: readonly string[] | undefined; readonly upgrade: boolean },
  next: Map<string, LockedProvider>,
): Promise<InitProvidersResult> {
  const env = ctx.io.env;
  if (o.pluginDir !== undefined && o.pluginDir.length > 0) {
    // terraform records -plugin-dir in <data dir>/plugin_path (Go's json.MarshalIndent); -plugin-dir="" removes it
    const file = join(wd.dataDir, "plugin_path");
    if (o.pluginDir.length === 1 && o.pluginDir[0] === "") rmSync(file, { force: true });
    else {
      mkdirSync(wd.dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify(o.pluginDir, null, 2));
    }
  }
  const cli = readCliConfig({ env });
  const http = installHttpOptions(env, hostCredentials(cli, currentPlatform(), env));
  const extraMirrors = (env["MAGMA_PLUGIN_DIRS"] ?? "").split(delimiter).filter((d) => d !== "");
  const pluginDirs = o.pluginDir?.filter((d) => d !== "");
  const source = createProviderSource(cli, { http, cwd: wd.dir, env, ...(pluginDirs !== undefined && pluginDirs.length > 0 ? { pluginDirs } : { extraMirrors }) });
  const reqs: InstallRequirement[] = [];
  // Terraform's installer reports the built-in providers first (no installation; no version constraint allowed).
  const builtInErrors: InstallError[] = [];
  for (const req of providerRequirements(config, { builtIn: true })) {
    if (isBuiltInProvider(req.provider)) {
      const d = providerAddrString(req.provider);
      const problem =
        req.provider.type !== "terraform"
          ? `this Terraform release has no built-in provider named ${JSON.stringify(req.provider.type)}`
          : req.constraints.length > 0
            ? "built-in providers do not support explicit version constraints"
            : undefined;
      if (problem === undefined) ctx.print(`- ${d} is built in to Terraform\n`);
      else builtInErrors.push(new InstallError(InstallErrorCode.BadConfig, "Invalid dependency on built-in provider", wordWrap(`Cannot use ${d}: ${problem}.`, terminalColumns(ctx.io.stderr))));
      continue;
    }
    const native = Object.keys(nativeProviders).find((k) => providerAddrString(req.provider) === `registry.terraform.io/${k}`);
    if (native !== undefined) {
      ctx.print(`- Using ${providerForDisplay(req.provider)} (native, built into magma)\n`);
      const keep = previous.get(req.address);
      if (keep !== undefined) next.set(req.address, keep);
      continue;
    }
    reqs.push({ provider: req.provider, constraints: req.constraints, constraintsText: versionConstraintsString(req.constraints) });
  }
  // on a terminal, the downloads under way on one status line of stderr, erased before any other output
  const bar = new DownloadProgress(ctx.io.stderr);
  const print = (text: string): void => {
    bar.clear();
    ctx.print(text);
  };
  const result = await installProviders(reqs, {
    dataDir: wd.dataDir,
    source,
    locks: previous,
    upgrade: o.upgrade,
    platform: currentPlatform(),
    ...(cli.pluginCacheDir !== undefined ? { pluginCacheDir: cli.pluginCacheDir } : {}),
    pluginCacheMayBreakLockFile: cli.pluginCacheMayBreakLockFile,
    http,
    events: {
      queryBegin: (p, req, locked) => {
        const d = providerDisplay(p);
        if (locked !== undefined) print(`- Reusing previous version of ${d} from the dependency lock file\n`);
        else if (req.constraintsText !== "") print(`- Finding ${d} versions matching ${JSON.stringify(req.constraintsText)}...\n`);
        else print(`- Finding latest version of ${d}...\n`);
      },
      alreadyInstalled: (p, v) => print(`- Using previously-installed ${providerDisplay(p)} v${v}\n`),
      linkFromCache: (p, v) => print(`- Using ${providerDisplay(p)} v${v} from the shared cache directory\n`),
      fetchBegin: (p, v) => print(`- Installing ${providerDisplay(p)} v${v}...\n`),
      // (per piece received: only for a terminal's status line)
      ...(bar.enabled ? { progress: (p: ProviderAddress, v: string, done: number, total: number | undefined) => bar.update(`${providerAddressString(p)} ${v}`, `${providerDisplay(p)} v${v}`, done, total) } : {}),
      fetchSuccess: (p, v, auth) => {
        const key = auth?.keyId !== undefined && (auth.result === "self-signed" || auth.result === "signed by a HashiCorp partner") ? `, key ID ${auth.keyId}` : "";
        print(`- Installed ${providerDisplay(p)} v${v} (${auth?.result ?? "unauthenticated"}${key})\n`);
      },
      queryWarnings: (p, warnings) => {
        bar.clear();
        ctx.io.stderr.write(`\nWarning: Additional provider information from registry\n\nThe remote registry returned warnings for ${p.hostname}/${p.namespace}/${p.type}:\n${warnings.map((w) => `- ${w}`).join("\n")}\n\n`);
      },
    },
  });
  bar.clear();
  if (result.thirdPartySigned) {
    ctx.print("Partner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing\n");
  }
  // terraform's diagnostics for the built-in providers come first (Diagnostics: each "\nError: …\n\n<detail>\n")
  for (const e of builtInErrors) ctx.io.stderr.write(`\nError: ${e.summary}\n\n${e.detail}\n`);
  const errors = [...result.errors.values()];
  if (errors.length === 0 && builtInErrors.length > 0) throw new CliError(CliErrorCode.BadInput, builtInErrors[0]!.summary, { silent: true, cause: builtInErrors[0] });
  if (errors.length > 0) {
    for (const e of errors.slice(0, -1)) ctx.io.stderr.write(`\nError: ${e.summary}\n\n${e.detail}\n\n`);
    throw cliErrorOf(errors[errors.length - 1]!);
  }
  for (const [k, v] of result.locks) next.set(k, v);
  return { incomplete: result.incomplete };
}

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch as osArch, platform as osPlatform } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LAUNCHER_TARGET_MARK } from "@magma/plugin";
import { ServeError } from "./serve-error.js";
import type { ServedProtocolVersion } from "./serve.js";

/** Options of {@link writeProviderLauncher}. */
export interface ProviderLauncherOptions {
  /** The root of the filesystem mirror (the `path` of a `filesystem_mirror` block). */
  readonly mirrorDir: string;
  /** The provider's hostname (default `registry.terraform.io`). */
  readonly hostname?: string;
  /** The provider's namespace (default `magma`). */
  readonly namespace?: string;
  /** The provider type, e.g. `random` (lowercase letters, digits and dashes). */
  readonly type: string;
  /** The version, e.g. `1.0.0` (semver without a leading `v`). */
  readonly version: string;
  /** The platform directory, `<os>_<arch>` (default: this host's, as Terraform names it, e.g. `linux_amd64`). */
  readonly platform?: string;
  /**
   * The ES module that provides the provider: an absolute path, a path relative to the
   * current directory, or a `file:` URL.
   */
  readonly module: string;
  /**
   * The module's export to serve (default `createProvider`): a function returning the
   * {@link Provider} (or a promise of it), or the provider object itself.
   */
  readonly exportName?: string;
  /** Protocol versions to serve (default `[5, 6]`: Terraform gets 6). */
  readonly protocolVersions?: readonly ServedProtocolVersion[];
  /** The `@module` of the provider's log lines (default: the type). */
  readonly name?: string;
  /** The node executable to run (default: the one running now, `process.execPath`). */
  readonly node?: string;
  /** Extra node command-line options (e.g. `--enable-source-maps`). */
  readonly nodeOptions?: readonly string[];
}

/** What {@link writeProviderLauncher} wrote. */
export interface ProviderLauncher {
  /** The provider's source address, `<hostname>/<namespace>/<type>`. */
  readonly source: string;
  /** The version directory's package directory: `<mirror>/<hostname>/<namespace>/<type>/<version>/<os>_<arch>`. */
  readonly directory: string;
  /** The executable: `<directory>/terraform-provider-<type>_v<version>`. */
  readonly executable: string;
  /** The node entry module next to it, which imports the provider and calls `serve`. */
  readonly entry: string;
}

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const HOST = /^[a-z0-9.-]+(?::[0-9]+)?$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?$/;
const PLATFORM = /^[a-z0-9]+_[a-z0-9]+$/;
/** The name of the entry module inside the package directory (not `terraform-provider-*`, so Terraform never takes it for the executable). */
const ENTRY_FILE = "magma-entry.mjs";

/**
 * Writes an executable Terraform provider that runs a TypeScript provider, in the
 * filesystem-mirror layout `<mirror>/<hostname>/<namespace>/<type>/<version>/<os>_<arch>/`:
 * `terraform-provider-<type>_v<version>` (a POSIX shell script that execs node) and
 * `magma-entry.mjs` (which imports the provider module and calls {@link serve}). With
 * `provider_installation { filesystem_mirror { path = "<mirror>" } }` in the CLI
 * configuration, `terraform init` installs it like any provider; the package directory can
 * also serve as a `dev_overrides` directory.
 *
 * The script declares the entry and the provider module (`# magma-launcher-target: <path>`
 * comments, see `LAUNCHER_TARGET_MARK` of `@magma/plugin`), so that magma's schema caches
 * see an edited module as another provider. Files the module imports are not declared:
 * turn the caches off (`schemaCache: false`, `magma --no-schema-cache`) while editing those.
 *
 * The entry imports `@magma/provider-server` and the provider module by absolute `file:`
 * URLs, so the launcher works from any directory Terraform copies or links it to, but only
 * on this machine (it is a development and test artifact, not a release archive).
 *
 * @throws {@link ServeError} `invalid_options` for a malformed hostname, namespace, type,
 * version or platform.
 */
export function writeProviderLauncher(options: ProviderLauncherOptions): ProviderLauncher {
  const hostname = options.hostname ?? "registry.terraform.io";
  const namespace = options.namespace ?? "magma";
  const { type, version } = options;
  const platform = options.platform ?? defaultPlatform();
  if (!HOST.test(hostname)) throw new ServeError("invalid_options", `hostname ${JSON.stringify(hostname)} is not a valid provider hostname`);
  if (!NAME.test(namespace)) throw new ServeError("invalid_options", `namespace ${JSON.stringify(namespace)} is not a valid provider namespace`);
  if (!NAME.test(type)) throw new ServeError("invalid_options", `type ${JSON.stringify(type)} is not a valid provider type`);
  if (!VERSION.test(version)) throw new ServeError("invalid_options", `version ${JSON.stringify(version)} is not a semantic version such as 1.0.0`);
  if (!PLATFORM.test(platform)) throw new ServeError("invalid_options", `platform ${JSON.stringify(platform)} is not of the form os_arch`);
  const exportName = options.exportName ?? "createProvider";
  if (!/^[A-Za-z_$][\w$]*$/.test(exportName)) throw new ServeError("invalid_options", `exportName ${JSON.stringify(exportName)} is not an identifier`);

  const moduleUrl = options.module.startsWith("file:") ? options.module : pathToFileURL(isAbsolute(options.module) ? options.module : resolve(options.module)).href;
  const serverUrl = pathToFileURL(createRequire(import.meta.url).resolve("@magma/provider-server")).href;

  const directory = join(options.mirrorDir, hostname, namespace, type, version, platform);
  mkdirSync(directory, { recursive: true });
  const entry = join(directory, ENTRY_FILE);
  const executable = join(directory, `terraform-provider-${type}_v${version}`);
  const serveOptions = {
    protocolVersions: options.protocolVersions ?? [5, 6],
    name: options.name ?? type,
    providerAddress: `${hostname}/${namespace}/${type}`,
  };

  writeFileSync(
    entry,
    [
      `// Generated by @magma/provider-server: serves ${hostname}/${namespace}/${type} ${version} to Terraform.`,
      `// Run with --debug to serve in debug mode and print a TF_REATTACH_PROVIDERS line.`,
      `import { serve } from ${JSON.stringify(serverUrl)};`,
      `const options = ${JSON.stringify(serveOptions)};`,
      `const debug = process.argv.includes("--debug");`,
      `await serve(async () => {`,
      `  const mod = await import(${JSON.stringify(moduleUrl)});`,
      `  const exported = mod[${JSON.stringify(exportName)}];`,
      `  if (exported === undefined) throw new Error(${JSON.stringify(`${moduleUrl} has no export ${exportName}`)});`,
      `  return typeof exported === "function" ? await exported() : exported;`,
      `}, { ...options, debug });`,
      ``,
    ].join("\n"),
  );
  const node = options.node ?? process.execPath;
  const nodeArgs = [node, ...(options.nodeOptions ?? [])].map(shellQuote).join(" ");
  // Declared so that magma's schema caches key to the provider module, not only to this script.
  const targets = [entry, fileURLToPath(moduleUrl)].filter((t) => !/[\r\n]/.test(t));
  writeFileSync(
    executable,
    [
      `#!/bin/sh`,
      `# Generated by @magma/provider-server: the Terraform provider ${hostname}/${namespace}/${type} ${version}, served by node.`,
      ...targets.map((t) => `# ${LAUNCHER_TARGET_MARK} ${t}`),
      `here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 1`,
      `exec ${nodeArgs} "$here/${ENTRY_FILE}" "$@"`,
      ``,
    ].join("\n"),
  );
  chmodSync(executable, 0o755);
  return { source: `${hostname}/${namespace}/${type}`, directory, executable, entry };
}

/** This host's platform as Terraform names it: `linux_amd64`, `darwin_arm64`, … */
function defaultPlatform(): string {
  const arches: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };
  const os = osPlatform() === "win32" ? "windows" : osPlatform();
  return `${os}_${arches[osArch()] ?? osArch()}`;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

import { readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import type { LiveProvider, ProviderFactory } from "@magma/plugin";
import { nativeProviders } from "../native-providers.js";
import { mergeTerraformEnvArgs } from "../terraform-env-args.js";

// Deliberately light: `bin/magma.ts` imports this module before anything else, so it loads
// only node's own modules (and the small argument helpers); `@magma/plugin` is imported
// when a launch starts.

/** The providers a working-directory command will launch, read from its arguments and lock file (see {@link earlyLaunchTargets}). */
export interface EarlyLaunchTargets {
  /** The working directory (`-chdir`, else the current one). */
  readonly dir: string;
  /** Its data directory (`TF_DATA_DIR`, else `.terraform`), absolute. */
  readonly dataDir: string;
  /** The locked providers: source address and the version `.terraform.lock.hcl` selected. */
  readonly providers: readonly { readonly address: string; readonly version: string }[];
}

/** The working-directory commands that launch their configuration's providers. */
const OPERATIONS = new Set(["plan", "apply", "destroy", "refresh"]);

/** The long options of those commands that take their value as the next argument (`--var x=1`). */
const VALUE_OPTIONS = new Set([
  "var",
  "var-file",
  "target",
  "replace",
  "parallelism",
  "lock-timeout",
  "out",
  "state",
  "backup",
  "config",
  "plan",
  "name",
  "plugin-dir",
  "provider-version",
  "provider-config",
  "log-level",
  "output",
  "private",
  "from",
]);

/**
 * The `provider "<address>" { version = "<v>" … }` blocks of `.terraform.lock.hcl`, read
 * loosely (the file is machine-written; the full parser is `parseLockFile`, which needs the
 * hcl package): a block it cannot read is left out.
 */
export function lockedProviders(text: string): { address: string; version: string }[] {
  const out: { address: string; version: string }[] = [];
  for (const m of text.matchAll(/^provider\s+"([^"\n]+)"\s*\{([^}]*)\}/gm)) {
    const version = /^\s*version\s*=\s*"([^"\n]+)"/m.exec(m[2]!)?.[1];
    if (version !== undefined && !out.some((p) => p.address === m[1])) out.push({ address: m[1]!, version });
  }
  return out;
}

/**
 * Which provider binaries `magma plan|apply|destroy|refresh` on a working directory is about
 * to launch, known before the program has loaded: the command line (after `TF_CLI_ARGS`) must
 * be one of those commands in its working-directory form (no `<provider> <type>` arguments, no
 * `--help`), and the providers are those of the directory's `.terraform.lock.hcl` (which
 * `magma init` and `terraform init` write for every provider the configuration and its modules
 * require). Undefined when the command is anything else or there is no readable lock file.
 * A guess that turns out wrong costs one launch: the instance is not used and is closed.
 */
export function earlyLaunchTargets(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): EarlyLaunchTargets | undefined {
  let args: string[];
  try {
    args = mergeTerraformEnvArgs(argv, env);
  } catch {
    return undefined;
  }
  let dir = cwd;
  let i = 0;
  for (; i < args.length && args[i]!.startsWith("-"); i++) {
    const m = /^--?chdir(?:=(.*))?$/s.exec(args[i]!);
    if (m === null) return undefined; // --version, --help, or a flag we do not know before the command.
    const value = m[1] ?? args[++i];
    if (value === undefined) return undefined;
    dir = resolve(cwd, value);
  }
  const command = args[i];
  if (command === undefined || !OPERATIONS.has(command)) return undefined;
  const positionals: string[] = [];
  for (i++; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    const m = /^--?([A-Za-z][A-Za-z0-9-]*)(=.*)?$/s.exec(a);
    if (m === null) {
      positionals.push(a);
      continue;
    }
    const name = m[1]!;
    if (name === "help" || name === "h") return undefined;
    if (m[2] === undefined && (VALUE_OPTIONS.has(name) || name === "o")) i++;
  }
  // `apply FILE` applies a saved plan (its providers are the locked ones too); any other
  // positional argument is the single-resource form (`plan <provider> <type>`).
  if (positionals.length > (command === "apply" ? 1 : 0)) return undefined;
  let text: string;
  try {
    text = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
  } catch {
    return undefined;
  }
  const providers = lockedProviders(text);
  if (providers.length === 0) return undefined;
  return { dir, dataDir: resolve(dir, env["TF_DATA_DIR"] || ".terraform"), providers };
}

/** Providers launched at start-up for a working-directory command (see {@link startEarlyLaunch}). */
export interface EarlyLaunch {
  /** The data directory they were resolved in. */
  readonly dataDir: string;
  /** The environment they were launched with. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Settles once the launcher (`@magma/plugin`) is loaded and the launches have begun. Awaiting
   * it before importing the rest of a program lets the launches start first: two dynamic
   * imports sharing modules would otherwise finish together.
   */
  readonly started: Promise<void>;
  /** Each launch by source address (it resolves to undefined when the launch failed or was not a plugin binary). */
  readonly launched: ReadonlyMap<string, Promise<LiveProvider | undefined>>;
  /** The binary each launch runs, by source address (undefined when it was not launched). */
  readonly binaries: ReadonlyMap<string, Promise<string | undefined>>;
  /** Abandons the launch of a source address if it is still under way (it then resolves to undefined). */
  cancel(address: string): void;
  /** Abandons the launches under way and closes every instance launched here (idempotent; one already closed by its user is left as it is). */
  close(): Promise<void>;
}

/**
 * Starts launching the providers of {@link earlyLaunchTargets} now, from the directories
 * `workdirProviders` searches (`<dataDir>/providers`, `MAGMA_PLUGIN_DIRS`, then Terraform's),
 * each at its locked version, without configuring them: a source that is not a plugin
 * binary there (one of magma's native providers, one not installed) is not launched. Failures are kept
 * quiet: the command opens the provider again and reports the error itself.
 */
export function startEarlyLaunch(targets: EarlyLaunchTargets, env: Readonly<Record<string, string | undefined>>): EarlyLaunch {
  const controllers = new Map<string, AbortController>();
  const factory: Promise<ProviderFactory> = import("@magma/plugin").then(({ createProviderFactory }) =>
    createProviderFactory({
      pluginDirs: [join(targets.dataDir, "providers"), ...(env["MAGMA_PLUGIN_DIRS"] ?? "").split(delimiter).filter((d) => d !== "")],
      environment: env,
      env,
      natives: nativeProviders,
    }),
  );
  const launched = new Map<string, Promise<LiveProvider | undefined>>();
  const binaries = new Map<string, Promise<string | undefined>>();
  for (const { address, version } of targets.providers) {
    const controller = new AbortController();
    controllers.set(address, controller);
    const binary = factory
      .then(async (f) => {
        const r = await f.resolve(address, version);
        return r.kind === "plugin" ? r.binary : undefined;
      })
      .catch(() => undefined);
    binaries.set(address, binary);
    launched.set(
      address,
      binary.then(async (b) => (b === undefined ? undefined : (await factory).open(address, { version, signal: controller.signal }))).catch(() => undefined),
    );
  }
  let closing: Promise<void> | undefined;
  return {
    dataDir: targets.dataDir,
    env,
    started: factory.then(
      () => undefined,
      () => undefined,
    ),
    launched,
    binaries,
    cancel(address) {
      controllers.get(address)?.abort(new Error("the command did not need the provider launched at start-up"));
    },
    close() {
      closing ??= (async () => {
        for (const c of controllers.values()) c.abort(new Error("the command did not need the provider launched at start-up"));
        await Promise.all([...launched.values()].map((p) => p.then((live) => live?.close()).catch(() => undefined)));
      })();
      return closing;
    },
  };
}

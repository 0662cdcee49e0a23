import { delimiter } from "node:path";
import {
  createProviderFactory,
  type LiveProvider,
  type PluginLogEntry,
  type PlainConfig,
} from "@magma/plugin";
import type { OperationTarget } from "./operations.js";
import { buildConfig } from "./operations.js";
import type { ProviderOrigin } from "./schema-view.js";
import type { Spinner } from "./spinner.js";
import { nativeProviders } from "./native-providers.js";

import type { LogLevel } from "./log-levels.js";

export { LogLevels, type LogLevel } from "./log-levels.js";

export { nativeProviders } from "./native-providers.js";

/** Options of {@link openProviderSession}. */
export interface ProviderSessionOptions {
  /** A source address, a path to a binary, or a native provider's name. */
  readonly ref: string;
  /** Directories searched first (`--plugin-dir`), before `MAGMA_PLUGIN_DIRS` and Terraform's usual places. */
  readonly pluginDirs?: readonly string[];
  /** A version constraint for a source address (`--provider-version`). */
  readonly providerVersion?: string;
  /** The provider configuration; when absent the provider is not configured (enough for `schema`). */
  readonly providerConfig?: PlainConfig;
  /** Which provider log lines to show on stderr (default `off`). */
  readonly logLevel?: LogLevel;
  /** The environment (for `MAGMA_PLUGIN_DIRS`, Terraform's variables and the provider's own). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress while the provider starts. */
  readonly spinner: Spinner;
  /** Receives provider log lines (already filtered by level). */
  readonly log: (line: string) => void;
  /** Cancels the launch and every call. */
  readonly signal?: AbortSignal;
  /** `false` (`--no-schema-cache`): no schema cache or validation memory is read or written. */
  readonly schemaCache?: boolean;
}

/** An open provider with what the commands need; close it when done. */
export interface ProviderSession extends OperationTarget {
  /** The provider. */
  readonly live: LiveProvider;
  /** Where it came from. */
  readonly origin: ProviderOrigin;
  /** Closes the provider (idempotent). */
  close(): Promise<void>;
}

const LEVEL_RANK: Readonly<Record<string, number>> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

/** The plugin directories: the given ones, then `MAGMA_PLUGIN_DIRS` (colon-separated). */
export function pluginDirsFrom(given: readonly string[] | undefined, env: Readonly<Record<string, string | undefined>>): string[] {
  const fromEnv = (env["MAGMA_PLUGIN_DIRS"] ?? "").split(delimiter).filter((d) => d !== "");
  return [...(given ?? []), ...fromEnv];
}

/** Maps a bare native name (`random`) to its registered address (`magma/random`). */
export function nativeRef(ref: string): string {
  if (!ref.includes("/")) {
    const hit = Object.keys(nativeProviders).find((k) => k.endsWith(`/${ref}`));
    if (hit !== undefined) return hit;
  }
  return ref;
}

/**
 * Opens a provider as the CLI does: resolves the reference (native name, binary path, or
 * source address in `--plugin-dir`, `MAGMA_PLUGIN_DIRS` and Terraform's directories),
 * launches it with a spinner on a terminal, and configures it when a configuration is
 * given (`--provider-config` errors name the option).
 */
export async function openProviderSession(o: ProviderSessionOptions): Promise<ProviderSession> {
  const level = o.logLevel ?? "off";
  const env: Record<string, string | undefined> = { ...o.env };
  if (level !== "off") env["TF_LOG_PROVIDER"] = level.toUpperCase();
  const factory = createProviderFactory({
    pluginDirs: pluginDirsFrom(o.pluginDirs, o.env),
    environment: o.env,
    env,
    natives: nativeProviders,
    ...(o.schemaCache === false ? { schemaCache: false } : {}),
    logger: {
      log(entry: PluginLogEntry) {
        if (level === "off" || (LEVEL_RANK[entry.level] ?? 0) < LEVEL_RANK[level]!) return;
        o.spinner.clear();
        o.log(`[provider] ${entry.level.toUpperCase()} ${entry.message}`);
      },
    },
  });
  const ref = nativeRef(o.ref);
  const resolved = await factory.resolve(ref, o.providerVersion);
  const origin: { -readonly [K in keyof ProviderOrigin]: ProviderOrigin[K] } = { ref: o.ref, kind: resolved.kind === "native" ? "native" : "plugin" };
  if (resolved.kind === "plugin") {
    origin.address = `${resolved.address.hostname}/${resolved.address.namespace}/${resolved.address.type}`;
    origin.version = resolved.version;
  } else if (resolved.kind === "native") origin.address = resolved.address;
  const label = resolved.kind === "plugin" ? `${origin.address} ${resolved.version}` : resolved.kind === "native" ? `${o.ref} (native)` : resolved.binary;
  o.spinner.start(`starting ${label}`);
  let live: LiveProvider;
  try {
    const opts: { version?: string; signal?: AbortSignal } = {};
    if (o.providerVersion !== undefined) opts.version = o.providerVersion;
    if (o.signal !== undefined) opts.signal = o.signal;
    live = await factory.open(ref, opts);
  } finally {
    o.spinner.stop();
  }
  origin.binary = live.binary;
  origin.protocolVersion = live.protocolVersion;
  try {
    if (o.providerConfig !== undefined) {
      o.spinner.start(`configuring ${label}`);
      const config = buildConfig("--provider-config", live.schema.provider, o.providerConfig);
      await live.provider.configure(config, "1.11.4", o.signal === undefined ? undefined : { signal: o.signal });
      o.spinner.stop();
    }
  } catch (e) {
    o.spinner.stop();
    await live.close();
    throw e;
  }
  const session: ProviderSession = {
    live,
    origin,
    provider: live.provider,
    schema: live.schema,
    close: () => live.close(),
  };
  if (o.signal !== undefined) (session as { signal?: AbortSignal }).signal = o.signal;
  return session;
}

import { basename } from "node:path";
import { Value } from "@magma/cty";
import { configValue, type PlainConfig, type Provider, type ProviderSchema } from "@magma/provider-api";
import { launchPlugin } from "./launch.js";
import { PluginLogLevel, PluginLogSource, type PluginLogger } from "./plugin-logger.js";
import { safeLog } from "./internal/log/safe-log.js";
import { environmentDigest, fileValidationMemory } from "./validation-memory.js";
import { binaryIdentity, defaultSchemaCacheDir, readSchemaCache, writeSchemaCache, type BinaryIdentity } from "./schema-cache.js";
import type { PluginProcess } from "./plugin-process.js";
import type { ProviderConn } from "./provider-conn.js";
import type { SchemaStore } from "./internal/schema-store.js";
import type { WireProviderConnOptions } from "./internal/wire-provider-conn.js";
import { parseReattachProviders, type ReattachConfig } from "./reattach.js";
import type { CallGate, CallGateOptions } from "./internal/call-gate.js";
import { loadGrpcStack } from "./internal/load-grpc-stack.js";
import { protocolMismatch } from "./internal/error-map/protocol-mismatch.js";
import { resolveProviderBinary, type ResolveProviderOptions } from "./resolve-provider.js";

/**
 * Where the provider comes from: exactly one of `binary` (a path to the executable),
 * `source` (a source address such as `hashicorp/aws`, resolved as Terraform resolves it),
 * or `reattach` (an already running provider, as in `TF_REATTACH_PROVIDERS`).
 */
export interface ProviderLocation {
  /** Path to a provider executable. */
  readonly binary?: string;
  /**
   * A provider source address (`aws`, `hashicorp/aws`, `registry.terraform.io/hashicorp/aws`),
   * found in the plugin directories (see {@link ResolveProviderOptions}).
   */
  readonly source?: string;
  /** With `source`: a Terraform version constraint such as `~> 5.0` (default: the newest found). */
  readonly version?: string;
  /**
   * An already running provider: the JSON of `TF_REATTACH_PROVIDERS` (with `source` naming
   * the entry when it has several), or one parsed entry.
   */
  readonly reattach?: string | ReattachConfig;
}

/** Options of {@link dialProvider}. */
export interface DialProviderOptions extends ProviderLocation, ResolveProviderOptions {
  /** Protocol versions to offer, most preferred last as go-plugin sorts them (default `[5, 6]`). */
  readonly protocolVersions?: readonly number[];
  /**
   * AutoMTLS between magma and the provider (default `true`, unless the host's
   * `TF_DISABLE_PLUGIN_TLS` is set, as in Terraform).
   */
  readonly tls?: boolean;
  /**
   * The provider's environment. Default: the host's environment (`process.env`), to which
   * magma adds only the go-plugin variables (magic cookie, protocol versions, port range,
   * private socket directory, client certificate) and, unless `sdkLogs` is true, the
   * `TF_LOG_SDK*=off` variables that silence the SDK's always-on TRACE logging.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Keep the SDK's TRACE logs (default `false`). */
  readonly sdkLogs?: boolean;
  /** How long to wait for the handshake line (default 60000 ms, as go-plugin). */
  readonly startTimeoutMs?: number;
  /** Receives the provider's log lines (hclog JSON and plain `[LEVEL]` lines). */
  readonly logger?: PluginLogger;
  /** Cancels the launch. */
  readonly signal?: AbortSignal;
  /** See {@link ProviderConnOptions.validate} (default `true`). */
  readonly validate?: boolean;
  /** See {@link ProviderConnOptions.callTimeoutMs} (default: none). */
  readonly callTimeoutMs?: number;
  /** See {@link ProviderConnOptions.maxConcurrentCalls} (default 128). */
  readonly maxConcurrentCalls?: number;
  /**
   * The provider-wide cancellation: when it aborts, StopProvider is sent (as Terraform does
   * when the whole operation is interrupted), cancelling every call in flight; see
   * {@link LiveProvider.stop}. A call's own `signal` cancels only that call.
   */
  readonly stopSignal?: AbortSignal;
  /** A schema known for this binary, used when the provider allows skipping GetSchema. */
  readonly cachedSchema?: ProviderSchema;
  /**
   * The on-disk schema cache directory, or `false` for none. Default:
   * `$XDG_CACHE_HOME/magma/schemas` (else `~/.cache/magma/schemas`).
   *
   * Each launched binary's GetSchema reply is stored there in its wire form with the
   * protocol version, keyed to the exact binary (real path, size, mtime, ctime, device,
   * inode and SHA-256 of its first and last MiB, all re-read at every launch; for a script
   * launcher, the same of every file it declares with a `LAUNCHER_TARGET_MARK` comment, as
   * `writeProviderLauncher` declares its provider module) and checksummed. Only a regular
   * file of at most 128 MiB is read (never a FIFO, device or symbolic link), and the read
   * honours `signal`. A later launch of the same binary uses it without GetSchema only when the
   * stored reply has `get_provider_schema_optional`, as Terraform does; otherwise GetSchema
   * is called and the file rewritten. Corrupt or foreign files are ignored and replaced;
   * writes are atomic (temporary file, then rename). Not used for `reattach`.
   *
   * The same directory remembers provider configurations that the binary validated with no
   * diagnostics, keyed to the binary, the configuration's bytes and a digest of the
   * provider's environment (`<file>.validated.json`, at most 64): `configure` skips a
   * validation whose clean answer is already known (hashicorp/aws spends seconds in
   * PrepareProviderConfig when an `endpoints` block is set). Configurations that produced
   * any diagnostic are validated every time.
   */
  readonly schemaCacheDir?: string | false;
  /**
   * `false` turns every schema cache off: no on-disk schema cache or validation memory (as
   * `schemaCacheDir: false`), and a provider factory neither reuses nor keeps
   * schemas in memory, so each launch calls GetSchema. Use it while editing a provider
   * whose launcher does not declare every file it runs (`LAUNCHER_TARGET_MARK`). Default `true`.
   */
  readonly schemaCache?: boolean;
  /**
   * How a cached schema is confirmed (default `identity`): `identity` trusts the binary
   * identity above (no RPC, like Terraform's own cache); `metadata` also calls GetMetadata
   * and requires the same server capabilities and type names. Beware: providers built with
   * terraform-plugin-mux (hashicorp/aws 5.x among them) answer later per-type calls with
   * "Invalid Provider Server Combination: Duplicate ... type" diagnostics once GetMetadata
   * has been called before GetSchema, so `metadata` suits only providers without that bug.
   */
  readonly schemaCacheCheck?: "identity" | "metadata";
}

/** Options of {@link dialConfiguredProvider}. */
export interface DialConfiguredProviderOptions extends DialProviderOptions {
  /**
   * The provider configuration: a cty value of the provider schema's type, or a plain
   * object converted with `configValue` exactly as Terraform would build it from the same
   * configuration (absent attributes null, absent blocks empty).
   */
  readonly config?: Value | PlainConfig;
  /** The Terraform version reported to the provider (default `"1.11.4"`). */
  readonly terraformVersion?: string;
}

/**
 * A running, connected provider that the caller owns: call {@link LiveProvider.close}
 * when done (the process is also killed if the host exits first).
 */
export interface LiveProvider {
  /** The contract. Calls other than `getSchema` need `configure` first. */
  readonly provider: Provider;
  /** The provider's schema (fetched once; each type's part is decoded on first use). */
  readonly schema: ProviderSchema;
  /** `plugin` for a provider process, `native` for a TypeScript provider running in-process. */
  readonly kind: "plugin" | "native";
  /** The negotiated protocol version (5 or 6); undefined for a native provider. */
  readonly protocolVersion: 5 | 6 | undefined;
  /** The provider process id; undefined for a native provider. */
  readonly pid: number | undefined;
  /** The executable, when magma launched it. */
  readonly binary: string | undefined;
  /**
   * Asks the provider to stop every operation under way (StopProvider): the provider-wide
   * cancellation, unlike a call's own `signal`, which cancels only that call. SDKv2
   * providers (hashicorp/aws) fail every call in flight with "context canceled" and stay
   * stopped for later calls, so close the provider after it. Resolves with the provider's
   * error text (empty when it stopped cleanly); a native provider has no provider-wide
   * stop and resolves `""` at once.
   */
  stop(): Promise<string>;
  /**
   * Shuts the provider down as Terraform does: calls still waiting for a slot reject with
   * `canceled` at once, later calls are refused with `canceled`; StopProvider if calls are
   * under way, then GRPCController.Shutdown (UNAVAILABLE counts as success), up to 2 s for
   * the exit, then SIGKILL; removes the socket. Calls cut off reject with `canceled`.
   * Idempotent; never rejects.
   */
  close(): Promise<void>;
}

/** The Terraform version magma reports by default: the one its protocol facts were checked against. */
export const defaultTerraformVersion = "1.11.4";

/**
 * Launches (or reattaches to) a provider, completes the go-plugin handshake, and fetches
 * its schema. The provider is not configured yet.
 *
 * @throws ProviderError `handshake_failed`, `protocol_mismatch`, `plugin_exited` (with the
 * exit status and stderr tail), `provider_not_found` (a missing or non-executable binary, or
 * no binary for a source address: the directories searched are named), `diagnostics` (schema errors).
 */
export async function dialProvider(options: DialProviderOptions): Promise<LiveProvider> {
  const given = [options.binary, options.source, options.reattach].filter((x) => x !== undefined).length;
  if (given !== 1 && !(options.reattach !== undefined && options.source !== undefined && given === 2)) {
    throw new TypeError("dialProvider needs exactly one of binary, source or reattach");
  }
  let plugin: PluginProcess;
  let binary: string | undefined;
  let store: SchemaStore | undefined;
  /** The cache directory and the binary's identity, computed once for the schema and validation caches. */
  let cache: { dir: string; identity: Promise<BinaryIdentity | undefined> } | undefined;
  if (options.reattach !== undefined) {
    const config = pickReattach(options.reattach, options.source);
    const ro: { logger?: PluginLogger } = {};
    if (options.logger !== undefined) ro.logger = options.logger;
    plugin = await (await loadGrpcStack()).reattachPlugin(config, ro);
  } else {
    binary = options.binary ?? (await resolveProviderBinary(options.source!, options)).binary;
    const cacheDir = options.schemaCache === false ? false : (options.schemaCacheDir ?? defaultSchemaCacheDir());
    // Identify the binary and read its cache file while the provider starts.
    if (cacheDir !== false) cache = { dir: cacheDir, identity: binaryIdentity(binary).catch(() => undefined) };
    // The gRPC stack (which decodes a cached reply too) is imported only once the binary is
    // spawned, so that the provider's start-up overlaps the import.
    let onSpawned!: () => void;
    const spawned = new Promise<void>((resolve) => (onSpawned = resolve));
    if (cache !== undefined && options.cachedSchema === undefined) {
      store = schemaStore(cache.dir, binary, cache.identity, spawned, options.schemaCacheCheck ?? "identity", options.logger, options.signal);
    }
    const lo: Parameters<typeof launchPlugin>[0] = { command: binary, onSpawned };
    const mutable = lo as { -readonly [K in keyof typeof lo]: (typeof lo)[K] };
    if (options.protocolVersions !== undefined) mutable.protocolVersions = options.protocolVersions;
    if (options.tls !== undefined) mutable.tls = options.tls;
    if (options.env !== undefined) mutable.env = options.env;
    if (options.sdkLogs !== undefined) mutable.sdkLogs = options.sdkLogs;
    if (options.startTimeoutMs !== undefined) mutable.startTimeoutMs = options.startTimeoutMs;
    if (options.logger !== undefined) mutable.logger = options.logger;
    if (options.signal !== undefined) mutable.signal = options.signal;
    plugin = await launchPlugin(lo);
  }
  try {
    const version = plugin.protocolVersion;
    if (version !== 5 && version !== 6) throw protocolMismatch(version, [5, 6]);
    const connOptions: { -readonly [K in keyof WireProviderConnOptions]?: WireProviderConnOptions[K] } = {};
    if (options.validate !== undefined) connOptions.validate = options.validate;
    if (options.callTimeoutMs !== undefined) connOptions.callTimeoutMs = options.callTimeoutMs;
    if (options.cachedSchema !== undefined) connOptions.cachedSchema = options.cachedSchema;
    if (store !== undefined) connOptions.schemaStore = store;
    if (cache !== undefined) {
      const { env: providerEnv = process.env } = options;
      connOptions.validationMemory = fileValidationMemory(cache.dir, cache.identity, version, environmentDigest(providerEnv));
    }
    connOptions.label = binary === undefined ? "reattached provider" : basename(binary);
    const gateOptions: { -readonly [K in keyof CallGateOptions]: CallGateOptions[K] } = { label: connOptions.label };
    if (options.maxConcurrentCalls !== undefined) gateOptions.maxConcurrentCalls = options.maxConcurrentCalls;
    if (options.callTimeoutMs !== undefined) gateOptions.callTimeoutMs = options.callTimeoutMs;
    const grpc = await loadGrpcStack();
    const gate = new grpc.CallGate(plugin, gateOptions);
    connOptions.callGate = gate;
    const wire = await grpc.loadWireVersion(version);
    const conn = new grpc.WireProviderConn(wire.createClient(plugin.transport), plugin, connOptions);
    const schema = await conn.getSchema(options.signal === undefined ? undefined : { signal: options.signal });
    return new PluginLiveProvider(conn, schema, plugin, binary, gate, options.stopSignal);
  } catch (e) {
    await plugin.close();
    throw e;
  }
}

/**
 * {@link dialProvider}, then `configure` with the given configuration: the one call most
 * programs need.
 *
 * @throws as {@link dialProvider}, plus ProviderError `diagnostics` when the provider
 * rejects the configuration, and cty's `PathError` when a plain configuration does not fit
 * the provider schema. The process is closed on any failure.
 */
export async function dialConfiguredProvider(options: DialConfiguredProviderOptions): Promise<LiveProvider> {
  const live = await dialProvider(options);
  try {
    const config = options.config instanceof Value ? options.config : configValue(live.schema.provider.block, options.config ?? {});
    const co = options.signal === undefined ? undefined : { signal: options.signal };
    await live.provider.configure(config, options.terraformVersion ?? defaultTerraformVersion, co);
    return live;
  } catch (e) {
    await live.close();
    throw e;
  }
}

class PluginLiveProvider implements LiveProvider {
  readonly kind = "plugin" as const;
  readonly provider: ProviderConn;
  readonly schema: ProviderSchema;
  readonly binary: string | undefined;
  readonly #plugin: PluginProcess;
  readonly #gate: CallGate;
  #closing: Promise<void> | undefined;

  constructor(conn: ProviderConn, schema: ProviderSchema, plugin: PluginProcess, binary: string | undefined, gate: CallGate, stopSignal: AbortSignal | undefined) {
    this.provider = conn;
    this.schema = schema;
    this.#plugin = plugin;
    this.binary = binary;
    this.#gate = gate;
    if (stopSignal !== undefined) {
      const onStop = (): void => void this.stop().catch(() => undefined);
      if (stopSignal.aborted) onStop();
      else stopSignal.addEventListener("abort", onStop, { once: true });
      void plugin.exited.then(() => stopSignal.removeEventListener("abort", onStop));
    }
  }

  stop(): Promise<string> {
    return this.provider.stop();
  }

  get protocolVersion(): 5 | 6 {
    return this.provider.protocolVersion;
  }

  get pid(): number {
    return this.#plugin.pid;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#gate.closing();
      await this.#plugin.close({
        beforeShutdown: async () => {
          if (this.provider.inflight > 0) {
            await Promise.race([this.provider.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
          }
        },
      });
      this.#gate.closed();
    })();
    return this.#closing;
  }
}

/**
 * A {@link SchemaStore} for one binary in a cache directory. The identity and the file are
 * read at once (concurrently with the launch), the reply decoded once the binary is spawned
 * (decoding needs the gRPC stack, which is imported only then); the identity is read again
 * before a write, so a binary replaced meanwhile is not cached under its old identity.
 */
function schemaStore(
  dir: string,
  binary: string,
  identity: Promise<BinaryIdentity | undefined>,
  spawned: Promise<void>,
  check: "identity" | "metadata",
  logger: PluginLogger | undefined,
  signal: AbortSignal | undefined,
): SchemaStore {
  // Read as soon as the binary is identified and decoded as soon as it is spawned, while the
  // provider process is still starting (~0.2 s for hashicorp/aws), instead of after the
  // handshake. (`load` is called only after a launch, so `spawned` has settled by then.)
  const loaded = identity.then(async (id) => {
    const entry = id === undefined ? undefined : await readSchemaCache(dir, id, { signal });
    if (entry === undefined) return undefined;
    await spawned;
    const grpc = await loadGrpcStack();
    // The stored reply names its protocol version: only that version's code is loaded.
    return grpc.prepareCachedSchema(entry, (await grpc.loadWireVersion(entry.protocolVersion)).messages);
  });
  loaded.catch(() => undefined);
  return {
    check,
    load: () => loaded,
    async save(entry) {
      const id = await identity;
      if (id === undefined) throw new Error(`cannot identify ${binary}`);
      const now = await binaryIdentity(binary);
      if (JSON.stringify(now) !== JSON.stringify(id)) throw new Error(`${binary} changed since it was launched`);
      await writeSchemaCache(dir, id, entry);
    },
    report(event, detail) {
      if (logger === undefined) return;
      safeLog(logger, {
        level: event === "store_failed" ? PluginLogLevel.Warn : PluginLogLevel.Debug,
        message: `schema cache ${event}${detail === undefined ? "" : `: ${detail}`}`,
        fields: { binary, dir },
        source: PluginLogSource.Host,
      });
    },
  };
}

function pickReattach(reattach: string | ReattachConfig, source: string | undefined): ReattachConfig {
  if (typeof reattach !== "string") return reattach;
  const all = parseReattachProviders(reattach);
  const keys = Object.keys(all);
  if (source !== undefined) {
    const hit = keys.find((k) => k === source || k.endsWith(`/${source}`));
    if (hit === undefined) throw new TypeError(`TF_REATTACH_PROVIDERS has no entry for ${JSON.stringify(source)} (it has ${keys.join(", ")})`);
    return all[hit]!;
  }
  if (keys.length !== 1) throw new TypeError(`TF_REATTACH_PROVIDERS has ${keys.length} entries; name one with source`);
  return all[keys[0]!]!;
}

import { statSync, realpathSync } from "node:fs";
import { Value } from "@magma/cty";
import { configValue, type PlainConfig, type Provider, type ProviderSchema } from "@magma/provider-api";
import {
  defaultTerraformVersion,
  dialProvider,
  type DialProviderOptions,
  type LiveProvider,
} from "./dial-provider.js";
import { parseProviderSource, resolveProviderBinary, type ResolvedProvider } from "./resolve-provider.js";
import { launcherTargetsSync } from "./launcher-targets.js";
import { checkRecycleOptions, RecyclingLiveProvider, type RecycleOptions } from "./recycling-live-provider.js";

/** Makes a native provider instance (a plain function, not a class); called once per {@link ProviderFactory.open}. */
export type NativeProviderFactoryFn = () => Provider | Promise<Provider>;

/**
 * @deprecated Renamed {@link NativeProviderFactoryFn} (it is a factory function, not a
 * constructor); this alias goes in the next minor release.
 */
export type NativeProviderConstructor = NativeProviderFactoryFn;

/** Options of {@link createProviderFactory}: defaults for every provider it opens. */
export type ProviderFactoryOptions = Omit<DialProviderOptions, "binary" | "source" | "version" | "reattach" | "cachedSchema" | "signal" | "stopSignal"> & {
  /** Native providers by source address or name (`"random"`, `"magma/random"`), served in-process. */
  readonly natives?: Readonly<Record<string, NativeProviderFactoryFn>>;
  /**
   * Replace each provider process it opens after some use (not native providers): after
   * `afterCalls` calls, or once its resident set exceeds `afterRssBytes`. New calls then
   * wait for the calls under way, a fresh process is started and configured as the old one
   * was, and the old one is closed; the `LiveProvider` and its `provider` stay the same
   * objects. For long-lived hosts: hashicorp/aws's heap grows about 17 KiB per
   * ReadDataSource. Default: never.
   */
  readonly recycle?: RecycleOptions;
};

/** Options of one {@link ProviderFactory.open} call. */
export interface OpenProviderOptions {
  /** A version constraint for a source address (`~> 5.0`). */
  readonly version?: string;
  /**
   * Configure the provider with this configuration before handing it out: a cty value of
   * the provider schema's type, or a plain object (converted as Terraform would). Without
   * it the provider is returned unconfigured.
   */
  readonly config?: Value | PlainConfig;
  /** The Terraform version reported by `configure` (default `"1.11.4"`). */
  readonly terraformVersion?: string;
  /** Cancels the launch. */
  readonly signal?: AbortSignal;
}

/** How the factory found a provider reference. */
export type ResolvedReference =
  | { readonly kind: "native"; readonly address: string }
  | ({ readonly kind: "plugin" } & ResolvedProvider)
  | { readonly kind: "binary"; readonly binary: string };

/**
 * Hands out providers by reference: a source address resolved as Terraform resolves it, a
 * path to a binary, or the name of a native provider registered with it. Each
 * {@link ProviderFactory.open} returns a new, owned {@link LiveProvider}; the factory keeps
 * each binary's schema so that later opens of the same binary skip GetSchema where the
 * provider allows it (`get_provider_schema_optional`).
 */
export interface ProviderFactory {
  /** Registers a native provider under a source address or name (replacing any earlier one). */
  register(name: string, create: NativeProviderFactoryFn): void;
  /**
   * Says what a reference denotes, without starting anything.
   *
   * @throws ProviderError `provider_not_found` naming the directories searched when a source
   * address is not found.
   */
  resolve(ref: string, version?: string): Promise<ResolvedReference>;
  /** Opens a provider; see {@link OpenProviderOptions}. The caller must `close()` it. */
  open(ref: string, options?: OpenProviderOptions): Promise<LiveProvider>;
  /** How many binaries' schemas are cached. */
  readonly cachedSchemas: number;
}

/**
 * Makes a {@link ProviderFactory}.
 *
 * @throws TypeError when a `recycle` limit is not a positive integer.
 *
 * ```ts
 * const factory = createProviderFactory({ pluginDirs: ["/opt/tf-plugins"], natives: { random: createRandomProvider } });
 * const aws = await factory.open("hashicorp/aws", { version: "~> 5.0", config: { region: "us-east-1" } });
 * ```
 */
export function createProviderFactory(options: ProviderFactoryOptions = {}): ProviderFactory {
  const natives = new Map<string, NativeProviderFactoryFn>();
  const schemas = new Map<string, ProviderSchema>();
  const { natives: initial, recycle, ...dialDefaults } = options;
  if (recycle !== undefined) checkRecycleOptions(recycle);

  const register = (name: string, create: NativeProviderFactoryFn): void => {
    natives.set(nativeKey(name), create);
  };
  for (const [name, create] of Object.entries(initial ?? {})) register(name, create);

  const resolve = async (ref: string, version?: string): Promise<ResolvedReference> => {
    const key = nativeKey(ref);
    if (natives.has(key)) return { kind: "native", address: key };
    if (looksLikePath(ref)) return { kind: "binary", binary: ref };
    const r = await resolveProviderBinary(ref, version === undefined ? dialDefaults : { ...dialDefaults, version });
    return { kind: "plugin", ...r };
  };

  const open = async (ref: string, o: OpenProviderOptions = {}): Promise<LiveProvider> => {
    const resolved = await resolve(ref, o.version);
    let live: LiveProvider;
    if (resolved.kind === "native") {
      live = await openNative(natives.get(resolved.address)!);
    } else {
      const binary = resolved.binary;
      const key = dialDefaults.schemaCache === false ? undefined : binaryKey(binary);
      const cached = key === undefined ? undefined : schemas.get(key);
      const dial: { -readonly [K in keyof DialProviderOptions]: DialProviderOptions[K] } = { ...dialDefaults, binary };
      if (cached !== undefined) dial.cachedSchema = cached;
      if (o.signal !== undefined) dial.signal = o.signal;
      live = await dialProvider(dial);
      if (key !== undefined) schemas.set(key, live.schema);
      if (recycle !== undefined) {
        const { signal: _launchOnly, ...again } = dial;
        const schema = live.schema;
        live = new RecyclingLiveProvider(live, () => dialProvider({ ...again, cachedSchema: schema }), recycle);
      }
    }
    if (o.config === undefined) return live;
    try {
      const config = o.config instanceof Value ? o.config : configValue(live.schema.provider.block, o.config);
      await live.provider.configure(config, o.terraformVersion ?? defaultTerraformVersion, o.signal === undefined ? undefined : { signal: o.signal });
      return live;
    } catch (e) {
      await live.close();
      throw e;
    }
  };

  return {
    register,
    resolve,
    open,
    get cachedSchemas() {
      return schemas.size;
    },
  };
}

async function openNative(create: NativeProviderFactoryFn): Promise<LiveProvider> {
  const provider = await create();
  const schema = await provider.getSchema();
  return {
    kind: "native",
    provider,
    schema,
    protocolVersion: undefined,
    pid: undefined,
    binary: undefined,
    // The contract has no provider-wide stop: a native provider's calls end by their own signals.
    stop: () => Promise.resolve(""),
    close: () => Promise.resolve(),
  };
}

function nativeKey(name: string): string {
  try {
    const a = parseProviderSource(name);
    return `${a.hostname}/${a.namespace}/${a.type}`;
  } catch {
    return name;
  }
}

function looksLikePath(ref: string): boolean {
  if (ref.startsWith("/") || ref.startsWith("./") || ref.startsWith("../") || ref.startsWith("~")) return true;
  try {
    return statSync(ref).isFile();
  } catch {
    return false;
  }
}

/**
 * Identifies a binary's exact contents cheaply: real path, size, modification and change
 * times, device, inode; for a script launcher, the same of each file it declares (see
 * `LAUNCHER_TARGET_MARK`).
 */
function binaryKey(binary: string): string | undefined {
  const keyOf = (file: string): string => {
    const real = realpathSync(file);
    const s = statSync(real);
    return `${real}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.dev}\0${s.ino}`;
  };
  try {
    return [keyOf(binary), ...launcherTargetsSync(binary).map(keyOf)].join("\n");
  } catch {
    return undefined;
  }
}

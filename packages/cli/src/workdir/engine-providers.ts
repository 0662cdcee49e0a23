import { dirname, join } from "node:path";
import { prelaunchedProviderSource, type OpenedProvider, type ProviderSource, type ProviderSourceOpenOptions } from "@magma/engine";
import { createProviderFactory, type LiveProvider, type ProviderFactory } from "@magma/plugin";
import type { ProviderSchema } from "@magma/provider-api";
import { nativeProviders, pluginDirsFrom } from "../provider-session.js";
import { terraformLogFor } from "../logging/terraform-log.js";
import type { EarlyLaunch } from "./early-launch.js";

/** The providers of a working-directory command: where the engine opens them, and the schemas seen. */
export interface WorkdirProviders {
  /** What the engine opens providers from (natives first, then `.terraform/providers`, then Terraform's usual places). */
  readonly source: ProviderSource;
  /** The schema of every provider opened so far, by source address (for the renderers). */
  readonly schemas: Map<string, ProviderSchema>;
  /** Every provider opened and not yet closed. */
  readonly open: Set<OpenedProvider>;
  /** Closes the providers launched at start-up that the command did not use (the opened ones are closed through {@link open}). */
  close(): Promise<void>;
}

/**
 * A {@link ProviderSource} for a working directory, over `@magma/plugin`'s factory: the
 * native providers magma ships (`magma/random`, Terraform's built-in `terraform.io/builtin/terraform`
 * reading remote state relative to `dir`, default the data directory's parent), then the packages `magma init` linked under
 * `<dataDir>/providers`, then `MAGMA_PLUGIN_DIRS` and Terraform's directories. It records
 * each provider's schema by source address, for rendering plans and states.
 *
 * With `early` (providers launched at start-up for this data directory and environment, see
 * `startEarlyLaunch`), the first open of a launched source address takes that instance when
 * it runs the binary this source would launch for the open's version constraint; instances
 * not taken are closed by {@link WorkdirProviders.close}.
 */
export function workdirProviders(dataDir: string, env: Readonly<Record<string, string | undefined>>, early?: EarlyLaunch, dir?: string): WorkdirProviders {
  // TF_LOG/TF_LOG_PROVIDER: the providers' own log lines are passed through as terraform's plugin client passes them (the SDK's logs kept, as terraform keeps them).
  const log = terraformLogFor(env);
  if (log?.providerLogger !== undefined) log.log("debug", "created provider logger", { level: log.providerLevel });
  const factory: ProviderFactory = createProviderFactory({
    pluginDirs: pluginDirsFrom([join(dataDir, "providers")], env),
    environment: env,
    env,
    natives: {
      ...nativeProviders,
      // Terraform's built-in provider reads remote state relative to the working directory, with the command's environment.
      "terraform.io/builtin/terraform": async () => (await import("@magma/provider-terraform")).createTerraformProvider({ dir: dir ?? dirname(dataDir), env }),
    },
    ...(log?.providerLogger === undefined ? {} : { logger: log.providerLogger, sdkLogs: true }),
  });
  const schemas = new Map<string, ProviderSchema>();
  const open = new Set<OpenedProvider>();
  const launch = {
    open(address: string, options: ProviderSourceOpenOptions = {}): Promise<LiveProvider> {
      const o: { version?: string; signal?: AbortSignal } = {};
      if (options.version !== undefined) o.version = options.version;
      if (options.signal !== undefined) o.signal = options.signal;
      return factory.open(address, o);
    },
  };
  const usable = early !== undefined && early.dataDir === dataDir && early.env === env ? early : undefined;
  const prelaunched =
    usable === undefined
      ? undefined
      : prelaunchedProviderSource(launch, usable.launched, {
          // Only when it runs the binary this open would launch (the installed package the version constraint selects).
          accept: async (address, options) => {
            const binary = await usable.binaries.get(address);
            const now = await factory.resolve(address, options.version).catch(() => undefined);
            return binary !== undefined && now?.kind === "plugin" && now.binary === binary;
          },
          cancel: (address) => usable.cancel(address),
        });
  const source: ProviderSource = {
    async open(address: string, options: ProviderSourceOpenOptions = {}): Promise<OpenedProvider> {
      const live = await (prelaunched ?? launch).open(address, options);
      schemas.set(address, live.schema);
      const opened: OpenedProvider = {
        provider: live.provider,
        schema: live.schema,
        stop: () => live.stop(),
        close: async () => {
          open.delete(opened);
          await live.close();
        },
      };
      open.add(opened);
      return opened;
    },
  };
  return { source, schemas, open, close: async () => prelaunched?.close() };
}

import { join } from "node:path";
import type { OpenedProvider, ProviderSource, ProviderSourceOpenOptions } from "@magma/engine";
import { createProviderFactory, type ProviderFactory } from "@magma/plugin";
import type { ProviderSchema } from "@magma/provider-api";
import { nativeProviders, pluginDirsFrom } from "../provider-session.js";

/** The providers of a working-directory command: where the engine opens them, and the schemas seen. */
export interface WorkdirProviders {
  /** What the engine opens providers from (natives first, then `.terraform/providers`, then Terraform's usual places). */
  readonly source: ProviderSource;
  /** The schema of every provider opened so far, by source address (for the renderers). */
  readonly schemas: Map<string, ProviderSchema>;
  /** Every provider opened and not yet closed. */
  readonly open: Set<OpenedProvider>;
}

/**
 * A {@link ProviderSource} for a working directory, over `@magma/plugin`'s factory: the
 * native providers magma ships (`magma/random`), then the packages `magma init` linked under
 * `<dataDir>/providers`, then `MAGMA_PLUGIN_DIRS` and Terraform's directories. It records
 * each provider's schema by source address, for rendering plans and states.
 */
export function workdirProviders(dataDir: string, env: Readonly<Record<string, string | undefined>>): WorkdirProviders {
  const factory: ProviderFactory = createProviderFactory({
    pluginDirs: pluginDirsFrom([join(dataDir, "providers")], env),
    environment: env,
    env,
    natives: nativeProviders,
  });
  const schemas = new Map<string, ProviderSchema>();
  const open = new Set<OpenedProvider>();
  const source: ProviderSource = {
    async open(address: string, options: ProviderSourceOpenOptions = {}): Promise<OpenedProvider> {
      const o: { version?: string; signal?: AbortSignal } = {};
      if (options.version !== undefined) o.version = options.version;
      if (options.signal !== undefined) o.signal = options.signal;
      const live = await factory.open(address, o);
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
  return { source, schemas, open };
}

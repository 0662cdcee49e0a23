import type { ServiceImpl } from "@connectrpc/connect";
import type { Tfplugin5Provider, Tfplugin6Provider } from "@magma/tfplugin";
import type { Provider } from "@magma/provider-api";
import type { HclogLogger } from "./hclog.js";
import * as rpc from "./provider-rpcs.js";
import { createRpcContext } from "./rpc-context.js";

/**
 * The handlers of `tfplugin5.Provider` and `tfplugin6.Provider` over a {@link Provider}:
 * values decoded and encoded with the provider's own schema, the contract's outcomes turned
 * into diagnostics, StopProvider cancelling calls in flight. RPCs not listed here are left
 * to the router, which answers UNIMPLEMENTED.
 *
 * @internal
 */
export interface ProviderHandlers {
  readonly v5: Partial<ServiceImpl<typeof Tfplugin5Provider>>;
  readonly v6: Partial<ServiceImpl<typeof Tfplugin6Provider>>;
}

/** @internal */
export function createProviderHandlers(provider: Provider, logger: HclogLogger): ProviderHandlers {
  const c = createRpcContext(provider, logger);
  const stopProvider = (): { Error: string } => {
    c.trace("StopProvider");
    c.stopAll();
    return { Error: "" };
  };
  const common = {
    getMetadata: () => rpc.getMetadata(c),
    getFunctions: c.functions.getFunctions,
    callFunction: c.functions.callFunction,
    readResource: (req: Parameters<typeof rpc.readResource>[1], ctx: { signal: AbortSignal }) =>
      rpc.readResource(c, req, ctx),
    planResourceChange: (
      req: Parameters<typeof rpc.planResourceChange>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.planResourceChange(c, req, ctx),
    applyResourceChange: (
      req: Parameters<typeof rpc.applyResourceChange>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.applyResourceChange(c, req, ctx),
    importResourceState: (
      req: Parameters<typeof rpc.importResourceState>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.importResourceState(c, req, ctx),
    readDataSource: (req: Parameters<typeof rpc.readDataSource>[1], ctx: { signal: AbortSignal }) =>
      rpc.readDataSource(c, req, ctx),
    upgradeResourceState: (
      req: Parameters<typeof rpc.upgradeResourceState>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.upgradeResourceState(c, req, ctx),
    validateEphemeralResourceConfig: (
      req: Parameters<typeof rpc.validateEphemeralResourceConfig>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.validateEphemeralResourceConfig(c, req, ctx),
    openEphemeralResource: (
      req: Parameters<typeof rpc.openEphemeralResource>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.openEphemeralResource(c, req, ctx),
    renewEphemeralResource: (
      req: Parameters<typeof rpc.renewEphemeralResource>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.renewEphemeralResource(c, req, ctx),
    closeEphemeralResource: (
      req: Parameters<typeof rpc.closeEphemeralResource>[1],
      ctx: { signal: AbortSignal },
    ) => rpc.closeEphemeralResource(c, req, ctx),
  };
  const validateProviderConfig = (req: Parameters<typeof rpc.validateProviderConfig>[1]) =>
    rpc.validateProviderConfig(c, req);
  const validateResourceConfig = (req: Parameters<typeof rpc.validateResourceConfig>[1]) =>
    rpc.validateResourceConfig(c, req);
  const validateDataResourceConfig = (req: Parameters<typeof rpc.validateDataResourceConfig>[1]) =>
    rpc.validateDataResourceConfig(c, req);
  const configureProvider = (
    req: Parameters<typeof rpc.configureProvider>[1],
    ctx: { signal: AbortSignal },
  ) => rpc.configureProvider(c, req, ctx);
  const v6: ProviderHandlers["v6"] = {
    ...common,
    getProviderSchema: () => rpc.getProviderSchema(c, 6),
    validateProviderConfig,
    validateResourceConfig,
    validateDataResourceConfig,
    configureProvider,
    stopProvider,
  };
  const v5: ProviderHandlers["v5"] = {
    ...common,
    getSchema: () => rpc.getProviderSchema(c, 5),
    prepareProviderConfig: (req: Parameters<typeof rpc.prepareProviderConfig>[1]) =>
      rpc.prepareProviderConfig(c, req),
    validateResourceTypeConfig: validateResourceConfig,
    validateDataSourceConfig: validateDataResourceConfig,
    configure: configureProvider,
    stop: stopProvider,
  };
  return { v5, v6 };
}

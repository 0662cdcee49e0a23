import type { Transport } from "@connectrpc/connect";
import { createWireClient } from "@magma/tfplugin";
import type { ProviderConn, ProviderConnOptions } from "../provider-conn.js";
import { WireProviderConn } from "./wire-provider-conn.js";
import type { CallErrorContext } from "./error-map/call-error.js";

/** The connection's view of a provider with no process behind it: it never exits. */
const NO_PROCESS: CallErrorContext = {
  exited: new Promise(() => undefined),
  exitError: () => undefined,
  binary: "in-process provider",
};

/**
 * A provider connection like the one `dialProvider` makes, over a connect transport the
 * caller supplies (such as connect's `createRouterTransport` in front of a server's
 * handlers) instead of a launched plugin process: the same client, the same conversions,
 * the same errors, with no process, socket or TLS. For in-memory protocol tests.
 *
 * @param version - the protocol version to speak (5 or 6); the server must serve it
 * Sibling-only: exported through `@magma/plugin/internal`, outside semantic versioning.
 */
export function providerConnOver(version: 5 | 6, transport: Transport, options: ProviderConnOptions = {}): ProviderConn {
  return new WireProviderConn(createWireClient(version, transport), NO_PROCESS, options);
}

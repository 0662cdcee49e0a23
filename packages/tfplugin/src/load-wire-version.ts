import type { Transport } from "@connectrpc/connect";
import type { WireClient, WireMessages } from "./wire-client.js";

/**
 * One protocol version's half of the wire layer: its messages and its client.
 *
 * @internal
 */
export interface WireVersion {
  readonly version: 5 | 6;
  /** The version's {@link WireMessages} (for decoding a stored schema reply). */
  readonly messages: WireMessages;
  /** Makes the version's {@link WireClient} over a connect transport. */
  createClient(transport: Transport): WireClient;
}

const loaded = new Map<5 | 6, Promise<WireVersion>>();

async function importVersion(version: 5 | 6): Promise<WireVersion> {
  if (version === 5) {
    const m = await import("./wire-client-v5.js");
    return { version, messages: m.WIRE_MESSAGES_V5, createClient: m.createWireClientV5 };
  }
  const m = await import("./wire-client-v6.js");
  return { version, messages: m.WIRE_MESSAGES_V6, createClient: m.createWireClientV6 };
}

/**
 * Loads only the given protocol version's generated code and client (once per process):
 * a provider's handshake names its version before any call, and building the descriptors
 * of both versions costs tens of milliseconds of CPU at start-up. A failed import is not
 * remembered: the next call tries again.
 *
 * @param version - the negotiated protocol version (5 or 6)
 * @internal
 */
export function loadWireVersion(version: 5 | 6): Promise<WireVersion> {
  let p = loaded.get(version);
  if (p === undefined) {
    p = importVersion(version).catch((e: unknown) => {
      loaded.delete(version);
      throw e;
    });
    loaded.set(version, p);
  }
  return p;
}

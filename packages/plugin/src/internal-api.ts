/**
 * Sibling-only entry point (`@magma/plugin/internal`): what a provider *server*
 * (`@magma/provider-server`) shares with this package's client beyond the wire layer
 * (which both take from `@magma/tfplugin`): the go-plugin certificate generator, the
 * handshake, and the client over a supplied transport for in-memory protocol tests.
 *
 * Not covered by semantic versioning: for magma's own sibling packages only. Nothing from
 * here may appear in a public `.d.ts` of another package. (This comment has no internal tag: with
 * `stripInternal` this comment would remove the first export from the declarations.)
 * @packageDocumentation
 */

export { createClientCertificate, toPem } from "./internal/auto-mtls/client-certificate.js";
export type { ClientCertificate } from "./internal/auto-mtls/client-certificate.js";
export { TF_PLUGIN_MAGIC_COOKIE_KEY, TF_PLUGIN_MAGIC_COOKIE_VALUE } from "./launch.js";
export { parseHandshakeLine } from "./handshake.js";

// The client over a supplied transport (in-memory protocol tests).
export { providerConnOver } from "./internal/provider-conn-over.js";

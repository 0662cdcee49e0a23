/**
 * Serve a native TypeScript {@link Provider} (from `@magma/provider-api`) to real Terraform:
 * the go-plugin server side (magic cookie, version negotiation, AutoMTLS, unix socket,
 * health, controller, stdio, hclog logs) and the tfplugin5 / tfplugin6 services mapped
 * onto the contract's 8 operations.
 *
 * ```ts
 * // my-provider.mjs, run by Terraform through a launcher written by writeProviderLauncher
 * import { serve } from "@magma/provider-server";
 * import { createRandomProvider } from "@magma/provider-random";
 * await serve(() => createRandomProvider());
 * ```
 *
 * - {@link serve}: run the server in this process (also debug mode: a
 *   `TF_REATTACH_PROVIDERS` line instead of the handshake).
 * - {@link writeProviderLauncher}: write `terraform-provider-<type>_v<version>` in the
 *   filesystem-mirror layout so that `terraform init` installs it.
 *
 * @packageDocumentation
 */

export { serve } from "./serve.js";
export type { ServeOptions, ProviderServer, ServedProtocolVersion, TextSink } from "./serve.js";
export { writeProviderLauncher } from "./write-provider-launcher.js";
export type { ProviderLauncherOptions, ProviderLauncher } from "./write-provider-launcher.js";
export { ServeError, ServeErrorCode, isServeError } from "./serve-error.js";

// Re-exported for the documentation links above.
export type { Provider } from "@magma/provider-api";

import { ProviderError } from "@magma/provider-api";

/**
 * A `protocol_mismatch` error in go-plugin's own words, as Terraform reports it.
 *
 * @internal
 */
export function protocolMismatch(pluginVersion: number, clientVersions: readonly number[]): ProviderError<"protocol_mismatch"> {
  return new ProviderError(
    { code: "protocol_mismatch", pluginVersion, clientVersions: Object.freeze([...clientVersions]) },
    `incompatible API version with plugin. Plugin version: ${pluginVersion}, Client versions: [${clientVersions.join(" ")}]`,
  );
}

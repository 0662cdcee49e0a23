import type { CredentialsHelper } from "@magma/install";
import { configuredHosts, manuallyConfigured } from "../workdir/credentials-file.js";

/**
 * Where `login` stores and `logout` forgets a host's token, as terraform's
 * `HostCredentialsLocation` decides: a host configured by hand in a CLI configuration file
 * cannot be changed (`other-file`); one already in `credentials.tfrc.json` stays there
 * (`primary-file`); otherwise a configured and found `credentials_helper` keeps it
 * (`helper`); otherwise `credentials.tfrc.json` will (`none`).
 */
export type CredentialsLocation =
  | { readonly kind: "other-file" | "primary-file" | "none" }
  | { readonly kind: "helper"; readonly helper: CredentialsHelper; readonly helperType: string };

/**
 * The {@link CredentialsLocation} of `host` (in svchost's comparable form) for the CLI
 * configuration `env` selects, `configDir` being terraform's configuration directory.
 * A CLI configuration that cannot be read gives no helper (its errors are the commands' own).
 */
export async function credentialsLocation(
  env: Readonly<Record<string, string | undefined>>,
  configDir: string,
  host: string,
): Promise<CredentialsLocation> {
  if (manuallyConfigured(env, configDir, host)) return { kind: "other-file" };
  if (configuredHosts(env, configDir).has(host)) return { kind: "primary-file" };
  const { currentPlatform, hostCredentials, readCliConfig } = await import("@magma/install");
  let cli;
  try {
    cli = readCliConfig({ env });
  } catch {
    return { kind: "none" };
  }
  const helper = hostCredentials(cli, currentPlatform(), env).helper;
  return helper !== undefined && cli.credentialsHelper !== undefined
    ? { kind: "helper", helper, helperType: cli.credentialsHelper.name }
    : { kind: "none" };
}

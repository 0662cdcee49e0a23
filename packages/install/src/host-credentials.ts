import type { CliConfig } from "./cli-config.js";
import { CredentialsHelper, credentialsHelperDirs, findCredentialsHelper } from "./credentials-helper.js";
import type { CredentialsLookup } from "./http-client.js";
import { StepError } from "./install-error.js";

/**
 * The tokens of Terraform's credentials source: `TF_TOKEN_*` variables and `credentials`
 * blocks first (already merged in {@link CliConfig.credentials}), then the
 * `credentials_helper`, if one is configured and found.
 */
export class HostCredentials implements CredentialsLookup {
  readonly #configured: ReadonlyMap<string, string>;
  readonly #helper: CredentialsHelper | undefined;

  /** The configured tokens, and the helper asked for the other hosts. */
  constructor(configured: ReadonlyMap<string, string>, helper?: CredentialsHelper) {
    this.#configured = configured;
    this.#helper = helper;
  }

  /** The helper in use, if any. */
  get helper(): CredentialsHelper | undefined {
    return this.#helper;
  }

  /**
   * The token for `host`, or `undefined`.
   *
   * @throws StepError `credentials` when the helper fails (see {@link CredentialsHelper.token}).
   */
  forHost(host: string): string | undefined {
    const h = host.toLowerCase();
    return this.#configured.get(h) ?? this.#helper?.token(h);
  }

  /** {@link forHost}, with a failing helper giving no token (terraform ignores the failure for discovery and module registries, logging it). */
  get(host: string): string | undefined {
    try {
      return this.forHost(host);
    } catch (e) {
      if (e instanceof StepError) return undefined;
      throw e;
    }
  }
}

/**
 * The credentials source of a CLI configuration, as terraform builds it: its tokens, and the
 * executable of its `credentials_helper` found in terraform's global plugin directories
 * (none found: no helper, as terraform).
 */
export function hostCredentials(cli: CliConfig, platform: string, env: Readonly<Record<string, string | undefined>> = process.env): HostCredentials {
  const h = cli.credentialsHelper;
  const path = h === undefined ? undefined : findCredentialsHelper(h.name, credentialsHelperDirs(platform, env));
  return new HostCredentials(cli.credentials, h !== undefined && path !== undefined ? new CredentialsHelper(path, h.args) : undefined);
}

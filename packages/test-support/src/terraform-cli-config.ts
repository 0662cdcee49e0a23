/**
 * Terraform CLI configurations written into a test's own temp dir (the machine's
 * `TF_CLI_CONFIG_FILE` points at a missing file): filesystem mirrors and dev_overrides, and
 * the environment a terraform child runs with.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLUGIN_MIRROR } from "./binaries.js";

/** One `filesystem_mirror` block. */
export interface FilesystemMirror {
  /** The mirror directory. */
  readonly path: string;
  /** Provider address patterns it serves (all when omitted). */
  readonly include?: readonly string[];
}

/** What {@link writeTerraformCliConfig} writes. */
export interface TerraformCliConfigOptions {
  /** Filesystem mirrors, in order (default: {@link PLUGIN_MIRROR} alone, none with `direct`). */
  readonly mirrors?: readonly FilesystemMirror[];
  /** `dev_overrides`: provider source address → directory holding its binary. */
  readonly devOverrides?: Readonly<Record<string, string>>;
  /** Add a `direct {}` block after the mirrors (install the rest from the registry). */
  readonly direct?: boolean;
  /** The file name inside the directory (default `cli.tfrc`). */
  readonly fileName?: string;
}

/** The text of a CLI configuration with a `provider_installation` block. */
export function terraformCliConfigText(options: TerraformCliConfigOptions = {}): string {
  const mirrors = options.mirrors ?? (options.direct === true ? [] : [{ path: PLUGIN_MIRROR }]);
  const blocks: string[] = [];
  const overrides = Object.entries(options.devOverrides ?? {});
  if (overrides.length > 0) {
    blocks.push(
      `  dev_overrides {\n${overrides.map(([a, d]) => `    ${JSON.stringify(a)} = ${JSON.stringify(d)}`).join("\n")}\n  }`,
    );
  }
  for (const m of mirrors) {
    const include =
      m.include === undefined
        ? ""
        : `\n    include = [${m.include.map((i) => JSON.stringify(i)).join(", ")}]`;
    blocks.push(`  filesystem_mirror {\n    path    = ${JSON.stringify(m.path)}${include}\n  }`);
  }
  if (options.direct === true) blocks.push("  direct {}");
  return `provider_installation {\n${blocks.join("\n")}\n}\n`;
}

/** Writes a CLI configuration into `dir` and returns its path. */
export function writeTerraformCliConfig(
  dir: string,
  options: TerraformCliConfigOptions = {},
): string {
  const file = join(dir, options.fileName ?? "cli.tfrc");
  writeFileSync(file, terraformCliConfigText(options));
  return file;
}

/**
 * The environment of a terraform child: this process's, with the CLI configuration set,
 * automation mode, no checkpoint calls, no prompts, and nothing inherited that would change
 * where providers come from or what terraform logs (`TF_LOG`, `TF_PLUGIN_CACHE_DIR`,
 * `TF_DATA_DIR`, `TF_REATTACH_PROVIDERS`), then `extra`.
 */
export function terraformEnv(
  cliConfigFile: string,
  extra: Readonly<Record<string, string | undefined>> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cliConfigFile,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    TF_INPUT: "0",
    // The offline AWS configurations make no calls; make sure nothing leaves the host.
    AWS_EC2_METADATA_DISABLED: "true",
  };
  for (const k of [
    "TF_LOG",
    "TF_LOG_PATH",
    "TF_LOG_PROVIDER",
    "TF_PLUGIN_CACHE_DIR",
    "TF_DATA_DIR",
    "TF_REATTACH_PROVIDERS",
  ])
    delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

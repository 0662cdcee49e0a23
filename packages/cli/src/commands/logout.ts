import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import type { CommandContext } from "./command-context.js";

const HELP = `Usage: terraform [global options] logout [hostname]

  Removes locally-stored credentials for specified hostname.

  Note: the API token is only removed from local storage, not destroyed on the
  remote server, so it will remain valid until manually revoked.

  If no hostname is provided, the default hostname is app.terraform.io.
      %s`;

/** A hostname as svchost's `ForComparison` gives it (lower case, the default port 443 dropped); undefined when it is not one. */
function comparableHostname(given: string): string | undefined {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d+))?$/.exec(given);
  if (m === null || m[1]!.includes("..")) return undefined;
  const host = m[1]!.toLowerCase();
  return m[2] === undefined || m[2] === "443" ? host : `${host}:${m[2]}`;
}

/** The hosts a CLI configuration file's `credentials "HOST"` blocks configure. */
function credentialsBlocks(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return [...text.matchAll(/^\s*credentials\s+"([^"]+)"\s*\{/gm)].map((m) => m[1]!);
}

/** The hosts of `credentials.tfrc.json`. */
function credentialsFileHosts(file: string): string[] {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { credentials?: Record<string, unknown> };
    return Object.keys(doc.credentials ?? {});
  } catch {
    return [];
  }
}

/**
 * The hosts with credentials in the CLI configuration as terraform merges it: the main file
 * (`TF_CLI_CONFIG_FILE`, else `~/.terraformrc`) and, unless that variable overrides the
 * location, the configuration directory's files (`credentials.tfrc.json` included).
 */
function configuredHosts(env: Readonly<Record<string, string | undefined>>, configDir: string): Set<string> {
  const override = env["TF_CLI_CONFIG_FILE"] || env["TERRAFORM_CONFIG"] || "";
  const home = env["HOME"] ?? homedir();
  const hosts = credentialsBlocks(override !== "" ? override : join(home, ".terraformrc"));
  if (override === "" && existsSync(configDir)) {
    for (const name of readdirSync(configDir).sort()) {
      if (name === "credentials.tfrc.json") hosts.push(...credentialsFileHosts(join(configDir, name)));
      else if (name.endsWith(".tfrc")) hosts.push(...credentialsBlocks(join(configDir, name)));
    }
  }
  return new Set(hosts.map(comparableHostname).filter((h): h is string => h !== undefined));
}

/**
 * `magma logout [HOSTNAME]`: removes the API token stored for a host (default
 * `app.terraform.io`) from `~/.terraform.d/credentials.tfrc.json`, as `terraform logout` does
 * (the file rewritten with the other hosts' entries kept; a host configured in the CLI
 * configuration file is refused).
 */
export function registerLogoutCommand(program: Command, ctx: CommandContext): void {
  program
    .command("logout")
    .summary("remove the locally stored API token for a host")
    .description("Removes the API token stored for HOSTNAME (default app.terraform.io) in ~/.terraform.d/credentials.tfrc.json, as `terraform logout` does. The token is not revoked on the server.")
    .argument("[hostname...]", "the host to log out of (default app.terraform.io)")
    .option("--no-color", "no colour")
    .exitOverride()
    .action(async (args: string[]) => {
      // Loaded when it runs (the colour module shares a chunk with the engine's renderers).
      const { paint } = await import("../colour.js");
      if (args.length > 1) {
        ctx.io.stderr.write(`The logout command expects at most one argument: the host to log out of.\n${HELP}\n`);
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const given = args[0] ?? "app.terraform.io";
      const host = comparableHostname(given);
      if (host === undefined) throw new CliError(CliErrorCode.BadInput, "Invalid hostname", { detail: `The given hostname ${JSON.stringify(given)} is not valid.` });
      const configDir = join(ctx.io.env["HOME"] ?? homedir(), ".terraform.d");
      const file = join(configDir, "credentials.tfrc.json");
      const configured = configuredHosts(ctx.io.env, configDir);
      const writable = new Set(credentialsFileHosts(file).map(comparableHostname));
      if (configured.has(host) && !writable.has(host)) {
        throw new CliError(CliErrorCode.BadInput, `Credentials for ${host} are manually configured`, {
          detail: wordWrap(
            'The "terraform logout" command cannot log out because credentials for this host are manually configured in a CLI configuration file.\n\nTo log out, revoke the existing credentials and remove that block from the CLI configuration.',
            terminalColumns(ctx.io.stderr),
          ),
        });
      }
      if (!configured.has(host)) {
        ctx.print(`No credentials for ${host} are stored.\n\n`);
        return;
      }
      let doc: { credentials?: Record<string, unknown> } & Record<string, unknown> = {};
      if (existsSync(file)) {
        const text = readFileSync(file, "utf8");
        if (text.length > 0) {
          try {
            doc = JSON.parse(text) as typeof doc;
          } catch (e) {
            throw new CliError(CliErrorCode.BadInput, "Failed to remove API token", { detail: `Unable to remove stored API token: cannot read ${file}: ${(e as Error).message}` });
          }
        }
      }
      const creds = doc.credentials ?? {};
      const stored = Object.keys(creds).filter((h) => comparableHostname(h) === host);
      ctx.print(`Removing the stored credentials for ${host} from the following file:\n    ${file}\n\n`);
      for (const h of stored) delete creds[h];
      doc.credentials = creds;
      // Go's json.MarshalIndent of a map: keys sorted, two-space indent.
      const sortDeep = (v: unknown): unknown =>
        v !== null && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]))
          : v;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(sortDeep(doc), null, 2), { mode: 0o600 });
      renameSync(tmp, file);
      ctx.print(`${paint(ctx.colour.stdout, `[green][bold]Success![reset] [bold]Terraform has removed the stored API token for ${host}.[reset]`)}\n\n`);
    });
}

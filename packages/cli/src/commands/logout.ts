import { join } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import { CREDENTIALS_FILE, cliConfigDir, comparableHostname, readCredentialsFile, writeCredentialsFile } from "../workdir/credentials-file.js";
import type { CommandContext } from "./command-context.js";

const HELP = `Usage: terraform [global options] logout [hostname]

  Removes locally-stored credentials for specified hostname.

  Note: the API token is only removed from local storage, not destroyed on the
  remote server, so it will remain valid until manually revoked.

  If no hostname is provided, the default hostname is app.terraform.io.
      %s`;

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
      const configDir = cliConfigDir(ctx.io.env);
      const file = join(configDir, CREDENTIALS_FILE);
      const { credentialsLocation } = await import("./credentials-location.js");
      const location = await credentialsLocation(ctx.io.env, configDir, host);
      if (location.kind === "other-file") {
        throw new CliError(CliErrorCode.BadInput, `Credentials for ${host} are manually configured`, {
          detail: wordWrap(
            'The "terraform logout" command cannot log out because credentials for this host are manually configured in a CLI configuration file.\n\nTo log out, revoke the existing credentials and remove that block from the CLI configuration.',
            terminalColumns(ctx.io.stderr),
          ),
        });
      }
      if (location.kind === "none") {
        ctx.print(`No credentials for ${host} are stored.\n\n`);
        return;
      }
      const success = (): void => ctx.print(`${paint(ctx.colour.stdout, `[green][bold]Success![reset] [bold]Terraform has removed the stored API token for ${host}.[reset]`)}\n\n`);
      if (location.kind === "helper") {
        ctx.print(`Removing the stored credentials for ${host} from the configured\n${JSON.stringify(location.helperType)} credentials helper.\n\n`);
        try {
          location.helper.forget(host);
        } catch (e) {
          throw new CliError(CliErrorCode.BadInput, "Failed to remove API token", { detail: wordWrap(`Unable to remove stored API token: ${(e as Error).message}`, terminalColumns(ctx.io.stderr)) });
        }
        success();
        return;
      }
      let doc: ReturnType<typeof readCredentialsFile>;
      try {
        doc = readCredentialsFile(file);
      } catch (e) {
        throw new CliError(CliErrorCode.BadInput, "Failed to remove API token", { detail: `Unable to remove stored API token: cannot read ${file}: ${(e as Error).message}` });
      }
      const creds = doc.credentials ?? {};
      const stored = Object.keys(creds).filter((h) => comparableHostname(h) === host);
      ctx.print(`Removing the stored credentials for ${host} from the following file:\n    ${file}\n\n`);
      for (const h of stored) delete creds[h];
      doc.credentials = creds;
      writeCredentialsFile(file, doc);
      success();
    });
}

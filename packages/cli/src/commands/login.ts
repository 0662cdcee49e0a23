import { join } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import { CREDENTIALS_FILE, cliConfigDir, comparableHostname, invalidHostnameReason, readCredentialsFile, writeCredentialsFile } from "../workdir/credentials-file.js";
import type { CommandContext } from "./command-context.js";
import { readAnswer } from "./read-answer.js";

function help(file: string): string {
  return `Usage: terraform [global options] login [hostname]

  Retrieves an authentication token for the given hostname, if it supports
  automatic login, and saves it in a credentials file in your home directory.

  If no hostname is provided, the default hostname is app.terraform.io, to
  log in to HCP Terraform.

  If not overridden by credentials helper settings in the CLI configuration,
  the credentials will be written to the following local file:
      ${file}`;
}

interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail: string;
}


/**
 * `magma login [HOSTNAME]`: obtains an API token from a host (default `app.terraform.io`) and
 * stores it in `~/.terraform.d/credentials.tfrc.json`, as `terraform login` does: the host's
 * `login.v1` service (OAuth authorization code with PKCE; the authorization URL is printed for
 * the user to open, as terraform prints it when it cannot start a browser), with terraform's
 * prompts, refusals and messages. Hosts that offer only the token UI (`tfe.v2`) and the
 * password grant are not supported.
 */
export function registerLoginCommand(program: Command, ctx: CommandContext): void {
  program
    .command("login")
    .summary("obtain and save an API token for a host")
    .description("Obtains an API token for HOSTNAME (default app.terraform.io) through its login service and saves it in ~/.terraform.d/credentials.tfrc.json, as `terraform login` does. magma prints the login URL for you to open in a browser.")
    .argument("[hostname...]", "the host to log in to (default app.terraform.io)")
    .option("--input [bool]", "-input=false is refused: login needs to ask")
    .option("--no-color", "no colour")
    .exitOverride()
    .action(async (args: string[], o: { input?: string | boolean }) => {
      const [{ paint }, { parseBoolFlag }, { formatDiagnostics }] = await Promise.all([import("../colour.js"), import("../workdir/flag-values.js"), import("../workdir/format-diagnostic.js")]);
      const env = ctx.io.env;
      const configDir = cliConfigDir(env);
      const file = join(configDir, CREDENTIALS_FILE);
      if (args.length > 1) {
        ctx.io.stderr.write(`The login command expects at most one argument: the host to log in to.\n${help(file)}\n`);
        ctx.exitCode = ExitCode.Error;
        return;
      }
      const diags: Diagnostic[] = [];
      const fail = (): never => {
        // terraform's login ends its refusals with an empty line.
        ctx.io.stderr.write(`${formatDiagnostics(diags, ctx.cwd, ctx.colour.stderr)}\n`);
        throw new CliError(CliErrorCode.BadInput, diags.find((d) => d.severity === "error")?.summary ?? "login failed", { silent: true });
      };
      const error = (summary: string, detail = ""): never => {
        diags.push({ severity: "error", summary, detail });
        return fail();
      };
      if (!parseBoolFlag("-input", o.input, !/^(0|f|F|false|FALSE|False)$/.test(env["TF_INPUT"] ?? ""))) {
        error(
          "Login is an interactive command",
          'The "terraform login" command uses interactive prompts to obtain and record credentials, so it can\'t be run with input disabled.\n\nTo configure credentials in a non-interactive context, write existing credentials directly to a CLI configuration file.',
        );
      }
      const given = args[0] ?? "app.terraform.io";
      const invalid = invalidHostnameReason(given);
      if (invalid !== undefined) error("Invalid hostname", `The given hostname ${JSON.stringify(given)} is not valid: ${invalid}.`);
      const host = comparableHostname(given)!;

      const [{ readCliConfig, ServiceDiscovery, isInstallError }, { installHttpOptions }, { parseOAuthClient, startAuthCodeLogin }] = await Promise.all([
        import("@magma/install"),
        import("../workdir/init-providers.js"),
        import("../workdir/oauth-login.js"),
      ]);
      let cli;
      try {
        cli = readCliConfig({ env });
      } catch (e) {
        if (isInstallError(e)) error(e.summary, e.detail);
        throw e;
      }
      let found: { base: URL; services: Readonly<Record<string, unknown>> } | undefined;
      try {
        found = await new ServiceDiscovery(cli.hosts, installHttpOptions(env, cli.credentials)).services(host);
      } catch (e) {
        error(`Service discovery failed for ${host}`, `${(e as Error).message}.`);
      }
      const { base, services } = found!;
      const versionsOf = (name: string): boolean => Object.keys(services).some((id) => id.startsWith(`${name}.`));
      let client;
      if ("login.v1" in services) {
        try {
          client = parseOAuthClient("login.v1", services["login.v1"], base);
        } catch (e) {
          diags.push({ severity: "warning", summary: "Host does not support Terraform login", detail: `The given hostname ${JSON.stringify(host)} cannot support "terraform login": ${(e as Error).message}.` });
        }
      } else if (versionsOf("login")) {
        diags.push({ severity: "warning", summary: "Host does not support Terraform login", detail: `The given hostname ${JSON.stringify(host)} allows creating Terraform authorization tokens, but requires a newer version of Terraform CLI to do so.` });
      }
      if (client === undefined) {
        if ("tfe.v2" in services) {
          diags.push({ severity: "error", summary: "Host does not support Terraform tokens API", detail: `magma cannot log in to ${JSON.stringify(host)}: it offers only the tokens page of its web UI (tfe.v2), which magma login does not support; write the token to ${file} or a credentials block instead.` });
        } else if (versionsOf("tfe")) {
          diags.push({ severity: "error", summary: "Host does not support Terraform tokens API", detail: `The given hostname ${JSON.stringify(host)} allows creating Terraform authorization tokens, but requires a newer version of Terraform CLI to do so.` });
        } else {
          diags.push({ severity: "error", summary: "Host does not support Terraform tokens API", detail: `The given hostname ${JSON.stringify(host)} does not support creating Terraform authorization tokens.` });
        }
      }
      const { credentialsLocation } = await import("./credentials-location.js");
      const location = await credentialsLocation(env, configDir, host);
      if (location.kind === "other-file") {
        diags.push({
          severity: "error",
          summary: `Credentials for ${host} are manually configured`,
          detail: 'The "terraform login" command cannot log in because credentials for this host are already configured in a CLI configuration file.\n\nTo log in, first revoke the existing credentials and remove that block from the CLI configuration.',
        });
      }
      if (diags.some((d) => d.severity === "error")) fail();
      if (!client!.grantTypes.has("authz_code")) {
        error("Host does not support Terraform login", `The given hostname ${JSON.stringify(host)} does not allow any OAuth grant types that are supported by this version of Terraform.`);
      }

      // The consent prompt.
      ctx.print(`Terraform will request an API token for ${host} using OAuth.\n\n`);
      ctx.print("This will work only if you are able to use a web browser on this computer to\ncomplete a login process. If not, you must obtain an API token by another\nmeans and configure it in the CLI configuration manually.\n\n");
      ctx.print(
        location.kind === "helper"
          ? `If login is successful, Terraform will store the token in the configured\n${JSON.stringify(location.helperType)} credentials helper for use by subsequent commands.\n\n`
          : `If login is successful, Terraform will store the token in plain text in\nthe following file for use by subsequent commands:\n    ${file}\n\n`,
      );
      ctx.print(paint(ctx.colour.stdout, "[reset][bold]Do you want to proceed?[reset]\n  Only 'yes' will be accepted to confirm.\n\n  [bold]Enter a value:[reset] "));
      const answer = await readAnswer(ctx);
      ctx.print("\n");
      if (answer === undefined) error("Failed to read the answer", "Error asking approve: the input ended before an answer.");
      if (answer!.toLowerCase() !== "yes") error("Login cancelled");

      const pending = await startAuthCodeLogin(client!, env);
      const onAbort = (): void => pending.close();
      ctx.signal?.addEventListener("abort", onAbort, { once: true });
      let token: string;
      try {
        ctx.print(`Open the following URL to access the login page for ${host}:\n    ${pending.authCodeUrl}\n\n`);
        ctx.print("Terraform will now wait for the host to signal that login was successful.\n\n");
        token = await Promise.race([
          pending.token,
          new Promise<never>((_, reject) => {
            if (ctx.signal?.aborted === true) reject(new CliError(CliErrorCode.BadInput, "Login cancelled"));
            ctx.signal?.addEventListener("abort", () => reject(new CliError(CliErrorCode.BadInput, "Login cancelled")), { once: true });
          }),
        ]);
      } catch (e) {
        pending.close();
        if (e instanceof CliError && e.detail !== undefined) error(e.message, e.detail);
        throw e;
      } finally {
        ctx.signal?.removeEventListener("abort", onAbort);
      }

      try {
        if (location.kind === "helper") location.helper.store(host, token);
        else {
          const doc = readCredentialsFile(file);
          const creds = (doc.credentials ?? {}) as Record<string, unknown>;
          for (const h of Object.keys(creds)) if (comparableHostname(h) === host) delete creds[h];
          creds[host] = { token };
          doc.credentials = creds;
          const { mkdirSync } = await import("node:fs");
          mkdirSync(configDir, { recursive: true, mode: 0o755 });
          writeCredentialsFile(file, doc);
        }
      } catch (e) {
        error("Failed to save API token", `The given host returned an API token, but Terraform failed to save it: ${(e as Error).message}.`);
      }
      if (diags.length > 0) ctx.io.stderr.write(formatDiagnostics(diags, ctx.cwd, ctx.colour.stderr));
      ctx.print("\n---------------------------------------------------------------------------------\n\n");
      ctx.print(
        `${paint(ctx.colour.stdout, `[green][bold]Success![reset] [bold]Terraform has obtained and saved an API token.[reset]\n\nThe new API token will be used for any future Terraform command that must make\nauthenticated requests to ${host}.`)}\n\n`,
      );
    });
}

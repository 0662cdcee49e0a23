import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { quietOptions } from "./workdir-options.js";

/** The flags of `magma get`. */
export interface GetOptions {
  update?: boolean;
}

/**
 * `magma get [-update]`: as `terraform get`, installs the configuration's modules (local
 * paths, module registries, git, https archives) into `.terraform/modules` and prints
 * terraform's lines; `-update` fetches every remote module again.
 */
export function registerGetCommand(program: Command, ctx: CommandContext): void {
  quietOptions(program.command("get"))
    .summary("install the configuration's modules")
    .description("As terraform get: installs the modules the configuration calls (local paths, module registries, git::, github.com/…, https archives) into .terraform/modules and records them in modules.json.")
    .option("--update", "fetch every remote module again, the newest versions the constraints allow")
    .action(async (o: GetOptions) => {
      const { join } = await import("node:path");
      const { installModules } = await import("../workdir/init-modules.js");
      const { moduleInstallOptions } = await import("../workdir/init-providers.js");
      const env = ctx.io.env;
      const dataDir = join(ctx.cwd, env["TF_DATA_DIR"] ?? ".terraform");
      const r = await installModules(ctx.cwd, dataDir, { ...moduleInstallOptions(env, o.update === true), onLine: (line) => ctx.print(line) });
      if (r.errors.length > 0) {
        // terraform's diagnostics, with the module blocks' lines
        const [{ formatDiagnostics }, { terminalColumns }, { CliError }] = await Promise.all([import("../workdir/format-diagnostic.js"), import("../terminal-columns.js"), import("../cli-error.js")]);
        ctx.io.stderr.write(formatDiagnostics(r.errors.map((e) => e.diagnostic), ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
        throw new CliError(r.errors[0]!.code, r.errors[0]!.message, { silent: true, cause: r.errors[0] });
      }
    });
}

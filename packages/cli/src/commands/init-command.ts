import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import type { InitOptions } from "./init.js";
import { quietOptions } from "./workdir-options.js";

/**
 * `magma init`: prepares the working directory as `terraform init` does (through
 * `@magma/install`): installs the modules (local, module registries, git, https archives) and
 * the providers from the CLI configuration's installation methods (origin registries with
 * service discovery and signature checks, network and filesystem mirrors, the plugin cache)
 * or the `-plugin-dir`s (native providers need nothing), checks them against
 * `.terraform.lock.hcl`, and writes the lock file in terraform's format when it changed.
 */
export function registerInitCommand(program: Command, ctx: CommandContext): void {
  quietOptions(program.command("init"))
    .summary("prepare the working directory: providers and the dependency lock file")
    .description(
      "Installs the configuration's modules (local paths, module registries, git::, github.com/…, https archives) and providers as terraform init does: from the CLI configuration's provider_installation (registries through service discovery and host blocks, with their SHA256SUMS and signatures checked; network and filesystem mirrors; the plugin cache), or only the -plugin-dir DIRs; verified against .terraform.lock.hcl, which is written as terraform writes it.",
    )
    .option("--plugin-dir <dir>", "look for providers only in this directory (repeatable), as terraform's -plugin-dir", (v: string, prev: string[] = []) => [...prev, v])
    .option("--upgrade", "select the newest matching versions, ignoring the lock file's selections")
    .option("--lockfile <mode>", "readonly: verify against the lock file but never change it")
    .option("--input [bool]", "accepted for terraform compatibility (magma init never asks)")
    .option("--backend [bool]", "accepted for terraform compatibility")
    .option("--get [bool]", "accepted for terraform compatibility (modules are always installed)")
    .option("--reconfigure", "record a changed backend without migrating any state (as terraform's -reconfigure)")
    .option("--backend-config <value>", "a backend setting as key=value, or a file of settings, over the backend block (repeatable, as terraform's -backend-config)", (v: string, prev: string[] = []) => [...prev, v])
    .option("--migrate-state", "copy the states of every workspace from the previous backend to the new one (as terraform's -migrate-state)")
    .option("--force-copy", "answer yes to the migration's questions (as terraform's -force-copy; implies -migrate-state)")
    .action(async (o: InitOptions) => (await import("./init.js")).initAction(ctx, o));
}

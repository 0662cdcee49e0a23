import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import type { InitOptions } from "./init.js";
import { quietOptions } from "./workdir-options.js";

/**
 * `magma init`: prepares the working directory as `terraform init` does, without a network:
 * resolves every required provider through the filesystem mirrors, plugin cache and
 * `-plugin-dir`s (native providers need nothing), checks the `h1:` hashes recorded in
 * `.terraform.lock.hcl`, links the packages under `.terraform/providers`, and writes the
 * lock file in Terraform's format when it is missing or changed.
 */
export function registerInitCommand(program: Command, ctx: CommandContext): void {
  quietOptions(program.command("init"))
    .summary("prepare the working directory: providers and the dependency lock file")
    .description(
      "Resolves the configuration's providers in the local provider directories (filesystem mirrors, TF_PLUGIN_CACHE_DIR, terraform.d/plugins, -plugin-dir, MAGMA_PLUGIN_DIRS; nothing is downloaded), verifies them against .terraform.lock.hcl, links them under .terraform/providers like terraform, and writes the lock file when it is missing.",
    )
    .option("--plugin-dir <dir>", "look for providers only in this directory (repeatable), as terraform's -plugin-dir", (v: string, prev: string[] = []) => [...prev, v])
    .option("--upgrade", "select the newest matching versions, ignoring the lock file's selections")
    .option("--lockfile <mode>", "readonly: verify against the lock file but never change it")
    .option("--input [bool]", "accepted for terraform compatibility (magma init never asks)")
    .option("--backend [bool]", "accepted for terraform compatibility")
    .option("--get [bool]", "accepted for terraform compatibility (local modules are read in place)")
    .option("--reconfigure", "record a changed backend without migrating any state (as terraform's -reconfigure)")
    .option("--backend-config <value>", "a backend setting as key=value, or a file of settings, over the backend block (repeatable, as terraform's -backend-config)", (v: string, prev: string[] = []) => [...prev, v])
    .option("--migrate-state", "copy the states of every workspace from the previous backend to the new one (as terraform's -migrate-state)")
    .option("--force-copy", "answer yes to the migration's questions (as terraform's -force-copy; implies -migrate-state)")
    .action(async (o: InitOptions) => (await import("./init.js")).initAction(ctx, o));
}

import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import type { ProvidersLockOptions, ProvidersMirrorOptions } from "./providers-install.js";
import { quietOptions } from "./workdir-options.js";

const repeat = (v: string, prev: string[] = []): string[] => [...prev, v];

/**
 * `magma providers lock` and `magma providers mirror DIR`, added to the `providers` command
 * (found, or made when no other registration made it first).
 */
export function registerProvidersInstallCommands(program: Command, ctx: CommandContext): void {
  const providers = program.commands.find((c) => c.name() === "providers") ?? program.command("providers").summary("the configuration's providers: lock and mirror");
  quietOptions(providers.command("lock"))
    .summary("write the dependency lock file's hashes for each platform")
    .description("As terraform providers lock: fetches every provider of the configuration for each -platform from its origin registry (or -fs-mirror/-net-mirror) and records all their hashes in .terraform.lock.hcl.")
    .argument("[providers...]", "only these providers (source addresses)")
    .option("--platform <os_arch>", "a target platform (repeatable; default this machine's)", repeat)
    .option("--fs-mirror <dir>", "consult this filesystem mirror instead of the origin registry")
    .option("--net-mirror <url>", "consult this network mirror instead of the origin registry")
    .option("--enable-plugin-cache", "use the plugin cache directory of the CLI configuration")
    .action(async (only: string[], o: ProvidersLockOptions) => (await import("./providers-install.js")).providersLockAction(ctx, only, o));
  quietOptions(providers.command("mirror"))
    .summary("copy the configuration's providers into a mirror directory")
    .description("As terraform providers mirror: downloads each provider of the configuration for each -platform from its origin registry, checks it, and writes the packed layout with a network mirror's JSON indexes.")
    .argument("<target-dir>", "the mirror directory")
    .option("--platform <os_arch>", "a target platform (repeatable; default this machine's)", repeat)
    .option("--lock-file [bool]", "-lock-file=false: ignore the dependency lock file's versions")
    .action(async (dir: string, o: ProvidersMirrorOptions) => (await import("./providers-install.js")).providersMirrorAction(ctx, dir, o));
}

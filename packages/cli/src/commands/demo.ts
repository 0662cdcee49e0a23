import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";

/** `magma demo`: the narrated tour. */
export function registerDemoCommand(program: Command, ctx: CommandContext): void {
  program
    .command("demo")
    .summary("a narrated lifecycle on the native random provider, then on hashicorp/aws against a local fake AWS")
    .description(
      "Schema, configure, plan, apply, read, import, a replacing plan and destroy: first with the native random provider, then with the real hashicorp/aws provider against a local fake AWS endpoint (@magma/fake-aws, an optional package, loaded only here), when its binary is found (--plugin-dir, MAGMA_PLUGIN_DIRS, Terraform's directories).",
    )
    .option("--plugin-dir <dir>", "search this directory first for hashicorp/aws (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .option("--no-aws", "skip the hashicorp/aws part")
    .exitOverride()
    .action(async (o: { pluginDir?: string[]; aws?: boolean }) => {
      const { runDemo } = await import("../demo.js");
      await runDemo({
        out: (s) => void ctx.io.stdout.write(s),
        env: ctx.io.env,
        spinner: ctx.spinner,
        aws: o.aws !== false,
        ...(o.pluginDir === undefined ? {} : { pluginDirs: o.pluginDir }),
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      });
    });
}

import { Option, type Command } from "commander";
import { tmpdir } from "node:os";
import type { CommandContext, CommonOptions } from "./command-context.js";

/** `magma reap`: end orphaned providers. */
export function registerReapCommand(program: Command, ctx: CommandContext): void {
  program
    .command("reap")
    .summary("end providers left running by a SIGKILLed magma and remove their socket directories")
    .description(
      "A host killed with SIGKILL cannot stop its providers: they keep running, idle, and their private socket directories (magma-plugin-*) stay. This looks in the temp dir (and each --socket-dir-parent) for such directories of hosts that are no longer running, SIGKILLs each recorded provider that is still the same process (start time and command line checked; nothing else is ever signalled), and removes the directory. Launches do the same lazily, once per process.\nJSON: {reaped: [{directory, host_pid, provider_pid, binary, outcome}]}, outcome one of killed, gone, not_recorded, different_process, unverified.",
    )
    .option("--socket-dir-parent <dir>", "also look in this directory (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option("-o, --output <format>", "human or json (default: human on a terminal, json when piped)").choices(["human", "json"]))
    .option("--json", "same as --output json")
    .exitOverride()
    .action(async (o: CommonOptions & { socketDirParent?: string[] }) => {
      const { reapOrphanedProviders } = await import("@magma/plugin");
      const reaped = await reapOrphanedProviders({ directories: [tmpdir(), ...(o.socketDirParent ?? [])] });
      ctx.out(
        o,
        () =>
          reaped.length === 0
            ? "Nothing to reap: no socket directory of a magma that is no longer running.\n"
            : reaped.map((r) => `${r.directory}: host ${r.hostPid} gone; provider ${r.providerPid ?? "(not recorded)"} ${r.binary}: ${r.outcome.replace("_", " ")}; directory removed\n`).join(""),
        () => ({ reaped: reaped.map((r) => ({ directory: r.directory, host_pid: r.hostPid, provider_pid: r.providerPid, binary: r.binary, outcome: r.outcome })) }),
      );
    });
}

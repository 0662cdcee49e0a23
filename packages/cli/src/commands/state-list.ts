import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** `magma state list [-id=ID] [ADDRESS...]`: the resource instances of the current workspace's state, as `terraform state list` prints them. */
export function registerStateListCommand(state: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(state.command("list").argument("[address...]", "only instances these addresses select (a module, a resource, an instance)"))
    .summary("list the resource instances in the state")
    .description("Lists the resource instances of the current workspace's state, one address a line, in Terraform's order; addresses filter, -id=ID keeps the instances whose id is ID.")
    .option("--id <id>", "only the instances whose id attribute is this"))
    .action(async (addresses: string[], o: WorkdirOptions & { id?: string }) => {
      const [{ loadState }, { noStateError }, { parseSelector, selects, stateInstances }] = await Promise.all([import("@magma/state"), import("../workdir/state-lock.js"), import("../workdir/state-objects.js")]);
      const selectors = addresses.map(parseSelector);
      await withWorkingDir(ctx, o, async (wd) => {
        const st = await loadState(wd.store());
        if (st === undefined) throw noStateError();
        // Terraform lists per filter argument, in the order given (each match once).
        const all = stateInstances(st);
        const picked = selectors.length === 0 ? all : selectors.flatMap((s) => all.filter((i) => selects(s, i.addr)));
        const unknown = selectors.find((s) => s.kind !== "module" && !all.some((i) => selects(s, i.addr)));
        if (unknown !== undefined) {
          throw new CliError(CliErrorCode.NotFound, "Unknown resource", {
            detail: `The current state contains no resource ${unknown.text}. If you've just added this\nresource to the configuration, you must run "terraform apply" first to\ncreate the resource's entry in the state.`,
          });
        }
        const seen = new Set<string>();
        for (const inst of picked) {
          if (seen.has(inst.text)) continue;
          seen.add(inst.text);
          if (o.id !== undefined && idOf(inst.current?.attributesJson) !== o.id) continue;
          ctx.print(`${inst.text}\n`);
        }
      });
    });
}

function idOf(attributesJson: string | undefined): string | undefined {
  if (attributesJson === undefined) return undefined;
  const id = (JSON.parse(attributesJson) as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}

import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { optional } from "../optional.js";
import type { CommandContext } from "./command-context.js";
import { backupPath } from "./state-backup.js";
import { lockOptions, lockSettings, quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** `magma state rm ADDRESS...`: forgets resource instances, as `terraform state rm` does (under the lock, serial bumped, backup kept). */
export function registerStateRmCommand(state: Command, ctx: CommandContext): void {
  quietOptions(lockOptions(statePathOption(state.command("rm").argument("<address...>", "what to forget: instances, resources, modules"))))
    .summary("remove instances from the state")
    .description(
      "Removes the selected resource instances from the current workspace's state without destroying them. Every address must select something, or nothing is removed. The state before the change is copied to <state>.<unix time>.backup (-backup=PATH, or -backup=- for none).",
    )
    .option("--dry-run", "only print what would be removed")
    .option("--backup <path>", "where to copy the state before the change (- for none)")
    .action(async (addresses: string[], o: WorkdirOptions) => {
      const [{ changeState }, { cloneResources, instanceText, parseSelector, selects, stateInstances }] = await Promise.all([import("../workdir/state-lock.js"), import("../workdir/state-objects.js")]);
      const selectors = addresses.map(parseSelector);
      await withWorkingDir(ctx, o, async (wd) => {
        let removed: string[] = [];
        await changeState(
          wd.store(),
          { operation: "OperationTypeInvalid", lock: lockSettings(o), ...optional("signal", ctx.signal), ...optional("backupPath", backupPath(wd, o.backup)) },
          (st) => {
            const all = stateInstances(st);
            for (const s of selectors) {
              if (!all.some((i) => selects(s, i.addr))) {
                throw new CliError(CliErrorCode.NotFound, "Invalid target address", {
                  detail: `No matching objects found. To view the available instances, use "terraform\nstate list". Please modify the address to reference a specific instance.`,
                });
              }
            }
            const gone = all.filter((i) => selectors.some((s) => selects(s, i.addr)));
            removed = gone.map((i) => i.text);
            if (o.dryRun === true) return undefined;
            const goneKeys = new Set(gone.map((i) => i.text));
            const resources = cloneResources(st)
              .map((r) => ({ ...r, instances: r.instances.filter((x) => !goneKeys.has(instanceText(r, x.indexKey))) }))
              .filter((r) => r.instances.length > 0);
            return { ...st, resources };
          },
        );
        const verb = o.dryRun === true ? "Would remove" : "Removed";
        for (const r of removed) ctx.print(`${verb} ${r}\n`);
        if (o.dryRun !== true) ctx.print(`Successfully removed ${removed.length} resource instance(s).\n`);
      }, undefined, "ui-absolute");
    });
}

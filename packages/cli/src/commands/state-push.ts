import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import { lockOptions, lockSettings, quietOptions, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

const refuse = (detail: string): CliError => new CliError(CliErrorCode.BadInput, "Failed to write state", { detail });

/**
 * `magma state push [-force] FILE`: replaces the current workspace's state with a state file
 * (`-` for stdin) under Terraform's rules: the same lineage, and a serial not older than the
 * stored one (an equal serial only with identical content), unless `-force`.
 */
export function registerStatePushCommand(state: Command, ctx: CommandContext): void {
  quietOptions(lockOptions(state.command("push").argument("<path>", "the state file to push, or - for standard input")))
    .summary("replace the state with a local state file")
    .description("Writes a local state file as the current workspace's state, refusing an unrelated lineage or an older serial unless -force.")
    .option("--force", "write it even when the lineage differs or the serial is older")
    .action(async (path: string, o: WorkdirOptions) => {
      const [{ formatStateFile, loadState, readStateFile, writeStateFile }, { acquireLock }] = await Promise.all([import("@magma/state"), import("../workdir/state-lock.js")]);
      let bytes: Buffer;
      try {
        bytes = readFileSync(path === "-" ? 0 : resolve(ctx.cwd, path));
      } catch (e) {
        throw new CliError(CliErrorCode.BadInput, `Error reading source state ${JSON.stringify(path)}: ${(e as Error).message}`, { plain: true });
      }
      const pushed = readStateFile(bytes, { source: path === "-" ? "the state on standard input" : path });
      if (pushed === undefined) throw new CliError(CliErrorCode.BadInput, `Error reading source state ${JSON.stringify(path)}: the file is empty`, { plain: true });
      await withWorkingDir(ctx, o, async (wd) => {
        const store = wd.store();
        const release = await acquireLock(store, { operation: "OperationTypeInvalid" }, lockSettings(o), ctx.signal);
        try {
          const current = await loadState(store);
          if (current !== undefined && o.force !== true) {
            if (current.lineage !== pushed.lineage) {
              throw refuse(`cannot import state with lineage ${JSON.stringify(pushed.lineage)} over unrelated state with lineage ${JSON.stringify(current.lineage)}`);
            }
            if (pushed.serial < current.serial) throw refuse(`cannot import state with serial ${pushed.serial} over newer state with serial ${current.serial}`);
            if (pushed.serial === current.serial && formatStateFile(pushed) !== formatStateFile({ ...current, terraformVersion: pushed.terraformVersion })) {
              throw refuse(`cannot overwrite existing state with serial ${current.serial} with a different state that has the same serial`);
            }
          }
          await store.write(writeStateFile(pushed));
        } finally {
          await release();
        }
      });
    });
}

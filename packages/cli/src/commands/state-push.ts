import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "./command-context.js";
import type { StateFile } from "@magma/state";
import { lockOptions, lockSettings, quietOptions, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** Terraform's refusal, printed as its `state push` prints it: one line, `Failed to write state: …`. */
const refuse = (detail: string): CliError => new CliError(CliErrorCode.BadInput, `Failed to write state: ${detail}`, { plain: true });

/** Whether two states hold the same objects, outputs and check results (Terraform's `StatesMarshalEqual`: lineage, serial and version aside). */
function sameContent(format: (f: StateFile) => string, a: StateFile, b: StateFile): boolean {
  const bare = (f: StateFile): string => format({ ...f, lineage: "", serial: 0, terraformVersion: "" });
  return bare(a) === bare(b);
}

/**
 * The serial the pushed state is written with, or undefined when there is nothing to write.
 * Terraform imports the file's lineage and serial, then writes its state as an operation
 * would: the local backend adds one when the objects differ from the state it read (none:
 * the file's serial as it is); a remote backend adds one unless lineage, serial and objects
 * are all the stored ones (then it writes nothing), and keeps the file's serial over no state.
 */
function pushedSerial(local: boolean, current: StateFile | undefined, pushed: StateFile, same: boolean): number | undefined {
  if (current === undefined) return pushed.serial;
  if (local) return same ? pushed.serial : pushed.serial + 1;
  if (same && current.lineage !== "" && current.lineage === pushed.lineage && current.serial !== 0 && current.serial === pushed.serial) return undefined;
  return pushed.serial + 1;
}

/**
 * `magma state push [-force] FILE`: replaces the current workspace's state with a state file
 * (`-` for stdin) under Terraform's rules: over a state that is not empty, the same lineage
 * and a serial not older than the stored one (an equal serial only with identical content),
 * unless `-force`; the serial written as Terraform writes it (see `pushedSerial`).
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
          const same = current !== undefined && sameContent(formatStateFile, current, pushed);
          // Terraform's CheckValidImport: anything goes over an empty state or a legacy one (no lineage).
          const empty = current === undefined || (current.outputs.size === 0 && current.resources.length === 0);
          if (!empty && o.force !== true && current.lineage !== "" && pushed.lineage !== "") {
            if (current.lineage !== pushed.lineage) {
              throw refuse(`cannot import state with lineage ${JSON.stringify(pushed.lineage)} over unrelated state with lineage ${JSON.stringify(current.lineage)}`);
            }
            if (pushed.serial < current.serial) throw refuse(`cannot import state with serial ${pushed.serial} over newer state with serial ${current.serial}`);
            if (pushed.serial === current.serial && !same) {
              throw refuse(`cannot overwrite existing state with serial ${current.serial} with a different state that has the same serial`);
            }
          }
          const serial = pushedSerial(wd.settings.type === "local", current, pushed, same);
          if (serial !== undefined) await store.write(writeStateFile({ ...pushed, serial }));
        } finally {
          await release();
        }
      }, undefined, "ui-absolute");
    });
}

import { existsSync } from "node:fs";
import type { Command } from "commander";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import { terminalColumns, wordWrap } from "../terminal-columns.js";
import type { CommandContext } from "./command-context.js";
import { lockOptions, lockSettings, quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** The flags of `taint` and `untaint`. */
interface TaintOptions extends WorkdirOptions {
  allowMissing?: boolean;
}

const COMMON_OPTIONS = `Options:

  -allow-missing          If specified, the command will succeed (exit code 0)
                          even if the resource is missing.

  -lock=false             Don't hold a state lock during the operation. This is
                          dangerous if others might concurrently run commands
                          against the same workspace.

  -lock-timeout=0s        Duration to retry a state lock.

  -ignore-remote-version  A rare option used for the remote backend only. See
                          the remote backend documentation for more information.

  -state, state-out, and -backup are legacy options supported for the local
  backend only. For more information, see the local backend's documentation.`;

/** Terraform 1.11's help texts, printed after a wrong number of arguments. */
const HELP = {
  taint: `Usage: terraform [global options] taint [options] <address>

  Terraform uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  this command.

  This will not modify your infrastructure directly, but subsequent
  Terraform plans will include actions to destroy the remote object
  and create a new object to replace it.

  You can remove the "taint" state from a resource instance using
  the "terraform untaint" command.

  The address is in the usual resource address syntax, such as:
    aws_instance.foo
    aws_instance.bar[1]
    module.foo.module.bar.aws_instance.baz

  Use your shell's quoting or escaping syntax to ensure that the
  address will reach Terraform correctly, without any special
  interpretation.

${COMMON_OPTIONS}`,
  untaint: `Usage: terraform [global options] untaint [options] name

  Terraform uses the term "tainted" to describe a resource instance
  which may not be fully functional, either because its creation
  partially failed or because you've manually marked it as such using
  the "terraform taint" command.

  This command removes that state from a resource instance, causing
  Terraform to see it as fully-functional and not in need of
  replacement.

  This will not modify your infrastructure directly. It only avoids
  Terraform planning to replace a tainted instance in a future operation.

${COMMON_OPTIONS}`,
} as const;

const NOT_APPLIED = "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.";

/** A state address error's message as terraform's address parser words it: `Resource specification must include a resource type and name.` */
function addressProblem(message: string): string {
  const m = message.replace(/^\[[a-z_]+\] /, "").replace(/^invalid address "(?:[^"\\]|\\.)*": /, "");
  return `${m.charAt(0).toUpperCase()}${m.slice(1)}${m.endsWith(".") ? "" : "."}`.replace(/^A resource (specification|instance key)/, (_m, w: string) => `Resource ${w}`);
}

function noSuchInstance(detail: string, width: number): CliError {
  return new CliError(CliErrorCode.NotFound, "No such resource instance", { detail: wordWrap(detail, width) });
}

/**
 * Sets or clears the tainted status of one resource instance's current object in the current
 * workspace's state, under the state lock, with terraform's checks and messages (and its
 * warning, exit 0, for a missing instance with `-allow-missing`).
 */
async function setTainted(ctx: CommandContext, address: string, o: TaintOptions, taint: boolean): Promise<void> {
  const [{ acquireLock }, { loadState, saveState, parseResourceInstance, formatResourceInstance, isStateError }, { stateInstances }] = await Promise.all([
    import("../workdir/state-lock.js"),
    import("@magma/state"),
    import("../workdir/state-objects.js"),
  ]);
  const width = terminalColumns(ctx.io.stderr);
  let addr;
  try {
    addr = parseResourceInstance(address);
  } catch (e) {
    if (!isStateError(e)) throw e;
    // Terraform's address diagnostic carries an empty source range.
    throw new CliError(CliErrorCode.BadInput, "Invalid address", { detail: `  on  line 1:\n  (source code not available)\n\n${wordWrap(addressProblem(e.message), width)}` });
  }
  const text = formatResourceInstance(addr);
  if (taint && addr.mode !== "managed") throw new CliError(CliErrorCode.BadInput, `Resource instance ${text} cannot be tainted`, { plain: true });
  const missing = (): void => {
    // Terraform's Ui.Warn: warnings go to stdout.
    ctx.print(`\nWarning: No such resource instance\n\n${wordWrap(`Resource instance ${text} was not found, but this is not an error because -allow-missing was set.`, width)}\n\n`);
  };
  await withWorkingDir(ctx, o, async (wd) => {
    const store = wd.store();
    // A local state file that does not exist is an empty state; locking it would create it (terraform's does not).
    const file = (store as { path?: unknown }).path;
    if (typeof file === "string" && !existsSync(file)) {
      if (o.allowMissing === true) return missing();
      throw noSuchInstance(NOT_APPLIED, width);
    }
    const release = await acquireLock(store, { operation: taint ? "taint" : "untaint" }, lockSettings(o), ctx.signal);
    try {
      const state = await loadState(store);
      const instances = state === undefined ? [] : stateInstances(state);
      if (state === undefined || state.resources.every((r) => r.instances.length === 0)) {
        if (o.allowMissing === true) return missing();
        throw noSuchInstance(NOT_APPLIED, width);
      }
      const found = instances.find((i) => i.text === text);
      if (found === undefined) {
        if (o.allowMissing === true) return missing();
        throw noSuchInstance(
          `There is no resource instance in the state with the address ${text}. If the resource configuration has just been added, you must run "terraform apply" once to create the corresponding instance(s) before they can be tainted.`,
          width,
        );
      }
      const current = found.current;
      if (current === undefined) {
        const deposed = found.resource.instances.some((x) => x.indexKey === addr.key && x.deposed !== undefined);
        throw noSuchInstance(
          deposed
            ? `Resource instance ${text} is currently part-way through a create_before_destroy replacement action. Run "terraform apply" to complete its replacement before tainting it.`
            : `Resource instance ${text} does not currently have a remote object associated with it, so it cannot be tainted.`,
          width,
        );
      }
      if (!taint && !current.tainted) {
        throw new CliError(CliErrorCode.BadInput, "Resource instance is not tainted", {
          detail: wordWrap(`Resource instance ${text} is not currently tainted, and so it cannot be untainted.`, width),
        });
      }
      const resources = state.resources.map((r) =>
        r !== found.resource ? r : { ...r, instances: r.instances.map((x) => (x === current ? { ...x, tainted: taint } : x)) },
      );
      await saveState(store, { ...state, resources });
    } finally {
      await release();
    }
    ctx.print(taint ? `Resource instance ${text} has been marked as tainted.\n` : `Resource instance ${text} has been successfully untainted.\n`);
  }, undefined, taint ? "ui-absolute" : "ui");
}

function register(program: Command, ctx: CommandContext, name: "taint" | "untaint"): void {
  const taint = name === "taint";
  quietOptions(lockOptions(statePathOption(program.command(name).argument("[address...]", "the resource instance, e.g. aws_instance.foo[1]"))))
    .summary(taint ? "mark a resource instance as not fully functional" : "remove the tainted status from a resource instance")
    .description(
      taint
        ? "Marks a resource instance's current object tainted in the current workspace's state, so that the next plan replaces it (terraform taint)."
        : "Clears the tainted status of a resource instance's current object in the current workspace's state (terraform untaint).",
    )
    .option("--allow-missing", "succeed (exit 0, with a warning) when the instance is not in the state")
    .action(async (args: string[], o: TaintOptions) => {
      if (args.length !== 1) {
        ctx.io.stderr.write(`The ${name} command expects exactly one argument.\n${HELP[name]}\n`);
        ctx.exitCode = ExitCode.Error;
        return;
      }
      await setTainted(ctx, args[0]!, o, taint);
    });
}

/** `magma taint ADDRESS`: terraform's `taint` (flags, messages, exit codes, the state written). */
export function registerTaintCommand(program: Command, ctx: CommandContext): void {
  register(program, ctx, "taint");
}

/** `magma untaint ADDRESS`: terraform's `untaint` (flags, messages, exit codes, the state written). */
export function registerUntaintCommand(program: Command, ctx: CommandContext): void {
  register(program, ctx, "untaint");
}

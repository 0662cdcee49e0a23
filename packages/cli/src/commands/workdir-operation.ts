import type { Command } from "commander";
import type { VariableArg } from "@magma/config";
import type { PlanMode } from "@magma/engine";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { OperationKind } from "../workdir/run-operation.js";
import { parseBoolFlag } from "../workdir/flag-values.js";
import type { CommandContext } from "./command-context.js";
import { lockSettings, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/** The flags of `magma plan|apply|destroy|refresh` on a working directory. */
export interface OperationFlags extends WorkdirOptions {
  var?: string[];
  varFile?: string[];
  target?: string[];
  replace?: string[];
  refresh?: string | boolean;
  refreshOnly?: boolean;
  destroy?: boolean;
  detailedExitcode?: boolean;
  parallelism?: string;
  allowMassLoss?: boolean;
  importOnConflict?: boolean;
  autoApprove?: boolean;
  input?: string | boolean;
  out?: string;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** `-var` and `-var-file` in command-line order (commander keeps them apart, so the order is read from argv). */
export function variableArgs(argv: readonly string[]): VariableArg[] {
  const out: VariableArg[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?(var|var-file)(?:=(.*))?$/s.exec(a);
    if (m === null) continue;
    const value = m[2] ?? argv[++i];
    if (value === undefined) continue;
    out.push(m[1] === "var" ? { kind: "var", arg: value } : { kind: "var-file", path: value });
  }
  return out;
}

/**
 * Adds the working-directory flags of Terraform's `plan`/`apply`/`destroy`/`refresh`
 * (`-var`, `-var-file`, `-target`, `-replace`, `-refresh`, `-refresh-only`,
 * `-detailed-exitcode`, `-parallelism`, `-lock`, `-lock-timeout`, `-auto-approve`,
 * `-input`, `-no-color`, `-allow-mass-loss`) to a command.
 */
export function operationOptions(c: Command, kind: OperationKind): Command {
  c.option("--var <name=value>", "set a root module variable (repeatable; working directory)", collect)
    .option("--var-file <file>", "load variable values from a .tfvars or .tfvars.json file (repeatable; working directory)", collect)
    .option("--target <address>", "limit the operation to a resource, resource instance or module and what it depends on (destroy: what depends on it); repeatable", collect)
    .option("--replace <address>", "plan the replacement of this instance (repeatable; working directory)", collect)
    .option("--refresh [bool]", "-refresh=false skips refreshing objects in state before planning")
    .option("--parallelism <n>", "how many objects to work on at once (default 10)")
    .option("--lock [bool]", "take the state lock (default true)")
    .option("--lock-timeout <duration>", "how long to retry a held state lock, e.g. 10s (default 0s)")
    .option("--input [bool]", "-input=false: never prompt (an apply then needs -auto-approve)")
    .option("--no-color", "no colour (also NO_COLOR; FORCE_COLOR colours a pipe)")
    .option("--allow-mass-loss", "accept a refresh that magma's guard judges suspect (most objects gone, most reads failed); Terraform has no such guard");
  if (kind === "plan" || kind === "apply") c.option("--refresh-only", "only update the state from the real objects");
  if (kind === "plan") c.option("--detailed-exitcode", "exit 0 without changes, 1 on error, 2 with changes");
  if (kind !== "plan" && kind !== "refresh") c.option("--auto-approve", "apply without asking for confirmation");
  if (kind === "apply") c.option("--destroy", "plan and apply the destruction of every object (as terraform destroy)");
  if (kind === "apply") {
    c.option(
      "--import-on-conflict",
      "when a create fails because the object already exists (e.g. created by a run killed before it saved the state), import it if it matches the configuration instead of failing; Terraform has no such option",
    );
  }
  return c;
}

/**
 * Runs a working-directory operation with the flags given, setting the run's exit code
 * (`-detailed-exitcode`'s 2, 130 when interrupted).
 *
 * @throws CliError `usage` for bad flag values.
 */
export async function runWorkdirOperation(ctx: CommandContext, kind: OperationKind, o: OperationFlags, planFile?: string): Promise<void> {
  const parallelism = o.parallelism === undefined ? 10 : Number(o.parallelism);
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new CliError(CliErrorCode.Usage, `-parallelism: expected a positive integer, got ${JSON.stringify(o.parallelism)}`);
  const refreshOnly = o.refreshOnly === true;
  const destroy = kind === "destroy" || o.destroy === true;
  if (refreshOnly && destroy) throw new CliError(CliErrorCode.Usage, "Incompatible plan mode options", { detail: "The -destroy and -refresh-only options are mutually-exclusive." });
  const mode: PlanMode = destroy ? "destroy" : refreshOnly || kind === "refresh" ? "refresh-only" : "normal";
  const refresh = parseBoolFlag("-refresh", o.refresh, true);
  if (!refresh && mode === "refresh-only") throw new CliError(CliErrorCode.Usage, "Incompatible refresh options", { detail: "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because Terraform would have nothing to do." });
  // With a saved plan, terraform 1.11 ignores the planning options (-destroy, -refresh-only, -target, -replace):
  // the plan's own are applied. Variables may be given: the ephemeral ones set when planning must be (checked when it is read).
  // The operation (the engine, config, state) is loaded when it runs, not when the command is registered.
  const { runOperation } = await import("../workdir/run-operation.js");
  const code = await withWorkingDir(ctx, o, (wd) =>
    runOperation(ctx, wd, {
      kind,
      mode,
      refresh,
      replace: o.replace ?? [],
      targets: o.target ?? [],
      variableArgs: variableArgs(ctx.argv),
      parallelism,
      lock: lockSettings(o),
      allowMassLoss: o.allowMassLoss === true,
      importOnConflict: o.importOnConflict === true,
      ...(o.out !== undefined ? { out: o.out } : {}),
      ...(planFile !== undefined ? { planFile } : {}),
      autoApprove: o.autoApprove === true || kind === "refresh",
      detailedExitcode: o.detailedExitcode === true,
      // TF_INPUT=0 (any false value of Go's ParseBool) turns input off as -input=false does; -input wins.
      input: parseBoolFlag("-input", o.input, !/^(0|f|F|false|FALSE|False)$/.test(ctx.io.env["TF_INPUT"] ?? "")),
      json: o.json === true,
    }),
    undefined,
    o.json === true ? "json" : "view",
  );
  if (code !== 0) ctx.exitCode = code;
}

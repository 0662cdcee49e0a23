import { Option, type Command } from "commander";
import { LogLevels } from "../log-levels.js";
import type { CommonOptions } from "./command-context.js";

/** The options of the single-resource commands (`--state`, `--from`, …) on top of {@link CommonOptions}. */
export interface ResourceOptions extends CommonOptions {
  config?: string;
  state?: string;
  priorState?: string;
  private?: string;
  from?: string;
  plan?: string;
  destroy?: boolean;
  id?: string;
  read?: boolean;
  version?: string;
  rawState?: string;
}

/** Adds the options every provider command takes (plugin dirs, output format, schema cache; `--provider-config` when `configure`). */
export function commonOptions(c: Command, configure = true): Command {
  c.option("--plugin-dir <dir>", "search this directory first for providers (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .option("--provider-version <constraint>", 'version constraint for a source address, e.g. "~> 5.0"')
    .addOption(new Option("--log-level <level>", "show the provider's log lines at this level and above on stderr").choices(LogLevels).default("off"))
    .addOption(new Option("-o, --output <format>", "human or json (default: human on a terminal, json when piped)").choices(["human", "json"]))
    .option("--json", "same as --output json")
    .option("--out <file>", "also write the full JSON output, sensitive values included, to this file (mode 0600) for --from / --plan")
    .option("--show-sensitive", "print sensitive values in the JSON output (by default they are null, marked in sensitive_values)")
    .option("--no-schema-cache", "neither read nor write magma's schema cache (each run asks the provider for its schema): for a provider under development");
  if (configure) c.option("--provider-config <json>", "provider configuration: inline JSON, @FILE, a file path, or - (default {})");
  return c.exitOverride();
}

/** Adds the prior-state options of the commands that act on an existing object. */
export function stateOptions(c: Command): Command {
  return c
    .option("--state <json>", "the prior state as JSON (the state's attributes): inline, @FILE, a file path, or -")
    .addOption(new Option("--prior-state <json>", "alias of --state").hideHelp())
    .option("--private <base64>", "the private state stored with it (base64)")
    .option("--from <file>", "take state and private from an earlier command's JSON output (a file or -)");
}

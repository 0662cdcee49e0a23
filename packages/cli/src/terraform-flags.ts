import type { Command, Option } from "commander";

/** Every long option (by name, without dashes) of a command and its subcommands, recursively. */
function longOptions(cmd: Command, into: Map<string, Option>): Map<string, Option> {
  for (const o of cmd.options) if (o.long !== undefined) into.set(o.long.replace(/^--/, ""), o);
  for (const c of cmd.commands) longOptions(c, into);
  return into;
}

/**
 * Rewrites Terraform's single-dash long flags (`-json`, `-lock-timeout=10s`, `-state=path`,
 * `-force`) into the double-dash form the parser reads, so that scripts written for terraform
 * run unchanged. Only names that are long options of some magma command are rewritten (short
 * options such as `-o` and `-V`, `-` for stdin, and anything after `--` stay as they are).
 * A Go-style boolean flag (`-lock`, `-or-create`: an option with an optional value) given
 * without `=value` becomes `--name=true`, so that it never takes the next argument as its value.
 */
export function normalizeTerraformFlags(argv: readonly string[], program: Command): string[] {
  const options = longOptions(program, new Map());
  const out: string[] = [];
  let rest = false;
  for (const a of argv) {
    if (rest || a === "--") {
      rest = true;
      out.push(a);
      continue;
    }
    const m = /^--?([A-Za-z][A-Za-z0-9-]+)(=.*)?$/s.exec(a);
    const o = m === null ? undefined : options.get(m[1]!);
    if (m !== null && o !== undefined) out.push(`--${m[1]!}${m[2] ?? (o.optional ? "=true" : "")}`);
    else if (m !== null && (m[1] === "help" || m[1] === "version") && m[2] === undefined) out.push(`--${m[1]}`);
    else out.push(a);
  }
  return out;
}

import type { Command } from "commander";

/** Every long option name (without dashes) of a command and its subcommands, recursively. */
function longOptionNames(cmd: Command, into: Set<string>): Set<string> {
  for (const o of cmd.options) if (o.long !== undefined) into.add(o.long.replace(/^--/, ""));
  for (const c of cmd.commands) longOptionNames(c, into);
  return into;
}

/**
 * Rewrites Terraform's single-dash long flags (`-json`, `-lock-timeout=10s`, `-state=path`,
 * `-force`) into the double-dash form the parser reads, so that scripts written for terraform
 * run unchanged. Only names that are long options of some magma command are rewritten (short
 * options such as `-o` and `-V`, `-` for stdin, and anything after `--` stay as they are).
 */
export function normalizeTerraformFlags(argv: readonly string[], program: Command): string[] {
  const names = longOptionNames(program, new Set(["help", "version"]));
  const out: string[] = [];
  let rest = false;
  for (const a of argv) {
    if (rest || a === "--") {
      rest = true;
      out.push(a);
      continue;
    }
    const m = /^-([A-Za-z][A-Za-z0-9-]+)(=.*)?$/s.exec(a);
    out.push(m !== null && names.has(m[1]!) ? `-${a}` : a);
  }
  return out;
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";

/** The working directory's provider selections (`.terraform.lock.hcl`): address → version; none when it is missing or unreadable, as terraform's `version` ignores it then. */
async function providerSelections(dir: string): Promise<Map<string, string>> {
  const { parseLockFile, LOCK_FILE_NAME } = await import("../workdir/provider-lock-file.js");
  try {
    const locks = parseLockFile(readFileSync(join(dir, LOCK_FILE_NAME), "utf8"));
    return new Map([...locks.values()].map((l) => [l.address, l.version]));
  } catch {
    return new Map();
  }
}

/**
 * `magma version [-json]`: terraform 1.11.4's `version` — the Terraform version magma
 * implements, the platform, and the providers the dependency lock file selects (`-json`:
 * `terraform_version`, `platform`, `provider_selections`, `terraform_outdated`).
 */
export function registerVersionCommand(program: Command, ctx: CommandContext): void {
  program
    .command("version")
    .summary("show the Terraform version implemented and the providers selected")
    .description("Prints the Terraform version magma implements, the platform, and the provider versions the working directory's .terraform.lock.hcl selects, as `terraform version` does.")
    .option("--json", "print the version information as JSON")
    .option("--no-color", "no colour")
    .exitOverride()
    .action(async (o: { json?: boolean }) => {
      const [{ platformName }, { TERRAFORM_VERSION }] = await Promise.all([import("../workdir/platform-name.js"), import("@magma/config")]);
      const selections = await providerSelections(ctx.cwd);
      const sorted = [...selections].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (o.json === true) {
        const doc = { terraform_version: TERRAFORM_VERSION, platform: platformName(), provider_selections: Object.fromEntries(sorted), terraform_outdated: false };
        ctx.print(`${JSON.stringify(doc, null, 2)}\n`);
        return;
      }
      let out = `Terraform v${TERRAFORM_VERSION}\non ${platformName()}\n`;
      const lines = sorted.map(([addr, v]) => (v === "0.0.0" ? `+ provider ${addr} (unversioned)` : `+ provider ${addr} v${v}`)).sort();
      for (const l of lines) out += `${l}\n`;
      ctx.print(out);
    });
}

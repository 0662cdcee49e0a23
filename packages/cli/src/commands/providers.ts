import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Config, VersionConstraint } from "@magma/config";
import { CliError, CliErrorCode } from "../cli-error.js";
import { ExitCode } from "../exit-code.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir } from "./workdir-options.js";

const SCHEMA_HELP = `Usage: terraform [global options] providers schema -json

  Prints out a json representation of the schemas for all providers used 
  in the current configuration.`;

/** Terraform's `configs.IsEmptyDir`: no `.tf`/`.tf.json` file (tests aside) in the directory. */
function isEmptyConfigDir(dir: string): boolean {
  if (!existsSync(dir)) return true;
  return !readdirSync(dir).some((n) => !n.startsWith(".") && !n.endsWith("~") && (n.endsWith(".tf") || n.endsWith(".tf.json")));
}

/** Terraform's `treeprint` rendering of a tree whose root is `.`. */
interface TreeNode {
  readonly label: string;
  readonly children: TreeNode[];
}

function renderTree(root: TreeNode): string {
  let out = `${root.label}\n`;
  const walk = (n: TreeNode, prefix: string): void => {
    n.children.forEach((c, i) => {
      const last = i === n.children.length - 1;
      out += `${prefix}${last ? "└── " : "├── "}${c.label}\n`;
      walk(c, `${prefix}${last ? "    " : "│   "}`);
    });
  };
  walk(root, "");
  return out;
}

/** `magma providers`: the provider requirements of each module of the configuration, and those of the state, as terraform prints them. */
async function printProviders(ctx: CommandContext): Promise<void> {
  const [{ loadConfig, providerAddrString, impliedProvider }, { versionConstraintsString }, { writeConfigurationDiagnostics }] = await Promise.all([
    import("@magma/config"),
    import("../workdir/version-constraints-string.js"),
    import("../workdir/invalid-configuration.js"),
  ]);
  const dir = resolve(ctx.cwd);
  if (isEmptyConfigDir(dir)) {
    throw new CliError(CliErrorCode.BadInput, "No configuration files", { detail: `The directory ${dir} contains no Terraform configuration files.` });
  }
  const { config, diags } = loadConfig(dir, { cwd: ctx.cwd });
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    // terraform's legacy Ui.Error, one diagnostic at a time.
    writeConfigurationDiagnostics(ctx, ctx.cwd, diags, "ui");
    ctx.exitCode = ExitCode.Error;
    return;
  }
  const node = (c: Config, label: string): TreeNode => {
    const m = c.module;
    const reqs = new Map<string, { constraints: VersionConstraint[] }>();
    const need = (addr: string, constraints: readonly VersionConstraint[] = []): void => {
      if (addr === "terraform.io/builtin/terraform") return;
      const e = reqs.get(addr) ?? { constraints: [] };
      e.constraints.push(...constraints);
      reqs.set(addr, e);
    };
    for (const rp of m.requiredProviders.values()) need(providerAddrString(rp.provider), rp.versionConstraints);
    for (const pc of m.providerConfigs.values()) need(providerAddrString(m.requiredProviders.get(pc.name)?.provider ?? impliedProvider(pc.name)));
    for (const r of [...m.managedResources.values(), ...m.dataResources.values(), ...m.ephemeralResources.values()]) need(providerAddrString(r.provider));
    const children: TreeNode[] = [...reqs]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([addr, e]) => {
        const v = versionConstraintsString(e.constraints);
        return { label: `provider[${addr}]${v === "" ? "" : ` ${v}`}`, children: [] };
      });
    for (const [name, child] of [...c.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) children.push(node(child, `module.${name}`));
    return { label, children };
  };
  const tree = renderTree(node(config, "."));
  const stateProviders = await withWorkingDir(ctx, {}, async (wd) => {
    const { loadState, formatProviderSource } = await import("@magma/state");
    const state = await loadState(wd.store());
    return [...new Set((state?.resources ?? []).map((r) => formatProviderSource(r.provider.provider)))].sort();
  });
  let out = `\nProviders required by configuration:\n${tree}\n`;
  if (stateProviders.length > 0) {
    out += "Providers required by state:\n\n";
    for (const p of stateProviders) out += `    provider[${p}]\n\n`;
  }
  ctx.print(out);
}

/** `magma providers schema -json`: the schemas of every provider the configuration and state use, as terraform's document. */
async function printSchemas(ctx: CommandContext, json: boolean): Promise<void> {
  if (!json) {
    ctx.io.stderr.write(`The \`terraform providers schema\` command requires the \`-json\` flag.\n\n${SCHEMA_HELP}\n`);
    ctx.exitCode = ExitCode.Error;
    return;
  }
  const [{ loadConfig }, { providerRequirements }, { loadShowSchemas }, { providerSchemasJson }, { writeConfigurationDiagnostics }] = await Promise.all([
    import("@magma/config"),
    import("../workdir/provider-requirements.js"),
    import("../workdir/show-schemas.js"),
    import("../workdir/provider-schemas-json.js"),
    import("../workdir/invalid-configuration.js"),
  ]);
  const { config, diags } = loadConfig(ctx.cwd);
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    // terraform's legacy Ui.Error, one diagnostic at a time.
    writeConfigurationDiagnostics(ctx, ctx.cwd, diags, "ui");
    ctx.exitCode = ExitCode.Error;
    return;
  }
  await withWorkingDir(ctx, {}, async (wd) => {
    const { loadState, formatProviderSource } = await import("@magma/state");
    const state = await loadState(wd.store());
    const sources = new Set(providerRequirements(config).map((r) => r.address));
    for (const r of state?.resources ?? []) {
      const s = formatProviderSource(r.provider.provider);
      if (s !== "terraform.io/builtin/terraform") sources.add(s);
    }
    const schemas = await loadShowSchemas(wd, ctx, [...sources].sort());
    ctx.print(`${providerSchemasJson(schemas)}\n`);
  });
}

/**
 * `magma providers`: the provider requirements of the configuration's modules and of the
 * state (terraform's tree), and the `providers` subcommands (`schema -json`; the installer's
 * subcommands register here too).
 */
export function registerProvidersCommand(program: Command, ctx: CommandContext): void {
  const providers = program
    .command("providers")
    .summary("show the providers required by the configuration and state")
    .description("Prints a tree of the configuration's modules with the providers each requires (and their version constraints), then the providers the state uses, as `terraform providers` does.")
    .argument("[args...]", "none: terraform 1.11 takes no directory (use -chdir)")
    .option("--no-color", "no colour")
    .exitOverride()
    .action(async (args: string[]) => {
      if (args.length > 0) {
        ctx.err("Too many command line arguments. Did you mean to use -chdir?");
        ctx.exitCode = ExitCode.Error;
        return;
      }
      await printProviders(ctx);
    });
  providers
    .command("schema")
    .summary("print the schemas of the providers in use (-json)")
    .description("Prints the schemas of every provider the configuration and state use as terraform's `providers schema -json` document (providers are started once each for their schema).")
    .option("--json", "print JSON (required)")
    .option("--no-color", "no colour")
    .exitOverride()
    .action(async (o: { json?: boolean }) => printSchemas(ctx, o.json === true));
}

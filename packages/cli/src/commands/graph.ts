import type { Command } from "commander";
import { graphInputs, loadConfig, subjectString, type GraphInput } from "@magma/config";
import { Graph } from "@magma/engine";
import { CliError, CliErrorCode } from "../cli-error.js";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import type { CommandContext } from "./command-context.js";
import { quietOptions } from "./workdir-options.js";

/**
 * The root module's resources and the resources each depends on, through locals: the
 * simplified graph `terraform graph` prints (Terraform 1.7+), transitively reduced as
 * Terraform's plan graph is.
 */
export function resourceGraph(inputs: readonly GraphInput[]): Graph<string> {
  const byAddress = new Map(inputs.map((i) => [i.address, i]));
  const isResource = (i: GraphInput): boolean => i.kind === "resource" || i.kind === "data";
  const g = new Graph<string>();
  for (const i of inputs) if (isResource(i)) g.add(i.address, i.address);
  for (const i of inputs) {
    if (!isResource(i)) continue;
    const seen = new Set<string>();
    const visit = (n: GraphInput): void => {
      for (const r of n.references) {
        const s = subjectString(r.subject);
        const target = byAddress.get(s);
        if (target === undefined || seen.has(s) || s === i.address) continue;
        seen.add(s);
        if (isResource(target)) g.dependOn(i.address, s);
        else if (target.kind === "local") visit(target);
      }
    };
    visit(i);
  }
  return g.transitiveReduction();
}

/** `magma graph`: the resource dependency graph in DOT, as `terraform graph` prints it. */
export function registerGraphCommand(program: Command, ctx: CommandContext): void {
  quietOptions(program.command("graph"))
    .summary("print the resource dependency graph in DOT")
    .description("Prints the root module's resources and their dependencies (through locals) in the DOT format terraform graph prints. -type=plan|apply (Terraform's full operation graphs) is not supported yet.")
    .option("--type <type>", "terraform's full operation graph (plan, apply, …): not supported yet, refused")
    .action((o: { type?: string }) => {
      if (o.type !== undefined) throw new CliError(CliErrorCode.Unsupported, "-type is not supported yet", { detail: "magma graph prints the resource graph only (terraform graph without -type)." });
      const { config, diags } = loadConfig(ctx.cwd);
      const errors = diags.filter((d) => d.severity === "error");
      if (errors.length > 0) {
        ctx.io.stderr.write(formatDiagnostics(errors, ctx.cwd));
        throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
      }
      const g = resourceGraph(graphInputs(config.module).inputs);
      const q = (s: string): string => JSON.stringify(s);
      const nodes = g.ids().sort();
      let out = 'digraph G {\n  rankdir = "RL";\n  node [shape = rect, fontname = "sans-serif"];\n';
      for (const n of nodes) out += `  ${q(n)} [label=${q(n)}];\n`;
      for (const n of nodes) for (const d of g.dependencies(n).sort()) out += `  ${q(n)} -> ${q(d)};\n`;
      ctx.print(`${out}}\n`);
    });
}

import type { Command } from "commander";
import { graphInputs, loadConfig, subjectString, type GraphInput } from "@magma/config";
import { Graph, isPlanDiagnosticsError, OPERATION_GRAPH_TYPES, operationGraph, type OperationGraph, type OperationGraphNodeKind, type OperationGraphType } from "@magma/engine";
import { loadState } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import type { CommandContext } from "./command-context.js";
import { quietOptions, statePathOption, withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

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

/** Terraform's DOT for an operation graph (`terraform graph -type=…`): resources, providers and root variables declared, every edge listed. */
export function operationGraphDot(g: OperationGraph): string {
  const q = (s: string): string => JSON.stringify(s);
  const shapes: Partial<Record<OperationGraphNodeKind, string>> = { resource: "box", provider: "diamond", "root-variable": "note" };
  // Terraform sorts the lines it writes (so `provider[…] (close)` comes before `provider[…]`).
  const byCode = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  const declared: string[] = [];
  for (const n of g.nodes) {
    const shape = shapes[n.kind];
    if (shape === undefined) continue;
    for (let i = 0; i < n.multiplicity; i++) declared.push(`\t\t${q(`[root] ${n.name}`)} [label = ${q(n.label)}, shape = ${q(shape)}]\n`);
  }
  const edges = g.edges.map(([from, to]) => `\t\t${q(`[root] ${from}`)} -> ${q(`[root] ${to}`)}\n`);
  return `digraph {\n\tcompound = "true"\n\tnewrank = "true"\n\tsubgraph "root" {\n${declared.sort(byCode).join("")}${edges.sort(byCode).join("")}\t}\n}\n`;
}

function graphType(text: string): OperationGraphType {
  const t = OPERATION_GRAPH_TYPES.find((x) => x === text);
  if (t !== undefined) return t;
  if (text === "validate" || text === "eval") throw new CliError(CliErrorCode.Unsupported, `-type=${text} is not supported`, { detail: `magma graph prints the ${OPERATION_GRAPH_TYPES.join(", ")} graphs.` });
  throw new CliError(CliErrorCode.BadInput, `Invalid graph type requested: ${text}`);
}

/** `magma graph`: the resource dependency graph, or an operation's graph with -type, in DOT, as `terraform graph` prints them. */
export function registerGraphCommand(program: Command, ctx: CommandContext): void {
  quietOptions(statePathOption(program.command("graph")))
    .summary("print the dependency graph in DOT")
    .description(
      "Without -type: the root module's resources and their dependencies (through locals), as terraform graph prints them.\nWith -type=plan|plan-refresh-only|plan-destroy|apply: the operation's whole graph as terraform graph -type prints it (from the configuration and the current workspace's state; no provider is started).",
    )
    .option("--type <type>", "the operation's graph: plan, plan-refresh-only, plan-destroy or apply")
    .action(async (o: WorkdirOptions & { type?: string }) => {
      const type = o.type === undefined ? undefined : graphType(o.type);
      const { config, diags } = loadConfig(ctx.cwd);
      const errors = diags.filter((d) => d.severity === "error");
      if (errors.length > 0) {
        ctx.io.stderr.write(formatDiagnostics(errors, ctx.cwd, ctx.colour.stderr));
        throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
      }
      if (type !== undefined) {
        const state = await withWorkingDir(ctx, o, async (wd) => loadState(wd.store()));
        let g: OperationGraph;
        try {
          g = operationGraph(config, state, type);
        } catch (e) {
          if (!isPlanDiagnosticsError(e)) throw e;
          const d = e.diagnostics[0];
          throw new CliError(CliErrorCode.BadInput, d?.summary ?? "the graph has a cycle", d !== undefined ? { detail: d.detail } : {});
        }
        ctx.print(operationGraphDot(g));
        return;
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

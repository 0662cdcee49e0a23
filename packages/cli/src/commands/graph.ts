import { loadConfig } from "@magma/config";
import { resolve } from "node:path";
import { isPlanDiagnosticsError, OPERATION_GRAPH_TYPES, operationGraph, readPlanFile, type Plan, type OperationGraph, type OperationGraphNodeKind, type OperationGraphResource, type OperationGraphType } from "@magma/engine";
import { loadState } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { paint } from "../colour.js";
import type { Diagnostic } from "@magma/hcl";
import { formatDiagnostics } from "../workdir/format-diagnostic.js";
import { parseBoolFlag } from "../workdir/flag-values.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";
import { terminalColumns } from "../terminal-columns.js";

/** How {@link operationGraphDot} draws: `terraform graph`'s `-verbose` and `-draw-cycles`. */
export interface GraphDotOptions {
  /** Declare the provider closes too (as diamonds), as `-verbose` does. */
  readonly verbose?: boolean;
  /** Draw each cycle's edges red (`-draw-cycles`). */
  readonly drawCycles?: boolean;
}

const byCode = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
const q = (s: string): string => JSON.stringify(s);

/**
 * Terraform's DOT for an operation graph (`terraform graph -type=…`): resources, providers and
 * root variables declared (provider closes too with `verbose`), every edge listed, sorted as
 * Terraform sorts its lines. With `drawCycles`, each cycle's consecutive nodes (in Tarjan's
 * order, as Terraform pairs them — for a simple cycle, its edges reversed) are joined by a red
 * edge that replaces an edge of the same direction; pairs with a node Terraform never draws
 * (locals, outputs, module variables and calls) are left out.
 */
export function operationGraphDot(g: OperationGraph, options: GraphDotOptions = {}): string {
  const shapes: Partial<Record<OperationGraphNodeKind, string>> = { resource: "box", provider: "diamond", "root-variable": "note", ...(options.verbose === true ? { "provider-close": "diamond" } : {}) };
  const drawable = new Set<OperationGraphNodeKind>(["resource", "provider", "provider-close", "root-variable"]);
  const kinds = new Map(g.nodes.map((n) => [n.name, n.kind]));
  // Terraform sorts the declarations by quoted name (so `provider[…]` comes before `provider[…] (close)`), the edges by their line.
  const declared: (readonly [string, string])[] = [];
  for (const n of g.nodes) {
    const shape = shapes[n.kind];
    if (shape === undefined) continue;
    for (let i = 0; i < n.multiplicity; i++) declared.push([q(n.name).slice(1, -1), `\t\t${q(`[root] ${n.name}`)} [label = ${q(n.label)}, shape = ${q(shape)}]\n`]);
  }
  const edge = (from: string, to: string): string => `\t\t${q(`[root] ${from}`)} -> ${q(`[root] ${to}`)}`;
  const edges = new Map<string, string>();
  if (options.drawCycles === true) {
    for (const c of g.cycles) {
      c.forEach((from, i) => {
        const to = c[(i + 1) % c.length]!;
        if (!drawable.has(kinds.get(from)!) || !drawable.has(kinds.get(to)!)) return;
        edges.set(`${from}|${to}`, `${edge(from, to)} [color = "red", penwidth = "2.0"]\n`);
      });
    }
  }
  for (const [from, to] of g.edges) if (!edges.has(`${from}|${to}`)) edges.set(`${from}|${to}`, `${edge(from, to)}\n`);
  return `digraph {\n\tcompound = "true"\n\tnewrank = "true"\n\tsubgraph "root" {\n${declared
    .sort(([a], [b]) => byCode(a, b))
    .map(([, line]) => line)
    .join("")}${[...edges.values()].sort(byCode).join("")}\t}\n}\n`;
}

/** A resource's configuration address: `module.a.module.b.aws_x.y`, `data.aws_z.w`. */
function resourceAddress(r: OperationGraphResource): string {
  return `${r.module.map((m) => `module.${m}.`).join("")}${r.mode === "data" ? "data." : r.mode === "ephemeral" ? "ephemeral." : ""}${r.type}.${r.name}`;
}

/**
 * The resources of a plan graph and how they depend on each other, through whatever lies
 * between (Terraform's `Graph.ResourceGraph`): a resource depends on another when the plan
 * graph has a path between them through no other resource, the implied ones left out.
 * Orphaned instances count as their resource. When the graph has cycles (Terraform's own
 * reduction then depends on Go's map order), the edges inside a cycle are all kept.
 */
export function resourceDependencies(g: OperationGraph): Map<string, Set<string>> {
  const deps = new Map<string, string[]>();
  for (const [from, to] of g.edges) deps.set(from, [...(deps.get(from) ?? []), to]);
  const resources = new Map(g.nodes.filter((n) => n.resource !== undefined).map((n) => [n.name, n.resource!]));
  // The resources each resource node reaches through non-resource nodes.
  const direct = new Map<string, Set<string>>();
  for (const start of resources.keys()) {
    const found = new Set<string>();
    const seen = new Set<string>();
    const stack = [...(deps.get(start) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      if (resources.has(n)) {
        if (n !== start) found.add(n);
      } else stack.push(...(deps.get(n) ?? []));
    }
    direct.set(start, found);
  }
  const reach = new Map<string, Set<string>>();
  const reachable = (start: string): Set<string> => {
    let r = reach.get(start);
    if (r !== undefined) return r;
    r = new Set<string>();
    const stack = [...direct.get(start)!];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (r.has(n)) continue;
      r.add(n);
      stack.push(...direct.get(n)!);
    }
    reach.set(start, r);
    return r;
  };
  const out = new Map<string, Set<string>>();
  for (const [u, targets] of direct) {
    const from = resourceAddress(resources.get(u)!);
    const set = out.get(from) ?? new Set<string>();
    out.set(from, set);
    for (const w of targets) {
      // Implied: another dependency leads to w, and w does not lead back to it (no cycle between them).
      const implied = [...targets].some((v) => v !== w && reachable(v).has(w) && !reachable(w).has(v));
      const to = resourceAddress(resources.get(w)!);
      if (!implied && to !== from) set.add(to);
    }
  }
  return out;
}

const MODE_RANK = { data: 0, managed: 1, ephemeral: 2 } as const;

/** `terraform graph`'s DOT without `-type`: the resources, clustered by module, and their dependencies ({@link resourceDependencies}). */
export function resourceGraphDot(g: OperationGraph): string {
  const byAddress = new Map<string, OperationGraphResource>();
  for (const n of g.nodes) if (n.resource !== undefined) byAddress.set(resourceAddress(n.resource), n.resource);
  const deps = resourceDependencies(g);
  const moduleOf = (r: OperationGraphResource): string => r.module.map((m) => `module.${m}`).join(".");
  const order = [...byAddress.entries()].sort(([, a], [, b]) => {
    const ma = moduleOf(a);
    const mb = moduleOf(b);
    if (ma !== mb) return byCode(ma, mb);
    // Data sources first, then managed resources, then ephemeral resources, as terraform lists them.
    if (a.mode !== b.mode) return MODE_RANK[a.mode] - MODE_RANK[b.mode];
    return a.type !== b.type ? byCode(a.type, b.type) : byCode(a.name, b.name);
  });
  let out = 'digraph G {\n  rankdir = "RL";\n  node [shape = rect, fontname = "sans-serif"];\n';
  if (order.length === 0) out += "  /* This configuration does not contain any resources.         */\n  /* For a more detailed graph, try: terraform graph -type=plan */\n";
  let current = "";
  for (const [address, r] of order) {
    const mod = moduleOf(r);
    if (mod !== current) {
      if (current !== "") out += "  }\n";
      current = mod;
      out += `  subgraph ${q(`cluster_${mod}`)} {\n    label = ${q(mod)}\n    fontname = "sans-serif"\n`;
    }
    out += `${current === "" ? "  " : "    "}${q(address)} [label=${q(resourceAddress({ ...r, module: [] }))}];\n`;
  }
  if (current !== "") out += "  }\n";
  for (const [from] of order) for (const [to] of order) if (deps.get(from)?.has(to) === true) out += `  ${q(from)} -> ${q(to)};\n`;
  return `${out}}\n`;
}

function graphType(text: string): OperationGraphType {
  const t = OPERATION_GRAPH_TYPES.find((x) => x === text);
  if (t !== undefined) return t;
  if (text === "validate" || text === "eval") {
    throw new CliError(CliErrorCode.BadInput, "Graph type no longer available", { detail: `The graph type ${q(text)} is no longer available. Use -type=plan instead to get a similar result.` });
  }
  throw new CliError(CliErrorCode.BadInput, "Unsupported graph type", { detail: 'The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".' });
}

/** A Go-style boolean flag's value (`-verbose`, `-draw-cycles=false`). */
function boolFlag(name: string, v: string | boolean | undefined): boolean {
  return parseBoolFlag(name, v, false);
}

/** Runs the command (its registration — name, flags, help — is in graph-command.ts, which loads this module on demand). */
export async function graphAction(ctx: CommandContext, o: WorkdirOptions & { type?: string; plan?: string; drawCycles?: string | boolean; verbose?: string | boolean; moduleDepth?: string }): Promise<void> {
  const drawCycles = boolFlag("-draw-cycles", o.drawCycles);
  const verbose = boolFlag("-verbose", o.verbose);
  if (o.moduleDepth !== undefined && !/^-?\d+$/.test(o.moduleDepth)) {
    throw new CliError(CliErrorCode.Usage, `invalid value ${q(o.moduleDepth)} for flag -module-depth: parse error`);
  }
  const { config, diags } = loadConfig(ctx.cwd);
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    ctx.io.stderr.write(uiErrors(errors, ctx));
    throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
  }
  let plan: Plan | undefined;
  if (o.plan !== undefined) {
    try {
      plan = await readPlanFile(resolve(ctx.cwd, o.plan));
    } catch (e) {
      throw new CliError(CliErrorCode.BadInput, "Failed to read the given file as a plan file", { detail: `${o.plan}: ${(e as Error).message}`, cause: e });
    }
  }
  // Terraform draws a saved plan's apply graph unless -type says otherwise.
  const type = o.type !== undefined ? graphType(o.type) : plan !== undefined ? "apply" : undefined;
  const state = await withWorkingDir(ctx, o, async (wd) => loadState(wd.store()));
  let g: OperationGraph;
  try {
    g = operationGraph(config, state, type ?? "plan", { keepCycles: drawCycles, ...(plan !== undefined ? { changes: plan.changes, destroyPlan: plan.mode === "destroy" } : {}) });
  } catch (e) {
    if (!isPlanDiagnosticsError(e)) throw e;
    // Every cycle (or module restriction) is an error of its own, as terraform prints them.
    ctx.io.stderr.write(uiErrors(e.diagnostics, ctx));
    throw new CliError(CliErrorCode.BadInput, "the graph cannot be built", { silent: true });
  }
  ctx.print(type === undefined ? resourceGraphDot(g) : operationGraphDot(g, { verbose, drawCycles }));
}

/**
 * Errors as terraform graph prints them (its legacy `Ui.Error` per diagnostic, not a view):
 * each diagnostic's text and a newline; in colour, its box coloured once more as a whole
 * inside `[red]…[reset]`.
 */
function uiErrors(diags: readonly Diagnostic[], ctx: CommandContext): string {
  const colour = ctx.colour.stderr;
  return diags.map((d) => `${colour ? paint(true, `[red]${formatDiagnostics([d], ctx.cwd, true, { width: terminalColumns(ctx.io.stderr) })}[reset]`) : formatDiagnostics([d], ctx.cwd, false, { width: terminalColumns(ctx.io.stderr) })}\n`).join("");
}

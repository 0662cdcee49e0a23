import { createInterface } from "node:readline";
import { collectVariableValues, loadConfig, type VariableArg } from "@magma/config";
import { unknownVal, type Type, type Value } from "@magma/cty";
import { createConsoleScope, createEngine, type ConsoleScope, type Plan, type PlanDiagnostic } from "@magma/engine";
import { lexWriteTokens, type Diagnostic } from "@magma/hcl";
import type { ProviderSchema } from "@magma/provider-api";
import { formatProviderSource, loadState, newStateFile, type StateFile } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import type { CommandContext } from "../commands/command-context.js";
import { terminalColumns } from "../terminal-columns.js";
import { workdirProviders } from "./engine-providers.js";
import { formatDiagnostics } from "./format-diagnostic.js";
import { formatValue } from "./format-value.js";
import { loadShowSchemas } from "./show-schemas.js";
import { acquireLock, type LockSettings } from "./state-lock.js";
import type { WorkingDir } from "./working-dir.js";

/** Options of {@link runConsole}. */
export interface ConsoleOptions {
  /** `-var`, `-var-file`. */
  readonly variableArgs: readonly VariableArg[];
  /** The state lock (terraform's console holds it while it runs). */
  readonly lock: LockSettings;
  /** `-plan`: evaluate against a plan of the configuration (its planned objects) instead of the state. */
  readonly plan?: boolean;
}

const HELP_TEXT = `The Terraform console allows you to experiment with Terraform interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`;

/** A type as terraform's console prints the result of its console-only `type()` (go-cty-debug's TypeString, four spaces per level). */
export function consoleTypeString(t: Type, indent = 0): string {
  const pad = (n: number): string => "    ".repeat(n);
  switch (t.kind) {
    case "object": {
      const names = Object.keys(t.attributes).sort();
      if (names.length === 0) return "object({})";
      return `object({\n${names.map((n) => `${pad(indent + 1)}${n}: ${consoleTypeString(t.attributes[n]!, indent + 1)},\n`).join("")}${pad(indent)}})`;
    }
    case "tuple":
      if (t.elements.length === 0) return "tuple([])";
      return `tuple([\n${t.elements.map((e) => `${pad(indent + 1)}${consoleTypeString(e, indent + 1)},\n`).join("")}${pad(indent)}])`;
    case "list":
    case "map":
    case "set": {
      const e = t.element;
      if (e.kind === "object" || e.kind === "tuple") return `${t.kind}(\n${pad(indent + 1)}${consoleTypeString(e, indent + 1)},\n${pad(indent)})`;
      return `${t.kind}(${consoleTypeString(e, indent)})`;
    }
    case "dynamic":
      return "dynamic";
    default:
      return t.kind;
  }
}

/** One line's outcome, as terraform's `repl.Session.Handle`. */
interface Handled {
  readonly output: string;
  readonly exit: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

function handle(scope: ConsoleScope, line: string): Handled {
  const trimmed = line.trim();
  if (trimmed === "") return { output: "", exit: false, diagnostics: [] };
  if (trimmed === "exit") return { output: "", exit: true, diagnostics: [] };
  if (trimmed === "help") return { output: HELP_TEXT, exit: false, diagnostics: [] };
  const r = scope.evaluate(line);
  // The console-only type()'s result: the type itself, printed (terraform's console allows it only as the whole value).
  if (r.type !== undefined) return { output: consoleTypeString(r.type), exit: false, diagnostics: r.diagnostics };
  if (r.value === undefined) return { output: "", exit: false, diagnostics: r.diagnostics };
  return { output: consoleValue(r.value), exit: false, diagnostics: r.diagnostics };
}

/** A value as terraform's console prints it (`repl.FormatValue`; ephemeral values hidden). */
export function consoleValue(v: Value): string {
  if (v.isKnown() && !v.isMarked("sensitive") && v.isMarked("ephemeral")) return "(ephemeral value)";
  return formatValue(v);
}

/**
 * Whether an entry of the interactive console could go on over another line (terraform's
 * `repl.ExpressionEntryCouldContinue`): the last line is not blank, the text lexes, and a
 * bracket, parenthesis, brace, heredoc or template sequence is still open.
 */
export function entryCouldContinue(lines: readonly string[]): boolean {
  if (lines.length === 0 || lines[lines.length - 1]!.trim() === "") return false;
  const stack: string[] = [];
  const closes: Readonly<Record<string, readonly string[]>> = { CBrace: ["OBrace"], CBrack: ["OBrack"], CParen: ["OParen"], CHeredoc: ["OHeredoc"], TemplateSeqEnd: ["TemplateInterp", "TemplateControl"] };
  for (const tok of lexWriteTokens(`${lines.join("\n")}\n`)) {
    if (tok.type === "Invalid") return false;
    if (tok.type === "OBrace" || tok.type === "OBrack" || tok.type === "OParen" || tok.type === "OHeredoc" || tok.type === "TemplateInterp" || tok.type === "TemplateControl") stack.push(tok.type);
    const opens = closes[tok.type];
    if (opens !== undefined && !opens.includes(stack.pop() ?? "")) return false;
  }
  return stack.length > 0;
}

/**
 * `terraform console` on a working directory: the configuration, the variables (a required
 * one without a value is unknown) and the current workspace's state (under its lock; the
 * providers of its objects started for their schemas only), then expressions read from
 * stdin — piped, every line evaluated in turn, the last result printed and the first error
 * ending the run with exit 1; on a terminal, a prompt (`> `, `: ` while an entry continues)
 * with line editing and history, each result printed, errors printed and the session kept.
 *
 * @throws CliError (silent) after printing the diagnostics of a configuration or variables
 *   that do not load, or of a piped line that fails.
 */
export async function runConsole(ctx: CommandContext, wd: WorkingDir, o: ConsoleOptions): Promise<void> {
  const print = (diags: readonly Diagnostic[]): void => {
    // terraform's console shows diagnostics through its Ui, which ends them with an empty line.
    if (diags.length > 0) ctx.io.stderr.write(`${formatDiagnostics(diags, wd.dir, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) })}\n`);
  };
  const { config, diags } = loadConfig(wd.dir);
  if (diags.some((d) => d.severity === "error")) {
    print(diags);
    throw new CliError(CliErrorCode.BadInput, "the configuration is not valid", { silent: true });
  }
  // A required variable without a value is evaluated as unknown (terraform's AllowUnsetVariables).
  const vars = collectVariableValues(config.module, { dir: wd.dir, args: o.variableArgs, env: ctx.io.env });
  const varDiags = vars.diags.filter((d) => d.summary !== "No value for required variable");
  if (varDiags.some((d) => d.severity === "error")) {
    print(varDiags);
    throw new CliError(CliErrorCode.BadInput, "variables", { silent: true });
  }
  const store = wd.store();
  const release = await acquireLock(store, { operation: "OperationTypeInvalid" }, o.lock, ctx.signal);
  try {
    const state = await loadState(store);
    const variables = new Map<string, Value>([...vars.values].map(([k, v]) => [k, v.value]));
    let scope: ConsoleScope;
    let planDiags: readonly PlanDiagnostic[] = [];
    if (o.plan === true) {
      const planned = await planForConsole(ctx, wd, state, config.module.variables, variables, o.variableArgs);
      planDiags = planned.diagnostics;
      scope = createConsoleScope({ config, state: state ?? null, schemas: planned.schemas, variables, cwd: wd.dir, workspace: wd.currentWorkspace(), planned: planned.plan });
    } else {
      const sources = [...new Set((state?.resources ?? []).map((r) => formatProviderSource(r.provider.provider)))];
      const schemas = await loadShowSchemas(wd, ctx, sources);
      scope = createConsoleScope({ config, state: state ?? null, schemas, variables, cwd: wd.dir, workspace: wd.currentWorkspace() });
    }
    if (planDiags.some((d) => d.severity === "error")) {
      // As terraform's console: the problems, then a warning of its own after them.
      print([...diags, ...varDiags, ...planDiags]);
      print([{ severity: "warning", summary: "Due to the problems above, some expressions may produce unexpected results.", detail: "" }]);
    } else print([...diags, ...varDiags, ...planDiags]);
    const stdin = ctx.io.stdin;
    if (stdin === undefined) return;
    if ((stdin as { isTTY?: boolean }).isTTY === true) await interactive(ctx, scope, stdin, print);
    else await piped(ctx, scope, stdin, print);
  } finally {
    await release();
  }
}

/**
 * The plan `terraform console -plan` evaluates against (its `PlanAndEval`): a normal plan of
 * the configuration over the state, refreshed, with the variables given and those without a
 * value unknown. Resolves to the plan, the providers' schemas and the plan's diagnostics.
 */
async function planForConsole(
  ctx: CommandContext,
  wd: WorkingDir,
  state: StateFile | undefined,
  declared: ReadonlyMap<string, { readonly type: Type }>,
  given: ReadonlyMap<string, Value>,
  variableArgs: readonly VariableArg[],
): Promise<{ plan: Plan; schemas: ReadonlyMap<string, ProviderSchema>; diagnostics: readonly PlanDiagnostic[] }> {
  const providers = workdirProviders(wd.dataDir, ctx.io.env, ctx.earlyLaunch, wd.dir);
  const engine = createEngine({ providers: providers.source, workspace: wd.currentWorkspace(), cwd: wd.dir });
  try {
    // A variable without a value is unknown (terraform's AllowUnsetVariables).
    const unset = Object.fromEntries([...declared].filter(([name]) => !given.has(name)).map(([name, v]) => [name, unknownVal(v.type)]));
    const r = await engine.plan(wd.dir, state ?? newStateFile(), { mode: "normal", refresh: true, validate: false, replace: [], variableArgs, variables: unset, env: ctx.io.env, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) });
    return { plan: r.plan, schemas: r.schemas, diagnostics: r.diagnostics };
  } finally {
    await engine.close();
    await Promise.all([...providers.open].map((p) => p.close().catch(() => undefined)));
    await providers.close();
  }
}

async function piped(ctx: CommandContext, scope: ConsoleScope, stdin: NodeJS.ReadableStream, print: (d: readonly Diagnostic[]) => void): Promise<void> {
  let last = "";
  const rl = createInterface({ input: stdin, terminal: false, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      const h = handle(scope, line.trim());
      if (h.diagnostics.some((d) => d.severity === "error")) {
        print(h.diagnostics);
        throw new CliError(CliErrorCode.BadInput, "the expression is not valid", { silent: true });
      }
      if (h.exit) return;
      last = h.output;
    }
  } finally {
    rl.close();
  }
  ctx.print(`${last}\n`);
}

async function interactive(ctx: CommandContext, scope: ConsoleScope, stdin: NodeJS.ReadableStream, print: (d: readonly Diagnostic[]) => void): Promise<void> {
  const rl = createInterface({ input: stdin, output: ctx.io.stdout as NodeJS.WritableStream, terminal: true, historySize: 1000, prompt: "> " });
  const lines: string[] = [];
  await new Promise<void>((resolve) => {
    const done = (): void => {
      rl.close();
      resolve();
    };
    rl.on("SIGINT", () => {
      // ^C on an empty prompt leaves; within a multi-line entry it drops the entry.
      const typed = (rl as unknown as { line: string }).line;
      if (lines.length === 0 && typed === "") return done();
      if (typed === "") {
        lines.length = 0;
        ctx.print("(multi-line entry canceled)\n");
      }
      rl.write(null, { ctrl: true, name: "u" });
      rl.setPrompt(lines.length === 0 ? "> " : ": ");
      rl.prompt();
    });
    rl.on("close", resolve);
    rl.on("line", (line) => {
      lines.push(line);
      if (entryCouldContinue(lines)) {
        rl.setPrompt(": ");
        rl.prompt();
        return;
      }
      const h = handle(scope, `${lines.join("\n")}\n`);
      lines.length = 0;
      if (h.diagnostics.some((d) => d.severity === "error")) print(h.diagnostics);
      if (h.exit) return done();
      ctx.print(`${h.output}\n`);
      rl.setPrompt("> ");
      rl.prompt();
    });
    rl.prompt();
  });
}

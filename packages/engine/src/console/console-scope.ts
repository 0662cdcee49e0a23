import { dynamicType, fromJson, Mark, markWithPaths, stringType, stringVal, typeFromJson, typeToJson, unknownVal, type Type, type Value } from "@magma/cty";
import { checkExpressionReferences, type Config } from "@magma/config";
import { evaluate, parseExpression, terraformFunctions, type HclFunction } from "@magma/hcl";
import type { ProviderSchema } from "@magma/provider-api";
import { decodeSensitivePaths, formatModuleInstance, formatProviderSource, formatResourceInstance, parseResourceInstance, type StateFile } from "@magma/state";
import { ModuleEvaluator } from "../eval/module-evaluator.js";
import type { Plan } from "../plan/plan.js";
import type { Expansion } from "../eval/expansion.js";
import { schemaSensitivePaths } from "../eval/schema-sensitive.js";
import { isPlanDiagnosticsError, type PlanDiagnostic } from "../planner/plan-diagnostic.js";

/** What {@link createConsoleScope} evaluates against. */
export interface ConsoleScopeInput {
  /** The configuration. */
  readonly config: Config;
  /** The state (null for none). */
  readonly state: StateFile | null;
  /**
   * The providers' schemas by source address (`registry.terraform.io/hashicorp/aws`), to
   * decode the state's objects; an object whose provider or type has no schema here is
   * unknown, with an error diagnostic when read.
   */
  readonly schemas: ReadonlyMap<string, ProviderSchema>;
  /** The root module's input variable values; a variable left out is unknown. */
  readonly variables: ReadonlyMap<string, Value>;
  /** `path.cwd` and the directory relative paths resolve against. */
  readonly cwd: string;
  /** `terraform.workspace` (default `default`). */
  readonly workspace?: string;
  /**
   * `terraform console -plan`: a plan of the configuration over {@link state}, whose planned
   * objects (with unknowns where the provider computes values) and data sources read are the
   * resources' values instead of the state's.
   */
  readonly planned?: Plan;
}

/** One line's result: its value (undefined when the diagnostics hold an error) and diagnostics. */
export interface ConsoleResult {
  /** The value, with its marks (sensitive, ephemeral); undefined for an error, or a {@link type} to print. */
  readonly value: Value | undefined;
  /** Set when the expression's value is the console-only `type()`'s: the type to print instead of a value. */
  readonly type?: Type;
  /** Errors and warnings of parsing and evaluating the line. */
  readonly diagnostics: readonly PlanDiagnostic[];
}

/** Evaluates expressions in the root module, as `terraform console` does. */
export interface ConsoleScope {
  /** Parses and evaluates one expression (`<console-input>`, line 1) in the root module. */
  evaluate(text: string): ConsoleResult;
}

/** The mark of the console-only `type()`'s result (terraform's `marks.TypeType`): the value is the type's JSON. */
const TYPE_MARK = "console-type";

/**
 * The console-only `type(value)` (terraform's `funcs.TypeFunc`): its argument's type, which
 * the console prints when it is the expression's whole value. Terraform gives a capsule
 * value marked `TypeType`; here it is the type's JSON, marked alike.
 */
const TYPE_FUNCTION: HclFunction = {
  description: "Returns the type of the given value (console only).",
  params: [{ name: "value", type: dynamicType, allowDynamicType: true, allowUnknown: true, allowNull: true }],
  type: () => stringType,
  impl: (args) => stringVal(typeToJson(args[0]!.type)).mark(TYPE_MARK),
};

/** Terraform's error for a `type()` result used inside an expression (its `repl.Session.handleEval`). */
const INVALID_TYPE_USE: PlanDiagnostic = { severity: "error", summary: "Invalid use of type function", detail: 'The console-only "type" function cannot be used as part of an expression.' };

/**
 * A value holding a `type()` result, as terraform's console treats it: the type to print when
 * the value is that result itself, else its "Invalid use of type function" error.
 */
function typeResult(value: Value, diagnostics: readonly PlanDiagnostic[]): ConsoleResult | undefined {
  if (!value.unmarkDeep().paths.some((p) => p.marks.has(TYPE_MARK))) return undefined;
  const plain = value.unmarkDeep().value;
  if (value.isMarked(TYPE_MARK) && plain.isKnown() && !plain.isNull() && plain.type.kind === "string") {
    try {
      return { value: undefined, type: typeFromJson(plain.asString()), diagnostics };
    } catch {
      // Not a type's JSON any more (a function changed it): used as part of an expression.
    }
  }
  return { value: undefined, diagnostics: [...diagnostics, INVALID_TYPE_USE] };
}

/**
 * The scope of `terraform console` without `-plan` (Terraform's eval walk): the root
 * module's variables (those without a value unknown), locals and module outputs evaluated
 * from the configuration, resources and data sources from the state only — an object not in
 * state is unknown, the instances are the state's (a `count` resource is a tuple as long as
 * its highest key in state), attributes sensitive by schema or by the object's
 * `sensitive_attributes` marked — and ephemeral resources unknown and ephemeral, as
 * terraform's console (it opens nothing and calls no provider). Impure functions
 * (`timestamp()`, `uuid()`) are evaluated.
 */
export function createConsoleScope(input: ConsoleScopeInput): ConsoleScope {
  const { config, state } = input;
  const keys = new Map<string, (number | string | undefined)[]>();
  const values = new Map<string, Value>();
  if (input.planned !== undefined) {
    // The plan's objects as planned (a deleted one gone), and its data sources as read.
    const planned: [string, Value][] = [...input.planned.changes.filter((c) => c.action !== "delete" && !c.after.isNull()).map((c) => [c.address, c.after] as [string, Value]), ...Object.entries(input.planned.dataReads ?? {})];
    for (const [address, value] of planned) {
      const a = parseResourceInstance(address);
      if (a.mode === "ephemeral") continue;
      const id = `${formatModuleInstance(a.module)}|${a.mode === "data" ? "data." : ""}${a.type}.${a.name}`;
      const list = keys.get(id) ?? [];
      if (!list.includes(a.key)) list.push(a.key);
      keys.set(id, list);
      values.set(address, value);
    }
  }
  for (const r of input.planned !== undefined ? [] : (state?.resources ?? [])) {
    const provider = formatProviderSource(r.provider.provider);
    const schema = input.schemas.get(provider);
    const entry = r.mode === "managed" ? schema?.resources.get(r.type) : schema?.dataSources.get(r.type);
    const id = `${formatModuleInstance(r.module)}|${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    for (const obj of r.instances) {
      if (obj.deposed !== undefined) continue;
      const address = formatResourceInstance({ module: r.module, mode: r.mode, type: r.type, name: r.name, key: obj.indexKey });
      const list = keys.get(id) ?? [];
      list.push(obj.indexKey);
      keys.set(id, list);
      // An object without a schema, or whose attributes do not decode with it, stays unknown.
      if (entry === undefined) continue;
      let plain: Value;
      try {
        plain = fromJson(obj.attributesJson ?? "{}", entry.type);
      } catch {
        continue;
      }
      const paths = [...decodeSensitivePaths(obj.sensitiveAttributesJson), ...schemaSensitivePaths(plain, entry.block)];
      values.set(address, markWithPaths(plain, paths.map((path) => ({ path, marks: new Set([Mark.Sensitive]) }))));
    }
  }
  const expansions = new Map<string, Expansion>();
  for (const [id, ks] of keys) {
    if (ks.every((k) => k === undefined)) expansions.set(id, { kind: "single" });
    else if (ks.every((k) => typeof k === "number")) expansions.set(id, { kind: "count", count: Math.max(...(ks as number[])) + 1 });
    else expansions.set(id, { kind: "for_each", entries: new Map(ks.filter((k): k is string => typeof k === "string").map((k) => [k, stringVal(k)])) });
  }
  const variables = new Map(input.variables);
  for (const [name, v] of config.module.variables) if (!variables.has(name)) variables.set(name, unknownVal(v.type));
  // The configuration's functions are terraform's; the console-only type() is added to the
  // prompt's own expression only (terraform's console scope), so a local calling it is
  // "Call to unknown function" there too.
  const functions = terraformFunctions({ baseDir: input.cwd, plan: false });
  const promptFunctions = new Map([...functions, ["type", TYPE_FUNCTION]]);
  const ctx = { cwd: input.cwd, workspace: input.workspace ?? "default", functions };
  const evaluator = new ModuleEvaluator(config, variables, ctx, {
    expansion: (m, k) => (k.startsWith("ephemeral.") ? undefined : expansions.get(`${m}|${k}`)),
    instance: (a) => values.get(a),
  });

  return {
    evaluate(text: string): ConsoleResult {
      const parsed = parseExpression(text, "<console-input>", { line: 1, column: 1, byte: 0 });
      if (parsed.diags.some((d) => d.severity === "error")) return { value: undefined, diagnostics: parsed.diags };
      const refProblems = checkExpressionReferences(config, parsed.expr);
      if (refProblems.some((d) => d.severity === "error")) return { value: undefined, diagnostics: [...parsed.diags, ...refProblems] };
      try {
        const refs = evaluator.refsOfExprs([parsed.expr]);
        const r = evaluate(parsed.expr, { ...evaluator.scope([], undefined, refs), functions: promptFunctions });
        const diagnostics = [...parsed.diags, ...r.diags];
        if (diagnostics.some((d) => d.severity === "error")) return { value: undefined, diagnostics };
        return typeResult(r.value, diagnostics) ?? { value: r.value, diagnostics };
      } catch (e) {
        if (isPlanDiagnosticsError(e)) return { value: undefined, diagnostics: [...parsed.diags, ...e.diagnostics] };
        throw e;
      }
    },
  };
}

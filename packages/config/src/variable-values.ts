import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { convert, isPathError, nullVal, stringVal, type Value } from "@magma/cty";
import { decodeSource, evaluate, parseConfig, parseExpression, type Diagnostic, type SourceRange } from "@magma/hcl";
import { at, errorDiag, warningDiag } from "./diagnostics.js";
import type { Module, Variable } from "./model.js";
import { applyTypeDefaults } from "./type-expr.js";

/** Where a variable's value came from, lowest precedence first. */
export const VariableSource = {
  Default: "default",
  Env: "env",
  File: "file",
  AutoFile: "auto-file",
  Cli: "cli",
} as const;
/** One of the {@link VariableSource} values. */
export type VariableSource = (typeof VariableSource)[keyof typeof VariableSource];

/** A command-line argument giving values: `-var 'name=value'` or `-var-file=path`, in command-line order. */
export type VariableArg = { readonly kind: "var"; readonly arg: string } | { readonly kind: "var-file"; readonly path: string };

/** Options of {@link collectVariableValues}. */
export interface VariableValueOptions {
  /** The working directory, where `terraform.tfvars` and `*.auto.tfvars` are looked for. */
  readonly dir: string;
  /** `-var` and `-var-file` arguments, in order. */
  readonly args?: readonly VariableArg[];
  /** The environment to read `TF_VAR_*` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Whether `terraform.tfvars` and `*.auto.tfvars` in {@link dir} are read (default true);
   * `terraform test` gives each run its values itself.
   */
  readonly autoFiles?: boolean;
}

/** A root module input variable's final value and where it came from. */
export interface VariableValue {
  readonly value: Value;
  readonly source: VariableSource;
  /** The value's source range (a tfvars file's expression), when it has one. */
  readonly range?: SourceRange;
  /**
   * The value as it was given, before conversion to the variable's type or its optional
   * attributes' defaults (`-var n=5` for a `number` is the string "5"): what terraform keeps in a
   * plan file and compares when a saved plan is applied. Absent for a default.
   */
  readonly given?: Value;
}

interface Raw {
  value: Value;
  source: VariableSource;
  range?: SourceRange;
  /** The file or argument, for messages. */
  origin: string;
  /** For a value from outside any file, how Terraform's messages say where it was set (`set using -var="n=..."`). */
  nonFile?: string;
}

/**
 * Whether a variable's string values from the environment or `-var` are literal: no type, or
 * a primitive type (`string`, `number`, `bool`), as Terraform's parsing mode (the string is
 * then converted to the type, so `-var n=abc` for a number fails the conversion).
 */
function literalMode(v: Variable): boolean {
  return !v.typeSet || v.type.kind === "string" || v.type.kind === "number" || v.type.kind === "bool";
}

function parseRawValue(v: Variable | undefined, raw: string, name: string, origin: string, diags: Diagnostic[]): Value | undefined {
  if (v === undefined || literalMode(v)) return stringVal(raw);
  const p = parseExpression(raw, `<value for var.${name}>`);
  if (p.diags.length > 0) {
    diags.push(...p.diags);
    return undefined;
  }
  const r = evaluate(p.expr);
  if (r.diags.length > 0) {
    diags.push(...r.diags);
    return undefined;
  }
  void origin;
  return r.value;
}

function readVarsFile(path: string, shownAs: string, source: VariableSource, module: Module, out: Map<string, Raw>, diags: Diagnostic[]): void {
  let text: string;
  try {
    text = path.endsWith(".json") ? readFileSync(path, "utf8") : decodeSource(readFileSync(path));
  } catch (err) {
    diags.push(errorDiag("Failed to read variables file", `Given variables file ${shownAs} does not exist or cannot be read: ${err instanceof Error ? err.message : String(err)}.`));
    return;
  }
  const parsed = parseConfig(text, shownAs);
  diags.push(...parsed.diags);
  if (parsed.diags.some((d) => d.severity === "error")) return;
  const { attributes, diags: d } = parsed.body.justAttributes();
  diags.push(...d);
  for (const a of attributes.values()) {
    const r = evaluate(a.expr);
    if (r.diags.length > 0) {
      diags.push(...r.diags);
      continue;
    }
    if (!module.variables.has(a.name)) {
      diags.push(
        warningDiag(
          "Value for undeclared variable",
          `The root module does not declare a variable named ${JSON.stringify(a.name)} but a value was found in file ${JSON.stringify(shownAs)}. If you meant to use this value, add a "variable" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain "global" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.`,
        ),
      );
      continue;
    }
    out.set(a.name, { value: r.value, source, range: a.expr.range, origin: shownAs });
  }
}

/**
 * The root module's input variable values as Terraform computes them: each variable's
 * default, overridden in turn by `TF_VAR_<name>` environment variables, `terraform.tfvars`,
 * `terraform.tfvars.json`, `*.auto.tfvars` and `*.auto.tfvars.json` (in name order), then
 * `-var` and `-var-file` arguments in command-line order; optional-attribute defaults
 * applied, converted to the declared type, and marked sensitive where declared.
 */
export function collectVariableValues(module: Module, options: VariableValueOptions): { values: Map<string, VariableValue>; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const raw = new Map<string, Raw>();
  const env = options.env ?? process.env;
  for (const [k, val] of Object.entries(env)) {
    if (!k.startsWith("TF_VAR_") || val === undefined) continue;
    const name = k.slice("TF_VAR_".length);
    const v = module.variables.get(name);
    if (v === undefined) continue; // Terraform ignores undeclared environment variables.
    const value = parseRawValue(v, val, name, k, diags);
    if (value !== undefined) raw.set(name, { value, source: VariableSource.Env, origin: `environment variable ${k}`, nonFile: `set using the TF_VAR_${name} environment variable` });
  }
  const autoFiles = options.autoFiles ?? true;
  for (const f of autoFiles ? ["terraform.tfvars", "terraform.tfvars.json"] : []) {
    const p = join(options.dir, f);
    if (existsSync(p)) readVarsFile(p, f, VariableSource.File, module, raw, diags);
  }
  const autos = autoFiles && existsSync(options.dir)
    ? readdirSync(options.dir)
        .filter((n) => n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json"))
        .sort()
    : [];
  for (const f of autos) readVarsFile(join(options.dir, f), f, VariableSource.AutoFile, module, raw, diags);
  for (const a of options.args ?? []) {
    if (a.kind === "var-file") {
      readVarsFile(a.path, a.path, VariableSource.Cli, module, raw, diags);
      continue;
    }
    const eq = a.arg.indexOf("=");
    if (eq <= 0) {
      diags.push(errorDiag("Invalid -var option", `The given -var option ${JSON.stringify(a.arg)} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`));
      continue;
    }
    const name = a.arg.slice(0, eq).trim();
    const v = module.variables.get(name);
    if (v === undefined) {
      diags.push(
        errorDiag(
          "Value for undeclared variable",
          `A variable named ${JSON.stringify(name)} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a "variable" block to the configuration.`,
        ),
      );
      continue;
    }
    const value = parseRawValue(v, a.arg.slice(eq + 1), name, "-var", diags);
    if (value !== undefined) raw.set(name, { value, source: VariableSource.Cli, origin: "-var", nonFile: `set using -var=${JSON.stringify(`${name}=...`)}` });
  }

  // As terraform: a variables file that cannot be read or parsed stops here, before values
  // are checked against their declarations (no "No value for required variable" beside it).
  if (diags.some((d) => d.severity === "error" && d.subject?.filename !== undefined && /\.tfvars(\.json)?$/.test(d.subject.filename))) {
    return { values: new Map(), diags };
  }

  const values = new Map<string, VariableValue>();
  for (const [name, v] of module.variables) {
    const given = raw.get(name);
    let value: Value;
    let source: VariableSource = VariableSource.Default;
    let range: SourceRange | undefined;
    if (given === undefined || (given.value.isNull() && !v.nullable)) {
      if (v.default === undefined) {
        if (given !== undefined) {
          // As Terraform: a value from outside any file is reported at the declaration, one from a file where it is written.
          diags.push(
            given.range === undefined
              ? errorDiag("Required variable not set", `Unsuitable value for var.${name} ${given.nonFile ?? "set from outside of the configuration"}: required variable may not be set to null.`, v.declRange)
              : errorDiag("Required variable not set", `The given value is not suitable for var.${name} defined at ${at(v.declRange)}: required variable may not be set to null.`, given.range),
          );
        } else {
          diags.push(
            errorDiag(
              "No value for required variable",
              `The root module input variable ${JSON.stringify(name)} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.`,
              v.declRange,
            ),
          );
        }
        continue;
      }
      value = v.default;
    } else {
      source = given.source;
      range = given.range;
      let gv = given.value;
      if (v.typeDefaults !== undefined) gv = applyTypeDefaults(gv, v.typeDefaults);
      try {
        value = convert(gv, v.type);
      } catch (err) {
        if (!isPathError(err)) throw err;
        // As Terraform: a value from outside any file is reported at the declaration ("set using
        // -var=..."), one from a file where it is written (but not shown when the variable is sensitive).
        if (given.range === undefined) diags.push(errorDiag("Invalid value for input variable", `Unsuitable value for var.${name} ${given.nonFile ?? "set from outside of the configuration"}: ${err.message}.`, v.declRange));
        else if (v.sensitive) diags.push(errorDiag("Invalid value for input variable", `The given value is not suitable for var.${name}, which is sensitive: ${err.message}. Invalid value defined at ${at(given.range)}.`, v.declRange));
        else diags.push(errorDiag("Invalid value for input variable", `The given value is not suitable for var.${name} declared at ${at(v.declRange)}: ${err.message}.`, given.range));
        continue;
      }
    }
    if (value.isNull() && !value.isKnown()) value = nullVal(v.type);
    if (v.sensitive) value = value.mark("sensitive");
    values.set(name, { value, source, ...(range !== undefined ? { range } : {}), ...(source !== VariableSource.Default && given !== undefined ? { given: given.value } : {}) });
  }
  return { values, diags };
}

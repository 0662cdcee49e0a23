import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import {
  convert,
  dynamicVal,
  emptyObjectVal,
  isPathError,
  Mark,
  objectVal,
  stringVal,
  unknownVal,
  type Value,
} from "@magma/cty";
import { applyTypeDefaults, loadConfig, readModuleManifest, type Config, type VariableArg } from "@magma/config";
import {
  isEngineError,
  isPlanDiagnosticsError,
  planText,
  type Engine,
  type EnginePlanResult,
  type PlanDiagnostic,
} from "@magma/engine";
import {
  decodeSource,
  evaluate,
  expressionTraversals,
  parseConfig,
  parseExpression,
  scopeExpressionValues,
  terraformFunctions,
  type Diagnostic,
  type Expression,
  type SourceRange,
  type Traversal,
} from "@magma/hcl";
import type { Provider, ProviderSchema } from "@magma/provider-api";
import type { StateFile } from "@magma/state";
import { stateText } from "../commands/show.js";
import { applyFailureDiagnostics, placedDiagnostic } from "../workdir/apply-failure-diagnostics.js";
import type { AddressedDiagnostic } from "../workdir/format-diagnostic.js";
import {
  findTestFiles,
  installMockDataFiles,
  isLocalPath,
  loadTestFile,
  type TestFile,
  type TestRun,
} from "./test-file.js";
import type { MockData } from "./mock-data.js";
import { moduleOverrideFor, overrideFor, OverrideProvider } from "./override-provider.js";
import { missingTargetWarning, overrideTargetExists, type TestOverride } from "./test-override.js";
import { withTestProviders } from "./test-providers.js";
import { verbosePlanJson, verboseStateJson } from "./verbose-json.js";
import { planValues, runScope, stateValues, testReferences, type RunValues } from "./test-scope.js";
import {
  mergeStatus,
  type FileResult,
  type RunResult,
  type SuiteResult,
  type TestStatus,
} from "./test-status.js";
import type { TestView } from "./test-view.js";

/** What `magma test` was asked to do. */
export interface TestSuiteOptions {
  /** The configuration directory (the working directory). */
  readonly dir: string;
  /** `-test-directory` (default `tests`). */
  readonly testDirectory: string;
  /** `-filter`: only these test files (names relative to the directory). */
  readonly filter: readonly string[];
  /** `-verbose`: print each run's plan or state. */
  readonly verbose: boolean;
  /** `-var` and `-var-file`, in command-line order. */
  readonly variableArgs: readonly VariableArg[];
  /** The environment (`TF_VAR_*`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Stops the suite after the current run (the rest skipped, cleanup done). */
  readonly signal?: AbortSignal;
  /** Whether the human view is coloured (for `-verbose` plans). */
  readonly color: boolean;
  /** Where the runner puts the mocked provider configurations of the run under way (read by `mockingProviderSource`). */
  readonly mocks?: { current: ReadonlyMap<string, MockData>; readonly realSchemas: ReadonlyMap<string, ProviderSchema> };
}

/** A raw global variable value (Terraform's `UnparsedVariableValue`): an expression from a file, or a string from `-var` or the environment. */
type GlobalValue =
  | { readonly kind: "expr"; readonly expr: Expression }
  | { readonly kind: "string"; readonly text: string; readonly name: string };

/** A variable value for a run, with where it was written. */
interface InputValue {
  readonly value: Value;
  readonly range?: SourceRange;
  /** Not given: the module's default applies. */
  readonly unset?: true;
}

/** The state of one module (the one under test, or a run's `module`), and the run that last changed it. */
interface TrackedState {
  run?: RunResult;
  state: StateFile | null;
}

function err(summary: string, detail: string, subject?: SourceRange): PlanDiagnostic {
  return { severity: "error", summary, detail, ...(subject !== undefined ? { subject } : {}) };
}

function warn(summary: string, detail: string, subject?: SourceRange): PlanDiagnostic {
  return { severity: "warning", summary, detail, ...(subject !== undefined ? { subject } : {}) };
}

const hasErrors = (d: readonly Diagnostic[]): boolean => d.some((x) => x.severity === "error");

/** Whether a Terraform variable's string values are literal (no type or a primitive one), else HCL expressions. */
function literalMode(config: Config, name: string): boolean {
  const v = config.module.variables.get(name);
  if (v === undefined) return false;
  return (
    !v.typeSet || v.type.kind === "string" || v.type.kind === "number" || v.type.kind === "bool"
  );
}

/** A traversal as Terraform writes an address (`random_string.s[0]`, `var.x`). */
export function traversalText(t: Traversal): string {
  let s = t.root;
  for (const step of t.steps) {
    if (step.kind === "attr") s += `.${step.name}`;
    else if (step.key.type.kind === "string") s += `[${JSON.stringify(step.key.asString())}]`;
    else if (step.key.type.kind === "number") s += `[${step.key.asNumber().toString()}]`;
    else s += "[...]";
  }
  return s;
}

/** Reads the global variable values Terraform's test command collects: environment, `terraform.tfvars`, `*.auto.tfvars`, then `-var`/`-var-file` in order. */
function collectGlobals(
  dir: string,
  args: readonly VariableArg[],
  env: Readonly<Record<string, string | undefined>>,
  diags: PlanDiagnostic[],
): Map<string, GlobalValue> {
  const out = new Map<string, GlobalValue>();
  for (const [k, v] of Object.entries(env))
    if (k.startsWith("TF_VAR_") && v !== undefined)
      out.set(k.slice(7), { kind: "string", text: v, name: k.slice(7) });
  readAutoFiles(dir, out, diags);
  for (const a of args) {
    if (a.kind === "var-file") readVarsFile(resolve(dir, a.path), a.path, out, diags);
    else {
      const eq = a.arg.indexOf("=");
      if (eq <= 0) {
        diags.push(
          err(
            "Invalid -var option",
            `The given -var option ${JSON.stringify(a.arg)} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`,
          ),
        );
        continue;
      }
      const name = a.arg.slice(0, eq).trim();
      out.set(name, { kind: "string", text: a.arg.slice(eq + 1), name });
    }
  }
  return out;
}

/** `terraform.tfvars(.json)` and `*.auto.tfvars(.json)` of a directory, into `out`. */
function readAutoFiles(
  dir: string,
  out: Map<string, GlobalValue>,
  diags: PlanDiagnostic[],
  shownDir = "",
): void {
  for (const f of ["terraform.tfvars", "terraform.tfvars.json"])
    if (existsSync(join(dir, f))) readVarsFile(join(dir, f), `${shownDir}${f}`, out, diags);
  const autos = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json"))
        .sort()
    : [];
  for (const f of autos) readVarsFile(join(dir, f), `${shownDir}${f}`, out, diags);
}

function readVarsFile(
  path: string,
  shown: string,
  out: Map<string, GlobalValue>,
  diags: PlanDiagnostic[],
): void {
  let text: string;
  try {
    text = path.endsWith(".json") ? readFileSync(path, "utf8") : decodeSource(readFileSync(path));
  } catch (e) {
    diags.push(
      err("Failed to read variables file", `Given variables file ${shown} does not exist.`),
    );
    void e;
    return;
  }
  const parsed = parseConfig(text, shown);
  diags.push(...parsed.diags);
  if (hasErrors(parsed.diags)) return;
  const { attributes, diags: d } = parsed.body.justAttributes();
  diags.push(...d);
  for (const a of attributes.values()) out.set(a.name, { kind: "expr", expr: a.expr });
}

/** Per run, the file-level and global variable values evaluated once (Terraform's `VariableCache`). */
class VariableCache {
  readonly #globals = new Map<string, InputValue>();
  readonly #files = new Map<string, InputValue>();
  readonly config: Config;
  readonly globals: ReadonlyMap<string, GlobalValue>;
  readonly fileVariables: ReadonlyMap<string, Expression>;
  constructor(
    config: Config,
    globals: ReadonlyMap<string, GlobalValue>,
    fileVariables: ReadonlyMap<string, Expression>,
  ) {
    this.config = config;
    this.globals = globals;
    this.fileVariables = fileVariables;
  }

  global(name: string): { value?: InputValue; diags: PlanDiagnostic[] } {
    const known = this.#globals.get(name);
    if (known !== undefined) return { value: known, diags: [] };
    const g = this.globals.get(name);
    if (g === undefined) return { diags: [] };
    const diags: PlanDiagnostic[] = [];
    let value: Value = dynamicVal;
    if (g.kind === "expr") {
      const r = evaluate(g.expr);
      diags.push(...r.diags);
      if (!hasErrors(r.diags)) value = r.value;
    } else if (literalMode(this.config, name)) value = stringVal(g.text);
    else {
      const p = parseExpression(g.text, `<value for var.${name}>`);
      diags.push(...p.diags);
      if (!hasErrors(p.diags)) {
        const r = evaluate(p.expr);
        diags.push(...r.diags);
        if (!hasErrors(r.diags)) value = r.value;
      }
    }
    const v = { value, ...(g.kind === "expr" ? { range: g.expr.range } : {}) };
    this.#globals.set(name, v);
    return { value: v, diags };
  }

  file(name: string): { value?: InputValue; diags: PlanDiagnostic[] } {
    const known = this.#files.get(name);
    if (known !== undefined) return { value: known, diags: [] };
    const expr = this.fileVariables.get(name);
    if (expr === undefined) return { diags: [] };
    const diags: PlanDiagnostic[] = [];
    const available = new Map<string, Value>();
    for (const t of expressionTraversals(expr)) {
      if (t.root !== "var" || t.steps[0]?.kind !== "attr") continue;
      const g = this.global(t.steps[0].name);
      diags.push(...g.diags);
      if (g.value !== undefined) available.set(t.steps[0].name, g.value.value);
    }
    let value: Value = dynamicVal;
    if (!hasErrors(diags)) {
      const ctx = testEvalContext("file", expr, available, undefined);
      diags.push(...ctx.diags);
      if (!hasErrors(ctx.diags)) {
        const r = evaluate(expr, ctx.scope);
        diags.push(...r.diags);
        if (!hasErrors(r.diags)) value = r.value;
      }
    }
    const v = { value, range: expr.range };
    this.#files.set(name, v);
    return { value: v, diags };
  }
}

/**
 * The evaluation context of a test file's own expressions (Terraform's `hcltest.EvalContext`):
 * `var` (the file-level and global values given) and `run` (earlier runs' outputs), with its
 * checks that every reference is one of those.
 */
function testEvalContext(
  target: "run" | "file" | "provider",
  expr: Expression,
  available: ReadonlyMap<string, Value>,
  runs: ReadonlyMap<string, Value | null> | undefined,
) {
  const diags: PlanDiagnostic[] = [];
  for (const t of expressionTraversals(expr)) {
    const first = t.steps[0];
    const range: SourceRange =
      first === undefined
        ? t.rootRange
        : { filename: t.rootRange.filename, start: t.rootRange.start, end: first.range.end };
    if (t.root === "run" && first?.kind === "attr") {
      if (target === "file") {
        diags.push(
          err(
            "Invalid reference",
            "You can not reference run blocks from within the file variables block.",
            range,
          ),
        );
        continue;
      }
      const prefix =
        target === "provider"
          ? "You can only reference run blocks that are in the same test file and will execute before the provider is required."
          : "You can only reference run blocks that are in the same test file and will execute before the current run block.";
      const prior = runs?.get(first.name);
      if (runs === undefined || !runs.has(first.name)) {
        diags.push(
          err(
            "Reference to unknown run block",
            `The run block ${JSON.stringify(first.name)} does not exist within this test file. ${prefix}`,
            range,
          ),
        );
        continue;
      }
      if (prior === null || prior === undefined) {
        diags.push(
          err(
            "Reference to unavailable run block",
            `The run block ${JSON.stringify(first.name)} has not executed yet. ${prefix}`,
            range,
          ),
        );
        continue;
      }
      // The value referred to must be known.
      let v: Value | undefined = prior;
      let shown = `run.${first.name}`;
      for (const s of t.steps.slice(1)) {
        if (v === undefined) break;
        if (s.kind === "attr") {
          shown += `.${s.name}`;
          v =
            v.type.kind === "object" && s.name in v.type.attributes
              ? v.getAttr(s.name)
              : v.type.kind === "dynamic"
                ? v
                : undefined;
        } else break;
      }
      if (v !== undefined && !v.isWhollyKnown()) {
        const ref =
          t.steps.length > 1 && t.steps[1]!.kind === "attr"
            ? { filename: range.filename, start: range.start, end: t.steps[1]!.range.end }
            : range;
        diags.push(
          err(
            "Reference to unknown value",
            `The value for ${shown} is unknown. Run block ${JSON.stringify(first.name)} is executing a "plan" operation, and the specified output value is only known after apply.`,
            ref,
          ),
        );
      }
      continue;
    }
    if (t.root === "var" && first?.kind === "attr") {
      if (!available.has(first.name)) {
        const detail =
          target === "run"
            ? `The input variable ${JSON.stringify(first.name)} is not available to the current run block. You can only reference variables defined at the file or global levels.`
            : target === "provider"
              ? `The input variable ${JSON.stringify(first.name)} is not available to the current provider configuration. You can only reference variables defined at the file or global levels.`
              : `The input variable ${JSON.stringify(first.name)} is not available to the current context. You can only reference global variables.`;
        diags.push(err("Reference to unavailable variable", detail, range));
      }
      continue;
    }
    diags.push(
      err(
        "Invalid reference",
        target === "run"
          ? "You can only reference earlier run blocks, file level, and global variables while defining variables from inside a run block."
          : target === "provider"
            ? "You can only reference run blocks, file level, and global variables while defining variables from inside provider configurations."
            : "You can only reference global variables within the test file variables block.",
        range,
      ),
    );
  }
  const names = new Map<string, Value>([["var", objectVal(new Map(available))]]);
  if (runs !== undefined)
    names.set(
      "run",
      objectVal(new Map([...runs].flatMap(([k, v]) => (v === null ? [] : [[k, v] as const])))),
    );
  return {
    scope: { variables: names, functions: terraformFunctions({ baseDir: ".", plan: false }) },
    diags,
  };
}

/** The module a run block runs: the one under test, or its `module`'s. */
interface RunConfig {
  readonly config: Config;
  /** The key of the state it works on (`""` for the module under test, else the module's source). */
  readonly key: string;
}

/** Loads the configuration under test with its test files and the modules their runs call. */
export function loadTestSuite(o: Pick<TestSuiteOptions, "dir" | "testDirectory">): {
  config: Config;
  files: TestFile[];
  modules: Map<TestRun, Config>;
  diags: PlanDiagnostic[];
} {
  const diags: PlanDiagnostic[] = [];
  const loaded = loadConfig(o.dir);
  diags.push(...loaded.diags);
  const found = findTestFiles(o.dir, o.testDirectory);
  diags.push(...found.diags);
  const files: TestFile[] = [];
  const modules = new Map<TestRun, Config>();
  const manifest = readModuleManifest(o.dir).modules;
  for (const name of found.names) {
    const f = loadTestFile(o.dir, name);
    diags.push(...f.diags);
    files.push(f.file);
    for (const run of f.file.runs) {
      if (run.module === undefined) continue;
      let dir: string | undefined;
      if (isLocalPath(run.module.source)) dir = resolve(o.dir, run.module.source);
      else {
        const parts = name.split("/");
        const base = parts.pop()!.replace(/\.tftest\.hcl$/, "");
        const key = ["test", ...parts, base, run.name].join(".");
        const rec = manifest.find((m) => m.key === key);
        if (rec === undefined) {
          diags.push(
            err(
              "Module not installed",
              `This module is not yet installed. Run "terraform init" to install all modules required by this configuration.`,
              run.module.sourceRange,
            ),
          );
          continue;
        }
        dir = isAbsolute(rec.dir) ? rec.dir : join(o.dir, rec.dir);
      }
      if (!existsSync(dir)) {
        diags.push(
          err(
            "Unreadable module directory",
            `The directory ${run.module.source} does not exist or cannot be read.`,
            run.module.sourceRange,
          ),
        );
        continue;
      }
      const m = loadConfig(dir, { cwd: o.dir });
      diags.push(...m.diags);
      modules.set(run, m.config);
    }
  }
  if (!hasErrors(diags)) diags.push(...installMockDataFiles(o.dir, files));
  return { config: loaded.config, files, modules, diags };
}

/** Whether two ranges are the same place. */
function sameRange(a: SourceRange | undefined, b: SourceRange): boolean {
  return a !== undefined && a.filename === b.filename && a.start.byte === b.start.byte && a.end.byte === b.end.byte;
}

/**
 * The root module's checkable object whose condition a diagnostic without an address is
 * placed at (the apply's checks name none): `check.NAME`, `output.NAME`, or the resource.
 */
export function addressByCondition(config: Config, d: PlanDiagnostic): PlanDiagnostic {
  if (d.address !== undefined || d.subject === undefined) return d;
  const m = config.module;
  for (const c of m.checks.values()) if (c.asserts.some((r) => sameRange(d.subject, r.condition.range))) return { ...d, address: `check.${c.name}` };
  for (const o of m.outputs.values()) if (o.preconditions.some((r) => sameRange(d.subject, r.condition.range))) return { ...d, address: `output.${o.name}` };
  for (const r of [...m.managedResources.values(), ...m.dataResources.values()]) {
    if ([...r.preconditions, ...r.postconditions].some((x) => sameRange(d.subject, x.condition.range))) return { ...d, address: `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}` };
  }
  return d;
}

/** The checkable object a diagnostic is about, as `expect_failures` names it (root module only). */
function checkableOf(
  d: PlanDiagnostic,
): { kind: "var" | "output" | "resource" | "check"; address: string } | undefined {
  const a = d.address;
  if (a === undefined || a.startsWith("module.")) return undefined;
  switch (d.summary) {
    case "Invalid value for variable":
      return a.startsWith("var.") ? { kind: "var", address: a } : undefined;
    case "Module output value precondition failed":
      return a.startsWith("output.") ? { kind: "output", address: a } : undefined;
    case "Resource precondition failed":
    case "Resource postcondition failed":
      return { kind: "resource", address: a };
    case "Check block assertion failed":
      return a.startsWith("check.") ? { kind: "check", address: a } : undefined;
    default:
      return undefined;
  }
}

/** `random_string.s[0]` → `random_string.s`. */
function resourceOf(address: string): string {
  return address.replace(/\[[^\]]*\]$/, "");
}

/** The expected failures of a run, by the address they name. */
function expectedFailures(run: TestRun): Map<string, { found: boolean; range: SourceRange }> {
  const m = new Map<string, { found: boolean; range: SourceRange }>();
  for (const t of run.expectFailures) m.set(traversalText(t), { found: false, range: t.range });
  return m;
}

/**
 * Terraform's `ValidateExpectedFailures`: drops the failures the run expects, turns failed
 * `check` assertions it does not expect into errors, and adds "Missing expected failure" for
 * each expected failure that did not happen.
 */
export function validateExpectedFailures(
  run: TestRun,
  originals: readonly PlanDiagnostic[],
): PlanDiagnostic[] {
  const expected = expectedFailures(run);
  const out: PlanDiagnostic[] = [];
  for (const d of originals) {
    const c = checkableOf(d);
    if (c !== undefined) {
      if (c.kind === "check") {
        const e = expected.get(c.address);
        if (e !== undefined) {
          e.found = true;
          continue;
        }
        out.push({ ...d, severity: "error" });
        continue;
      }
      if (d.severity === "error") {
        const e =
          expected.get(c.address) ??
          (c.kind === "resource" ? expected.get(resourceOf(c.address)) : undefined);
        if (e !== undefined) {
          e.found = true;
          continue;
        }
      }
    }
    out.push(d);
  }
  for (const [addr, e] of expected)
    if (!e.found)
      out.push(
        err(
          "Missing expected failure",
          `The checkable object, ${addr}, was expected to report an error but did not.`,
          e.range,
        ),
      );
  return out;
}

/** Terraform's `ExplainExpectedFailures`: an expected failure met while planning an apply still fails the run, with a warning saying why. */
export function explainExpectedFailures(
  run: TestRun,
  originals: readonly PlanDiagnostic[],
): PlanDiagnostic[] {
  const expected = expectedFailures(run);
  const out: PlanDiagnostic[] = [];
  for (const d of originals) {
    const c = d.severity === "error" ? checkableOf(d) : undefined;
    if (c !== undefined && c.kind !== "check") {
      const e =
        expected.get(c.address) ??
        (c.kind === "resource" ? expected.get(resourceOf(c.address)) : undefined);
      if (e !== undefined) {
        const container = c.address;
        out.push(
          warn(
            "Expected failure while planning",
            `A custom condition within ${container} failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report.`,
            c.kind === "output" ? e.range : undefined,
          ),
        );
      }
    }
    out.push(d);
  }
  return out;
}

/** Runs `terraform test` over a loaded suite, reporting through `view`; resolves to the suite's status. */
export class TestSuiteRunner {
  readonly #o: TestSuiteOptions;
  readonly #engine: Engine;
  readonly #view: TestView;
  readonly #config: Config;
  readonly #modules: ReadonlyMap<TestRun, Config>;
  readonly #globals: ReadonlyMap<string, GlobalValue>;
  readonly #testGlobals: ReadonlyMap<string, GlobalValue>;

  constructor(
    o: TestSuiteOptions,
    engine: Engine,
    view: TestView,
    config: Config,
    modules: ReadonlyMap<TestRun, Config>,
    globalDiags: PlanDiagnostic[],
  ) {
    this.#o = o;
    this.#engine = engine;
    this.#view = view;
    this.#config = config;
    this.#modules = modules;
    this.#globals = collectGlobals(o.dir, o.variableArgs, o.env, globalDiags);
    const testGlobals = new Map(this.#globals);
    readAutoFiles(join(o.dir, o.testDirectory), testGlobals, globalDiags, `${o.testDirectory}/`);
    this.#testGlobals = testGlobals;
  }

  /** Runs every file (sorted by name) and the conclusion. */
  async run(files: readonly TestFile[]): Promise<SuiteResult> {
    let chosen = [...files];
    if (this.#o.filter.length > 0) chosen = chosen.filter((f) => this.#o.filter.includes(f.name));
    chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const suite: SuiteResult = {
      files: chosen.map((file) => ({
        file,
        status: "pending",
        diagnostics: [],
        runs: file.runs.map((run) => ({ run, status: "pending", diagnostics: [] })),
      })),
      status: "pending",
    };
    this.#view.abstract(suite);
    suite.status = "pass";
    for (const f of suite.files) {
      const globals =
        f.file.name.startsWith(`${this.#o.testDirectory}/`) &&
        !f.file.name.slice(this.#o.testDirectory.length + 1).includes("/")
          ? this.#testGlobals
          : this.#globals;
      const runner = new FileRunner(this, f, globals);
      this.#view.file(f, "starting");
      await runner.test();
      this.#view.file(f, "teardown");
      await runner.cleanup();
      this.#view.file(f, "complete");
      suite.status = mergeStatus(suite.status, f.status);
    }
    this.#view.conclusion(suite);
    return suite;
  }

  /** @internal */
  get options(): TestSuiteOptions {
    return this.#o;
  }
  /** @internal */
  get engine(): Engine {
    return this.#engine;
  }
  /** @internal */
  get view(): TestView {
    return this.#view;
  }
  /** @internal The configuration under test of the runs without a module block. */
  get mainConfig(): Config {
    return this.#config;
  }
  /** @internal */
  runConfig(run: TestRun): RunConfig {
    const m = this.#modules.get(run);
    if (m !== undefined && run.module !== undefined) return { config: m, key: run.module.source };
    return { config: this.#config, key: "" };
  }
}

/** One test file's runs, states and cleanup (Terraform's `TestFileRunner`). */
class FileRunner {
  readonly #suite: TestSuiteRunner;
  readonly #file: FileResult;
  readonly #states = new Map<string, TrackedState>([["", { state: null }]]);
  /** Earlier runs' outputs; null for a run not executed yet. */
  readonly #prior = new Map<string, Value | null>();
  readonly #caches = new Map<string, VariableCache>();
  readonly #globals: ReadonlyMap<string, GlobalValue>;

  constructor(suite: TestSuiteRunner, file: FileResult, globals: ReadonlyMap<string, GlobalValue>) {
    this.#suite = suite;
    this.#file = file;
    this.#globals = globals;
    for (const r of file.runs) this.#prior.set(r.run.name, null);
  }

  #cache(run: TestRun, config: Config): VariableCache {
    let c = this.#caches.get(run.name);
    if (c === undefined)
      this.#caches.set(
        run.name,
        (c = new VariableCache(config, this.#globals, this.#file.file.variables)),
      );
    return c;
  }

  async test(): Promise<void> {
    const file = this.#file;
    const view = this.#suite.view;
    // Terraform's TestFile.Validate: warnings for the file's overrides that no configuration under test declares.
    const configs = [this.#suite.mainConfig, ...file.runs.flatMap((r) => (r.run.module !== undefined ? [this.#suite.runConfig(r.run).config] : []))];
    for (const o of file.file.overrides) if (!configs.some((c) => overrideTargetExists(c, o))) file.diagnostics.push(missingTargetWarning(o));
    file.status = mergeStatus(file.status, "skip");
    if (file.runs.length === 0) file.status = mergeStatus(file.status, "pass");
    for (const run of file.runs) {
      if (this.#suite.options.signal?.aborted === true || file.status === "error") {
        run.status = "skip";
        view.run(run, file, "complete", 0);
        continue;
      }
      const { config, key: moduleKey } = this.#suite.runConfig(run.run);
      const key = run.run.stateKey ?? moduleKey;
      let tracked = this.#states.get(key);
      if (tracked === undefined) this.#states.set(key, (tracked = { state: null }));
      const start = new Date();
      const started = process.hrtime.bigint();
      const { state, updated } = await this.#run(run, config, tracked.state);
      run.execution = { start, durationNs: Number(process.hrtime.bigint() - started) };
      if (updated) {
        tracked.state = state;
        tracked.run = run;
      }
      view.run(run, file, "complete", 0);
      file.status = mergeStatus(file.status, run.status);
    }
  }

  /** Executes one run block: plan (and apply), then its assertions. */
  async #run(
    run: RunResult,
    moduleConfig: Config,
    state: StateFile | null,
  ): Promise<{ state: StateFile | null; updated: boolean }> {
    const view = this.#suite.view;
    const o = this.#suite.options;
    const start = Date.now();
    view.run(run, this.#file, "starting", 0);
    run.diagnostics.push(...this.#validateRun(run.run));
    // Terraform's TestRun.Validate: warnings for the run's overrides the configuration under test does not declare.
    for (const ov of run.run.overrides) if (!overrideTargetExists(moduleConfig, ov)) run.diagnostics.push(missingTargetWarning(ov));
    if (hasErrors(run.diagnostics)) {
      run.status = "error";
      return { state, updated: false };
    }
    const transformed = this.#withProviders(moduleConfig, run.run);
    run.diagnostics.push(...transformed.diags);
    if (hasErrors(transformed.diags)) {
      run.status = "error";
      return { state, updated: false };
    }
    const config = transformed.config;
    const asserts = run.run.asserts.flatMap((a) => [a.condition, a.errorMessage]);
    const refs = testReferences(asserts);
    const referenced = refs.refs.flatMap((r) =>
      r.ref?.subject.kind === "var" ? [r.ref.subject.name] : [],
    );
    const vars = this.#variables(config, run.run, referenced, true);
    run.diagnostics.push(...vars.diags);
    if (hasErrors(vars.diags)) {
      run.status = "error";
      return { state, updated: false };
    }
    const moduleVars = new Map<string, InputValue>();
    const testOnly = new Map<string, Value>();
    for (const [name, v] of vars.values) {
      if (config.module.variables.has(name)) moduleVars.set(name, v);
      else testOnly.set(name, v.value);
    }
    const ticker = setInterval(
      () => view.run(run, this.#file, "running", Date.now() - start),
      2000,
    );
    ticker.unref();
    try {
      const planned = await this.#plan(config, state, run.run, moduleVars);
      if (run.run.command === "plan") {
        const planDiags = validateExpectedFailures(run.run, planned.diagnostics);
        run.diagnostics.push(...planDiags);
        if (hasErrors(planDiags)) {
          run.status = "error";
          return { state, updated: false };
        }
        if (o.verbose) run.verbose = { human: verbosePlan(planned, o.color), ...rendered("plan", () => verbosePlanJson(planned, config, o.mocks?.realSchemas ?? new Map())) };
        const values = planValues(planned.plan, config);
        this.#assert(run, config, planned, values, testOnly);
        return { state, updated: false };
      }
      const planDiags = explainExpectedFailures(run.run, planned.diagnostics);
      run.diagnostics.push(...planDiags);
      if (hasErrors(planDiags)) {
        run.status = "error";
        return { state, updated: false };
      }
      run.diagnostics = run.diagnostics.filter((d) => d.fromCheckBlock !== true);
      let latest: StateFile | null = state;
      let applyDiags: PlanDiagnostic[];
      let updated: StateFile | null = state;
      try {
        const result = await this.#suite.engine.apply(planned, {
          state,
          persist: async (s) => void (latest = s),
          ...this.#overrides(run.run),
        });
        updated = result.state;
        applyDiags = applyDiagnostics(result, config);
      } catch (e) {
        updated = latest;
        applyDiags = diagnosticsOf(e);
      }
      applyDiags = validateExpectedFailures(run.run, applyDiags);
      run.diagnostics.push(...applyDiags);
      if (hasErrors(applyDiags)) {
        run.status = "error";
        return { state: updated, updated: true };
      }
      if (o.verbose) run.verbose = { human: `\n${stateText(updated ?? undefined, planned.schemas)}\n`, ...(updated === null ? {} : rendered("state", () => verboseStateJson(updated!, planned, o.mocks?.realSchemas ?? new Map()))) };
      if (updated !== null) {
        const values = stateValues(updated, planned.schemas, config);
        this.#assert(run, config, planned, values, testOnly);
      }
      return { state: updated, updated: true };
    } finally {
      clearInterval(ticker);
    }
  }

  /** The run's configuration with the test file's provider blocks, evaluated in the test's context. */
  #withProviders(config: Config, run: TestRun): { config: Config; diags: PlanDiagnostic[] } {
    const cache = this.#cache(run, config);
    const out = withTestProviders(config, this.#file.file, run, (expr) => {
      const diags: PlanDiagnostic[] = [];
      const available = new Map<string, Value>();
      for (const t of expressionTraversals(expr)) {
        if (t.root !== "var" || t.steps[0]?.kind !== "attr") continue;
        const n = t.steps[0].name;
        const f = cache.file(n);
        diags.push(...f.diags);
        if (f.value !== undefined) {
          available.set(n, f.value.value);
          continue;
        }
        const g = cache.global(n);
        diags.push(...g.diags);
        if (g.value !== undefined) available.set(n, g.value.value);
      }
      const ctx = testEvalContext("provider", expr, available, this.#prior);
      diags.push(...ctx.diags);
      if (hasErrors(diags)) return { value: undefined, diags };
      const r = evaluate(expr, ctx.scope);
      diags.push(...r.diags);
      return { value: hasErrors(r.diags) ? undefined : r.value, diags };
    });
    // The engine's provider source mocks these configurations for this run's plan and apply (and its cleanup).
    const holder = this.#suite.options.mocks;
    if (holder !== undefined) holder.current = out.mocks;
    return { config: out.config, diags: out.diags };
  }

  /** The run's `expect_failures` must name checkable objects. */
  #validateRun(run: TestRun): PlanDiagnostic[] {
    const out: PlanDiagnostic[] = [];
    for (const t of run.expectFailures) {
      const root = t.root;
      if (
        root === "var" ||
        root === "output" ||
        root === "check" ||
        root === "data" ||
        (![
          "local",
          "module",
          "run",
          "path",
          "terraform",
          "count",
          "each",
          "self",
          "ephemeral",
        ].includes(root) &&
          t.steps.length >= 1)
      )
        continue;
      const what =
        root === "local" || root === "run"
          ? `${root}.${(t.steps[0] as { name?: string } | undefined)?.name ?? ""}`
          : traversalText(t);
      out.push(
        err(
          "Invalid `expect_failures` reference",
          `You cannot expect failures from ${what}. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.`,
          t.range,
        ),
      );
    }
    return out;
  }

  /** The engine hook answering for the instances the run's and the file's override blocks name (Terraform's `PackageOverrides`). */
  #overrides(run: TestRun): { instanceProvider?: (address: string, provider: Provider) => Provider | undefined; moduleOverride?: (moduleInstance: string) => Value | undefined } {
    const local = new Map<string, TestOverride>();
    for (const o of [...run.overrides, ...this.#file.file.overrides])
      if (o.kind !== "override_module" && o.target !== undefined && !local.has(o.target)) local.set(o.target, o);
    const mocked = [...this.#file.file.providers.values()].some((p) => (p.mockData?.overrides.length ?? 0) > 0);
    const modules = this.#moduleOverrides(run);
    if (local.size === 0 && !mocked) return modules;
    return {
      instanceProvider: (address, provider) => {
        const o = overrideFor(local, address, provider);
        return o === undefined ? undefined : new OverrideProvider(provider, o);
      },
      ...modules,
    };
  }

  /** The engine hook giving the outputs of the module instances the run's and the file's `override_module` blocks name (Terraform's `GetModuleOverride`). */
  #moduleOverrides(run: TestRun): { moduleOverride?: (moduleInstance: string) => Value | undefined } {
    const local = new Map<string, TestOverride>();
    for (const o of [...run.overrides, ...this.#file.file.overrides])
      if (o.kind === "override_module" && o.target !== undefined && !local.has(o.target)) local.set(o.target, o);
    if (local.size === 0) return {};
    return {
      moduleOverride: (moduleInstance) => {
        const o = moduleOverrideFor(local, moduleInstance);
        return o === undefined ? undefined : (o.values ?? emptyObjectVal);
      },
    };
  }

  /** Terraform's `GetVariables`: the values of the variables the module declares and the assertions reference. */
  #variables(
    config: Config,
    run: TestRun,
    referenced: readonly string[],
    includeWarnings: boolean,
  ): { values: Map<string, InputValue>; diags: PlanDiagnostic[] } {
    const diags: PlanDiagnostic[] = [];
    const relevant = new Set<string>([...referenced, ...config.module.variables.keys()]);
    const values = new Map<string, InputValue>();
    const cache = this.#cache(run, config);
    for (const [name, expr] of run.variables) {
      const available = new Map<string, Value>();
      for (const t of expressionTraversals(expr)) {
        if (t.root !== "var" || t.steps[0]?.kind !== "attr") continue;
        const n = t.steps[0].name;
        const f = cache.file(n);
        diags.push(...f.diags);
        if (f.value !== undefined) {
          available.set(n, f.value.value);
          continue;
        }
        const g = cache.global(n);
        diags.push(...g.diags);
        if (g.value !== undefined) available.set(n, g.value.value);
      }
      const ctx = testEvalContext("run", expr, available, this.#prior);
      diags.push(...ctx.diags);
      let value: Value = dynamicVal;
      if (!hasErrors(ctx.diags)) {
        const r = evaluate(expr, ctx.scope);
        diags.push(...r.diags);
        value = r.value;
      }
      if (!relevant.has(name)) {
        if (includeWarnings)
          diags.push(
            warn(
              "Value for undeclared variable",
              `The module under test does not declare a variable named ${JSON.stringify(name)}, but it is declared in run block ${JSON.stringify(run.name)}.`,
              expr.range,
            ),
          );
        continue;
      }
      values.set(name, { value, range: expr.range });
    }
    for (const name of relevant) {
      if (values.has(name)) continue;
      const f = cache.file(name);
      diags.push(...f.diags);
      if (f.value !== undefined) {
        values.set(name, f.value);
        continue;
      }
      const g = cache.global(name);
      diags.push(...g.diags);
      if (g.value !== undefined) values.set(name, g.value);
    }
    for (const [name, v] of config.module.variables) {
      if (values.has(name)) continue;
      if (v.default === undefined) {
        diags.push(
          err(
            "No value for required variable",
            `The module under test for run block ${JSON.stringify(run.name)} has a required variable ${JSON.stringify(name)} with no set value. Use a -var or -var-file command line argument or add this variable into a "variables" block within the test file or run block.`,
            v.declRange,
          ),
        );
        values.set(name, { value: dynamicVal, range: v.declRange });
      } else values.set(name, { value: v.default, unset: true });
    }
    return { values, diags };
  }

  async #plan(
    config: Config,
    state: StateFile | null,
    run: TestRun,
    variables: ReadonlyMap<string, InputValue>,
    destroy = false,
  ): Promise<EnginePlanResult> {
    const given: Record<string, Value> = Object.create(null) as Record<string, Value>;
    const ranges = new Map<string, SourceRange>();
    for (const [name, v] of variables) {
      if (v.unset === true) continue;
      given[name] = v.value;
      if (v.range !== undefined) ranges.set(name, v.range);
    }
    return this.#suite.engine.plan(config, state, {
      mode: destroy ? "destroy" : run.options.mode,
      refresh: run.options.refresh,
      ...(destroy
        ? {}
        : {
            replace: run.options.replace.map(traversalText),
            targets: run.options.target.map(traversalText),
          }),
      variables: given,
      variableRanges: ranges,
      variableFiles: false,
      env: {},
      ...this.#overrides(run),
    });
  }

  /** Terraform's `EvalContext.Evaluate`: the assertions, and the run's outputs for later runs. */
  #assert(
    run: RunResult,
    config: Config,
    planned: EnginePlanResult,
    values: RunValues,
    testOnly: ReadonlyMap<string, Value>,
  ): void {
    let status: TestStatus = mergeStatus(run.status, "pass");
    const variables = new Map<string, Value>();
    for (const [name, given] of Object.entries(planned.plan.variables ?? {})) {
      const decl = config.module.variables.get(name);
      // The plan keeps a value as it was given (`-var n=4` is the string "4"): converted as the plan converted it.
      let v = given;
      if (decl !== undefined) {
        try {
          v = convert(decl.typeDefaults !== undefined ? applyTypeDefaults(given, decl.typeDefaults) : given, decl.type);
        } catch (e) {
          if (!isPathError(e)) throw e;
        }
      }
      variables.set(name, decl?.sensitive === true ? v.mark(Mark.Sensitive) : v);
    }
    const input = {
      config,
      cwd: this.#suite.options.dir,
      variables,
      extraVariables: testOnly,
      values,
      priorOutputs: this.#prior,
      ...this.#moduleOverrides(run.run),
    };
    for (const rule of run.run.asserts) {
      const diags: PlanDiagnostic[] = [];
      const { scope, diags: scopeDiags } = runScope(input, [rule.condition, rule.errorMessage]);
      diags.push(...scopeDiags);
      for (const t of [
        ...expressionTraversals(rule.condition),
        ...expressionTraversals(rule.errorMessage),
      ]) {
        if (t.root === "ephemeral")
          diags.push(
            err(
              "Ephemeral resources cannot be asserted",
              "Ephemeral resources are closed when the test is finished, and are not available within the test context for assertions.",
              t.range,
            ),
          );
      }
      if (hasErrors(scopeDiags)) {
        status = mergeStatus(status, "error");
        run.diagnostics.push(...diags);
        continue;
      }
      const message = errorMessage(rule.errorMessage, scope);
      diags.push(...message.diags);
      const c = evaluate(rule.condition, scope);
      diags.push(...c.diags);
      run.diagnostics.push(...diags);
      if (hasErrors(diags)) {
        status = mergeStatus(status, "error");
        continue;
      }
      const withValues = (d: PlanDiagnostic): PlanDiagnostic => {
        const vals = scopeExpressionValues(rule.condition, scope);
        return vals.length > 0 ? { ...d, values: vals } : d;
      };
      const v = c.value;
      if (v.isKnown() && v.isNull()) {
        status = mergeStatus(status, "error");
        run.diagnostics.push(
          withValues(
            err(
              "Invalid condition run",
              "Condition expression must return either true or false, not null.",
              rule.condition.range,
            ),
          ),
        );
        continue;
      }
      if (!v.isKnown()) {
        status = mergeStatus(status, "error");
        run.diagnostics.push(
          withValues(
            err(
              "Unknown condition value",
              "Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block. Alternatively, if there is an override for this value, you can make it available during the plan phase by setting `override_during = plan` in the `override_` block.",
              rule.condition.range,
            ),
          ),
        );
        continue;
      }
      let b: Value;
      try {
        b = convert(v.unmarkDeep().value, { kind: "bool" } as Parameters<typeof convert>[1]);
      } catch (e) {
        status = mergeStatus(status, "error");
        run.diagnostics.push(
          withValues(
            err(
              "Invalid condition run",
              `Invalid condition run value: ${(e as Error).message}.`,
              rule.condition.range,
            ),
          ),
        );
        continue;
      }
      if (!b.asBool()) {
        status = mergeStatus(status, "fail");
        run.diagnostics.push(
          withValues(err("Test assertion failed", message.text, rule.condition.range)),
        );
      }
    }
    run.status = status;
    const outputs = new Map<string, Value>();
    for (const name of config.module.outputs.keys())
      outputs.set(name, values.outputs.get(name) ?? dynamicVal);
    this.#prior.set(run.run.name, objectVal(outputs));
  }

  /** Destroys what the file's runs created, later runs' states first (Terraform's `cleanup`). */
  async cleanup(): Promise<void> {
    const states = [...this.#states.values()].filter(
      (s) =>
        s.state !== null &&
        s.state.resources.some((r) => r.mode === "managed" && r.instances.length > 0),
    );
    states.sort((a, b) => (b.run?.run.index ?? 0) - (a.run?.run.index ?? 0));
    for (const tracked of states) {
      const run = tracked.run;
      if (run === undefined) continue;
      const transformed = this.#withProviders(this.#suite.runConfig(run.run).config, run.run);
      const config = transformed.config;
      const diags: PlanDiagnostic[] = [...transformed.diags];
      let updated = tracked.state;
      const vars = this.#variables(config, run.run, [], false);
      diags.push(...vars.diags);
      if (!hasErrors(diags)) {
        const moduleVars = new Map(
          [...vars.values].filter(([name]) => config.module.variables.has(name)),
        );
        this.#suite.view.run(run, this.#file, "teardown", 0);
        const start = Date.now();
        const ticker = setInterval(
          () => this.#suite.view.run(run, this.#file, "teardown", Date.now() - start),
          2000,
        );
        ticker.unref();
        try {
          const planned = await this.#plan(config, tracked.state, run.run, moduleVars, true);
          diags.push(...planned.diagnostics);
          if (!hasErrors(planned.diagnostics)) {
            let latest = tracked.state;
            try {
              const result = await this.#suite.engine.apply(planned, {
                state: tracked.state,
                persist: async (s) => void (latest = s),
                ...this.#overrides(run.run),
              });
              updated = result.state;
              diags.push(...applyDiagnostics(result, config));
            } catch (e) {
              updated = latest;
              diags.push(...diagnosticsOf(e));
            }
          }
        } finally {
          clearInterval(ticker);
        }
      }
      const left =
        updated !== null &&
        updated.resources.some((r) => r.mode === "managed" && r.instances.length > 0);
      if (left) this.#file.status = "error";
      this.#suite.view.destroySummary(diags, run, this.#file, updated);
    }
  }
}

/** Terraform's `EvalCheckErrorMessage`: the message as a trimmed string (empty when unknown). */
function errorMessage(
  expr: Expression,
  scope: Parameters<typeof evaluate>[1],
): { text: string; diags: PlanDiagnostic[] } {
  const r = evaluate(expr, scope);
  if (hasErrors(r.diags)) return { text: "", diags: r.diags };
  let v: Value;
  try {
    v = convert(r.value, { kind: "string" } as Parameters<typeof convert>[1]);
  } catch (e) {
    return {
      text: "",
      diags: [
        ...r.diags,
        err(
          "Invalid error message",
          `Unsuitable value for error message: ${(e as Error).message}.`,
          expr.range,
        ),
      ],
    };
  }
  if (!v.isKnown()) return { text: "", diags: r.diags };
  if (v.isNull())
    return {
      text: "",
      diags: [
        ...r.diags,
        err(
          "Invalid error message",
          "Unsuitable value for error message: must not be null.",
          expr.range,
        ),
      ],
    };
  const u = v.unmarkDeep();
  if (u.paths.length > 0) {
    return {
      text: "",
      diags: [
        ...r.diags,
        warn(
          "Error message refers to sensitive values",
          "The error expression used to explain this condition refers to sensitive values, so Terraform will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
          expr.range,
        ),
      ],
    };
  }
  return { text: u.value.asString().trim(), diags: r.diags };
}

/** An apply's diagnostics as Terraform reports them: each failed object's (placed in its configuration), other errors, warnings. */
function applyDiagnostics(
  result: Awaited<ReturnType<Engine["apply"]>>,
  config: Config,
): PlanDiagnostic[] {
  const failures = applyFailureDiagnostics(result.failed, config).map((d, i) =>
    withCheckable(d, result.failed, i),
  );
  const accounted = new Set(
    result.failed.flatMap((f) => f.diagnostics).map((d) => `${d.summary}\n${d.detail ?? ""}`),
  );
  const others: PlanDiagnostic[] = result.diagnostics
    .filter((d) => !accounted.has(`${d.summary}\n${d.detail ?? ""}`))
    .map((d) => {
      const a = d as AddressedDiagnostic;
      return a.address !== undefined && a.subject === undefined
        ? { ...placedDiagnostic(d, a.address, config), address: a.address }
        : { ...(d as PlanDiagnostic), detail: d.detail ?? "" };
    });
  return [...failures, ...others].map((d) => addressByCondition(config, d));
}

/** A failed object's diagnostic keeps the object's address, for `expect_failures`. */
function withCheckable(
  d: AddressedDiagnostic,
  failed: Awaited<ReturnType<Engine["apply"]>>["failed"],
  i: number,
): PlanDiagnostic {
  let n = i;
  for (const f of failed) {
    // A provider's diagnostic about the object (placed with its address) shows `with ADDR,` as Terraform's InConfigBody gives it.
    if (n < f.diagnostics.length) return d.address !== undefined ? { ...d, inConfigBody: true } : { ...d, address: f.address };
    n -= f.diagnostics.length;
  }
  return d;
}

/** An engine failure as diagnostics. */
function diagnosticsOf(e: unknown): PlanDiagnostic[] {
  if (isPlanDiagnosticsError(e)) return [...e.diagnostics];
  if (isEngineError(e)) return [err("Engine error", e.message)];
  throw e;
}

/** `-verbose -json`'s document, or nothing when it cannot be rendered. */
function rendered(kind: "state" | "plan", f: () => string): { json?: { kind: "state" | "plan"; text: string } } {
  try {
    return { json: { kind, text: f() } };
  } catch {
    return {};
  }
}

/** `-verbose`'s plan: Terraform's human plan of the run. */
function verbosePlan(planned: EnginePlanResult, color: boolean): string {
  try {
    return `${planText(planned.plan, { schemas: planned.schemas, color, ...(planned.partial === true ? { errored: true } : {}) })}\n`;
  } catch {
    return "";
  }
}

/** An unknown of a value's type. @internal */
export function unknownLike(v: Value): Value {
  return unknownVal(v.type);
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  absTraversalForExpr,
  decodeSource,
  evaluate,
  exprAsKeyword,
  exprList,
  expressionTraversals,
  parseConfig,
  type Block,
  type Body,
  type BodySchema,
  type Diagnostic,
  type Expression,
  type SourceRange,
  type Traversal,
} from "@magma/hcl";
import { decodeOverride, useForPlan, type TestOverride } from "./test-override.js";
import { decodeMockDataBody, loadMockDataDir, mergeMockData, MOCK_PROVIDER_SCHEMA, type MockData } from "./mock-data.js";
import { testFileError, blockDefRange } from "./test-file-blocks.js";

/** `terraform test`'s default test directory (`-test-directory`). */
export const DEFAULT_TEST_DIRECTORY = "tests";

/** An `assert` block of a run (condition and error message). */
export interface TestAssert {
  readonly condition: Expression;
  readonly errorMessage: Expression;
  readonly declRange: SourceRange;
}

/** A run's `module` block: the module it runs instead of the one under test. */
export interface TestRunModule {
  /** The source address as written (`./setup`). */
  readonly source: string;
  /** The `version` constraint (registry sources), as written. */
  readonly version?: string;
  readonly declRange: SourceRange;
  readonly sourceRange: SourceRange;
}

/** A run's `plan_options` block. */
export interface TestPlanOptions {
  readonly mode: "normal" | "refresh-only";
  readonly refresh: boolean;
  readonly replace: readonly Traversal[];
  readonly target: readonly Traversal[];
}

/** A provider configuration passed to a run (`providers = { aws = aws.alt }`). */
export interface TestPassedProvider {
  /** The provider configuration in the module (`aws`, `aws.alt`). */
  readonly inChild: string;
  /** The test file's provider configuration (`aws.alt`). */
  readonly inParent: string;
  readonly parentRange: SourceRange;
}

/** A `provider` or `mock_provider` block of a test file. */
export interface TestProvider {
  readonly name: string;
  readonly alias?: string;
  readonly config: Body;
  /** A `mock_provider` block. */
  readonly mock: boolean;
  /** A `mock_provider` block's mock data (its own blocks, then its `source` directory's files). */
  readonly mockData?: MockData;
  /** A `mock_provider` block's `source` directory and `override_during` default. */
  readonly mockSource?: { readonly dir: string; readonly useForPlan: boolean };
  readonly declRange: SourceRange;
  readonly nameRange: SourceRange;
}


/** One `run` block. */
export interface TestRun {
  readonly name: string;
  /** Its position in the file (0 first). */
  readonly index: number;
  readonly command: "apply" | "plan";
  readonly options: TestPlanOptions;
  /** The run's `variables` block (empty when it has none). */
  readonly variables: ReadonlyMap<string, Expression>;
  readonly providers: readonly TestPassedProvider[];
  readonly asserts: readonly TestAssert[];
  readonly module?: TestRunModule;
  readonly expectFailures: readonly Traversal[];
  readonly stateKey?: string;
  readonly overrides: readonly TestOverride[];
  readonly declRange: SourceRange;
  readonly nameRange: SourceRange;
}

/** A `.tftest.hcl` / `.tftest.json` file (Terraform's `configs.TestFile`). */
export interface TestFile {
  /** Its path relative to the configuration directory (`main.tftest.hcl`, `tests/a.tftest.hcl`). */
  readonly name: string;
  /** The file-level `variables` block (empty when it has none). */
  readonly variables: ReadonlyMap<string, Expression>;
  /** Its `provider` and `mock_provider` blocks by `name` or `name.alias`. */
  readonly providers: ReadonlyMap<string, TestProvider>;
  readonly overrides: readonly TestOverride[];
  /** The run blocks in order (those that failed to decode left out). */
  readonly runs: readonly TestRun[];
}

const FILE_SCHEMA: BodySchema = {
  blocks: [
    { type: "run", labelNames: ["name"] },
    { type: "provider", labelNames: ["name"] },
    { type: "mock_provider", labelNames: ["name"] },
    { type: "variables" },
    { type: "override_resource" },
    { type: "override_data" },
    { type: "override_module" },
  ],
};

const RUN_SCHEMA: BodySchema = {
  attributes: [
    { name: "command" },
    { name: "providers" },
    { name: "expect_failures" },
    { name: "state_key" },
  ],
  blocks: [
    { type: "plan_options" },
    { type: "assert" },
    { type: "variables" },
    { type: "module" },
    { type: "override_resource" },
    { type: "override_data" },
    { type: "override_module" },
  ],
};

const OPTIONS_SCHEMA: BodySchema = {
  attributes: [{ name: "mode" }, { name: "refresh" }, { name: "replace" }, { name: "target" }],
};
const MODULE_SCHEMA: BodySchema = { attributes: [{ name: "source" }, { name: "version" }] };
const ASSERT_SCHEMA: BodySchema = {
  attributes: [
    { name: "condition", required: true },
    { name: "error_message", required: true },
  ],
};
const PROVIDER_SCHEMA: BodySchema = { attributes: [{ name: "alias" }, { name: "version" }] };

const BAD_IDENTIFIER_DETAIL =
  "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";



/** Adds an override block unless one with its target came before (Terraform's "Duplicate override_… block" error). */
function addOverride(list: TestOverride[], o: TestOverride, diags: Diagnostic[]): void {
  const previous = o.target === undefined ? undefined : list.find((p) => p.target === o.target);
  if (previous === undefined) {
    list.push(o);
    return;
  }
  diags.push(testFileError(`Duplicate ${o.kind} block`, `An ${o.kind} block targeting ${o.target} has already been defined at ${at(previous.declRange)}.`, o.declRange));
}

function at(r: SourceRange): string {
  return r.start.line === r.end.line
    ? `${r.filename}:${r.start.line},${r.start.column}-${r.end.column}`
    : `${r.filename}:${r.start.line},${r.start.column}-${r.end.line},${r.end.column}`;
}

function validIdentifier(s: string): boolean {
  return /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u.test(s);
}

/** A static list of references (Terraform's `DecodeDependsOn`). */
function traversalList(expr: Expression, diags: Diagnostic[]): Traversal[] {
  const list = exprList(expr);
  diags.push(...list.diags);
  const out: Traversal[] = [];
  for (const item of list.items) {
    const t = absTraversalForExpr(item);
    diags.push(...t.diags);
    if (t.traversal !== undefined) out.push(t.traversal);
  }
  return out;
}

/** The attributes of a `variables` block as expressions. */
function variablesBlock(block: Block, diags: Diagnostic[]): Map<string, Expression> {
  const out = new Map<string, Expression>();
  const { attributes, diags: d } = block.body.justAttributes();
  diags.push(...d);
  for (const a of attributes.values()) out.set(a.name, a.expr);
  return out;
}

function decodeAssert(block: Block, diags: Diagnostic[]): TestAssert | undefined {
  const { content, diags: d } = block.body.content(ASSERT_SCHEMA);
  diags.push(...d);
  const condition = content.attributes.get("condition");
  const errorMessage = content.attributes.get("error_message");
  if (condition !== undefined && expressionTraversals(condition.expr).length === 0) {
    diags.push(
      testFileError(
        "Invalid assert expression",
        "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
        condition.expr.range,
      ),
    );
  }
  if (
    condition === undefined ||
    errorMessage === undefined ||
    d.some((x) => x.severity === "error")
  )
    return undefined;
  return { condition: condition.expr, errorMessage: errorMessage.expr, declRange: block.typeRange };
}

function decodeOptions(block: Block, diags: Diagnostic[]): TestPlanOptions | undefined {
  const local: Diagnostic[] = [];
  const { content, diags: d } = block.body.content(OPTIONS_SCHEMA);
  local.push(...d);
  let mode: TestPlanOptions["mode"] = "normal";
  const modeAttr = content.attributes.get("mode");
  if (modeAttr !== undefined) {
    const k = exprAsKeyword(modeAttr.expr);
    if (k === "refresh-only") mode = "refresh-only";
    else if (k !== "normal")
      local.push(
        testFileError(
          'Invalid "mode" keyword',
          'The "mode" argument requires one of the following keywords without quotes: normal or refresh-only',
          modeAttr.expr.range,
        ),
      );
  }
  let refresh = true;
  const refreshAttr = content.attributes.get("refresh");
  if (refreshAttr !== undefined) {
    const r = evaluate(refreshAttr.expr);
    local.push(...r.diags);
    if (r.diags.length === 0) {
      if (r.value.type.kind === "bool" && r.value.isKnown() && !r.value.isNull())
        refresh = r.value.asBool();
      else
        local.push(
          testFileError(
            "Unsuitable value type",
            "Unsuitable value: a bool is required",
            refreshAttr.expr.range,
          ),
        );
    }
  }
  const replaceAttr = content.attributes.get("replace");
  const targetAttr = content.attributes.get("target");
  const replace = replaceAttr === undefined ? [] : traversalList(replaceAttr.expr, local);
  const target = targetAttr === undefined ? [] : traversalList(targetAttr.expr, local);
  if (!refresh && mode === "refresh-only") {
    local.push(
      testFileError(
        "Incompatible plan options",
        'The "refresh" option cannot be set to false when running a test in "refresh-only" mode.',
        refreshAttr!.range,
      ),
    );
  }
  diags.push(...local);
  return local.some((x) => x.severity === "error") ? undefined : { mode, refresh, replace, target };
}

function decodeModule(block: Block, diags: Diagnostic[]): TestRunModule | undefined {
  const local: Diagnostic[] = [];
  const { content, diags: d } = block.body.content(MODULE_SCHEMA);
  local.push(...d);
  const declRange = blockDefRange(block);
  let version: string | undefined;
  const versionAttr = content.attributes.get("version");
  if (versionAttr !== undefined) {
    const r = evaluate(versionAttr.expr);
    local.push(...r.diags);
    if (
      r.diags.length === 0 &&
      r.value.type.kind === "string" &&
      r.value.isKnown() &&
      !r.value.isNull()
    )
      version = r.value.asString();
  }
  const sourceAttr = content.attributes.get("source");
  let source: string | undefined;
  if (sourceAttr === undefined) {
    local.push(
      testFileError(
        'Missing "source" attribute for module block',
        "You must specify a source attribute when executing alternate modules during test executions.",
        declRange,
      ),
    );
  } else {
    const r = evaluate(sourceAttr.expr);
    local.push(...r.diags);
    if (r.diags.length === 0) {
      if (r.value.type.kind !== "string" || !r.value.isKnown() || r.value.isNull())
        local.push(
          testFileError(
            "Unsuitable value type",
            "Unsuitable value: a string is required",
            sourceAttr.expr.range,
          ),
        );
      else source = r.value.asString();
    }
    if (
      source !== undefined &&
      version === undefined &&
      !isLocalPath(source) &&
      /^(git::|github\.com\/|https?:|s3::|gcs::|hg::|git@)/.test(source)
    ) {
      local.push(
        testFileError(
          "Invalid module source address",
          "Only local or registry module sources are currently supported from within test run blocks.",
          sourceAttr.range,
        ),
      );
    }
  }
  diags.push(...local);
  if (local.some((x) => x.severity === "error") || source === undefined || sourceAttr === undefined)
    return undefined;
  return {
    source,
    ...(version !== undefined ? { version } : {}),
    declRange,
    sourceRange: sourceAttr.range,
  };
}

/** Whether a module source is a local path (`./x`, `../x`). */
export function isLocalPath(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../");
}

function decodePassedProviders(expr: Expression, diags: Diagnostic[]): TestPassedProvider[] {
  const out: TestPassedProvider[] = [];
  const e = expr.kind === "paren" ? expr.expr : expr;
  const bad = (range: SourceRange): void =>
    void diags.push(
      testFileError(
        "Invalid provider configuration reference",
        "Provider name must either stand alone or be followed by a period and then a configuration alias.",
        range,
      ),
    );
  const refText = (x: Expression): { text: string; range: SourceRange } | undefined => {
    const t = absTraversalForExpr(x);
    if (
      t.traversal === undefined ||
      t.traversal.steps.length > 1 ||
      (t.traversal.steps.length === 1 && t.traversal.steps[0]!.kind !== "attr")
    ) {
      bad(x.range);
      return undefined;
    }
    const s = t.traversal.steps[0];
    return {
      text:
        s === undefined ? t.traversal.root : `${t.traversal.root}.${(s as { name: string }).name}`,
      range: t.traversal.range,
    };
  };
  if (e.kind === "object") {
    for (const item of e.items) {
      const child = refText(item.key);
      const parent = refText(item.value);
      if (child !== undefined && parent !== undefined)
        out.push({ inChild: child.text, inParent: parent.text, parentRange: parent.range });
    }
    return out;
  }
  if (e.kind === "json" && e.node.type === "object") {
    for (const p of e.node.props) {
      const parent = p.value.type === "string" ? p.value.value : undefined;
      if (parent === undefined) {
        bad(p.value.range);
        continue;
      }
      out.push({ inChild: p.name, inParent: parent, parentRange: p.value.range });
    }
    return out;
  }
  diags.push(testFileError("Invalid expression", "A static map expression is required.", expr.range));
  return out;
}

function decodeProvider(
  block: Block,
  mock: boolean,
  diags: Diagnostic[],
): TestProvider | undefined {
  const local: Diagnostic[] = [];
  const { content, remain, diags: d } = block.body.partialContent(mock ? MOCK_PROVIDER_SCHEMA : PROVIDER_SCHEMA);
  local.push(...d);
  let mockData: MockData | undefined;
  let mockSource: { dir: string; useForPlan: boolean } | undefined;
  if (mock) {
    const plan = useForPlan(content, false, local);
    mockData = decodeMockDataBody(remain, plan, local);
    const src = content.attributes.get("source");
    if (src !== undefined) {
      const r = evaluate(src.expr);
      local.push(...r.diags);
      if (r.diags.length === 0 && r.value.type.kind === "string" && r.value.isKnown() && !r.value.isNull()) mockSource = { dir: r.value.asString(), useForPlan: plan };
      else if (r.diags.length === 0) local.push(testFileError("Incorrect attribute value type", "Inappropriate value for attribute \"source\": string required.", src.expr.range));
    }
  }
  const name = block.labels[0] ?? "";
  let alias: string | undefined;
  const aliasAttr = content.attributes.get("alias");
  if (aliasAttr !== undefined) {
    const k = exprAsKeyword(aliasAttr.expr);
    const r = k === undefined ? evaluate(aliasAttr.expr) : undefined;
    alias =
      k ??
      (r !== undefined && r.diags.length === 0 && r.value.type.kind === "string"
        ? r.value.asString()
        : undefined);
    if (alias === undefined || !validIdentifier(alias))
      local.push(
        testFileError(
          "Invalid provider configuration alias",
          `An alias must be a valid name. ${BAD_IDENTIFIER_DETAIL}`,
          aliasAttr.expr.range,
        ),
      );
  }
  if (!validIdentifier(name))
    local.push(
      testFileError(
        "Invalid provider local name",
        `${name} is an invalid provider local name: ${BAD_IDENTIFIER_DETAIL}`,
        block.labelRanges[0],
      ),
    );
  diags.push(...local);
  return {
    name,
    ...(alias !== undefined ? { alias } : {}),
    config: remain,
    mock,
    ...(mockData !== undefined ? { mockData } : {}),
    ...(mockSource !== undefined ? { mockSource } : {}),
    declRange: blockDefRange(block),
    nameRange: block.labelRanges[0] ?? block.typeRange,
  };
}

function decodeRun(
  block: Block,
  index: number,
  diags: Diagnostic[],
): { run: TestRun; ok: boolean } {
  const local: Diagnostic[] = [];
  const { content, diags: d } = block.body.content(RUN_SCHEMA);
  local.push(...d);
  const name = block.labels[0] ?? "";
  const nameRange = block.labelRanges[0] ?? block.typeRange;
  if (!validIdentifier(name))
    local.push(testFileError("Invalid run block name", BAD_IDENTIFIER_DETAIL, nameRange));
  const asserts: TestAssert[] = [];
  const overrides: TestOverride[] = [];
  let options: TestPlanOptions | undefined;
  let optionsRange: SourceRange | undefined;
  let variables: Map<string, Expression> | undefined;
  let variablesRange: SourceRange | undefined;
  let module: TestRunModule | undefined;
  let moduleRange: SourceRange | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "assert": {
        const a = decodeAssert(b, local);
        if (a !== undefined) asserts.push(a);
        break;
      }
      case "plan_options":
        if (optionsRange !== undefined) {
          local.push(
            testFileError(
              'Multiple "plan_options" blocks',
              `This run block already has a plan_options block defined at ${at(optionsRange)}.`,
              blockDefRange(b),
            ),
          );
          continue;
        }
        optionsRange = blockDefRange(b);
        options = decodeOptions(b, local);
        break;
      case "variables":
        if (variablesRange !== undefined) {
          local.push(
            testFileError(
              'Multiple "variables" blocks',
              `This run block already has a variables block defined at ${at(variablesRange)}.`,
              blockDefRange(b),
            ),
          );
          continue;
        }
        variablesRange = blockDefRange(b);
        variables = variablesBlock(b, local);
        break;
      case "module":
        if (moduleRange !== undefined)
          local.push(
            testFileError(
              'Multiple "module" blocks',
              `This run block already has a module block defined at ${at(moduleRange)}.`,
              blockDefRange(b),
            ),
          );
        moduleRange = blockDefRange(b);
        module = decodeModule(b, local) ?? module;
        break;
      default:
        addOverride(overrides, decodeOverride(b, false, diags), diags);
    }
  }
  let command: TestRun["command"] = "apply";
  const commandAttr = content.attributes.get("command");
  if (commandAttr !== undefined) {
    const k = exprAsKeyword(commandAttr.expr);
    if (k === "plan") command = "plan";
    else if (k !== "apply")
      local.push(
        testFileError(
          'Invalid "command" keyword',
          'The "command" argument requires one of the following keywords without quotes: apply or plan.',
          commandAttr.expr.range,
        ),
      );
  }
  const providersAttr = content.attributes.get("providers");
  const providers =
    providersAttr === undefined ? [] : decodePassedProviders(providersAttr.expr, local);
  const failuresAttr = content.attributes.get("expect_failures");
  const expectFailures = failuresAttr === undefined ? [] : traversalList(failuresAttr.expr, local);
  let stateKey: string | undefined;
  const stateKeyAttr = content.attributes.get("state_key");
  if (stateKeyAttr !== undefined) {
    const r = evaluate(stateKeyAttr.expr);
    local.push(...r.diags);
    if (
      r.diags.length === 0 &&
      r.value.type.kind === "string" &&
      r.value.isKnown() &&
      !r.value.isNull()
    )
      stateKey = r.value.asString();
  }
  diags.push(...local);
  const run: TestRun = {
    name,
    index,
    command,
    options: options ?? { mode: "normal", refresh: true, replace: [], target: [] },
    variables: variables ?? new Map(),
    providers,
    asserts,
    ...(module !== undefined ? { module } : {}),
    expectFailures,
    ...(stateKey !== undefined ? { stateKey } : {}),
    overrides,
    declRange: blockDefRange(block),
    nameRange,
  };
  return { run, ok: !local.some((x) => x.severity === "error") };
}

/**
 * Decodes a test file's text (`name` is how diagnostics and the views name it: relative to
 * the configuration directory) as Terraform's `loadTestFile` does, with its diagnostics.
 * Run blocks that fail to decode are left out (their errors are in the diagnostics).
 */
export function parseTestFile(text: string, name: string): { file: TestFile; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const parsed = parseConfig(text, name);
  diags.push(...parsed.diags);
  const empty: TestFile = {
    name,
    variables: new Map(),
    providers: new Map(),
    overrides: [],
    runs: [],
  };
  if (parsed.diags.some((d) => d.severity === "error")) return { file: empty, diags };
  const { content, diags: d } = parsed.body.content(FILE_SCHEMA);
  diags.push(...d);
  const runs: TestRun[] = [];
  const runNames = new Map<string, SourceRange>();
  const providers = new Map<string, TestProvider>();
  const overrides: TestOverride[] = [];
  let variables: Map<string, Expression> | undefined;
  let variablesRange: SourceRange | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "run": {
        const { run, ok } = decodeRun(b, runs.length, diags);
        if (ok) runs.push({ ...run, index: runs.length });
        const prev = runNames.get(run.name);
        if (prev !== undefined) {
          diags.push(
            testFileError(
              'Duplicate "run" block names',
              `This test file already has a run named ${run.name} block defined at ${at(prev)}.`,
              blockDefRange(b),
            ),
          );
          continue;
        }
        runNames.set(run.name, run.declRange);
        break;
      }
      case "variables":
        if (variablesRange !== undefined) {
          diags.push(
            testFileError(
              'Multiple "variables" blocks',
              `This test file already has a variables block defined at ${at(variablesRange)}.`,
              blockDefRange(b),
            ),
          );
          continue;
        }
        variablesRange = blockDefRange(b);
        variables = variablesBlock(b, diags);
        break;
      case "provider":
      case "mock_provider": {
        const p = decodeProvider(b, b.type === "mock_provider", diags);
        if (p === undefined) break;
        const key = p.alias === undefined ? p.name : `${p.name}.${p.alias}`;
        const prev = providers.get(key);
        if (prev !== undefined) {
          diags.push(
            testFileError(
              "Duplicate provider block",
              `A provider for ${key} is already defined at ${at(prev.nameRange)}.`,
              p.declRange,
            ),
          );
          continue;
        }
        providers.set(key, p);
        break;
      }
      default:
        addOverride(overrides, decodeOverride(b, false, diags), diags);
    }
  }
  return { file: { name, variables: variables ?? new Map(), providers, overrides, runs }, diags };
}

/**
 * The test files of a configuration directory, as Terraform's loader finds them: `*.tftest.hcl`
 * and `*.tftest.json` in `dir` and in its test directory (names relative to `dir`), with the
 * warning for a test directory other than the default that does not exist.
 */
export function findTestFiles(
  dir: string,
  testDirectory: string,
): { names: string[]; diags: Diagnostic[] } {
  const diags: Diagnostic[] = [];
  const names: string[] = [];
  const isTest = (n: string): boolean =>
    (n.endsWith(".tftest.hcl") || n.endsWith(".tftest.json")) && !ignored(n);
  const testPath = join(dir, testDirectory);
  let entries: string[] | undefined;
  try {
    entries = readdirSync(testPath);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      if (testDirectory !== DEFAULT_TEST_DIRECTORY)
        diags.push({
          severity: "warning",
          summary: "Test directory does not exist",
          detail: `Requested test directory ${posixJoin(".", testDirectory)} does not exist.`,
        });
    } else {
      diags.push(
        testFileError(
          "Failed to read test directory",
          `Test directory ${posixJoin(".", testDirectory)} could not be read: ${(e as Error).message}.`,
        ),
      );
      return { names, diags };
    }
  }
  for (const n of (entries ?? []).sort()) {
    if (isTest(n) && !isDir(join(testPath, n))) names.push(posixJoin(testDirectory, n));
  }
  for (const n of readdirSync(dir).sort()) {
    if (isTest(n) && !isDir(join(dir, n))) names.push(n);
  }
  return { names, diags };
}

/** Go's `path.Join` for the names test files are known by. */
function posixJoin(a: string, b: string): string {
  const parts = `${a}/${b}`.split("/").filter((p) => p !== "" && p !== ".");
  const out: string[] = [];
  for (const p of parts) {
    if (p === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(p);
  }
  return out.length === 0 ? "." : out.join("/");
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Terraform's `IsIgnoredFile`: hidden and editor backup files. */
function ignored(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"));
}

/** Reads and decodes a test file (see {@link parseTestFile}); `name` relative to `dir`. */
export function loadTestFile(dir: string, name: string): { file: TestFile; diags: Diagnostic[] } {
  const path = join(dir, name);
  let text: string;
  try {
    text = name.endsWith(".json") ? readFileSync(path, "utf8") : decodeSource(readFileSync(path));
  } catch (e) {
    return {
      file: { name, variables: new Map(), providers: new Map(), overrides: [], runs: [] },
      diags: [
        testFileError(
          "Failed to read file",
          `The file ${JSON.stringify(name)} could not be read: ${(e as Error).message}.`,
        ),
      ],
    };
  }
  return parseTestFile(text, name);
}

/**
 * Terraform's `installMockDataFiles`: each mock provider's `source` directory (relative to
 * the working directory `dir`) read into its mock data, its own blocks winning. Terraform
 * does this only once the configuration and its test files loaded without errors.
 */
export function installMockDataFiles(dir: string, files: readonly TestFile[]): Diagnostic[] {
  const diags: Diagnostic[] = [];
  for (const f of files)
    for (const p of f.providers.values()) {
      if (p.mockSource === undefined || p.mockData === undefined) continue;
      const external = loadMockDataDir(dir, p.mockSource.dir, p.mockSource.useForPlan, p.declRange, diags);
      if (external !== undefined) mergeMockData(p.mockData, external, true, diags);
    }
  return diags;
}

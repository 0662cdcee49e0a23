import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import type { Value } from "@magma/cty";
import { formatDiag, type Block, type Diag, type PlainConfig, type ProviderSchema, type SchemaEntry } from "@magma/provider-api";
import { tmpdir } from "node:os";
import { providerSchemaToTerraformJson, reapOrphanedProviders } from "@magma/plugin";
import { CliError, CliErrorCode } from "./cli-error.js";
import { runDemo } from "./demo.js";
import { ExitCode } from "./exit-code.js";
import { compactJson, jsonNodeToPlain, parseJsonText, RawJson, stringifyJson, type JsonNode } from "./json-text.js";
import {
  applyPlan,
  buildConfig,
  dataSourceEntry,
  destroyResource,
  importResource,
  planResource,
  readData,
  readResource,
  resourceEntry,
  upgradeResource,
  PlanAction,
  type PlanOutcome,
  type StateOutcome,
} from "./operations.js";
import { renderPlanDiff, renderState } from "./plan-diff.js";
import { LogLevels, openProviderSession, type LogLevel, type ProviderSession } from "./provider-session.js";
import { decodeBase64, describeNode, encodeBase64, readInputText, readJsonInput, readJsonObjectInput, writePrivateFile } from "./read-input.js";
import { reportError } from "./report-error.js";
import { renderSchemaEntry, renderSchemaSummary } from "./schema-view.js";
import { assertNotRedacted, redactDocument, sensitiveStrings, sensitiveValues } from "./sensitive-json.js";
import { Spinner } from "./spinner.js";
import { diagToJson, unknownMask, valueFromJson, valueToJson } from "./value-json.js";

/** A stream the CLI writes to. */
export interface CliStream {
  /** True for a terminal: human output by default, and the spinner. */
  readonly isTTY?: boolean;
  /** Writes text. */
  write(text: string): unknown;
}

/** Where the CLI reads and writes. */
export interface CliIo {
  /** Results (JSON or the human form). */
  readonly stdout: CliStream;
  /** Errors, warnings, progress, provider logs. */
  readonly stderr: CliStream;
  /** The environment (`MAGMA_PLUGIN_DIRS`, Terraform's variables, the provider's environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

interface CommonOptions {
  pluginDir?: string[];
  providerVersion?: string;
  providerConfig?: string;
  logLevel?: LogLevel;
  output?: "human" | "json";
  json?: boolean;
  out?: string;
  showSensitive?: boolean;
  name?: string;
  pretty?: boolean;
}

interface ResourceOptions extends CommonOptions {
  config?: string;
  state?: string;
  priorState?: string;
  private?: string;
  from?: string;
  plan?: string;
  destroy?: boolean;
  id?: string;
  read?: boolean;
  version?: string;
  rawState?: string;
}

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

/**
 * Runs the `magma` command line (without the `node` and script arguments) and resolves to
 * the exit code: 0 success, 1 error, 2 usage error, 130 interrupted. Every provider it
 * opens is closed before it resolves, also on errors and when `signal` fires.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo(), signal?: AbortSignal): Promise<ExitCode> {
  let schema: ProviderSchema | undefined;
  const spinner = new Spinner(io.stderr);
  const err = (line: string): void => void io.stderr.write(`${line}\n`);

  const jsonMode = (o: CommonOptions): boolean => o.json === true || o.output === "json" || (o.output === undefined && io.stdout.isTTY !== true);
  const printWarnings = (o: CommonOptions, warnings: readonly Diag[]): void => {
    if (!jsonMode(o)) for (const w of warnings) err(formatDiag(w).replace(/\s*\n\s*/g, " "));
  };
  // --out FILE gets the full JSON; stdout gets the human form, or the JSON with sensitive
  // values replaced by null (unless --show-sensitive). JSON is indented, except where
  // `compact` says otherwise (schema: compact unless --pretty, as terraform prints it).
  const out = (o: CommonOptions, human: () => string, json: () => object, compact = false): void => {
    const doc = jsonMode(o) || o.out !== undefined ? (json() as Record<string, unknown>) : undefined;
    const text = (d: unknown): string => (compact ? compactJson(d) : stringifyJson(d));
    if (o.out !== undefined) writePrivateFile("--out", o.out, `${text(doc)}\n`);
    io.stdout.write(doc !== undefined && jsonMode(o) ? `${text(o.showSensitive === true ? doc : redactDocument(doc))}\n` : human());
  };

  const withSession = async (ref: string, o: CommonOptions, configure: boolean, body: (s: ProviderSession) => Promise<void>): Promise<void> => {
    let providerConfig: PlainConfig | undefined;
    if (configure) providerConfig = o.providerConfig === undefined ? {} : (jsonNodeToPlain(readJsonObjectInput("--provider-config", o.providerConfig)) as PlainConfig);
    const so: Parameters<typeof openProviderSession>[0] = {
      ref,
      env: io.env,
      spinner,
      log: err,
      ...(o.pluginDir === undefined ? {} : { pluginDirs: o.pluginDir }),
      ...(o.providerVersion === undefined ? {} : { providerVersion: o.providerVersion }),
      ...(providerConfig === undefined ? {} : { providerConfig }),
      ...(o.logLevel === undefined ? {} : { logLevel: o.logLevel }),
      ...(signal === undefined ? {} : { signal }),
    };
    const session = await openProviderSession(so);
    schema = session.schema;
    try {
      await body(session);
    } finally {
      await session.close();
    }
  };

  const program = new Command("magma");
  program
    .description("Drive Terraform providers (and native TypeScript providers) one operation at a time, JSON in and out.")
    .version(VERSION, "-V, --version", "print the magma version")
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(`${s.trim()}\nhint: run \`magma --help\` or \`magma <command> --help\`\n`),
    })
    .addHelpText(
      "after",
      `
A <provider> is a source address resolved like Terraform (hashicorp/aws, found in --plugin-dir
DIRs, then MAGMA_PLUGIN_DIRS (colon-separated), TF_PLUGIN_CACHE_DIR, the CLI config's
plugin_cache_dir and filesystem mirrors, terraform.d/plugins, ~/.terraform.d/plugins and the
XDG data dirs), a path to a provider binary, or a native provider's name (random).

Output is human-readable on a terminal and JSON when stdout is piped; --output or --json chooses.
JSON on stdout has sensitive values replaced by null (marked true in "sensitive_values")
unless --show-sensitive; --out FILE writes the full JSON (mode 0600) for --from and --plan.
Exit codes: 0 ok, 1 error, 2 usage error, 130 interrupted.`,
    );

  const common = (c: Command, configure = true): Command => {
    c.option("--plugin-dir <dir>", "search this directory first for providers (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
      .option("--provider-version <constraint>", 'version constraint for a source address, e.g. "~> 5.0"')
      .addOption(new Option("--log-level <level>", "show the provider's log lines at this level and above on stderr").choices(LogLevels).default("off"))
      .addOption(new Option("-o, --output <format>", "human or json (default: human on a terminal, json when piped)").choices(["human", "json"]))
      .option("--json", "same as --output json")
      .option("--out <file>", "also write the full JSON output, sensitive values included, to this file (mode 0600) for --from / --plan")
      .option("--show-sensitive", "print sensitive values in the JSON output (by default they are null, marked in sensitive_values)");
    if (configure) c.option("--provider-config <json>", "provider configuration: inline JSON, @FILE, a file path, or - (default {})");
    return c.exitOverride();
  };
  const stateOptions = (c: Command): Command =>
    c
      .option("--state <json>", "the prior state as JSON (the state's attributes): inline, @FILE, a file path, or -")
      .addOption(new Option("--prior-state <json>", "alias of --state").hideHelp())
      .option("--private <base64>", "the private state stored with it (base64)")
      .option("--from <file>", "take state and private from an earlier command's JSON output (a file or -)");

  // schema
  common(program.command("schema").argument("<provider>").argument("[type]", "a resource type, data source or ephemeral resource type"), false)
    .summary("show a provider's schema")
    .description(
      "Without a type: a summary (protocol, counts of resources, data sources, ephemeral resources and functions, capabilities). With a type: its attributes and blocks as a tree (as a resource, data source and ephemeral resource, whichever it is).\nThe JSON form is exactly the object `terraform providers schema -json` prints under provider_schemas.<address> (or the one type's entry), compact on one line as terraform prints it; --pretty indents it.",
    )
    .option("--pretty", "indent the JSON output for reading (default: compact, one line)")
    .action(async (ref: string, type: string | undefined, o: CommonOptions) => {
      const compact = o.pretty !== true;
      await withSession(ref, o, false, async (s) => {
        if (type === undefined) {
          out(o, () => renderSchemaSummary(s.schema, s.origin), () => providerSchemaToTerraformJson(s.schema), compact);
          return;
        }
        const r = s.schema.resources.get(type);
        const d = s.schema.dataSources.get(type);
        const e = s.schema.ephemeralResources?.get(type);
        if (r === undefined && d === undefined && e === undefined) resourceEntry(s, type);
        const all = providerSchemaToTerraformJson(s.schema);
        out(
          o,
          () =>
            [
              r === undefined ? "" : renderSchemaEntry("resource", type, r),
              d === undefined ? "" : renderSchemaEntry("data source", type, d),
              e === undefined ? "" : renderSchemaEntry("ephemeral resource", type, e),
            ]
              .filter((x) => x !== "")
              .join("\n"),
          () => {
            const j: Record<string, unknown> = {};
            if (r !== undefined) j["resource_schema"] = all.resource_schemas?.[type];
            if (d !== undefined) j["data_source_schema"] = all.data_source_schemas?.[type];
            if (e !== undefined) j["ephemeral_resource_schema"] = all.ephemeral_resource_schemas?.[type];
            return j;
          },
          compact,
        );
      });
    });

  // plan
  stateOptions(common(program.command("plan").argument("<provider>").argument("<type>", "a resource type")))
    .summary("plan a create, update, replace or destroy of one resource")
    .description(
      "Plans like terraform plan for one resource: create without --state, update or replace with it, destroy with --destroy.\nThe human form is Terraform's diff; the JSON form has planned_state (unknowns as null) with an after_unknown companion, requires_replace and planned_private, and feeds `magma apply --plan`.",
    )
    .option("--config <json>", "the resource configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .option("--destroy", "plan the destruction of the object in --state")
    .option("--name <name>", "the resource name shown in the diff", "this")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry);
        const config = o.destroy === true ? null : configInput(o, entry);
        const plan = await planResource(s, type, { config, ...prior });
        printWarnings(o, plan.change.warnings);
        out(o, () => renderPlanDiff(plan, { name: o.name ?? "this" }), () => planJson(plan));
      });
    });

  // apply
  stateOptions(common(program.command("apply").argument("<provider>").argument("<type>", "a resource type")))
    .summary("plan and apply a change to one resource")
    .description(
      "Plans from --config and --state (like terraform apply) and applies the plan; or applies a saved `magma plan` output with --plan.\nA replacement is destroy-then-create. The JSON form is {type, action, state, private, warnings}; its state feeds --state / --from of the next command.",
    )
    .option("--config <json>", "the resource configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .option("--plan <file>", "apply this saved `magma plan` JSON output instead of planning again")
    .option("--name <name>", "the resource name shown in the diff", "this")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const plan = o.plan !== undefined ? savedPlan(o.plan, type, entry) : await planResource(s, type, { config: configInput(o, entry), ...priorInput(o, entry) });
        const result = await applyPlan(s, plan);
        printWarnings(o, result.warnings);
        out(
          o,
          () => `${renderPlanDiff(plan, { name: o.name ?? "this" })}\nApply complete: ${type}.${o.name ?? "this"} ${pastTense(plan.action)}.\n${stateHuman(entry, result.state)}`,
          () => ({ type, action: plan.action, ...stateJson(entry, result) }),
        );
      });
    });

  // destroy
  stateOptions(common(program.command("destroy").argument("<provider>").argument("<type>", "a resource type")))
    .summary("destroy one resource")
    .description("Plans the destroy (when the provider asks to) and applies it. JSON: {type, action, state: null, private, warnings}.")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry, true);
        const result = await destroyResource(s, type, prior.prior!, prior.priorPrivate);
        printWarnings(o, result.warnings);
        out(o, () => `Destroy complete: ${type} destroyed.\n`, () => ({ type, action: "delete", ...stateJson(entry, result) }));
      });
    });

  // read
  stateOptions(common(program.command("read").argument("<provider>").argument("<type>", "a resource type")))
    .summary("refresh one resource from its state")
    .description("Reads the object's current state. JSON: {type, state, private, warnings}, state null when the object no longer exists.")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const prior = priorInput(o, entry, true);
        const result = await readResource(s, type, prior.prior!, prior.priorPrivate);
        printWarnings(o, result.warnings);
        out(o, () => (result.state.isNull() ? `${type} no longer exists.\n` : stateHuman(entry, result.state)), () => ({ type, ...stateJson(entry, result) }));
      });
    });

  // data
  common(program.command("data").argument("<provider>").argument("<type>", "a data source"))
    .summary("read a data source")
    .description("Reads a data source with --config. JSON: {type, state, warnings}.")
    .option("--config <json>", "the data source configuration as a JSON object: inline, @FILE, a file path, or - (default {})")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        const entry = dataSourceEntry(s, type);
        const result = await readData(s, type, configInput(o, entry));
        printWarnings(o, result.warnings);
        out(o, () => stateHuman(entry, result.state), () => ({ type, ...valuesJson(entry.block, { state: valueToJson(result.state, entry.type) }), warnings: result.warnings.map(diagToJson) }));
      });
    });

  // import
  common(program.command("import").argument("<provider>").argument("<type>", "a resource type"))
    .summary("import an existing object by id")
    .description(
      "Imports the object and reads it, as terraform import does. JSON: {type, id, state, private, warnings, sensitive_values} (plus `others` when the provider returned more objects); an id that is a sensitive value of the imported state is hidden like it.",
    )
    .requiredOption("--id <id>", "the import id")
    .option("--no-read", "skip the read after the import")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      await withSession(ref, o, true, async (s) => {
        resourceEntry(s, type);
        const { objects, warnings } = await importResource(s, type, o.id!, o.read !== false);
        printWarnings(o, warnings);
        const first = objects.find((x) => x.typeName === type) ?? objects[0]!;
        const others = objects.filter((x) => x !== first);
        const entryOf = (t: string): SchemaEntry => resourceEntry(s, t);
        // An id that is a sensitive value of what was imported (random_password's id is the password) is hidden like it.
        const secretId = objects.some((x) => {
          const st = valueToJson(x.state, entryOf(x.typeName).type);
          return sensitiveStrings(st, sensitiveValues(entryOf(x.typeName).block, st)).includes(o.id!);
        });
        out(
          o,
          () => `Import successful: ${first.typeName} ${secretId ? "(sensitive value)" : JSON.stringify(o.id)}.\n${stateHuman(entryOf(first.typeName), first.state)}`,
          () => {
            const { sensitive_values, ...rest } = stateJson(entryOf(first.typeName), { ...first, warnings });
            return {
              type: first.typeName,
              id: secretId ? new RawJson(JSON.stringify(o.id)) : o.id,
              ...rest,
              others: others.length === 0 ? undefined : others.map((x) => ({ type: x.typeName, ...stateJson(entryOf(x.typeName), x) })),
              sensitive_values: secretId ? { id: true, ...(sensitive_values as object) } : sensitive_values,
            };
          },
        );
      });
    });

  // upgrade
  common(program.command("upgrade").argument("<provider>").argument("<type>", "a resource type"))
    .summary("upgrade a stored state to the current schema version")
    .description("Hands a state written with an older schema version to the provider. JSON: {type, state, warnings}.")
    .requiredOption("--version <n>", "the schema version the state was written with")
    .requiredOption("--raw-state <json>", "the stored state's attributes as JSON: inline, @FILE, a file path, or -")
    .action(async (ref: string, type: string, o: ResourceOptions) => {
      const version = Number(o.version);
      if (!/^\d+$/.test(o.version ?? "") || !Number.isSafeInteger(version)) {
        throw new CliError(CliErrorCode.Usage, `--version: expected a non-negative integer schema version, got ${JSON.stringify(o.version)}`);
      }
      const raw = readInputText("--raw-state", o.rawState!);
      const node = parseJsonText(raw, "--raw-state");
      if (node.kind !== "object") throw new CliError(CliErrorCode.BadInput, `--raw-state: expected a JSON object, got ${describeNode(node)}`);
      await withSession(ref, o, true, async (s) => {
        const entry = resourceEntry(s, type);
        const result = await upgradeResource(s, type, version, raw);
        printWarnings(o, result.warnings);
        out(o, () => stateHuman(entry, result.state), () => ({ type, ...valuesJson(entry.block, { state: valueToJson(result.state, entry.type) }), warnings: result.warnings.map(diagToJson) }));
      });
    });

  // reap
  program
    .command("reap")
    .summary("end providers left running by a SIGKILLed magma and remove their socket directories")
    .description(
      "A host killed with SIGKILL cannot stop its providers: they keep running, idle, and their private socket directories (magma-plugin-*) stay. This looks in the temp dir (and each --socket-dir-parent) for such directories of hosts that are no longer running, SIGKILLs each recorded provider that is still the same process (start time and command line checked; nothing else is ever signalled), and removes the directory. Launches do the same lazily, once per process.\nJSON: {reaped: [{directory, host_pid, provider_pid, binary, outcome}]}, outcome one of killed, gone, not_recorded, different_process, unverified.",
    )
    .option("--socket-dir-parent <dir>", "also look in this directory (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option("-o, --output <format>", "human or json (default: human on a terminal, json when piped)").choices(["human", "json"]))
    .option("--json", "same as --output json")
    .exitOverride()
    .action(async (o: CommonOptions & { socketDirParent?: string[] }) => {
      const reaped = await reapOrphanedProviders({ directories: [tmpdir(), ...(o.socketDirParent ?? [])] });
      out(
        o,
        () =>
          reaped.length === 0
            ? "Nothing to reap: no socket directory of a magma that is no longer running.\n"
            : reaped.map((r) => `${r.directory}: host ${r.hostPid} gone; provider ${r.providerPid ?? "(not recorded)"} ${r.binary}: ${r.outcome.replace("_", " ")}; directory removed\n`).join(""),
        () => ({ reaped: reaped.map((r) => ({ directory: r.directory, host_pid: r.hostPid, provider_pid: r.providerPid, binary: r.binary, outcome: r.outcome })) }),
      );
    });

  // demo
  program
    .command("demo")
    .summary("a narrated lifecycle on the native random provider, then on hashicorp/aws against a local fake AWS")
    .description(
      "Schema, configure, plan, apply, read, import, a replacing plan and destroy: first with the native random provider, then with the real hashicorp/aws provider against a local fake AWS endpoint (@magma/fake-aws, an optional package, loaded only here), when its binary is found (--plugin-dir, MAGMA_PLUGIN_DIRS, Terraform's directories).",
    )
    .option("--plugin-dir <dir>", "search this directory first for hashicorp/aws (repeatable)", (v: string, prev: string[] = []) => [...prev, v])
    .option("--no-aws", "skip the hashicorp/aws part")
    .exitOverride()
    .action(async (o: { pluginDir?: string[]; aws?: boolean }) => {
      await runDemo({
        out: (s) => void io.stdout.write(s),
        env: io.env,
        spinner,
        aws: o.aws !== false,
        ...(o.pluginDir === undefined ? {} : { pluginDirs: o.pluginDir }),
        ...(signal === undefined ? {} : { signal }),
      });
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.Ok;
  } catch (e) {
    spinner.stop();
    if (e instanceof CommanderError) {
      // --help and --version exit 0; everything else (including help shown for a missing command) is a usage error.
      return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    if (signal?.aborted === true) {
      err("error: interrupted; the provider was closed");
      return ExitCode.Interrupted;
    }
    const r = reportError(e, schema);
    for (const l of r.lines) err(l);
    if (r.hint !== undefined) err(`hint: ${r.hint}`);
    return r.exitCode;
  }
}

function pastTense(action: PlanAction): string {
  switch (action) {
    case "create":
      return "created";
    case "update":
      return "updated in place";
    case "replace":
      return "replaced";
    case "delete":
      return "destroyed";
    case "no-op":
      return "unchanged";
  }
}

function stateHuman(entry: SchemaEntry, state: Value): string {
  const lines = renderState(entry.block, state);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function stateJson(entry: SchemaEntry, r: StateOutcome): Record<string, unknown> {
  const { sensitive_values, ...values } = valuesJson(entry.block, { state: valueToJson(r.state, entry.type) });
  return { ...values, private: encodeBase64(r.private), warnings: r.warnings.map(diagToJson), sensitive_values };
}

/** The values with their `sensitive_values` companion (one mask per member). */
function valuesJson(block: Block, values: Record<string, RawJson>): Record<string, unknown> {
  const masks: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) masks[k] = sensitiveValues(block, v);
  return { ...values, sensitive_values: masks };
}

function configInput(o: ResourceOptions, entry: SchemaEntry): Value {
  const plain = o.config === undefined ? {} : (jsonNodeToPlain(readJsonObjectInput("--config", o.config)) as PlainConfig);
  return buildConfig("--config", entry, plain);
}

function priorInput(o: ResourceOptions, entry: SchemaEntry, required = false): { prior?: Value; priorPrivate?: Uint8Array } {
  const stateArg = o.state ?? o.priorState;
  if (stateArg !== undefined && o.from !== undefined) throw new CliError(CliErrorCode.Usage, "give either --state or --from, not both");
  const r: { prior?: Value; priorPrivate?: Uint8Array } = {};
  if (o.from !== undefined) {
    const doc = readJsonObjectInput("--from", o.from);
    const st = doc.members.get("state");
    if (st === undefined) throw new CliError(CliErrorCode.BadInput, "--from: the JSON has no \"state\" member (give the output of apply, read, import or upgrade)");
    assertNotRedacted("--from", doc, ["state"]);
    r.prior = valueFromJson("--from: state", st.raw, entry.type);
    const p = doc.members.get("private");
    if (p !== undefined && p.kind === "string") r.priorPrivate = decodeBase64("--from: private", p.value);
  } else if (stateArg !== undefined) {
    const node = readJsonInput("--state", stateArg);
    if (node.kind !== "object" && node.kind !== "null") throw new CliError(CliErrorCode.BadInput, `--state: expected a JSON object, got ${describeNode(node)}`);
    r.prior = valueFromJson("--state", node.raw, entry.type);
  }
  if (o.private !== undefined) r.priorPrivate = decodeBase64("--private", o.private);
  if (required && (r.prior === undefined || r.prior.isNull())) {
    throw new CliError(CliErrorCode.Usage, "this command needs the object's state: give --state JSON or --from an earlier command's output");
  }
  return r;
}

function planJson(plan: PlanOutcome): Record<string, unknown> {
  const t = plan.entry.type;
  const prior = valueToJson(plan.prior, t);
  const config = valueToJson(plan.config, t);
  const planned = valueToJson(plan.change.plannedState, t);
  const { sensitive_values } = valuesJson(plan.entry.block, { prior_state: prior, config, planned_state: planned });
  return {
    type: plan.typeName,
    action: plan.action,
    prior_state: prior,
    prior_private: encodeBase64(plan.priorPrivate),
    config,
    planned_state: planned,
    after_unknown: unknownMask(plan.change.plannedState),
    sensitive_values,
    requires_replace: plan.change.requiresReplace.map((p) => p.toString()),
    replacing: plan.replacing.map((p) => p.toString()),
    planned_private: encodeBase64(plan.change.plannedPrivate),
    warnings: plan.change.warnings.map(diagToJson),
  };
}

function savedPlan(file: string, type: string, entry: SchemaEntry): PlanOutcome {
  const doc = readJsonObjectInput("--plan", file);
  const member = (k: string): JsonNode => {
    const v = doc.members.get(k);
    if (v === undefined) throw new CliError(CliErrorCode.BadInput, `--plan: missing ${JSON.stringify(k)} (give the JSON output of \`magma plan\`)`);
    return v;
  };
  const str = (k: string): string => {
    const v = member(k);
    if (v.kind !== "string") throw new CliError(CliErrorCode.BadInput, `--plan: ${JSON.stringify(k)} must be a string`);
    return v.value;
  };
  if (str("type") !== type) throw new CliError(CliErrorCode.BadInput, `--plan: the plan is for ${str("type")}, not ${type}`);
  assertNotRedacted("--plan", doc, ["prior_state", "config", "planned_state"]);
  const action = str("action");
  if (!Object.values(PlanAction).includes(action as PlanAction)) throw new CliError(CliErrorCode.BadInput, `--plan: unknown action ${JSON.stringify(action)}`);
  const t = entry.type;
  const plannedState = valueFromJson("--plan: planned_state", member("planned_state").raw, t, member("after_unknown"));
  return {
    typeName: type,
    entry,
    action: action as PlanAction,
    prior: valueFromJson("--plan: prior_state", member("prior_state").raw, t),
    priorPrivate: decodeBase64("--plan: prior_private", str("prior_private")),
    config: valueFromJson("--plan: config", member("config").raw, t),
    change: { plannedState, requiresReplace: [], plannedPrivate: decodeBase64("--plan: planned_private", str("planned_private")), legacyTypeSystem: false, warnings: [] },
    replacing: [],
  };
}

import type { Value } from "@magma/cty";
import type * as FakeAwsModule from "@magma/fake-aws";
import { createProviderFactory, formatDiag, isProviderError, type Block, type Diag, type PlainConfig } from "@magma/plugin";
import {
  applyPlan,
  buildConfig,
  destroyResource,
  importResource,
  planResource,
  readResource,
  resourceEntry,
  type OperationTarget,
  type PlanOutcome,
  type StateOutcome,
} from "./operations.js";
import { CliError, CliErrorCode } from "./cli-error.js";
import { renderPlanDiff, renderState } from "./plan-diff.js";
import { openProviderSession, pluginDirsFrom, type ProviderSession } from "./provider-session.js";
import { renderSchemaEntry, renderSchemaSummary } from "./schema-view.js";
import type { Spinner } from "./spinner.js";

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Writes narration. */
  readonly out: (text: string) => void;
  /** The environment (`MAGMA_PLUGIN_DIRS`, Terraform's variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Progress while providers start. */
  readonly spinner: Spinner;
  /** Run the hashicorp/aws part when its binary is found (default true). */
  readonly aws?: boolean;
  /** Directories searched first for hashicorp/aws. */
  readonly pluginDirs?: readonly string[];
  /** Cancels the demo (providers and the fake endpoint are closed). */
  readonly signal?: AbortSignal;
}

/** One resource's walk through the lifecycle. */
interface Lifecycle {
  readonly ref: string;
  readonly type: string;
  readonly name: string;
  readonly config: PlainConfig;
  readonly importId: (state: Value) => string;
  readonly replacing: PlainConfig;
  readonly replacingNote: string;
}

/**
 * The main job: a narrated lifecycle (schema, configure, plan, apply, read, import, plan of
 * a replacing change, destroy) on the native random provider, then on the real
 * hashicorp/aws provider against a local fake AWS endpoint when the provider binary is
 * found. Each step is checked (the read and the import must agree with the apply, the
 * replacing plan must be a replacement), so the demo fails loudly when something is wrong.
 *
 * @throws whatever a step throws; every provider and the fake endpoint are closed first.
 */
export async function runDemo(o: DemoOptions): Promise<void> {
  const say = (s = ""): void => o.out(`${s}\n`);
  const cmd = (s: string): void => say(`\n$ ${s}`);
  const step = (n: number, s: string): void => say(`\n── ${n}. ${s}`);

  say("magma demo: one small provider contract, driven the same way for a native TypeScript");
  say("provider and for a real Terraform provider binary. Each step shows the CLI command that");
  say("does the same thing on its own.");

  say("\n═══ Part 1: the native random provider (@magma/provider-random, in-process) ═══");
  await lifecycle(o, say, cmd, step, {
    ref: "random",
    type: "random_string",
    name: "demo",
    config: { length: 12, special: false, keepers: { rotation: "1" } },
    importId: () => "imported-by-magma",
    replacing: { length: 12, special: false, keepers: { rotation: "2" } },
    replacingNote: "keepers.rotation 1 → 2",
  });

  if (o.aws === false) {
    say("\n(hashicorp/aws part skipped: --no-aws)");
    return;
  }
  const factory = createProviderFactory({ pluginDirs: pluginDirsFrom(o.pluginDirs, o.env), environment: o.env });
  let found: string;
  try {
    const r = await factory.resolve("hashicorp/aws");
    found = r.kind === "plugin" ? `${r.binary} (${r.version})` : r.kind === "binary" ? r.binary : r.address;
  } catch (e) {
    say("\n═══ Part 2: hashicorp/aws: skipped ═══");
    say(isProviderError(e) ? e.rawMessage : String(e));
    say("Put the provider in one of those directories, or pass --plugin-dir / set MAGMA_PLUGIN_DIRS.");
    return;
  }
  say("\n═══ Part 2: the real hashicorp/aws provider against a local fake AWS ═══");
  say(`provider binary: ${found}`);
  const { startFakeAws } = await loadFakeAws();
  const fake = await startFakeAws();
  try {
    say(`fake AWS endpoint (@magma/fake-aws): ${fake.url}`);
    const providerConfig: PlainConfig = {
      region: "us-east-1",
      access_key: "test",
      secret_key: "test",
      skip_credentials_validation: true,
      skip_requesting_account_id: true,
      skip_metadata_api_check: "true",
      skip_region_validation: true,
      max_retries: 2,
      endpoints: [{ ssm: fake.url, sts: fake.url, ec2: fake.url, logs: fake.url, iam: fake.url }],
    };
    await lifecycle(
      o,
      say,
      cmd,
      step,
      {
        ref: "hashicorp/aws",
        type: "aws_ssm_parameter",
        name: "greeting",
        config: { name: "/magma/demo/greeting", type: "String", value: "hello from magma", tags: { app: "magma" } },
        importId: (state) => state.getAttr("name").asString(),
        replacing: { name: "/magma/demo/greeting-v2", type: "String", value: "hello from magma", tags: { app: "magma" } },
        replacingNote: 'name "/magma/demo/greeting" → "/magma/demo/greeting-v2"',
      },
      providerConfig,
    );
    const unknown = fake.unknownCalls();
    if (unknown.length > 0) throw new Error(`the provider made calls the fake does not implement: ${unknown.map((c) => c.action).join(", ")}`);
    say(`\nThe fake endpoint answered ${fake.calls.length} AWS API calls (${[...new Set(fake.calls.map((c) => c.action))].join(", ")}); it holds ${fake.isEmpty() ? "nothing now" : "leftovers!"}.`);
    if (!fake.isEmpty()) throw new Error("the destroy left resources in the fake AWS");
  } finally {
    await fake.close();
  }
  say("\nDone: both providers went through the whole lifecycle through the same contract.");
}

async function lifecycle(
  o: DemoOptions,
  say: (s?: string) => void,
  cmd: (s: string) => void,
  step: (n: number, s: string) => void,
  l: Lifecycle,
  providerConfig: PlainConfig = {},
): Promise<void> {
  const pc = Object.keys(providerConfig).length === 0 ? "" : " --provider-config @provider.json";
  const addr = `${l.type}.${l.name}`;
  const session: ProviderSession = await openProviderSession({
    ref: l.ref,
    env: o.env,
    spinner: o.spinner,
    log: () => undefined,
    ...(o.pluginDirs === undefined ? {} : { pluginDirs: o.pluginDirs }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  try {
    const s: OperationTarget = session;
    step(1, "schema: what the provider offers");
    cmd(`magma schema ${l.ref}`);
    say(renderSchemaSummary(session.schema, session.origin).trimEnd());
    cmd(`magma schema ${l.ref} ${l.type}`);
    const entry = resourceEntry(s, l.type);
    say(abbreviate(renderSchemaEntry("resource", l.type, entry)).trimEnd());

    step(2, "configure");
    say(`provider config: ${Object.keys(providerConfig).length === 0 ? "{} (this provider has no settings)" : JSON.stringify(redact(session.schema.provider.block, providerConfig))}`);
    const config = buildConfig("provider config", session.schema.provider, providerConfig);
    const configured = await session.provider.configure(config, "1.11.4", o.signal === undefined ? undefined : { signal: o.signal });
    warnings(say, configured.warnings);
    say("configured.");

    step(3, "plan: create");
    cmd(`magma plan ${l.ref} ${l.type}${pc} --config '${JSON.stringify(l.config)}'`);
    const create = await planResource(s, l.type, { config: buildConfig("config", entry, l.config) });
    expect(create.action === "create", `expected a create, planned ${create.action}`);
    say(renderPlanDiff(create, { name: l.name }).trimEnd());
    warnings(say, create.change.warnings);

    step(4, "apply");
    // stdout has sensitive values as null; --out keeps the full state (mode 0600) for --from.
    cmd(`magma apply ${l.ref} ${l.type}${pc} --config '${JSON.stringify(l.config)}' --out state.json`);
    const applied = await applyPlan(s, create);
    expect(!applied.state.isNull() && applied.state.isWhollyKnown(), "apply returned no state or one with unknown values");
    say(`Apply complete: ${addr} created.`);
    say(renderState(entry.block, applied.state).join("\n"));
    warnings(say, applied.warnings);

    step(5, "read: refresh the object");
    cmd(`magma read ${l.ref} ${l.type}${pc} --from state.json`);
    const read = await readResource(s, l.type, applied.state, applied.private);
    expect(!read.state.isNull(), "the object is gone right after apply");
    say(sameObject(applied, read) ? "The object is as applied: no drift." : "The provider refreshed some attributes (normal for computed values).");

    step(6, "import: adopt the object by id");
    const id = l.importId(applied.state);
    cmd(`magma import ${l.ref} ${l.type}${pc} --id '${id}'`);
    const imported = await importResource(s, l.type, id);
    const obj = imported.objects[0]!;
    say(`Import successful: ${obj.typeName} ${JSON.stringify(id)}.`);
    say(renderState(resourceEntry(s, obj.typeName).block, obj.state).join("\n"));
    if (l.ref !== "random") expect(obj.state.getAttr("id").rawEquals(applied.state.getAttr("id")), "the import found a different object");

    step(7, `plan: a replacing change (${l.replacingNote})`);
    cmd(`magma plan ${l.ref} ${l.type}${pc} --from state.json --config '${JSON.stringify(l.replacing)}'`);
    const replace: PlanOutcome = await planResource(s, l.type, { config: buildConfig("config", entry, l.replacing), prior: read.state, priorPrivate: read.private });
    expect(replace.action === "replace", `expected a replacement, planned ${replace.action}`);
    say(renderPlanDiff(replace, { name: l.name }).trimEnd());

    step(8, "destroy");
    cmd(`magma destroy ${l.ref} ${l.type}${pc} --from state.json`);
    const destroyed = await destroyResource(s, l.type, read.state, read.private);
    expect(destroyed.state.isNull(), "destroy returned a state");
    say(`Destroy complete: ${addr} destroyed.`);
    if (l.ref !== "random") {
      const gone = await readResource(s, l.type, read.state, read.private);
      expect(gone.state.isNull(), "the object still exists after destroy");
      say("A read confirms it is gone.");
    }
  } finally {
    await session.close();
  }
}

function expect(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(`demo check failed: ${what}`);
}

function sameObject(a: StateOutcome, b: StateOutcome): boolean {
  return a.state.rawEquals(b.state);
}

function warnings(say: (s?: string) => void, ws: readonly Diag[]): void {
  for (const w of ws) say(formatDiag(w).replace(/\s*\n\s*/g, " "));
}

/** Credentials hidden even where the schema does not mark them sensitive (hashicorp/aws marks none of its settings). */
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set(["access_key", "secret_key", "token"]);

/**
 * The configuration with the values of the block's sensitive attributes (and of the
 * well-known credential settings) shown as `(sensitive value)`.
 */
function redact(block: Block, c: PlainConfig): PlainConfig {
  const out: Record<string, unknown> = { ...c };
  for (const [k, v] of Object.entries(out)) {
    if (v !== undefined && v !== null && (block.attributes?.[k]?.sensitive === true || CREDENTIAL_NAMES.has(k))) out[k] = "(sensitive value)";
  }
  return out;
}

/** The first lines of a long schema tree. */
function abbreviate(text: string, max = 24): string {
  const lines = text.trimEnd().split("\n");
  return lines.length <= max ? text : `${lines.slice(0, max).join("\n")}\n    … (${lines.length - max} more lines)`;
}

/**
 * `@magma/fake-aws`, loaded only when the demo's AWS part runs: it is a test server, an
 * optional peer dependency of the CLI, so that no other command needs it (or loads it).
 *
 * @throws {@link CliError} `not_installed` when the package cannot be found.
 */
async function loadFakeAws(): Promise<typeof FakeAwsModule> {
  try {
    return await import("@magma/fake-aws");
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String((e as Error).message).includes("@magma/fake-aws")) throw e;
    throw new CliError(CliErrorCode.NotInstalled, "the demo's hashicorp/aws part needs @magma/fake-aws (the local fake AWS endpoint), which is not installed", {
      hint: "install it next to @magma/cli (npm install @magma/fake-aws), or run `magma demo --no-aws`",
      cause: e,
    });
  }
}

import { dynamicType, stringType } from "@magma/cty";
import { createSchemaEntry, isProviderError, noServerCapabilities, type ProviderSchema } from "@magma/provider-api";
import { CliError, CliErrorCode } from "../cli-error.js";
import { formatDiagnostics } from "./format-diagnostic.js";
import type { CommandContext } from "../commands/command-context.js";
import { workdirProviders } from "./engine-providers.js";
import type { WorkingDir } from "./working-dir.js";
import { terminalColumns } from "../terminal-columns.js";

/** Terraform's built-in provider, which magma does not start: its schema is known. */
const BUILTIN_SOURCE = "terraform.io/builtin/terraform";

/** The part of the built-in provider's schema magma renders: the `terraform_data` resource type. */
const BUILTIN_SCHEMA: ProviderSchema = {
  provider: createSchemaEntry({}),
  resources: new Map([
    [
      "terraform_data",
      createSchemaEntry({
        attributes: {
          id: { type: stringType, computed: true },
          input: { type: dynamicType, optional: true },
          output: { type: dynamicType, computed: true },
          triggers_replace: { type: dynamicType, optional: true },
        },
      }),
    ],
  ]),
  dataSources: new Map(),
  serverCapabilities: noServerCapabilities,
  warnings: [],
};

/**
 * Terraform's error when a provider whose objects `show` or `state show` must render cannot
 * be started for its schema (terraform 1.11 prints no schema-less rendering: it fails with
 * this, exit code 1): `unavailable provider` when it is not installed, else why it failed.
 * Prints the diagnostic on stderr as terraform does and returns the (silent) error to throw.
 */
export function schemaLoadError(ctx: CommandContext, source: string, cause: unknown): CliError {
  const why = isProviderError(cause) && cause.code === "provider_not_found" ? `unavailable provider ${JSON.stringify(source)}` : cause instanceof Error ? cause.message : String(cause);
  const detail = `Error while loading schemas for plugin components: Failed to obtain provider schema: Could not load the schema for provider ${source}: failed to instantiate provider ${JSON.stringify(source)} to obtain schema: ${why}..`;
  ctx.io.stderr.write(formatDiagnostics([{ severity: "error", summary: "Failed to load plugin schemas", detail }], ctx.cwd, ctx.colour.stderr, { width: terminalColumns(ctx.io.stderr) }));
  return new CliError(CliErrorCode.NotInstalled, `Failed to load plugin schemas: ${detail}`, { silent: true, cause });
}

/**
 * Starts each provider once for its schema and closes it; Terraform's built-in provider is
 * not started (its `terraform_data` schema is built in).
 *
 * @throws CliError "Failed to load plugin schemas" ({@link schemaLoadError}) for the first
 *   provider that cannot be started, as terraform fails (an aborted run throws its abort).
 */
export async function loadShowSchemas(wd: WorkingDir, ctx: CommandContext, sources: readonly string[]): Promise<ReadonlyMap<string, ProviderSchema>> {
  const p = workdirProviders(wd.dataDir, ctx.io.env, undefined, wd.dir);
  try {
    for (const s of sources) {
      if (s === BUILTIN_SOURCE) {
        p.schemas.set(s, BUILTIN_SCHEMA);
        continue;
      }
      try {
        await p.source.open(s, ctx.signal === undefined ? {} : { signal: ctx.signal });
      } catch (e) {
        if (ctx.signal?.aborted === true) throw e;
        throw schemaLoadError(ctx, s, e);
      }
    }
  } finally {
    await Promise.all([...p.open].map((o) => o.close().catch(() => undefined)));
  }
  return p.schemas;
}

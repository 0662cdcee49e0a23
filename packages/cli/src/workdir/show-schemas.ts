import { dynamicType, stringType } from "@magma/cty";
import { createSchemaEntry, noServerCapabilities, type ProviderSchema } from "@magma/provider-api";
import type { CommandContext } from "../commands/command-context.js";
import { workdirProviders } from "./engine-providers.js";
import type { WorkingDir } from "./working-dir.js";

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

/** The schemas a human `show` could load, and the providers it could not start (with why). */
export interface ShowSchemas {
  /** The schema of each provider started, by source address. */
  readonly schemas: ReadonlyMap<string, ProviderSchema>;
  /** The providers that could not be started, by source address, with the error's message. */
  readonly failed: ReadonlyMap<string, string>;
}

/**
 * Starts each provider once for its schema and closes it. A provider that cannot be started
 * is recorded in `failed` rather than thrown: the human renderings fall back to printing
 * its objects without a schema (an aborted run still throws). Terraform's built-in provider
 * is not started: its `terraform_data` schema is built in.
 */
export async function loadShowSchemas(wd: WorkingDir, ctx: CommandContext, sources: readonly string[]): Promise<ShowSchemas> {
  const p = workdirProviders(wd.dataDir, ctx.io.env);
  const failed = new Map<string, string>();
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
        failed.set(s, e instanceof Error ? e.message : String(e));
      }
    }
  } finally {
    await Promise.all([...p.open].map((o) => o.close().catch(() => undefined)));
  }
  return { schemas: p.schemas, failed };
}

/** Prints, on stderr, one warning per provider that could not be started (the objects it manages are shown without its schema). */
export function warnSchemaless(ctx: CommandContext, failed: ReadonlyMap<string, string>): void {
  for (const [source, why] of failed) {
    ctx.err("");
    ctx.err(`Warning: Failed to load the schema of provider ${JSON.stringify(source)}`);
    ctx.err("");
    ctx.err(why);
    ctx.err("");
    ctx.err("The objects it manages are shown without its schema: every non-null attribute, nested values as plain values, sensitive ones per the state's sensitive_attributes only.");
  }
}

import { loadConfig, providerAddrString, providerConfigDiagnostics, validateDir, walkConfig, type ProviderAddr, type SchemaLookup } from "@magma/config";
import type { Diagnostic } from "@magma/hcl";
import type { Block } from "@magma/provider-api";
import { ProviderFunctionCalls, providerConfigValidator, providerResourceValidator, validateExpressions } from "@magma/engine";
import { CliError, CliErrorCode } from "../cli-error.js";
import { openProviderSession, nativeProviders, type ProviderSession } from "../provider-session.js";
import { formatDiagnostics, snippetOf, SourceCache } from "../workdir/format-diagnostic.js";
import { diagnosticRangeJson } from "../workdir/diagnostic-range-json.js";
import { workdirProviders } from "../workdir/engine-providers.js";
import { terraformDiagnosticOrder } from "../workdir/terraform-diagnostic-order.js";
import { providerRequirements } from "../workdir/provider-requirements.js";
import { missingRequiredProviderDiagnostics } from "../workdir/dependency-selections.js";
import { paint } from "../colour.js";
import type { CommandContext } from "./command-context.js";
import { type WorkdirOptions } from "./workdir-options.js";
import { join } from "node:path";
import { terminalColumns } from "../terminal-columns.js";

/** A diagnostic of the walk; a provider's about a resource carries the resource's address (Terraform's `InConfigBody`). */
type ValidateDiagnostic = Diagnostic & { readonly address?: string; readonly inConfigBody?: boolean };

/** One diagnostic in `terraform validate -json`'s form, with its source snippet. */
function diagJson(d: ValidateDiagnostic, sources: SourceCache): Record<string, unknown> {
  const snippet = d.subject === undefined ? undefined : snippetOf(sources, d.subject, d.values, d.functionCall);
  return {
    severity: d.severity,
    summary: d.summary,
    detail: d.detail,
    // The object a walk's diagnostic is about (terraform's "with …").
    ...(d.inConfigBody === true && d.address !== undefined ? { address: d.address } : {}),
    ...(d.subject === undefined ? {} : { range: diagnosticRangeJson(d.subject) }),
    ...(snippet === undefined ? {} : { snippet }),
  };
}

/** JSON indented as Go's encoder writes it (`<`, `>`, `&` escaped). */
function goJson(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Opens each provider the configuration needs that is installed (linked under
 * `.terraform/providers` by `init`, or native) for its schema, and keeps it open (unconfigured)
 * to validate the resources' configurations; providers that cannot be opened are skipped
 * (their resources are then checked without a schema). The caller closes the sessions.
 */
async function openProviders(ctx: CommandContext, dataDir: string, providers: readonly ProviderAddr[]): Promise<Map<string, ProviderSession>> {
  const out = new Map<string, ProviderSession>();
  for (const p of providers) {
    const addr = providerAddrString(p);
    const native = nativeProviders[addr] !== undefined ? addr : Object.keys(nativeProviders).find((k) => addr === `registry.terraform.io/${k}`);
    try {
      const s = await openProviderSession({
        ref: native ?? addr,
        env: ctx.io.env,
        spinner: ctx.spinner,
        log: () => {},
        pluginDirs: [join(dataDir, "providers")],
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      });
      out.set(addr, s);
    } catch {
      // Not installed: validated without its schema.
    }
  }
  return out;
}

/** Runs the command (its registration — name, flags, help — is in validate-command.ts, which loads this module on demand). */
export async function validateAction(ctx: CommandContext, o: WorkdirOptions): Promise<void> {
  const dir = ctx.cwd;
  const first = validateDir(dir);
  let diags: readonly ValidateDiagnostic[] = first.diags;
  // Terraform's validate first checks that every provider the configuration requires is available (its checkConfigDependencies).
  const missing = first.checked ? missingRequiredProviderDiagnostics(first.config, dir) : [];
  if (missing.length > 0) diags = [...loadConfig(dir).diags, ...providerConfigDiagnostics(first.config), ...missing];
  else if (first.checked) {
    const dataDir = join(dir, ctx.io.env["TF_DATA_DIR"] || ".terraform");
    // Terraform's built-in provider (terraform_data) is no requirement, but its schema is there.
    const builtin = [...walkConfig(first.config)].some((c) => [...c.module.managedResources.values(), ...c.module.dataResources.values()].some((r) => r.provider.hostname === "terraform.io" && r.provider.namespace === "builtin"));
    const required = providerRequirements(first.config).map((r) => r.provider);
    const sessions = await openProviders(ctx, dataDir, builtin ? [...required, { hostname: "terraform.io", namespace: "builtin", type: "terraform" }] : required);
    const schemas = new Map([...sessions].map(([addr, s]) => [addr, s.schema] as const));
    const lookup: SchemaLookup = (provider, mode, type) => {
      const s = schemas.get(providerAddrString(provider));
      if (s === undefined) return undefined;
      const m = mode === "managed" ? s.resources : mode === "data" ? s.dataSources : s.ephemeralResources;
      return (m?.get(type) as { block: Block } | undefined)?.block;
    };
    if (schemas.size > 0) diags = validateDir(dir, { schemas: lookup }).diags;
    // Every expression evaluated as terraform validate's walk does (provider-defined function
    // calls with known arguments are made), with the static checks' errors reported beside
    // (an expression making a reference they refuse is not evaluated, as terraform's).
    const functionProviders = workdirProviders(dataDir, ctx.io.env).source;
    const calls = new ProviderFunctionCalls((source) => functionProviders.open(source));
    // Each resource's configuration validated by its provider (ValidateResourceConfig and its
    // kin): any unconfigured instance of its source answers as the one of its configuration would.
    const validateResource = providerResourceValidator(async (_c, r) => sessions.get(providerAddrString(r.provider))?.live.provider);
    // And each provider block's (ValidateProviderConfig).
    const validateProvider = providerConfigValidator(first.config, async (source) => sessions.get(source)?.live.provider, (source) => schemas.get(source)?.provider.block);
    try {
      diags = [...diags, ...(await validateExpressions(first.config, calls, { cwd: dir, schemas: lookup, available: (source) => schemas.has(source), validateResource, validateProvider }))];
    } finally {
      await calls.close();
      await Promise.all([...sessions.values()].map((s) => s.close().catch(() => undefined)));
    }
  }
  const errors = diags.filter((d) => d.severity === "error").length;
  const warnings = diags.length - errors;
  if (o.json === true) {
    const sources = new SourceCache(dir);
    const doc = { format_version: "1.0", valid: errors === 0, error_count: errors, warning_count: warnings, diagnostics: diags.map((d) => diagJson(d, sources)) };
    ctx.print(`${goJson(doc)}\n`);
  } else {
    if (diags.length > 0) {
      // Sorted as terraform's views sort (warnings first, then by file and position).
      // A provider's diagnostic about a resource names it (`with aws_x.y,`), as terraform's InConfigBody.
      const sorted = terraformDiagnosticOrder(diags.map(({ address, inConfigBody, ...d }: ValidateDiagnostic) => (inConfigBody === true && address !== undefined ? { ...d, address } : d)));
      // As terraform's view: warnings on stdout, errors on stderr.
      const warned = sorted.filter((d) => d.severity !== "error");
      const failed = sorted.filter((d) => d.severity === "error");
      if (warned.length > 0) ctx.print(formatDiagnostics(warned, dir, ctx.colour.stdout, { addresses: true, width: terminalColumns(ctx.io.stdout) }));
      if (failed.length > 0) ctx.io.stderr.write(formatDiagnostics(failed, dir, ctx.colour.stderr, { addresses: true, width: terminalColumns(ctx.io.stderr) }));
    }
    if (errors === 0) ctx.print(`${paint(ctx.colour.stdout, `[green][bold]Success![reset] The configuration is valid${warnings > 0 ? (ctx.colour.stdout ? ", but there were some\nvalidation warnings as shown above" : ", but there were some validation warnings\nas shown above") : ""}.\n`)}\n`);
  }
  if (errors > 0) throw new CliError(CliErrorCode.BadInput, `${errors} error(s) in the configuration`, { silent: true });
}

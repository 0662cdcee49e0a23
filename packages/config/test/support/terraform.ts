import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Diagnostic } from "@magma/hcl";
import { blockFromSchemaJson, type SchemaJsonBlock } from "../../src/schema-json.js";
import type { SchemaLookup } from "../../src/validate.js";

/** The schemas of terraform's built-in provider, from `terraform providers schema -json`. */
export function builtinSchemas(terraform: string): SchemaLookup {
  const dir = mkdtempSync(join(tmpdir(), "magma-config-schema-"));
  try {
    writeFileSync(join(dir, "main.tf"), 'resource "terraform_data" "a" {}\n');
    const cli = join(dir, ".terraformrc");
    writeFileSync(cli, "");
    const out = execFileSync(terraform, ["providers", "schema", "-json"], { cwd: dir, env: { ...process.env, TF_CLI_CONFIG_FILE: cli }, encoding: "utf8", timeout: 120_000 });
    type Entry = { block: SchemaJsonBlock };
    const parsed = JSON.parse(out) as { provider_schemas: Record<string, { resource_schemas?: Record<string, Entry>; data_source_schemas?: Record<string, Entry> }> };
    const p = parsed.provider_schemas["terraform.io/builtin/terraform"]!;
    return (provider, mode, type) => {
      if (`${provider.hostname}/${provider.namespace}/${provider.type}` !== "terraform.io/builtin/terraform") return undefined;
      const e = mode === "managed" ? p.resource_schemas?.[type] : mode === "data" ? p.data_source_schemas?.[type] : undefined;
      return e === undefined ? undefined : blockFromSchemaJson(e.block);
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A diagnostic reduced to what the oracle comparison looks at. */
export interface DiagKey {
  readonly severity: string;
  readonly summary: string;
  /** `file:line,col-line,col`, or "" without a range. */
  readonly range: string;
  /** The detail text (compared separately). */
  readonly detail?: string;
}

/** Terraform lists a cycle's nodes in map order, which varies between runs: sort them. */
function normalizeSummary(summary: string): string {
  if (!summary.startsWith("Cycle: ")) return summary;
  return `Cycle: ${summary.slice("Cycle: ".length).split(", ").sort().join(", ")}`;
}

function key(severity: string, summary: string, detail: string, r: { filename: string; start: { line: number; column: number }; end: { line: number; column: number } } | undefined): DiagKey {
  return { severity, summary: normalizeSummary(summary), detail, range: r === undefined ? "" : `${r.filename}:${r.start.line},${r.start.column}-${r.end.line},${r.end.column}` };
}

/** Sorts diagnostic keys for an order-independent comparison. */
export function sortKeys(ks: DiagKey[]): DiagKey[] {
  return [...ks].sort((a, b) => `${a.range}|${a.summary}|${a.severity}`.localeCompare(`${b.range}|${b.summary}|${b.severity}`));
}

/** magma's diagnostics as keys. */
export function magmaKeys(diags: readonly Diagnostic[]): DiagKey[] {
  return sortKeys(diags.map((d) => key(d.severity, d.summary, d.detail, d.subject)));
}

/**
 * Copies a configuration to a temp dir, runs `terraform init -backend=false` when it has
 * module calls, then `terraform validate -json`, and returns the diagnostics as keys.
 */
export function terraformValidate(terraform: string, caseDir: string): { keys: DiagKey[] } {
  const dir = mkdtempSync(join(tmpdir(), "magma-config-"));
  try {
    cpSync(caseDir, dir, { recursive: true });
    const cli = join(dir, ".terraformrc");
    writeFileSync(cli, "");
    const env = { ...process.env, TF_CLI_CONFIG_FILE: cli, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
    try {
      execFileSync(terraform, ["init", "-backend=false", "-input=false"], { cwd: dir, env, stdio: "ignore", timeout: 120_000 });
    } catch {
      // Broken configurations often fail init; validate still reports their diagnostics.
    }
    let out: string;
    try {
      out = execFileSync(terraform, ["validate", "-json"], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
    } catch (err) {
      out = (err as { stdout?: string }).stdout ?? "";
    }
    const parsed = JSON.parse(out) as {
      diagnostics: { severity: string; summary: string; detail: string; range?: { filename: string; start: { line: number; column: number }; end: { line: number; column: number } } }[];
    };
    return { keys: sortKeys(parsed.diagnostics.map((d) => key(d.severity, d.summary, d.detail, d.range))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

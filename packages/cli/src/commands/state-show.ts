import type { ProviderSchema } from "@magma/provider-api";
import { loadState, type InstanceObjectState } from "@magma/state";
import { CliError, CliErrorCode } from "../cli-error.js";
import { goQuote } from "../workdir/format-value.js";
import { noStateError } from "../workdir/state-lock.js";
import { loadShowSchemas } from "../workdir/show-schemas.js";
import { parseSelector, stateInstances, type StateInstance } from "../workdir/state-objects.js";
import { header, schemaInstanceText } from "../workdir/state-text.js";
import type { CommandContext } from "./command-context.js";
import { withWorkingDir, type WorkdirOptions } from "./workdir-options.js";

/**
 * Attributes of dynamic type, stored as `{"value": …, "type": …}`, of the types whose schema
 * magma knows without a provider: Terraform's built-in `terraform_data`.
 */
const DYNAMIC_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { "terraform.io/builtin/terraform terraform_data": ["input", "output", "triggers_replace"] };

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A JSON attribute value in the nested form `terraform state show` prints (four spaces per level). */
function jsonText(v: unknown, indent: number, sensitive: boolean): string {
  if (sensitive) return "(sensitive value)";
  const pad = " ".repeat(indent + 4);
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((x) => `${pad}${jsonText(x, indent + 4, false)},\n`).join("")}${" ".repeat(indent)}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== null);
  if (entries.length === 0) return "{}";
  const width = Math.max(...entries.map(([k]) => (IDENT.test(k) ? k : goQuote(k)).length));
  return `{\n${entries.map(([k, x]) => `${pad}${(IDENT.test(k) ? k : goQuote(k)).padEnd(width)} = ${jsonText(x, indent + 4, false)}\n`).join("")}${" ".repeat(indent)}}`;
}

/**
 * The top-level attributes holding a path of a state object's `sensitive_attributes`: without
 * the schema, the whole attribute is hidden (a secret nested inside it never shows).
 */
function sensitiveNames(json: string): Set<string> {
  const out = new Set<string>();
  for (const path of JSON.parse(json) as { type: string; value: unknown }[][]) {
    const first = path[0];
    if (first?.type === "get_attr" && typeof first.value === "string") out.add(first.value);
  }
  return out;
}

/**
 * One resource instance object as `terraform state show` (and `terraform show`) prints it
 * without the provider's schema (the fallback when the schema has no such type): `# addr:`
 * and the block with every non-null attribute, sorted and aligned, nested values in full,
 * sensitive ones (per `sensitive_attributes`) hidden.
 */
export function instanceBlockText(inst: StateInstance, current: InstanceObjectState): string {
  const attrs = JSON.parse(current.attributesJson ?? "{}") as Record<string, unknown>;
  const provider = inst.resource.provider.provider;
  for (const k of DYNAMIC_ATTRIBUTES[`${provider.hostname}/${provider.namespace}/${provider.type} ${inst.addr.type}`] ?? []) {
    const v = attrs[k];
    if (v !== null && typeof v === "object" && "value" in v) attrs[k] = (v as { value: unknown }).value;
  }
  const hidden = sensitiveNames(current.sensitiveAttributesJson);
  const names = Object.keys(attrs)
    .filter((k) => attrs[k] !== null)
    .sort();
  const width = Math.max(0, ...names.map((k) => k.length));
  let text = `${header(inst, current)}{\n`;
  for (const k of names) text += `    ${k.padEnd(width)} = ${jsonText(attrs[k], 4, hidden.has(k))}\n`;
  return `${text}}\n`;
}

/** The provider source address of an instance's resource (`registry.terraform.io/hashicorp/aws`). */
export function instanceSource(inst: StateInstance): string {
  const p = inst.resource.provider.provider;
  return `${p.hostname}/${p.namespace}/${p.type}`;
}

/**
 * One object of a resource instance as Terraform prints it: with its provider's schema when
 * `schemas` holds it (see `schemaInstanceText`), else without (see {@link instanceBlockText}).
 */
export function objectText(inst: StateInstance, obj: InstanceObjectState, schemas: ReadonlyMap<string, ProviderSchema>): string {
  const schema = schemas.get(instanceSource(inst));
  const entry = schema === undefined ? undefined : (inst.addr.mode === "data" ? schema.dataSources : schema.resources).get(inst.addr.type);
  if (entry === undefined || obj.attributesJson === undefined) return instanceBlockText(inst, obj);
  try {
    return schemaInstanceText(inst, obj, entry);
  } catch (e) {
    throw new CliError(CliErrorCode.BadInput, `The state's object ${inst.text} does not fit the schema of ${inst.addr.type}`, { detail: e instanceof Error ? e.message : String(e), cause: e });
  }
}

/** Runs the command (its registration — name, flags, help — is in state-show-command.ts, which loads this module on demand). */
export async function stateShowAction(ctx: CommandContext, address: string, o: WorkdirOptions): Promise<void> {
  const sel = parseSelector(address);
  await withWorkingDir(ctx, o, async (wd) => {
    const st = await loadState(wd.store());
    if (st === undefined) throw noStateError();
    const inst = sel.kind === "module" ? undefined : stateInstances(st).find((i) => i.text === address || (i.addr.key === sel.addr.key && i.text === sel.text));
    const current = inst?.current;
    if (inst === undefined || current === undefined) {
      throw new CliError(CliErrorCode.NotFound, "No instance found for the given address!", {
        plain: true,
        detail:
          'This command requires that the address references one specific instance.\nTo view the available instances, use "terraform state list". Please modify \nthe address to reference a specific instance.',
      });
    }
    ctx.print(objectText(inst, current, await loadShowSchemas(wd, ctx, [instanceSource(inst)])));
  });
}

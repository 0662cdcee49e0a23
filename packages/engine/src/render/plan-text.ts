import { Mark, Path, boolVal, dynamicType, hasDynamicTypes, markWithPaths, nullVal, numberVal, objectVal, stringVal, tupleVal, unknownVal, type Value } from "@magma/cty";
import { writeOnlyPaths, type Attribute, type Block, type NestedAttributeType, type NestedBlock } from "@magma/provider-api";
import { formatModuleInstance } from "@magma/state";
import { PlanAction } from "../plan/plan-action.js";
import type { Plan, PlannedOutput } from "../plan/plan.js";
import { colorize } from "./colorstring.js";
import { countPlanChanges, isOutputChangeShown, outputRenderAction, planSummary } from "./plan-summary.js";
import { actionReason, markedPaths, prepareChanges, type Located, type PlanJsonOptions } from "./plan-json.js";
import { entryFor, normaliseSchemas } from "./render-schemas.js";
import { schemaSensitivePaths } from "./value-json.js";

/** Options of {@link planText}: those of `planJson` plus the terminal width. */
export interface PlanTextOptions extends PlanJsonOptions {
  /** The terminal width the fixed sentences are wrapped for (default 78, Terraform's width without a terminal; lines stay shorter than it). */
  readonly columns?: number;
  /**
   * Colour as Terraform's renderer does (its colour markup through `colorize`: green `+`,
   * yellow `~`, red `-`, bold headings, grey notes); default false, the text of `-no-color`.
   */
  readonly color?: boolean;
}

/** Colour markup to text: {@link colorize} on or off for one rendering. */
type Paint = (markup: string) => string;

/** The markup of an attribute's (or element's) diff symbol; the unchanged one is a space. */
const SYMBOL_MARKUP: Readonly<Record<string, string>> = { "+": "[green]+[reset]", "-": "[red]-[reset]", "~": "[yellow]~[reset]" };

function sym(p: Paint, s: string): string {
  const m = SYMBOL_MARKUP[s];
  return m === undefined ? s : p(m);
}

/** ` # forces replacement`, red. */
function forcesSuffix(p: Paint): string {
  return p(" [red]# forces replacement[reset]");
}

/** ` -> null` of a removed value, grey. */
function nullSuffix(p: Paint): string {
  return p(" [dark_gray]-> null[reset]");
}

/** `# (N unchanged attributes hidden)`, grey. */
function hiddenNote(p: Paint, n: number, what: string): string {
  return p(`[dark_gray]# (${n} unchanged ${what}${n === 1 ? "" : "s"} hidden)[reset]`);
}

const SENS: ReadonlySet<string> = new Set([Mark.Sensitive]);

/**
 * The renderer's own mark on the (null) value of a write-only attribute inside a nested
 * attribute type, which Terraform shows whatever its value (blocks' write-only attributes
 * are found by their schema instead). Never leaves this module.
 */
const WRITE_ONLY = "magma.render.write-only";
const WO: ReadonlySet<string> = new Set([WRITE_ONLY]);

/**
 * The human plan rendering of `terraform plan` / `terraform show PLANFILE` (coloured as
 * Terraform's with `color`):
 * the legend of the actions used, `# addr will be created` (with Terraform's reasons),
 * `+`/`~`/`-`/`-/+`/`+/-`/`<=` bodies with `(known after apply)`, `(sensitive value)`,
 * `# forces replacement`, the identifying attributes (`id`, `name`, `tags`) of updated
 * objects, hidden-unchanged counts, the summary line and "Changes to Outputs".
 *
 * Covers attributes of primitive, list, set, map and object types and nested blocks, and
 * multi-line strings as Terraform's `<<-EOT` heredocs (their changes line by line), created and
 * deleted JSON strings as `jsonencode(…)`, the update of a JSON string as a structural diff
 * inside `jsonencode(…)` (not yet: terraform's "# whitespace changes" note), empty nested blocks
 * as `{}`, and terraform's warnings above a value whose sensitivity changes.
 *
 * @throws RenderError as `planJson`.
 */
export function planText(plan: Plan, options: PlanTextOptions): string {
  const schemas = normaliseSchemas(options.schemas);
  const { sorted, options: opts } = prepareChanges(plan, options, schemas);
  const width = options.columns ?? 78;
  const color = options.color === true;
  const p: Paint = (markup) => colorize(markup, color);
  const shown = sorted.filter((l) => !(l.change.action === PlanAction.NoOp && (l.change.previousAddress ?? l.change.address) === l.change.address && l.change.importId === undefined) && !(l.change.action === PlanAction.Delete && l.addr.mode !== "managed"));
  const outputs = (plan.outputs ?? []).filter(isOutputChangeShown);
  let out = "";
  if (shown.length === 0 && outputs.length === 0) {
    const summary = planSummary(plan, opts.errored === true ? { errored: true } : {});
    const detail =
      plan.mode === "destroy"
        ? "Either you have not created any objects yet or the existing objects were already deleted outside of Terraform."
        : plan.mode === "refresh-only"
          ? "Terraform has checked that the real remote objects still match the result of your most recent changes, and found no differences."
          : "Terraform has compared your real infrastructure against your configuration and found no differences, so no changes are needed.";
    const [lead, ...rest] = summary.split(". ");
    const headline = p(`\n[reset][bold][${opts.errored === true ? "red" : "green"}]${lead!}.[reset][bold] ${rest.join(". ")}[reset]\n\n`);
    // An errored plan says only that planning failed.
    return opts.errored === true ? headline : `${headline}${wrap(detail, width)}\n`;
  }
  const counts = countPlanChanges(plan);
  if (counts.add + counts.change + counts.destroy + counts.read + counts.forget > 0) {
    out += `\n${wrap("Terraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", width)}\n`;
    const has = (a: PlanAction) => shown.some((l) => l.change.action === a);
    if (has(PlanAction.Create)) out += `${p("  [green]+[reset] create")}\n`;
    if (has(PlanAction.Update)) out += `${p("  [yellow]~[reset] update in-place")}\n`;
    if (has(PlanAction.Delete)) out += `${p("  [red]-[reset] destroy")}\n`;
    if (has(PlanAction.DeleteThenCreate)) out += `${p("[red]-[reset]/[green]+[reset] destroy and then create replacement")}\n`;
    if (has(PlanAction.CreateThenDelete)) out += `${p("[green]+[reset]/[red]-[reset] create replacement and then destroy")}\n`;
    if (has(PlanAction.Read)) out += `${p(" [cyan]<=[reset] read (data resources)")}\n`;
  }
  if (shown.length > 0) {
    out += opts.errored === true ? "\nTerraform planned the following actions, but then encountered a problem:\n" : "\nTerraform will perform the following actions:\n";
    for (const l of shown) out += `\n${resourceText(p, l, sorted, plan, opts, schemas)}\n`;
    out += p(`\n${planSummary(plan).replace(/^Plan:/, "[bold]Plan:[reset]")}\n`);
  }
  if (outputs.length > 0) {
    const w = Math.max(...(plan.outputs ?? []).map((o) => attrKey(o.name).length));
    out += "\nChanges to Outputs:\n";
    for (const o of [...outputs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) out += `${outputLine(p, o, w)}\n`;
    // Terraform says so when no object has an action (moves and imports without changes do not count).
    if (!shown.some((l) => l.change.action !== PlanAction.NoOp)) out += `\n${wrap("You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.", width)}\n`;
  }
  return out;
}

function outputLine(p: Paint, o: PlannedOutput, width: number): string {
  // Terraform's symbol is its renderer's action: an update to null is a delete (and see outputRenderAction).
  const rendered = outputRenderAction(o);
  const action = rendered === "update" && o.after.isKnown() && o.after.isNull() && !o.before.isNull() ? "delete" : rendered;
  const s = action === "create" ? "+" : action === "delete" ? "-" : "~";
  const lead = `  ${sym(p, s)} ${attrKey(o.name).padEnd(width)} = `;
  const b = o.sensitive ? o.before.mark(Mark.Sensitive) : o.before;
  const a = o.sensitive ? o.after.mark(Mark.Sensitive) : o.after;
  // A sensitive output is "(sensitive value)" even while unknown.
  if (o.sensitive) return `${lead}(sensitive value)${action === "delete" ? nullSuffix(p) : ""}`;
  // Terraform renders an output's change from its JSON (differ.ComputeDiffForOutput): see `json` of render.
  const lines = attributeDiff(p, 2, b, a, action === "create" ? "create" : action === "delete" ? "delete" : "update", false, true);
  return lines === undefined ? `${lead}(known after apply)` : `${lead}${lines.join("\n")}`;
}

function wrap(text: string, width: number): string {
  const lines: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of para.split(" ")) {
      // Terraform leaves the last column free: lines are at most width - 1 long.
      if (line !== "" && line.length + 1 + word.length > width - 1) {
        lines.push(line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    lines.push(line);
  }
  return lines.join("\n");
}

/** Terraform's action symbols as colour markup (`format.DiffActionSymbol`), three columns wide. */
const SYMBOLS: Readonly<Record<PlanAction, string>> = {
  create: "  [green]+[reset]",
  update: "  [yellow]~[reset]",
  delete: "  [red]-[reset]",
  "delete-then-create": "[red]-[reset]/[green]+[reset]",
  "create-then-delete": "[green]+[reset]/[red]-[reset]",
  read: " [cyan]<=[reset]",
  "no-op": "   ",
  // Terraform indents a forgotten object's symbol by one space only.
  forget: " [red].[reset]",
};

function resourceText(p: Paint, l: Located, all: readonly Located[], plan: Plan, options: PlanJsonOptions, schemas: Parameters<typeof entryFor>[0]): string {
  const c = l.change;
  const entry = entryFor(schemas, l.provider, l.addr.mode === "data" ? "data" : "managed", l.addr.type, c.address);
  const reasonJson = actionReason(l, all, plan, options);
  const reason = reasonJson === undefined ? undefined : (JSON.parse(reasonJson) as string);
  const who = c.deposedKey === undefined ? c.address : `${c.address} (deposed object ${c.deposedKey})`;
  // A destroy plan is made from the refreshed (moved) state: no previous addresses (as planJson).
  const moved = c.previousAddress !== undefined && c.previousAddress !== c.address && plan.mode !== "destroy";
  let printedMoved = false;
  let printedImported = false;
  // The comment lines as colour markup (addresses hold no colour words: `[0]`, `["k"]` stay as they are).
  const comment: string[] = [];
  switch (c.action) {
    case PlanAction.Create:
      comment.push(`[bold]  # ${who}[reset] will be created`);
      break;
    case PlanAction.Read:
      comment.push(`[bold]  # ${who}[reset] will be read during apply`);
      comment.push(
        reason === "read_because_config_unknown"
          ? "  # (config refers to values not yet known)"
          : reason === "read_because_check_nested"
            ? "  # (config will be reloaded to verify a check block)"
            : "  # (depends on a resource or a module with changes pending)",
      );
      break;
    case PlanAction.Update:
      comment.push(`[bold]  # ${who}[reset] will be updated in-place`);
      break;
    case PlanAction.DeleteThenCreate:
    case PlanAction.CreateThenDelete:
      comment.push(
        c.replaceReason === "tainted"
          ? `[bold]  # ${who}[reset] is tainted, so must be [bold][red]replaced[reset]`
          : c.replaceReason === "requested"
            ? `[bold]  # ${who}[reset] will be [bold][red]replaced[reset], as requested`
            : c.replaceReason === "triggered"
              ? `[bold]  # ${who}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by`
              : `[bold]  # ${who}[reset] must be [bold][red]replaced[reset]`,
      );
      break;
    case PlanAction.Delete:
      comment.push(`[bold]  # ${who}[reset] will be [bold][red]destroyed[reset]`);
      if (reason !== undefined) comment.push(`  # (because ${deleteWhy(l, reason)})`);
      if (c.deposedKey !== undefined) comment.push("  # (left over from a partially-failed replacement of this instance)");
      break;
    case PlanAction.Forget:
      // Terraform indents these lines by one space only.
      if (c.deposedKey !== undefined) comment.push(`[bold] # ${who}[reset] will be removed from Terraform state, but [bold][red]will not be destroyed[reset]`, "[bold] # (left over from a partially-failed replacement of this instance)");
      else comment.push(`[bold] # ${who}[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]`);
      comment.push(" # (destroy = false is set in the configuration)");
      break;
    case PlanAction.NoOp:
      if (moved) {
        comment.push(`[bold]  # ${c.previousAddress!}[reset] has moved to [bold]${who}[reset]`);
        printedMoved = true;
      } else if (c.importId !== undefined) {
        comment.push(`[bold]  # ${who}[reset] will be imported`);
        printedImported = true;
      }
      break;
  }
  // Terraform's notes after the action line (`resourceChangeComment`).
  if (moved && !printedMoved) comment.push(`  # [reset](moved from ${c.previousAddress!})`);
  if (c.importId !== undefined && !printedImported) comment.push(c.importId !== "" ? `  # [reset](imported from ${JSON.stringify(c.importId)})` : "  # [reset](will be imported first)");
  if (c.importId !== undefined && (c.action === PlanAction.CreateThenDelete || c.action === PlanAction.DeleteThenCreate)) comment.push("  # [reset][yellow]Warning: this will destroy the imported resource[reset]");
  const lines: string[] = [];
  const before = markNestedWriteOnly(entry.block, markWithPaths(c.before.unmarkDeep().value, sensitivePaths(c.before, c.beforeSensitivePaths, entry.block).map((path) => ({ path, marks: SENS }))));
  // A forgotten object is shown as it stands: unchanged, its identifying attributes only.
  const shownAfter = c.action === PlanAction.Forget ? c.before : c.after;
  const after = markNestedWriteOnly(
    entry.block,
    markWithPaths(shownAfter.unmarkDeep().value, sensitivePaths(shownAfter, c.action === PlanAction.Forget ? c.beforeSensitivePaths : c.afterSensitivePaths, entry.block).map((path) => ({ path, marks: SENS }))),
  );
  const mode: Mode = c.action === PlanAction.Create || c.action === PlanAction.Read ? "create" : c.action === PlanAction.Delete ? "delete" : "update";
  const forces = new Set(c.requiresReplace.map((p) => p.toString()));
  const keyword = l.addr.mode === "data" ? "data" : "resource";
  lines.push(`${p(SYMBOLS[c.action])} ${keyword} ${JSON.stringify(l.addr.type)} ${JSON.stringify(l.addr.name)} {`);
  // An imported object shows its unchanged attributes and blocks too (terraform's ShowUnchangedChildren).
  lines.push(...blockBody(p, entry.block, before, after, 6, mode, forces, "", true, false, c.importId !== undefined));
  lines.push("    }");
  // Terraform colours the comment as one piece, its reset after the newline.
  return `${comment.length === 0 ? "" : p(`${comment.join("\n")}\n`)}${lines.join("\n")}`;
}

/** `value` (an object of `block`) with {@link WRITE_ONLY} on the write-only attributes inside its nested attribute types, in nested blocks too. */
function markNestedWriteOnly(block: Block, value: Value): Value {
  return markWithPaths(value, nestedWriteOnlyPaths(block, value, undefined).map((path) => ({ path, marks: WO })));
}

function nestedWriteOnlyPaths(block: Block, value: Value, base: Path | undefined): Path[] {
  if (value.isNull() || !value.isKnown()) return [];
  const out: Path[] = [];
  const at = (name: string): Path => (base === undefined ? Path.root.attr(name) : base.attr(name));
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    // writeOnlyPaths of a block holding only this attribute: the paths inside its nested type.
    if (a.nestedType !== undefined) out.push(...writeOnlyPaths({ attributes: { [name]: a } }, value.unmark(), base ?? Path.root));
  }
  for (const [name, nb] of Object.entries(block.blockTypes ?? {})) {
    const v = value.unmark().getAttr(name);
    if (v.isNull() || !v.isKnown()) continue;
    if (nb.nesting === "single" || nb.nesting === "group") out.push(...nestedWriteOnlyPaths(nb.block, v, at(name)));
    else if (nb.nesting === "list") v.unmark().elements().forEach((e, i) => out.push(...nestedWriteOnlyPaths(nb.block, e, at(name).index(i))));
    else if (nb.nesting === "map") for (const [k, e] of v.unmark().type.kind === "map" ? v.unmark().entries() : Object.entries(v.unmark().attributes())) out.push(...nestedWriteOnlyPaths(nb.block, e, at(name).key(k)));
  }
  return out;
}

/** Whether a value is a write-only attribute's inside a nested attribute type ({@link WRITE_ONLY}). */
function isWriteOnly(v: Value | undefined): boolean {
  return v !== undefined && v.isMarked(WRITE_ONLY);
}

/** A write-only attribute's text inside a nested attribute type (Terraform's `writeOnlyRenderer`: sensitive when its value is). */
function writeOnlyText(p: Paint, v: Value, deleted: boolean): string {
  return `${isSensitive(v) ? "(sensitive, write-only attribute)" : "(write-only attribute)"}${deleted ? nullSuffix(p) : ""}`;
}

function sensitivePaths(v: Value, given: readonly Path[] | undefined, block: Block): Path[] {
  const plain = v.unmarkDeep().value;
  return [...(given ?? []), ...markedPaths(v), ...schemaSensitivePaths(block, plain)];
}

function deleteWhy(l: Located, reason: string): string {
  const key = l.addr.key;
  const keyText = typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
  switch (reason) {
    case "delete_because_count_index":
      return `index ${keyText} is out of range for count`;
    case "delete_because_each_key":
      return `key ${keyText} is not in for_each map`;
    case "delete_because_no_module":
      return `${formatModuleInstance(l.addr.module)} is not in configuration`;
    case "delete_because_wrong_repetition":
      return key === undefined ? "resource uses count or for_each" : typeof key === "number" ? "resource does not use count" : "resource does not use for_each";
    case "delete_because_no_move_target":
      return `${l.change.previousAddress ?? l.change.address} was moved to ${l.change.address}, which is not in configuration`;
    default:
      // Terraform names the resource without its module here.
      return `${l.addr.type}.${l.addr.name} is not in configuration`;
  }
}

type Mode = "create" | "delete" | "update";

function pad(n: number): string {
  return " ".repeat(n);
}

function attrKey(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k);
}

const IMPORTANT = new Set(["id", "name", "tags"]);

/**
 * Whether an unchanged attribute is shown anyway (terraform's block renderer always shows its
 * `importantAttributes`): a resource's own in an update, a nested block's when it is created or
 * updated (`id = null` in a created set block).
 */
function shownUnchanged(name: string, top: boolean, mode: Mode): boolean {
  return IMPORTANT.has(name) && (top ? mode === "update" : mode !== "delete");
}

/** The lines of a block's attributes and nested blocks at `indent` (the column of the symbols). */
function blockBody(p: Paint, block: Block, before: Value, after: Value, indent: number, mode: Mode, forces: ReadonlySet<string>, path: string, top: boolean, nonLegacyParent: boolean, showAll = false): string[] {
  const get = (v: Value, name: string): Value | undefined => (v.isNull() || !v.isKnown() ? undefined : v.getAttr(name));
  const rows: { sym: string; key: string; text: string[]; warn?: string[] }[] = [];
  let hidden = 0;
  // Terraform's renderer takes empty strings for null in the values of a schema without the
  // features the legacy SDK lacks (its `NonLegacySchema`, inherited by nested single blocks).
  const nonLegacy = nonLegacyParent || containsNonLegacyFeatures(block);
  const legacy = !nonLegacy;
  for (const name of Object.keys(block.attributes ?? {}).sort()) {
    if (block.attributes![name]!.writeOnly === true) {
      const row = writeOnlyRow(p, mode, forces.has(path));
      if (row.sym === " " && !showAll) hidden++;
      else rows.push({ ...row, key: name });
      continue;
    }
    const b0 = get(before, name);
    const a0 = after.isKnown() ? get(after, name) : undefined;
    const b = legacy && isEmptyString(b0) ? undefined : b0;
    const a = legacy && isEmptyString(a0) ? undefined : a0;
    const unknownAfter = !after.isNull() && !after.isKnown();
    const nested = block.attributes![name]!.nestedType;
    if (nested !== undefined && !unknownAfter && !isSensitive(b) && !isSensitive(a)) {
      // Terraform's own diff of nested attribute types (not that of an object-typed value).
      const nb = nonNull(b);
      const na = nonNull(a);
      if (nb === undefined && na === undefined) continue;
      const d = nestedAttributeDiff(p, nested, nb, na);
      const s = DIFF_SYMBOL[d.action];
      const important = shownUnchanged(name, top, mode);
      if (s === " " && !showAll && !important) {
        hidden++;
        continue;
      }
      const at = path === "" ? name : `${path}.${name}`;
      const text = d.lines(indent, false, showAll || important);
      text[0] = `${text[0]!}${forces.has(at) || forces.has(`.${name}`) ? forcesSuffix(p) : ""}`;
      rows.push({ sym: s, key: name, text });
      continue;
    }
    const diff = attrDiff(p, b, unknownAfter ? undefined : a, mode, unknownAfter, indent, legacy);
    if (diff === undefined) {
      // An empty string taken for null is still an attribute, unchanged (shown as null when it is an important one).
      if (isEmptyString(b0) || isEmptyString(a0)) {
        if (shownUnchanged(name, top, mode)) rows.push({ sym: " ", key: name, text: ["null"] });
        else hidden++;
      }
      continue;
    }
    if (diff.sym === " " && !showAll && !shownUnchanged(name, top, mode)) {
      hidden++;
      continue;
    }
    const at = path === "" ? name : `${path}.${name}`;
    const suffix = forces.has(at) || forces.has(`.${name}`) ? forcesSuffix(p) : "";
    const text = [...diff.text];
    text[0] = `${text[0]}${suffix}`;
    const warn = diff.sym === "~" ? sensitivityWarning(p, b, unknownAfter ? undefined : a, indent) : [];
    rows.push({ sym: diff.sym, key: name, text, ...(warn.length > 0 ? { warn } : {}) });
  }
  // Terraform aligns on every attribute present on either side, shown or hidden (write-only ones always are).
  const present = Object.keys(block.attributes ?? {}).filter((name) => {
    if (block.attributes![name]!.writeOnly === true) return true;
    const b = get(before, name);
    const a = after.isNull() ? undefined : after.isKnown() ? after.getAttr(name) : undefined;
    return (b !== undefined && !b.isNull()) || (a !== undefined && (!a.isKnown() || !a.isNull())) || (!after.isNull() && !after.isKnown());
  });
  const width = Math.max(0, ...present.map((k) => k.length), ...rows.map((r) => r.key.length));
  const out: string[] = [];
  for (const r of rows) {
    const [first, ...rest] = r.text;
    out.push(...(r.warn ?? []), `${pad(indent)}${sym(p, r.sym)} ${r.key.padEnd(width)} = ${first}`, ...rest);
  }
  if (hidden > 0) out.push(`${pad(indent + 2)}${hiddenNote(p, hidden, "attribute")}`);
  const blockLines: string[] = [];
  let hiddenBlocks = 0;
  for (const name of Object.keys(block.blockTypes ?? {}).sort()) {
    const nb = block.blockTypes![name]!;
    const r = nestedBlocks(p, name, nb, get(before, name), after.isKnown() ? get(after, name) : undefined, indent, mode, forces, path === "" ? name : `${path}.${name}`, nonLegacy, showAll);
    // Terraform puts a blank line before each group of shown blocks of one type when the
    // block has attributes (its renderer's `foundChangedBlock`).
    if (r.lines.length > 0 && present.length > 0) blockLines.push("");
    blockLines.push(...r.lines);
    hiddenBlocks += r.hidden;
  }
  out.push(...blockLines);
  if (hiddenBlocks > 0) out.push("", `${pad(indent + 2)}${hiddenNote(p, hiddenBlocks, "block")}`);
  return out;
}

/**
 * A write-only attribute's row in a block (Terraform's `computeDiffForWriteOnlyAttribute`):
 * shown whatever its value, with the block's own action — created or deleted with the
 * block, unchanged (so hidden) in an update — and `# forces replacement` when the block is
 * what forces it.
 */
function writeOnlyRow(p: Paint, mode: Mode, forcesBlock: boolean): { sym: string; text: string[] } {
  const sym = mode === "create" ? "+" : mode === "delete" ? "-" : " ";
  return { sym, text: [`(write-only attribute)${sym === "-" ? nullSuffix(p) : ""}${forcesBlock ? forcesSuffix(p) : ""}`] };
}

function nestedBlocks(p: Paint, name: string, nb: NestedBlock, before: Value | undefined, after: Value | undefined, indent: number, mode: Mode, forces: ReadonlySet<string>, path: string, nonLegacy: boolean, showAll: boolean): { lines: string[]; hidden: number } {
  const items = (v: Value | undefined): [string, Value][] => {
    if (v === undefined || v.isNull() || !v.isKnown()) return [];
    if (nb.nesting === "single" || nb.nesting === "group") return [["", v]];
    if (nb.nesting === "map") return [...(v.type.kind === "map" ? v.entries() : Object.entries(v.attributes()))].map(([k, e]) => [` ${JSON.stringify(k)}`, e]);
    return v.elements().map((e) => ["", e]);
  };
  const bs = items(before);
  const as = items(after);
  const lines: string[] = [];
  let hidden = 0;
  const suffix = forces.has(path) ? forcesSuffix(p) : "";
  const emit = (s: string, label: string, b: Value, a: Value, m: Mode) => {
    // Single blocks inherit the parent's schema kind; list, set and map elements do not (Terraform's ChangeSlice).
    const inherited = nonLegacy && (nb.nesting === "single" || nb.nesting === "group");
    if (isEmptyBlock(nb.block, b, a)) lines.push(`${pad(indent)}${sym(p, s)} ${name}${label} {}${suffix}`);
    else lines.push(`${pad(indent)}${sym(p, s)} ${name}${label} {${suffix}`, ...blockBody(p, nb.block, b, a, indent + 4, m, forces, path, false, inherited, showAll), `${pad(indent + 2)}}`);
  };
  const none = (v: Value) => v.isNull();
  if (mode === "create") {
    // Blocks the provider left unknown as a whole (Terraform's UnknownBlocks): one line.
    if (after !== undefined && !after.isKnown()) lines.push(`${pad(indent)}${sym(p, "+")} ${name} (known after apply)`);
    for (const [label, a] of as) emit("+", label, nullOf(a), a, "create");
    return { lines, hidden };
  }
  if (mode === "delete") {
    for (const [label, b] of bs) emit("-", label, b, nullOf(b), "delete");
    return { lines, hidden };
  }
  if (nb.nesting === "set") {
    for (const [label, b] of bs) if (!as.some(([, a]) => a.rawEquals(b))) emit("-", label, b, nullOf(b), "delete");
    for (const [label, a] of as) {
      if (!bs.some(([, b]) => b.rawEquals(a))) emit("+", label, nullOf(a), a, "create");
      else if (showAll) emit(" ", label, a, a, "update");
      else hidden++;
    }
    return { lines, hidden };
  }
  const n = Math.max(bs.length, as.length);
  for (let i = 0; i < n; i++) {
    const b = bs[i];
    const a = as[i];
    if (b === undefined && a !== undefined) emit("+", a[0], nullOf(a[1]), a[1], "create");
    else if (a === undefined && b !== undefined) emit("-", b[0], b[1], nullOf(b[1]), "delete");
    else if (a !== undefined && b !== undefined) {
      if (!none(a[1]) && a[1].isWhollyKnown() && a[1].rawEquals(b[1])) {
        if (showAll) emit(" ", a[0], b[1], a[1], "update");
        else hidden++;
      }
      else emit("~", a[0], b[1], a[1], "update");
    }
  }
  return { lines, hidden };
}

/**
 * Whether a nested block renders as `{}` (Terraform's block renderer with no attributes and
 * no nested blocks): every attribute null on both sides and none write-only, every nested
 * block type null on both sides (an empty list of blocks is not: `step {` … `}`).
 */
function isEmptyBlock(block: Block, b: Value, a: Value): boolean {
  if (!b.isKnown() || !a.isKnown()) return false;
  const absent = (v: Value, name: string): boolean => v.isNull() || (v.getAttr(name).isKnown() && v.getAttr(name).isNull());
  for (const [name, attr] of Object.entries(block.attributes ?? {})) {
    if (attr.writeOnly === true || !absent(b, name) || !absent(a, name)) return false;
  }
  for (const name of Object.keys(block.blockTypes ?? {})) if (!absent(b, name) || !absent(a, name)) return false;
  return true;
}

/** A null of the same type: the other side of a created or deleted block. */
function nullOf(v: Value): Value {
  return nullVal(v.type);
}

/** The diff of one attribute: its symbol and the text after `key = ` (continuation lines complete). */
function attrDiff(p: Paint, b: Value | undefined, a: Value | undefined, mode: Mode, unknownAfter: boolean, indent: number, legacy: boolean): { sym: string; text: string[] } | undefined {
  const bx = b === undefined || b.isNull() ? undefined : b;
  const ax = a === undefined || (a.isKnown() && a.isNull()) ? undefined : a;
  if (mode === "create" || (bx === undefined && (ax !== undefined || unknownAfter))) {
    if (ax === undefined && !unknownAfter) return undefined;
    return { sym: "+", text: attributeDiff(p, indent, undefined, ax, "create", legacy) ?? ["(known after apply)"] };
  }
  if (mode === "delete" || (ax === undefined && !unknownAfter)) {
    if (bx === undefined) return undefined;
    return { sym: "-", text: attributeDiff(p, indent, bx, undefined, "delete", legacy) ?? [] };
  }
  if (bx === undefined && ax === undefined) return undefined;
  const text = attributeDiff(p, indent, bx, ax, "update", legacy);
  if (text === undefined) return { sym: " ", text: render(p, bx!, indent, " ", legacy) };
  return { sym: "~", text };
}

/** A known, non-sensitive empty string. */
function isEmptyString(v: Value | undefined): boolean {
  return v !== undefined && v.isKnown() && !v.isNull() && v.type.kind === "string" && !isSensitive(v) && v.asString() === "";
}

/**
 * Whether a schema block has what the legacy SDK could not declare (Terraform's
 * `containsNonLegacyFeatures`): map or group blocks, nested attribute types, dynamic, tuple
 * or object types, collections of non-primitive collections.
 */
function containsNonLegacyFeatures(block: Block): boolean {
  if (Object.values(block.blockTypes ?? {}).some((nb) => nb.nesting === "map" || nb.nesting === "group")) return true;
  for (const a of Object.values(block.attributes ?? {})) {
    if (a.nestedType !== undefined || a.type === undefined) return true;
    if (hasDynamicTypes(a.type) || a.type.kind === "tuple" || a.type.kind === "object") return true;
    if (a.type.kind === "list" || a.type.kind === "set" || a.type.kind === "map") {
      const e = a.type.element;
      if ((e.kind === "list" || e.kind === "set" || e.kind === "map") && !["string", "number", "bool"].includes(e.element.kind)) return true;
    }
  }
  return false;
}

function isSensitive(v: Value | undefined): boolean {
  return v !== undefined && v.isMarked(Mark.Sensitive);
}

/**
 * Terraform's warning above an updated value whose sensitivity changes (its sensitive
 * renderer's `WarningsHuman`; none on create or delete), at the row's indentation: the lines
 * before its `~` row.
 */
function sensitivityWarning(p: Paint, b: Value | undefined, a: Value | undefined, indent: number): string[] {
  if (b === undefined || a === undefined || isSensitive(b) === isSensitive(a)) return [];
  return isSensitive(b)
    ? [p(`${pad(indent)}# [yellow]Warning[reset]: this attribute value will no longer be marked as sensitive`), `${pad(indent)}# after applying this change.`]
    : [p(`${pad(indent)}# [yellow]Warning[reset]: this attribute value will be marked as sensitive and will not`), `${pad(indent)}# display in UI output after applying this change.`];
}

function isCollection(v: Value): boolean {
  return v.isKnown() && !v.isNull() && ["map", "object", "list", "set", "tuple"].includes(v.type.kind);
}

function scalar(p: Paint, v: Value): string {
  if (isSensitive(v)) return "(sensitive value)";
  if (!v.isKnown()) return "(known after apply)";
  if (v.isNull()) return p("[dark_gray]null[reset]");
  switch (v.type.kind) {
    case "string":
      return JSON.stringify(v.asString());
    case "number":
      return v.asNumber().toString();
    case "bool":
      return String(v.asBool());
    default:
      return isCollection(v) && v.length() === 0 ? (["map", "object"].includes(v.type.kind) ? "{}" : "[]") : v.toString();
  }
}

/**
 * A whole value (created, deleted or unchanged) at `indent`, collections over several lines.
 * With `legacy`, an object's empty strings are taken for null (Terraform's renderer for
 * legacy SDK schemas): counted as unchanged attributes, not shown. With `json`, the value is
 * shown as Terraform's renderer shows an output value, from its JSON form
 * (`renderers.RendererJsonOpts`): maps and objects alike as objects (keys quoted only when
 * not identifiers), sets, lists and tuples alike as lists, and an object's null attributes
 * shown (`+ a = null`: a JSON key present with null is an explicit value).
 */
function render(p: Paint, v: Value, indent: number, s: string, legacy: boolean, json = false): string[] {
  const text = isSensitive(v) ? undefined : heredocLines(v);
  if (text !== undefined) return heredoc(text.map((l) => `${pad(indent + 6)}${l}`), indent);
  if ((s === "+" || s === "-") && !isSensitive(v) && v.isKnown() && !v.isNull() && v.type.kind === "string" && isJsonText(v.asString())) {
    return jsonencodeLines(p, JSON.parse(v.asString()) as unknown, indent, s);
  }
  if (isSensitive(v) || !isCollection(v) || v.length() === 0) return [scalar(p, v)];
  const mapLike = v.type.kind === "map" || v.type.kind === "object";
  const lines = [mapLike ? "{" : "["];
  if (mapLike) {
    const all = v.type.kind === "map" ? [...v.entries()] : Object.entries(v.attributes()).filter(([, e]) => json || !e.isNull() || isWriteOnly(e));
    const blank = s !== " " && legacy && v.type.kind === "object";
    const entries = blank ? all.filter(([, e]) => !isEmptyString(e)) : all;
    const hidden = all.length - entries.length;
    const keyOf = (k: string) => (v.type.kind === "map" && !json ? JSON.stringify(k) : attrKey(k));
    const w = Math.max(...all.map(([k]) => keyOf(k).length));
    for (const [k, e] of entries) {
      if (isWriteOnly(e)) {
        lines.push(`${pad(indent + 4)}${sym(p, s)} ${keyOf(k).padEnd(w)} = ${writeOnlyText(p, e, s === "-")}`);
        continue;
      }
      const [first, ...rest] = render(p, e, indent + 4, s, legacy, json);
      lines.push(`${pad(indent + 4)}${sym(p, s)} ${keyOf(k).padEnd(w)} = ${first}`, ...rest);
    }
    if (hidden > 0) lines.push(`${pad(indent + 4)}  ${hiddenNote(p, hidden, "attribute")}`);
  } else {
    // Elements of lists and sets are rendered as legacy values (Terraform's ChangeSlice drops the schema kind).
    for (const e of v.elements()) {
      const [first, ...rest] = render(p, e, indent + 4, s, !json, json);
      lines.push(`${pad(indent + 4)}${sym(p, s)} ${first}${rest.length === 0 ? "," : ""}`, ...rest);
      if (rest.length > 0) lines[lines.length - 1] = `${lines[lines.length - 1]},`;
    }
  }
  lines.push(`${pad(indent + 2)}${mapLike ? "}" : "]"}`);
  return lines;
}

/**
 * The text after `key = ` of one value's change, `undefined` when nothing changes (or, on
 * create, when the value is unknown).
 */
function attributeDiff(p: Paint, indent: number, b: Value | undefined, a: Value | undefined, mode: Mode, legacy: boolean, json = false): string[] | undefined {
  if (mode === "create") {
    // A sensitive value is "(sensitive value)" even while unknown.
    if (a !== undefined && isSensitive(a)) return ["(sensitive value)"];
    if (a === undefined || !a.isKnown()) return undefined;
    return render(p, a, indent, "+", legacy, json);
  }
  if (mode === "delete") {
    if (b === undefined) return undefined;
    const lines = render(p, b, indent, "-", legacy, json);
    lines[lines.length - 1] = `${lines[lines.length - 1]}${nullSuffix(p)}`;
    return lines;
  }
  if (b === undefined && a === undefined) return undefined;
  if (b === undefined) return a!.isKnown() ? render(p, a!, indent, "+", legacy, json) : ["(known after apply)"];
  if (a === undefined) {
    const lines = render(p, b, indent, "-", legacy, json);
    lines[lines.length - 1] = `${lines[lines.length - 1]}${nullSuffix(p)}`;
    return lines;
  }
  if (isSensitive(a) || isSensitive(b)) {
    const same = a.isKnown() && a.unmarkDeep().value.rawEquals(b.unmarkDeep().value) && isSensitive(a) === isSensitive(b);
    return same ? undefined : ["(sensitive value)"];
  }
  if (!a.isKnown()) {
    const lines = render(p, b, indent, "-", legacy, json);
    lines[lines.length - 1] = `${lines[lines.length - 1]} -> (known after apply)`;
    return lines;
  }
  if (a.rawEquals(b)) return undefined;
  const jsonText = jsonStringsDiff(p, b, a, indent);
  if (jsonText !== undefined) return jsonText;
  const lines = stringLinesDiff(p, b, a, indent);
  if (lines !== undefined) return lines;
  // One side JSON, the other not (null included): Terraform's type change of a deleted and a created string.
  const jsonOf = (v: Value): unknown => (v.type.kind === "string" && !v.isNull() && isJsonText(v.asString()) ? (JSON.parse(v.asString()) as unknown) : undefined);
  const bj = jsonOf(b);
  const aj = jsonOf(a);
  if (a.type.kind === "string" && b.type.kind === "string" && (bj === undefined) !== (aj === undefined)) {
    const before = bj === undefined ? [scalar(p, b)] : jsonencodeLines(p, bj, indent, "-");
    const after = aj === undefined ? [scalar(p, a)] : jsonencodeLines(p, aj, indent, "+");
    return [...before.slice(0, -1), `${before[before.length - 1]!} ${p("[yellow]->[reset]")} ${after[0]!}`, ...after.slice(1)];
  }
  if (isCollection(a) && isCollection(b) && ["map", "object"].includes(a.type.kind) === ["map", "object"].includes(b.type.kind)) return collectionDiff(p, b, a, indent, legacy, json);
  return [`${scalar(p, b)} ${p("[yellow]->[reset]")} ${scalar(p, a)}`];
}

function collectionDiff(p: Paint, b: Value, a: Value, indent: number, legacy: boolean, json = false): string[] {
  const mapLike = a.type.kind === "map" || a.type.kind === "object";
  const lines = [mapLike ? "{" : "["];
  let hidden = 0;
  if (mapLike) {
    const be = new Map(b.type.kind === "map" ? [...b.entries()] : Object.entries(b.attributes()));
    const ae = new Map(a.type.kind === "map" ? [...a.entries()] : Object.entries(a.attributes()));
    const keys = [...new Set([...be.keys(), ...ae.keys()])].sort();
    const keyOf = (k: string) => (a.type.kind === "map" && !json ? JSON.stringify(k) : attrKey(k));
    // In an output's JSON a key present on both sides is explicit, for objects too.
    const explicit = a.type.kind === "map" || json;
    const rows: [string, string, string[], string[]?][] = [];
    // Write-only attributes of a nested object that is updated are unchanged (hidden), but aligned on.
    const writeOnlyKeys: string[] = [];
    for (const k of keys) {
      const bv = be.get(k);
      const av = ae.get(k);
      if (isWriteOnly(bv) || isWriteOnly(av)) {
        writeOnlyKeys.push(k);
        hidden++;
        continue;
      }
      // A map's key present on both sides is an update, also to or from null (Terraform's explicit map keys).
      if (explicit && bv !== undefined && av !== undefined && (bv.isNull() || (av.isKnown() && av.isNull()))) {
        const d = attributeDiff(p, indent + 4, bv, av, "update", legacy, json);
        if (d === undefined) hidden++;
        else rows.push(["~", k, d, sensitivityWarning(p, bv, av, indent + 4)]);
        continue;
      }
      const blank = legacy && a.type.kind === "object";
      const bx = bv === undefined || bv.isNull() || (blank && isEmptyString(bv)) ? undefined : bv;
      const ax = av === undefined || (av.isKnown() && av.isNull()) || (blank && isEmptyString(av)) ? undefined : av;
      if (bx === undefined && ax === undefined) {
        if (isEmptyString(bv) || isEmptyString(av)) hidden++;
        continue;
      }
      if (bx === undefined) rows.push(["+", k, ax!.isKnown() ? render(p, ax!, indent + 4, "+", legacy, json) : ["(known after apply)"]]);
      else if (ax === undefined) rows.push(["-", k, [...render(p, bx, indent + 4, "-", legacy, json).slice(0, -1), `${render(p, bx, indent + 4, "-", legacy, json).slice(-1)[0]!}${nullSuffix(p)}`]]);
      else {
        const d = attributeDiff(p, indent + 4, bx, ax, "update", legacy, json);
        if (d === undefined) hidden++;
        else rows.push(["~", k, d, sensitivityWarning(p, bx, ax, indent + 4)]);
      }
    }
    // Terraform aligns on every key present on either side (an object's attributes null on both sides aside), shown or hidden.
    const present = keys.filter((k) => explicit || !((be.get(k)?.isNull() ?? true) && (ae.get(k)?.isNull() ?? true)));
    const w = Math.max(0, ...present.map((k) => keyOf(k).length), ...writeOnlyKeys.map((k) => keyOf(k).length));
    for (const [s, k, [first, ...rest], warn] of rows) lines.push(...(warn ?? []), `${pad(indent + 4)}${sym(p, s)} ${keyOf(k).padEnd(w)} = ${first!}`, ...rest);
  } else {
    const elements = sequenceDiff(p, b.elements(), a.elements(), a.type.kind === "set" && !json, indent + 4, json);
    const hiddenLine = (n: number) => `${pad(indent + 4)}  ${hiddenNote(p, n, "element")}`;
    elements.forEach((e, i) => {
      if (e.sym === " ") {
        const context = (i > 0 && elements[i - 1]!.sym !== " ") || (i < elements.length - 1 && elements[i + 1]!.sym !== " ");
        if (!context) {
          hidden++;
          return;
        }
      }
      if (hidden > 0) lines.push(hiddenLine(hidden));
      hidden = 0;
      const [first, ...rest] = e.text;
      lines.push(...(e.warn ?? []), `${pad(indent + 4)}${sym(p, e.sym)} ${first!}${rest.length === 0 ? "," : ""}`, ...rest);
      if (rest.length > 0) lines[lines.length - 1] = `${lines[lines.length - 1]},`;
    });
  }
  // Terraform's object renderers count attributes, its map, list and set renderers elements.
  if (hidden > 0) lines.push(`${pad(indent + 4)}  ${hiddenNote(p, hidden, a.type.kind === "object" || (json && mapLike) ? "attribute" : "element")}`);
  lines.push(`${pad(indent + 2)}${mapLike ? "}" : "]"}`);
  return lines;
}

/**
 * The elements of a list (or set) change as Terraform's renderer lines them up: along the
 * longest common subsequence, an element removed where another is added at the same place
 * shown as one change, the rest as removed, added or unchanged.
 */
function sequenceDiff(p: Paint, before: readonly Value[], after: readonly Value[], isSet: boolean, indent: number, json = false): { sym: string; text: string[]; warn?: string[] }[] {
  const out: { sym: string; text: string[]; warn?: string[] }[] = [];
  const common = lcs(before, after);
  let bi = 0;
  let ai = 0;
  let ci = 0;
  const eq = (x: Value, y: Value | undefined) => y !== undefined && x.rawEquals(y);
  // A multi-line string element is a heredoc; any other is one line.
  const element = (v: Value): string[] => (!isSensitive(v) && heredocLines(v) !== undefined ? render(p, v, indent, " ", !json, json) : [scalar(p, v)]);
  // As Terraform's ProcessSlice: element by element when both have as many and it is not a reordering.
  if (!isSet && before.length === after.length && !before.every((b) => after.some((a) => a.rawEquals(b)))) {
    return before.map((b, i) => {
      const d = attributeDiff(p, indent, b, after[i]!, "update", !json, json);
      return d === undefined ? { sym: " ", text: element(b) } : { sym: "~", text: d, warn: sensitivityWarning(p, b, after[i]!, indent) };
    });
  }
  while (bi < before.length || ai < after.length || ci < common.length) {
    while (bi < before.length && (ci >= common.length || !eq(before[bi]!, common[ci]))) {
      // Off the common subsequence, objects at the same place are one change; other elements are removed and added.
      const objects = before[bi]!.type.kind === "object" && ai < after.length && after[ai]!.type.kind === "object";
      if (!isSet && objects && (ci >= common.length || !eq(after[ai]!, common[ci]))) {
        out.push({ sym: "~", text: attributeDiff(p, indent, before[bi]!, after[ai]!, "update", !json, json) ?? [scalar(p, after[ai]!)], warn: sensitivityWarning(p, before[bi]!, after[ai]!, indent) });
        bi++;
        ai++;
        continue;
      }
      out.push({ sym: "-", text: element(before[bi]!) });
      bi++;
    }
    while (ai < after.length && (ci >= common.length || !eq(after[ai]!, common[ci]))) {
      out.push({ sym: "+", text: element(after[ai]!) });
      ai++;
    }
    if (ci < common.length) {
      out.push({ sym: " ", text: element(after[ai]!) });
      bi++;
      ai++;
      ci++;
    }
  }
  return out;
}

/** The longest common subsequence of two value sequences (by raw equality). */
function lcs(xs: readonly Value[], ys: readonly Value[]): Value[] {
  const n = xs.length;
  const m = ys.length;
  const c: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) c[i]![j] = xs[i]!.rawEquals(ys[j]!) ? c[i + 1]![j + 1]! + 1 : Math.max(c[i + 1]![j]!, c[i]![j + 1]!);
  const out: Value[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (xs[i]!.rawEquals(ys[j]!)) {
      out.push(xs[i]!);
      i++;
      j++;
    } else if (c[i + 1]![j]! >= c[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/**
 * The lines of a string Terraform's renderer shows as a heredoc (its `evaluatePrimitiveString`):
 * a known string holding a newline, trimmed of surrounding white space; undefined for any
 * other value, and for JSON text (an object or array), which Terraform renders as JSON.
 */
function heredocLines(v: Value): string[] | undefined {
  if (!v.isKnown() || v.isNull() || v.type.kind !== "string") return undefined;
  const s = v.asString();
  if (isJsonText(s) || !s.includes("\n")) return undefined;
  return s.trim().split("\n");
}

/** Whether Terraform's renderer reads a string as JSON: it starts with `{` or `[` and is one JSON value. */
function isJsonText(s: string): boolean {
  if (!s.startsWith("{") && !s.startsWith("[")) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * A created or deleted string holding JSON, as Terraform's renderer shows it
 * (`renderStringDiffAsJson`): `jsonencode(` with the JSON value as HCL-like objects and lists
 * on the following lines (keys sorted, each entry marked `s`; the diff symbol itself is not
 * shown before the value), `)` closing at `indent + 2`; `jsonencode({})` when it fits one line.
 * Updates of JSON strings: {@link jsonStringsDiff}.
 */
function jsonencodeLines(p: Paint, json: unknown, indent: number, s: string): string[] {
  const [first, ...rest] = jsonLines(p, json, indent + 4, s);
  if (rest.length === 0) return [`jsonencode(${first!})`];
  return ["jsonencode(", `${pad(indent + 6)}${first!}`, ...rest, `${pad(indent + 2)})`];
}

/**
 * An update between two strings that both hold JSON objects or arrays, as Terraform's
 * `renderStringDiffAsJson`: the structural diff of the JSON values (objects as objects with
 * sorted keys, arrays as lists, unchanged entries hidden) inside `jsonencode(` … `)`, the
 * value's line marked `~`. Undefined when either is not such a string, or when the JSON is
 * the same (a whitespace change, which stays a string change here).
 */
function jsonStringsDiff(p: Paint, b: Value, a: Value, indent: number): string[] | undefined {
  const jsonOf = (v: Value): unknown => (v.type.kind === "string" && v.isKnown() && !v.isNull() && isJsonText(v.asString()) ? (JSON.parse(v.asString()) as unknown) : undefined);
  const bj = jsonOf(b);
  const aj = jsonOf(a);
  if (bj === undefined || aj === undefined) return undefined;
  const bv = jsonValue(bj);
  const av = jsonValue(aj);
  if (bv.rawEquals(av)) return undefined;
  const inner = attributeDiff(p, indent + 4, bv, av, "update", false);
  if (inner === undefined) return undefined;
  if (inner.length === 1) return [`jsonencode(${inner[0]!})`];
  return ["jsonencode(", `${pad(indent + 4)}${sym(p, "~")} ${inner[0]!}`, ...inner.slice(1), `${pad(indent + 2)})`];
}

/** A parsed JSON value as a value: objects as objects, arrays as tuples, null of no type. */
function jsonValue(j: unknown): Value {
  if (j === null) return nullVal(dynamicType);
  if (Array.isArray(j)) return tupleVal(j.map(jsonValue));
  if (typeof j === "object") return objectVal(Object.fromEntries(Object.entries(j as Record<string, unknown>).map(([k, v]) => [k, jsonValue(v)])));
  if (typeof j === "number") return numberVal(j);
  if (typeof j === "boolean") return boolVal(j);
  return stringVal(String(j));
}

/** One JSON value as Terraform's JSON renderer lays it out at `indent` (the first line unpadded). */
function jsonLines(p: Paint, j: unknown, indent: number, s: string): string[] {
  if (j === null) return [p("[dark_gray]null[reset]")];
  if (Array.isArray(j)) {
    if (j.length === 0) return ["[]"];
    const lines = ["["];
    for (const e of j as unknown[]) {
      const [first, ...rest] = jsonLines(p, e, indent + 4, s);
      lines.push(`${pad(indent + 4)}${sym(p, s)} ${first!}`, ...rest);
      lines[lines.length - 1] = `${lines[lines.length - 1]!},`;
    }
    lines.push(`${pad(indent + 2)}]`);
    return lines;
  }
  if (typeof j === "object") {
    const o = j as Record<string, unknown>;
    const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (keys.length === 0) return ["{}"];
    const w = Math.max(...keys.map((k) => attrKey(k).length));
    const lines = ["{"];
    for (const k of keys) {
      const [first, ...rest] = jsonLines(p, o[k], indent + 4, s);
      lines.push(`${pad(indent + 4)}${sym(p, s)} ${attrKey(k).padEnd(w)} = ${first!}`, ...rest);
    }
    lines.push(`${pad(indent + 2)}}`);
    return lines;
  }
  return [typeof j === "string" ? JSON.stringify(j) : String(j)];
}

/** A heredoc of body lines (already indented) whose `EOT` closes at `indent + 2`. */
function heredoc(body: readonly string[], indent: number): string[] {
  return ["<<-EOT", ...body, `${pad(indent + 2)}EOT`];
}

/**
 * A change between two strings of which one spans lines, as Terraform renders it: a heredoc
 * of the lines, those removed and added marked `-` and `+` (lined up along their longest
 * common subsequence, or pairwise when both have as many lines and are not a reordering).
 * Undefined when the change is not one between such strings.
 */
function stringLinesDiff(p: Paint, b: Value, a: Value, indent: number): string[] | undefined {
  // A null string is one line, Terraform's grey `null`.
  const text = (v: Value): string | undefined => (!v.isKnown() || v.type.kind !== "string" || isSensitive(v) ? undefined : v.isNull() ? p("[dark_gray]null[reset]") : v.asString());
  const bs = text(b);
  const as = text(a);
  if (bs === undefined || as === undefined || isJsonText(bs) || isJsonText(as)) return undefined;
  const bl = heredocLines(b);
  const al = heredocLines(a);
  if (bl === undefined && al === undefined) return undefined;
  const before = bl ?? [bs];
  const after = al ?? [as];
  const out: string[] = [];
  const line = (s: string, l: string): void => void out.push(s === " " ? `${pad(indent + 6)}${l}` : `${pad(indent + 4)}${sym(p, s)} ${l}`);
  eachLinePair(before, after, (bi, ai) => {
    if (bi >= before.length) line("+", after[ai]!);
    else if (ai >= after.length) line("-", before[bi]!);
    else if (before[bi] !== after[ai]) {
      line("-", before[bi]!);
      line("+", after[ai]!);
    } else line(" ", before[bi]!);
  });
  return heredoc(out, indent);
}

/**
 * Terraform's `collections.ProcessSlice` over lines: pairs of indices (an index past the end
 * for a line only on the other side). Pairwise when both have as many lines and some line of
 * `before` is not in `after` (not a reordering); else along the longest common subsequence,
 * each line off it removed or added.
 */
function eachLinePair(before: readonly string[], after: readonly string[], visit: (bi: number, ai: number) => void): void {
  if (before.length === after.length && !before.every((b) => after.includes(b))) {
    for (let i = 0; i < before.length; i++) visit(i, i);
    return;
  }
  const common = lcsOf(before, after);
  let bi = 0;
  let ai = 0;
  let ci = 0;
  while (bi < before.length || ai < after.length || ci < common.length) {
    while (bi < before.length && (ci >= common.length || before[bi] !== common[ci])) visit(bi++, after.length);
    while (ai < after.length && (ci >= common.length || after[ai] !== common[ci])) visit(before.length, ai++);
    if (ci < common.length) {
      visit(bi++, ai++);
      ci++;
    }
  }
}

/** The longest common subsequence of two string lists, with the ties Terraform's `objchange.LongestCommonSubsequence` breaks. */
function lcsOf(xs: readonly string[], ys: readonly string[]): string[] {
  if (xs.length === 0 || ys.length === 0) return [];
  const w = xs.length;
  const c = new Array<number>(xs.length * ys.length).fill(0);
  const at = (x: number, y: number): number => c[w * y + x]!;
  for (let y = 0; y < ys.length; y++) {
    for (let x = 0; x < xs.length; x++) {
      if (xs[x] === ys[y]) c[w * y + x] = x === 0 || y === 0 ? 1 : at(x - 1, y - 1) + 1;
      else c[w * y + x] = Math.max(x > 0 ? at(x - 1, y) : 0, y > 0 ? at(x, y - 1) : 0);
    }
  }
  const seq = new Array<string>(c[c.length - 1]!);
  let x = xs.length - 1;
  let y = ys.length - 1;
  let i = seq.length - 1;
  while (x > -1 && y > -1) {
    if (xs[x] === ys[y]) {
      seq[i--] = xs[x]!;
      x--;
      y--;
    } else if ((x > 0 ? at(x - 1, y) : 0) > (y > 0 ? at(x, y - 1) : 0)) x--;
    else y--;
  }
  return seq;
}

/** The action of one change in Terraform's renderer (its `plans.Action` for a value). */
type DiffAction = "create" | "delete" | "update" | "noop";

const DIFF_SYMBOL: Readonly<Record<DiffAction, string>> = { create: "+", delete: "-", update: "~", noop: " " };

/**
 * One value's diff inside a nested attribute type (Terraform's `computed.Diff`): its action,
 * and its text after `key = ` (or after an element's symbol) with `indent` the column of the
 * row's symbol; `overrideNull` drops the ` -> null` of a deleted value (its
 * `OverrideNullSuffix`), `showAll` shows unchanged children.
 */
interface NestedDiff {
  readonly action: DiffAction;
  /** Rendered by Terraform's object renderer (a nested map puts a comma after those). */
  readonly isObject: boolean;
  readonly lines: (indent: number, overrideNull: boolean, showAll: boolean) => string[];
}

/** Terraform's `CompareActions`: the action of a collection after one more child. */
function compareActions(current: DiffAction, next: DiffAction): DiffAction {
  if (next === "noop") return current;
  return current !== next ? "update" : current;
}

/** Terraform's `GetDefaultActionForIteration` (undefined for null). */
function iterationAction(b: Value | undefined, a: Value | undefined): DiffAction {
  if (b === undefined && a === undefined) return "noop";
  if (b === undefined) return "create";
  if (a === undefined) return "delete";
  return "noop";
}

/** A null value as undefined (unknown values kept). */
function nonNull(v: Value | undefined): Value | undefined {
  return v === undefined || (v.isKnown() && v.isNull()) ? undefined : v;
}

/**
 * The diff of an attribute with a nested attribute type (Terraform's
 * `computeDiffForNestedAttribute`): objects whose attributes are diffed by their schema, their
 * deleted values with ` -> null`; lists by index, sets by equal elements, maps by key, each
 * element an object; an object becoming unknown shows each of its attributes becoming unknown.
 * `b` and `a` are the values before and after (undefined for null; `a` may be unknown); the
 * caller handles a value sensitive as a whole.
 */
function nestedAttributeDiff(p: Paint, nt: NestedAttributeType, b: Value | undefined, a: Value | undefined): NestedDiff {
  if (a !== undefined && !a.isKnown()) {
    if (b === undefined) return { action: "create", isObject: false, lines: () => ["(known after apply)"] };
    // Terraform's unknown renderer over the value before, deleted, with each attribute of an object unknown.
    const before =
      nt.nesting === "single"
        ? nestedObjectDiff(p, nt.attributes, b, b.type.kind === "object" ? objectVal(Object.fromEntries(Object.entries(b.type.attributes).map(([k, t]) => [k, unknownVal(t)]))) : undefined)
        : nestedAttributeDiff(p, nt, b, undefined);
    return {
      action: "update",
      isObject: false,
      lines: (indent, _overrideNull, showAll) => {
        const l = before.lines(indent, true, showAll);
        l[l.length - 1] = `${l[l.length - 1]!} -> (known after apply)`;
        return l;
      },
    };
  }
  const single = (x: Value | undefined, y: Value | undefined): NestedDiff => nestedObjectDiff(p, nt.attributes, x, y);
  switch (nt.nesting) {
    case "list": {
      const bs = b?.elements() ?? [];
      const as = a?.elements() ?? [];
      const elements: NestedDiff[] = [];
      for (let i = 0; i < Math.max(bs.length, as.length); i++) elements.push(single(nonNull(bs[i]), nonNull(as[i])));
      return nestedElements(p, iterationAction(b, a), elements.map((d) => ["", d]), "[", "]");
    }
    case "set": {
      const bs = b?.elements() ?? [];
      const as = a?.elements() ?? [];
      const matched = new Set<number>();
      const elements: NestedDiff[] = [];
      for (const e of bs) {
        const j = as.findIndex((x, k) => !matched.has(k) && e.isWhollyKnown() && x.isWhollyKnown() && x.rawEquals(e));
        if (j >= 0) matched.add(j);
        elements.push(single(nonNull(e), j >= 0 ? nonNull(as[j]) : undefined));
      }
      as.forEach((x, k) => {
        if (!matched.has(k)) elements.push(single(undefined, nonNull(x)));
      });
      return nestedElements(p, iterationAction(b, a), elements.map((d) => ["", d]), "[", "]");
    }
    case "map": {
      const entries = (v: Value | undefined): Map<string, Value> => new Map(v === undefined ? [] : v.type.kind === "map" ? [...v.entries()] : Object.entries(v.attributes()));
      const be = entries(b);
      const ae = entries(a);
      const keys = [...new Set([...be.keys(), ...ae.keys()])].sort();
      return nestedElements(p, iterationAction(b, a), keys.map((k) => [`${JSON.stringify(k)} = `, single(nonNull(be.get(k)), nonNull(ae.get(k)))]), "{", "}");
    }
    default:
      return single(b, a);
  }
}

/** Terraform's nested list, set and map renderers: the changed elements (each labelled), then the count of those unchanged. */
function nestedElements(p: Paint, initial: DiffAction, elements: readonly (readonly [string, NestedDiff])[], open: string, close: string): NestedDiff {
  const action = elements.reduce((acc, [, d]) => compareActions(acc, d.action), initial);
  const map = open === "{";
  return {
    action,
    isObject: false,
    lines: (indent, overrideNull, showAll) => {
      const suffix = action === "delete" && !overrideNull ? nullSuffix(p) : "";
      if (elements.length === 0) return [`${open}${close}${suffix}`];
      const out = [open];
      let hidden = 0;
      for (const [label, d] of elements) {
        if (d.action === "noop" && !showAll) {
          hidden++;
          continue;
        }
        const [first, ...rest] = d.lines(indent + 4, true, showAll);
        out.push(`${pad(indent + 4)}${sym(p, DIFF_SYMBOL[d.action])} ${label}${first!}`, ...rest);
        // lists and sets put a comma after every element, maps after objects only
        if (!map || d.isObject) out[out.length - 1] = `${out[out.length - 1]!},`;
      }
      if (hidden > 0) out.push(`${pad(indent + 4)}  ${hiddenNote(p, hidden, "element")}`);
      out.push(`${pad(indent + 2)}${close}${suffix}`);
      return out;
    },
  };
}

/** Terraform's nested object (`computeAttributeDiffAsNestedObject` and its object renderer without the null-suffix override). */
function nestedObjectDiff(p: Paint, attributes: Readonly<Record<string, Attribute>>, b: Value | undefined, a: Value | undefined): NestedDiff {
  const child = (v: Value | undefined, name: string): Value | undefined => (v === undefined || v.type.kind !== "object" || !Object.hasOwn(v.type.attributes, name) ? undefined : nonNull(v.getAttr(name)));
  let action = iterationAction(b, a);
  const rows: { key: string; diff: NestedDiff }[] = [];
  const writeOnly: string[] = [];
  for (const name of Object.keys(attributes)) {
    const attr = attributes[name]!;
    if (attr.writeOnly === true) {
      writeOnly.push(name);
      continue;
    }
    const bc = child(b, name);
    const ac = child(a, name);
    if (bc === undefined && ac === undefined) continue;
    const d = attr.nestedType !== undefined && !isSensitive(bc) && !isSensitive(ac) ? nestedAttributeDiff(p, attr.nestedType, bc, ac) : typedAttributeDiff(p, bc, ac);
    rows.push({ key: name, diff: d });
    action = compareActions(action, d.action);
  }
  for (const name of writeOnly) {
    // Terraform's write-only diff: the object's action, except that an update leaves it unchanged.
    const woAction: DiffAction = action === "update" ? "noop" : action;
    const v = (b !== undefined ? b : a)?.getAttr(name);
    rows.push({ key: name, diff: { action: woAction, isObject: false, lines: (_i, overrideNull) => [`${v !== undefined && isSensitive(v) ? "(sensitive, write-only attribute)" : "(write-only attribute)"}${woAction === "delete" && !overrideNull ? nullSuffix(p) : ""}`] } });
  }
  rows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return {
    action,
    isObject: true,
    lines: (indent, overrideNull, showAll) => {
      const suffix = action === "delete" && !overrideNull ? nullSuffix(p) : "";
      if (rows.length === 0) return [`{}${suffix}`];
      const width = Math.max(...rows.map((r) => attrKey(r.key).length));
      const out = ["{"];
      let hidden = 0;
      for (const { key, diff } of rows) {
        const important = IMPORTANT.has(key);
        if (!important && diff.action === "noop" && !showAll) {
          hidden++;
          continue;
        }
        const [first, ...rest] = diff.lines(indent + 4, false, showAll || important);
        out.push(`${pad(indent + 4)}${sym(p, DIFF_SYMBOL[diff.action])} ${attrKey(key).padEnd(width)} = ${first!}`, ...rest);
      }
      if (hidden > 0) out.push(`${pad(indent + 4)}  ${hiddenNote(p, hidden, "attribute")}`);
      out.push(`${pad(indent + 2)}}${suffix}`);
      return out;
    },
  };
}

/** The diff of an attribute of a cty type inside a nested object (Terraform's `ComputeDiffForType`: a deleted value with ` -> null`). */
function typedAttributeDiff(p: Paint, b: Value | undefined, a: Value | undefined): NestedDiff {
  let action: DiffAction;
  if (b === undefined) action = "create";
  else if (a === undefined) action = "delete";
  else if (!a.isKnown()) action = "update";
  else action = isSensitive(a) === isSensitive(b) && a.unmarkDeep().value.rawEquals(b.unmarkDeep().value) ? "noop" : "update";
  return {
    action,
    isObject: false,
    lines: (indent) => {
      if (action === "noop") return render(p, b!, indent, " ", false);
      return attrDiff(p, b, a, "update", false, indent, false)?.text ?? [];
    },
  };
}

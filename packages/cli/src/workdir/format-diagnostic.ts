import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { typeToJson } from "@magma/cty";
import type { CallSignatureParameter, Diagnostic, ExpressionValue, FunctionCallInfo, SourceRange } from "@magma/hcl";
import { paint, paintf } from "../colour.js";
import { DEFAULT_COLUMNS, wordWrap } from "../terminal-columns.js";
import { consolidateWarnings } from "./consolidate-warnings.js";
import { diagnosticRangeJson } from "./diagnostic-range-json.js";
import { jsonContext } from "./json-context.js";

/** Reads configuration sources once per file, for snippets. */
export class SourceCache {
  readonly #dir: string;
  readonly #files = new Map<string, string | undefined>();

  /**
   * Sources relative to `dir` (file names in diagnostics are relative to the working
   * directory); `synthetic` holds texts that are not files (`<stdin>`), as terraform's
   * `registerSynthConfigSource`.
   */
  constructor(dir: string, synthetic?: ReadonlyMap<string, string>) {
    this.#dir = dir;
    for (const [name, text] of synthetic ?? []) this.#files.set(name, text);
  }

  /** The file's text, or undefined when it cannot be read. */
  text(file: string): string | undefined {
    if (!this.#files.has(file)) {
      try {
        this.#files.set(file, readFileSync(resolve(this.#dir, file), "utf8"));
      } catch {
        this.#files.set(file, undefined);
      }
    }
    return this.#files.get(file);
  }
}

const HEADER = /^([A-Za-z_][\w-]*)((?:[ \t]+(?:"(?:[^"\\]|\\.)*"|[A-Za-z_][\w-]*))*)[ \t]*\{/;

/**
 * The header of the top-level block holding `line` (`resource "aws_x" "y"`), as HCL's
 * `ContextString` gives it for Terraform's snippets; undefined outside any block.
 */
export function blockContext(text: string, line: number): string | undefined {
  const lines = text.split("\n");
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (i < line - 1 && /^\}/.test(l)) return undefined;
    const m = HEADER.exec(l);
    if (m !== null) {
      const labels = m[2]!.trim() === "" ? [] : m[2]!.trim().split(/[ \t]+/);
      return [m[1]!, ...labels].join(" ");
    }
  }
  return undefined;
}

/**
 * A diagnostic with the object it is about, printed as Terraform prints one it elaborated
 * from an object's configuration: `  with aws_x.y,` before the location.
 */
export interface AddressedDiagnostic extends Diagnostic {
  /** The object's address (`aws_x.y[0]`). */
  readonly address?: string;
  /** From a `check` block (see {@link consolidateWarnings}: its warnings are never consolidated). */
  readonly fromCheckBlock?: boolean;
}

/** Terraform's snippet of a diagnostic's subject: the enclosing block, the subject's lines and the highlighted span in them. */
export interface Snippet {
  readonly context: string | null;
  readonly code: string;
  readonly start_line: number;
  readonly highlight_start_offset: number;
  readonly highlight_end_offset: number;
  /** The values of the failing expression's references (`{ traversal, statement }`). */
  readonly values: readonly ExpressionValue[];
  /** The failed function call (terraform's `DiagnosticFunctionCall`), when the diagnostic is about one. */
  readonly function_call?: FunctionCallJson;
}

/** A function call in a diagnostic's snippet, as terraform's `-json` writes it. */
export interface FunctionCallJson {
  readonly called_as: string;
  readonly signature?: {
    readonly name: string;
    readonly params: readonly FunctionParamJson[];
    readonly variadic_param?: FunctionParamJson;
    readonly return_type: unknown;
  };
}

/** One parameter of a {@link FunctionCallJson}'s signature. */
export interface FunctionParamJson {
  readonly name: string;
  readonly type: unknown;
}

function paramJson(p: CallSignatureParameter): FunctionParamJson {
  return { name: p.name, type: JSON.parse(typeToJson(p.type)) as unknown };
}

/** A diagnostic's function call as terraform's `-json` writes it (its `DescribeFunction`). */
export function functionCallJson(call: FunctionCallInfo): FunctionCallJson {
  const sig = call.signature;
  if (sig === undefined) return { called_as: call.calledAs };
  return {
    called_as: call.calledAs,
    signature: {
      name: sig.name,
      params: sig.params.map(paramJson),
      ...(sig.variadicParam !== undefined ? { variadic_param: paramJson(sig.variadicParam) } : {}),
      return_type: JSON.parse(typeToJson(sig.returnType)) as unknown,
    },
  };
}

/** The snippet of `subject` (undefined when its file cannot be read), with the failing expression's `values` and the failed `functionCall`. */
export function snippetOf(sources: SourceCache, subject: SourceRange, values: readonly ExpressionValue[] = [], functionCall?: FunctionCallInfo): Snippet | undefined {
  const text = sources.text(subject.filename);
  if (text === undefined) return undefined;
  // As terraform's, an empty range is widened by a byte so that the highlight is not empty.
  const highlightEnd = diagnosticRangeJson(subject).end.byte;
  const bytes = Buffer.from(text, "utf8");
  let lineStart = subject.start.byte;
  // Terraform's snippet holds the lines overlapping the subject widened to a byte, a line's
  // range ending before its "\r" or "\n": a subject at the end of a text whose last line ends
  // in a lone "\r" overlaps none, and the code is empty.
  if (lineStart >= bytes.length && bytes[bytes.length - 1] === 0x0d) lineStart = bytes.length;
  else while (lineStart > 0 && bytes[lineStart - 1] !== 0x0a) lineStart--;
  let lineEnd = Math.max(subject.end.byte, lineStart);
  while (lineEnd < bytes.length && bytes[lineEnd] !== 0x0a) lineEnd++;
  // A subject that ends at the end of a text ending in a newline has no line after it (terraform's line scanner yields none).
  let code = bytes.subarray(lineStart, lineEnd).toString("utf8");
  if (lineEnd === bytes.length) code = code.replace(/\r?\n$/, "");
  code = code.replace(/\r$/, "");
  return {
    // Terraform's context is the block around the byte before the subject: none for a
    // subject that starts at a top-level block's header (a variable's declaration); in a JSON
    // file, the path of properties and indexes to it (HCL's JSON navigation).
    context: subject.filename.endsWith(".json")
      ? (jsonContext(text, subject.start.byte - 1) ?? null)
      : subject.start.column === 1 && HEADER.test(code)
        ? null
        : (blockContext(text, subject.start.line) ?? null),
    code,
    start_line: subject.start.line,
    highlight_start_offset: subject.start.byte - lineStart,
    highlight_end_offset: Math.min(highlightEnd - lineStart, Buffer.byteLength(code)),
    values: values.map((v) => ({ traversal: v.traversal, statement: v.statement })),
    ...(functionCall !== undefined ? { function_call: functionCallJson(functionCall) } : {}),
  };
}

/**
 * Terraform's width for a stream that is not a terminal. Its details are word-wrapped
 * (go-wordwrap: no line longer than the limit) at `width - 1` without colour and, in colour,
 * at `width - 3` (room for the two-column left rule, less one), where `width` is the
 * terminal's width when the stream is one.
 */
const WIDTH = DEFAULT_COLUMNS;

/**
 * One diagnostic as Terraform prints it in colour (its `format.Diagnostic`): inside a red
 * (error) or yellow (warning) left rule `╷ │ ╵`, a bold `Error: ` and summary, the location,
 * the source lines with the subject underlined, and the detail wrapped inside the rule.
 */
function boxed(d: AddressedDiagnostic, sources: SourceCache, addresses: boolean, width: number): string {
  const c = d.severity === "error" ? "red" : "yellow";
  const [boldOpen, boldClose] = paint(true, "[bold]%s[reset]\n\n").split("%s") as [string, string];
  let body = `${paint(true, `[bold][${c}]${d.severity === "error" ? "Error" : "Warning"}: [reset]`)}${boldOpen}${d.summary}${boldClose}`;
  if (addresses && d.address !== undefined) body += `  with ${d.address},\n`;
  const s = d.subject;
  if (s !== undefined) {
    const snip = snippetOf(sources, s);
    if (snip === undefined) body += `  on ${s.filename} line ${s.start.line}:\n  (source code not available)\n`;
    else {
      body += `  on ${s.filename} line ${s.start.line}${snip.context === null ? "" : `, in ${snip.context}`}:\n`;
      const bytes = Buffer.from(snip.code, "utf8");
      const start = Math.min(Math.max(snip.highlight_start_offset, 0), bytes.length);
      const end = Math.min(Math.max(snip.highlight_end_offset, start), bytes.length);
      // Terraform colours "%s[underline]%s[reset]%s" before filling it in: before, ESC[4m, the subject, ESC[0m, after, ESC[0m.
      const [, open, close, tail] = paint(true, "%s[underline]%s[reset]%s").split("%s") as [string, string, string, string];
      const code = `${bytes.subarray(0, start).toString("utf8")}${open}${bytes.subarray(start, end).toString("utf8")}${close}${bytes.subarray(end).toString("utf8")}${tail}`;
      code.split("\n").forEach((l, i) => (body += `${String(s.start.line + i).padStart(4)}: ${l}\n`));
      body += valueLines(d.values, d.functionCall, true);
    }
    body += "\n";
  }
  // Wrapped for two columns fewer than the stream's: the rule takes them (go-wordwrap at width - 3).
  if (d.detail !== "") body += `${wordWrap(d.detail, width - 2)}\n`;
  const rule = paint(true, `[${c}]│[reset] `);
  const lines = body.endsWith("\n") ? body.slice(0, -1).split("\n") : body.split("\n");
  return `${paint(true, `[${c}]╷[reset]`)}\n${lines.map((l) => `${rule}${l}\n`).join("")}${paint(true, `[${c}]╵[reset]`)}\n`;
}

/**
 * The values of the failing expression's references under the source lines, as Terraform
 * prints them: a dark grey `├────────────────`, then, for a failed call of a known function,
 * `│ while calling upper(str)` (the name bold; a variadic parameter with `...`), then
 * `│ <reference> <statement>` for each value (the reference bold).
 */
function valueLines(values: readonly ExpressionValue[] | undefined, functionCall: FunctionCallInfo | undefined, color: boolean): string {
  const sig = functionCall?.signature;
  if ((values === undefined || values.length === 0) && sig === undefined) return "";
  // Each line coloured as a whole (colorstring's trailing reset follows its newline), the values filled in after.
  let out = paint(color, "    [dark_gray]├────────────────[reset]\n");
  if (sig !== undefined) {
    const params = sig.params.map((p) => p.name);
    if (sig.variadicParam !== undefined) params.push(`${sig.variadicParam.name}...`);
    out += `${paintf(color, "    [dark_gray]│[reset] while calling [bold]%s[reset](", functionCall!.calledAs)}${params.join(", ")})\n`;
  }
  for (const v of values ?? []) out += paintf(color, "    [dark_gray]│[reset] [bold]%s[reset] %s\n", v.traversal, v.statement);
  return out;
}

/** How {@link formatDiagnostics} prints. */
export interface FormatDiagnosticsOptions {
  /**
   * Print `  with ADDR,` for diagnostics that carry an address, as Terraform does for the
   * diagnostics it elaborates from an object's configuration (an apply's failures). Off by
   * default: the planner's addressed diagnostics are not all Terraform's addressed ones.
   */
  readonly addresses?: boolean;
  /** The width to wrap details for (the stream's terminal width); default 78, as Terraform's for a stream that is not a terminal. */
  readonly width?: number;
  /** Texts of sources that are not files (`<stdin>`), by the name diagnostics give them. */
  readonly sources?: ReadonlyMap<string, string>;
}

/**
 * Diagnostics as Terraform prints them. Without colour (its `DiagnosticPlain`): a blank line,
 * `Error: <summary>` (or `Warning:`) and a blank line, the location with its block (`  on
 * main.tf line 3, in resource "x" "y":`), the source lines (`   3: …`) and a blank line, and
 * the detail word-wrapped as terraform wraps it for the stream's width (78 columns unless a
 * terminal says otherwise; go-wordwrap at width - 1: no line longer than 77 for 78). With `color`, each inside Terraform's coloured left rule (see `boxed`).
 * Repeated warnings are consolidated first, as terraform's views do ({@link consolidateWarnings}).
 */
export function formatDiagnostics(all: readonly AddressedDiagnostic[], dir: string, color = false, options: FormatDiagnosticsOptions = {}): string {
  const diags = consolidateWarnings(all);
  const sources = new SourceCache(dir, options.sources);
  const addresses = options.addresses === true;
  const width = options.width ?? WIDTH;
  if (color) return diags.map((d) => boxed(d, sources, addresses, width)).join("");
  let out = "";
  for (const d of diags) {
    // The summary is always followed by a blank line, the source lines too (also without a detail).
    out += `\n${d.severity === "error" ? "Error" : "Warning"}: ${d.summary}\n\n`;
    if (addresses && d.address !== undefined) out += `  with ${d.address},\n`;
    const s = d.subject;
    if (s !== undefined) {
      const snip = snippetOf(sources, s);
      if (snip === undefined) out += `  on ${s.filename} line ${s.start.line}:\n  (source code not available)\n`;
      else {
        out += `  on ${s.filename} line ${s.start.line}${snip.context === null ? "" : `, in ${snip.context}`}:\n`;
        snip.code.split("\n").forEach((l, i) => (out += `${String(s.start.line + i).padStart(4)}: ${l}\n`));
        out += valueLines(d.values, d.functionCall, false);
      }
      out += "\n";
    }
    if (d.detail !== "") out += `${wordWrap(d.detail, width)}\n`;
  }
  return out;
}

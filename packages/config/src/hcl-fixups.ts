import type { Body, BodyContent, BodySchema, Diagnostic, SourceRange } from "@magma/hcl";
import { nameSuggestion } from "./diagnostics.js";

/**
 * Where `@magma/hcl` (in progress) and HCL differ in diagnostics Terraform shows, this
 * brings them to HCL's: "Did you mean" suggestions for unsupported arguments and block
 * types, and the ranges of "Missing required argument" (the block's opening brace) and
 * of missing block labels (the opening brace). @internal
 */
function fix(body: Body, schema: BodySchema, diags: readonly Diagnostic[], jsonSuggestions = true): Diagnostic[] {
  const attrNames = (schema.attributes ?? []).map((a) => a.name);
  const blockTypes = (schema.blocks ?? []).map((b) => b.type);
  return diags.map((d) => {
    if (d.summary === "Unsupported argument") {
      const m = /^An argument named "([^"]*)" is not expected here\.$/.exec(d.detail);
      if (m !== null) {
        const s = nameSuggestion(m[1]!, attrNames);
        if (s !== undefined) return { ...d, detail: `${d.detail} Did you mean ${JSON.stringify(s)}?` };
      }
    }
    if (d.summary === "Unsupported block type") {
      const m = /^Blocks of type "([^"]*)" are not expected here\.$/.exec(d.detail);
      if (m !== null) {
        const s = nameSuggestion(m[1]!, blockTypes);
        if (s !== undefined) return { ...d, detail: `${d.detail} Did you mean ${JSON.stringify(s)}?` };
      }
    }
    if (d.summary === "Extraneous JSON object property" && jsonSuggestions) {
      const m = /^No argument or block type is named "([^"]*)"\.$/.exec(d.detail);
      if (m !== null) {
        const s = nameSuggestion(m[1]!, [...attrNames, ...blockTypes]);
        if (s !== undefined) return { ...d, detail: `${d.detail.slice(0, -1)}. Did you mean ${JSON.stringify(s)}?` };
      }
    }
    if (d.summary === "Missing required argument" && d.subject !== undefined && body.syntax === "native") {
      return { ...d, subject: openBrace(body.range) };
    }
    if (d.summary === "Missing required argument" && d.subject !== undefined && body.syntax === "json") {
      // HCL's JSON bodies report missing items at the object's closing brace.
      const r = body.range;
      return { ...d, subject: { filename: r.filename, start: { line: r.end.line, column: r.end.column - 1, byte: r.end.byte - 1 }, end: r.end } };
    }
    if (/^Missing \S+ for \S+$/.test(d.summary) && d.subject !== undefined && body.syntax === "native") {
      const blocks = (body as Body & { blocks?: readonly { labelRanges: readonly SourceRange[]; typeRange: SourceRange; body: Body }[] }).blocks ?? [];
      const subj = d.subject;
      const b = blocks.find((x) => {
        const last = x.labelRanges[x.labelRanges.length - 1] ?? x.typeRange;
        return last.start.byte === subj.start.byte && last.end.byte === subj.end.byte;
      });
      if (b !== undefined) return { ...d, subject: openBrace(b.body.range) };
    }
    return d;
  });
}

function openBrace(r: SourceRange): SourceRange {
  return { filename: r.filename, start: r.start, end: { line: r.start.line, column: r.start.column + 1, byte: r.start.byte + 1 } };
}

/** `body.content(schema)` with HCL's diagnostics. @internal */
export function bodyContent(body: Body, schema: BodySchema, jsonSuggestions = true): { content: BodyContent; diags: Diagnostic[] } {
  const r = body.content(schema);
  return { content: r.content, diags: fix(body, schema, r.diags, jsonSuggestions) };
}

/** `body.partialContent(schema)` with HCL's diagnostics. @internal */
export function bodyPartial(body: Body, schema: BodySchema): { content: BodyContent; remain: Body; diags: Diagnostic[] } {
  const r = body.partialContent(schema);
  return { content: r.content, remain: r.remain, diags: fix(body, schema, r.diags) };
}

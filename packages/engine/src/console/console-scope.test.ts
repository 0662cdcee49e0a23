import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@magma/config";
import { createConsoleScope, type ConsoleScope } from "./console-scope.js";

/** A console scope over a configuration of one file, with no state. */
function scopeOf(main: string): ConsoleScope {
  const dir = mkdtempSync(join(tmpdir(), "console-scope-"));
  writeFileSync(join(dir, "main.tf"), main);
  const { config } = loadConfig(dir);
  return createConsoleScope({ config, state: null, schemas: new Map(), variables: new Map(), cwd: dir });
}

const INVALID_USE = { severity: "error", summary: "Invalid use of type function", detail: 'The console-only "type" function cannot be used as part of an expression.' };

describe("the console-only type()", () => {
  const scope = scopeOf('locals {\n  m = { a = 1, b = ["x"] }\n}\nvariable "v" {\n  type = string\n}\n');

  test.each([
    ["type(local.m)", { kind: "object" }],
    ["(type(1))", { kind: "number" }],
    ['true ? type(1) : type("a")', { kind: "number" }],
    ['"${type(var.v)}"', { kind: "string" }],
    ["type(null)", { kind: "dynamic" }],
  ])("%s is the whole value: the type to print", (text, kind) => {
    const r = scope.evaluate(text);
    expect(r).toMatchObject({ value: undefined, type: kind, diagnostics: [] });
  });

  test.each(["[type(1)]", "{ a = type(local.m) }", "type(1) == type(1)", "jsonencode(type(1))"])("%s uses it inside an expression: terraform's error", (text) => {
    const r = scope.evaluate(text);
    expect(r.type).toBeUndefined();
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toEqual([INVALID_USE]);
  });

  test("a function that drops its argument's marks gives a plain value; argument errors are the call's", () => {
    const length = scope.evaluate("length([type(1)])");
    expect({ value: length.value?.asNumber().toString(), marked: length.value?.containsMarked(), diagnostics: length.diagnostics }).toEqual({ value: "1", marked: false, diagnostics: [] });
    expect(scope.evaluate("type()").diagnostics.map((d) => d.summary)).toEqual(["Not enough function arguments"]);
    expect(scope.evaluate("type(1)[0]").diagnostics.map((d) => d.detail)).toEqual(["This value does not have any indices."]);
  });
});

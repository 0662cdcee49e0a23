import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as cty from "@magma/cty";
import ts from "typescript";
import * as api from "./index.js";
import * as testing from "./testing/index.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The README's first ts block, with its imports resolved to this package's sources. */
function readmeExample(): string {
  const text = readFileSync(join(here, "../README.md"), "utf8");
  const m = /```ts\n([\s\S]*?)```/.exec(text);
  if (m === null) throw new Error("README has no ts block");
  return m[1]!;
}

test("the README example runs and prints the new id", async () => {
  const code = readmeExample();
  // Compile the TypeScript, then bind its imports to this package's sources.
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const body = js
    .split("\n")
    .filter((l) => !l.startsWith("import "))
    .join("\n")
    .replace('(await import("@magma/cty"))', "cty");
  expect(code).toContain('from "@magma/provider-api"');
  const logs: unknown[] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  const run = new AsyncFunction("configValue", "proposedNewState", "createMemoryProvider", "memoryItemBlock", "memoryProviderBlock", "cty", "console", body);
  await run(api.configValue, api.proposedNewState, testing.createMemoryProvider, testing.memoryItemBlock, testing.memoryProviderBlock, cty, { log: (x: unknown) => logs.push(x) });
  expect(logs).toEqual(["item-1"]);
});

test("the README's functions example runs: a result, then a function_error at argument 0", async () => {
  const blocks = [...readFileSync(join(here, "../README.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const code = blocks[1];
  if (code === undefined) throw new Error("README has no second ts block");
  expect(code).toContain('from "@magma/provider-api"');
  const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const body = js
    .split("\n")
    .filter((l) => !l.startsWith("import "))
    .join("\n");
  const logs: unknown[][] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  const names = ["stringType", "stringVal", "createNativeProvider", "createSchemaEntry", "isFunctionCaller", "isProviderError"] as const;
  const run = new AsyncFunction(...names, "console", body);
  await run(cty.stringType, cty.stringVal, api.createNativeProvider, api.createSchemaEntry, api.isFunctionCaller, api.isProviderError, { log: (...x: unknown[]) => logs.push(x) });
  expect(logs).toEqual([["ABC"], [0, "the string is empty"]]);
});

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));

test("the README example runs and prints what it says", async () => {
  const text = readFileSync(join(here, "../README.md"), "utf8");
  const source = /```ts\n([\s\S]*?)```/.exec(text)![1]!;
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(here, "..", `readme-example-${process.pid}.mjs`);
  const logged: unknown[] = [];
  const original = console.log;
  writeFileSync(file, js);
  try {
    console.log = (x: unknown) => void logged.push(x);
    await import(file);
  } finally {
    console.log = original;
    rmSync(file, { force: true });
  }
  const expected = [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  expect(logged).toEqual(expected);
});

/**
 * The README example is compiled (type-checked against the sources) and run: a change to the
 * API that breaks it, or a result that differs from what it states, fails this test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
// The example imports the package by name; here it imports the sources.
const source = (block ?? "").replace(
  /from "@magma\/cty(\/[a-z]+)?"/g,
  (_m, sub: string | undefined) => {
    const target = sub === undefined ? join(here, "index") : join(here, sub.slice(1), "index");
    return `from ${JSON.stringify(target)}`;
  },
);

let dir = "";
let file = "";
beforeAll(() => {
  // Inside the package (so that it is an ES module like the sources), outside src (so that
  // neither typecheck nor build ever sees it); removed after the tests.
  dir = mkdtempSync(join(here, "../.readme-example-"));
  file = join(dir, "readme-example.ts");
  writeFileSync(file, `${source}\nexport {};\n`);
});
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

test("the README has a ts example that uses the package", () => {
  expect(block).toBeDefined();
  expect(block).toContain('from "@magma/cty"');
});

test("the README example type-checks", () => {
  // The package's own build settings, with module resolution that finds the .ts sources.
  const configPath = join(here, "../tsconfig.build.json");
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  // Global declarations of the sources (such as TextEncoder/TextDecoder) come along.
  const globals = config!.fileNames.filter((f) => f.endsWith(".d.ts"));
  const program = ts.createProgram([file, ...globals], {
    ...config!.options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    composite: false,
    rootDir: join(here, ".."),
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics).toEqual([]);
}, 60_000);

test("the README example runs", async () => {
  await expect(import(pathToFileURL(file).href)).resolves.toBeDefined();
}, 60_000);

/**
 * The README's examples are compiled (type-checked against the sources) and run: a change to
 * the API that breaks one, or a result that differs from what it states, fails this test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
// The examples import @magma/hcl by name; here they import its sources (@magma/cty stays the package).
const sources = blocks.map((b) => b.replace(/from "@magma\/hcl"/g, `from ${JSON.stringify(join(here, "index"))}`));

let dir = "";
let files: string[] = [];
beforeAll(() => {
  // Inside the package (an ES module like the sources), outside src; removed afterwards.
  dir = mkdtempSync(join(here, "../.readme-example-"));
  files = sources.map((s, i) => {
    const f = join(dir, `example-${i}.ts`);
    writeFileSync(f, `${s}\nexport {};\n`);
    return f;
  });
});
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

test("the README has its four examples, using the package", () => {
  expect(blocks).toHaveLength(4);
  for (const b of blocks) expect(b).toContain('from "@magma/hcl"');
});

test("the README examples type-check", () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(here, "../tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(files, {
    ...config!.options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    composite: false,
    rootDir: join(here, "../.."),
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics).toEqual([]);
}, 120_000);

test.each([0, 1, 2, 3])("README example %i runs", async (i) => {
  await expect(import(pathToFileURL(files[i]!).href)).resolves.toBeDefined();
}, 60_000);

/**
 * The README example is type-checked against the sources and run: a change to the API that
 * breaks it, or a result that differs from what it states, fails this test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
// The example imports the packages by name; here it imports the sources (and the built cty).
const source = (block ?? "").replace(/from "@magma\/engine"/g, `from ${JSON.stringify(join(here, "index"))}`);

let dir = "";
let file = "";
beforeAll(() => {
  dir = mkdtempSync(join(here, "../.readme-example-"));
  file = join(dir, "readme-example.ts");
  writeFileSync(file, `${source}\nexport {};\n`);
});
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

test("the README example type-checks", () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(here, "../tsconfig.build.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram([file], {
    ...config!.options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    declaration: false,
    declarationMap: false,
    composite: false,
    rootDir: join(here, ".."),
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(diagnostics).toEqual([]);
}, 60_000);

test("the README example runs and prints what it says", async () => {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = original;
  }
  expect(lines).toEqual(["create false", "item-1", "delete-then-create cannot-update name", "64", "bucket vpc subnet"]);
}, 60_000);

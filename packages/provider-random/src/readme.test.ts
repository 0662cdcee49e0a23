import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as cty from "@magma/cty";
import * as api from "@magma/provider-api";
import ts from "typescript";
import * as random from "./index.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The README's first ts block. */
function readmeExample(): string {
  const text = readFileSync(join(here, "../README.md"), "utf8");
  const m = /```ts\n([\s\S]*?)```/.exec(text);
  if (m === null) throw new Error("README has no ts block");
  return m[1]!;
}

test("the README example type-checks", () => {
  // The example runs as a module in any runtime; give it the one global it uses.
  const code = `${readmeExample()}\ndeclare const console: { log(x: unknown): void };\nexport {};\n`;
  const file = join(here, "readme-example.check.ts");
  const host = ts.createCompilerHost({});
  const original = host.readFile.bind(host);
  host.readFile = (f) => (f === file ? code : original(f));
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => f === file || exists(f);
  const program = ts.createProgram(
    [file],
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      lib: ["lib.es2022.d.ts"],
      skipLibCheck: true,
      // Resolve the package's own name to its sources, as a consumer would see its types.
      paths: { "@magma/provider-random": [join(here, "index.ts")] },
      baseUrl: here,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
    },
    host,
  );
  const diags = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file || d.file === undefined);
  expect(diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
});

test("the README example runs and prints the password length", async () => {
  const code = readmeExample();
  expect(code).toContain('from "@magma/provider-random"');
  const js = ts.transpileModule(code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const body = js
    .split("\n")
    .filter((l) => !l.startsWith("import "))
    .join("\n");
  const logs: unknown[] = [];
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...a: unknown[]) => Promise<void>;
  const run = new AsyncFunction(
    "nullVal",
    "configValue",
    "proposedNewState",
    "createRandomProvider",
    "console",
    body,
  );
  await run(cty.nullVal, api.configValue, api.proposedNewState, random.createRandomProvider, {
    log: (x: unknown) => logs.push(x),
  });
  expect(logs).toEqual([20]);
});

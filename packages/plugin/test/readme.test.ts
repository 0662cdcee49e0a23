// Runs the README's example as a user would: compiled with the package's strict settings
// against the built package (self-referenced by name), then executed with node.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { hasAwsProvider, PLUGIN_MIRROR } from "@magma/test-support";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");

function example(): string {
  const m = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(pkg, "README.md"), "utf8"));
  if (m === null) throw new Error("README.md has no ts example");
  return m[1]!;
}

test("the README example type-checks under the strict settings", () => {
  const dir = join(pkg, ".readme-check");
  mkdirSync(dir, { recursive: true });
  try {
    const file = join(dir, "example.mts");
    writeFileSync(file, example());
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ["node"],
      noEmit: true,
      skipLibCheck: true,
    });
    const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diags).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

(hasAwsProvider() ? test : test.skip)("the README example runs against the real AWS provider", () => {
  const dir = join(pkg, ".readme-run");
  mkdirSync(dir, { recursive: true });
  try {
    const js = ts.transpileModule(example(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const file = join(dir, "example.mjs");
    writeFileSync(file, js);
    const out = execFileSync(process.execPath, [file], {
      cwd: pkg,
      env: { ...process.env, TF_PLUGIN_CACHE_DIR: PLUGIN_MIRROR },
      encoding: "utf8",
      timeout: 120_000,
    });
    const lines = out.trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ partition: "aws", dns_suffix: "amazonaws.com" });
    expect(lines[1]).toBe("false");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

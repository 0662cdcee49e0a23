/**
 * The README example is type-checked against the sources and run: a change to the API that
 * breaks it, or a result that differs from what it states, fails this test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadState, createLocalBackend } from "@magma/state";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
// The examples import the packages by name; here they import the sources (and the built others).
const fromSources = (block: string): string => block.replace(/from "@magma\/engine"/g, `from ${JSON.stringify(join(here, "index"))}`);
// blocks[0]: the quick start (a directory planned, applied, planned again); blocks[1]: the layers.
const source = fromSources(blocks[1] ?? "");

// The quick start's directory: the example's "./infra" is this temp directory.
const INFRA = `
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
resource "random_id" "suffix" {
  byte_length = 4
}
resource "random_integer" "port" {
  min     = 8000
  max     = 8999
  keepers = { suffix = random_id.suffix.hex }
}
output "port" {
  value = random_integer.port.result
}
`;

let dir = "";
let file = "";
let quickFile = "";
let infra = "";
beforeAll(() => {
  dir = mkdtempSync(join(here, "../.readme-example-"));
  file = join(dir, "readme-example.ts");
  writeFileSync(file, `${source}\nexport {};\n`);
  infra = join(dir, "infra");
  mkdirSync(infra);
  writeFileSync(join(infra, "main.tf"), INFRA);
  quickFile = join(dir, "readme-quick-start.ts");
  writeFileSync(quickFile, `${fromSources(blocks[0] ?? "").replaceAll('"./infra"', JSON.stringify(infra))}\nexport {};\n`);
});
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

function typeErrors(file: string): string[] {
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
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

async function printed(file: string): Promise<string[]> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = original;
  }
  return lines;
}

test("the README examples type-check", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  expect(typeErrors(file)).toEqual([]);
  expect(typeErrors(quickFile)).toEqual([]);
}, 120_000);

test("the quick start plans a directory, prints the plan, applies it into a state file, and plans again with no changes", async () => {
  const [plan, again, ...rest] = await printed(quickFile);
  expect(rest).toEqual([]);
  expect(plan).toContain("  # random_id.suffix will be created");
  expect(plan).toContain("  # random_integer.port will be created");
  expect(plan).toContain("Plan: 2 to add, 0 to change, 0 to destroy.");
  expect(again).toBe("true No changes. Your infrastructure matches the configuration.");
  const state = await loadState(createLocalBackend({ dir: infra }).store("default"));
  expect(state?.resources.map((r) => `${r.type}.${r.name}`).sort()).toEqual(["random_id.suffix", "random_integer.port"]);
  expect(state?.outputs.get("port")?.typeJson).toBe('"number"');
}, 60_000);

test("the layers example runs and prints what it says", async () => {
  const lines = await printed(file);
  expect(lines).toEqual(["create false", "item-1", "delete-then-create cannot-update name", "64", "bucket vpc subnet"]);
}, 60_000);

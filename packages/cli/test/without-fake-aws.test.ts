// @magma/fake-aws is a test server: the CLI has it as an optional peer dependency and
// loads it only for `magma demo`'s hashicorp/aws part. This installs the built CLI into a
// scratch node_modules without it (the CLI's runtime dependencies linked from the
// workspace) and runs it from there: every command works, `demo --no-aws` works, and the
// AWS part fails with a clear `not_installed` error and a hint, not a module-loader trace.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { MAGMA_BIN } from "./support/run-magma.js";

const cliDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(cliDir, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

let dir: string;
let bin: string;
let mirror: string;

beforeAll(() => {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  dir = mkdtempSync(join(tmpdir(), "magma-no-fake-aws-"));
  const modules = join(dir, "app", "node_modules");
  const installed = join(modules, "@magma", "cli");
  mkdirSync(installed, { recursive: true });
  cpSync(join(cliDir, "dist"), join(installed, "dist"), { recursive: true });
  cpSync(join(cliDir, "package.json"), join(installed, "package.json"));
  for (const name of Object.keys(pkg.dependencies)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(realpathSync(join(cliDir, "node_modules", name)), join(modules, name));
  }
  bin = join(installed, "dist", "bin", "magma.js");
  // Something that resolves as hashicorp/aws, so that the demo reaches its AWS part on any machine.
  mirror = join(dir, "mirror");
  writeProviderLauncher({ mirrorDir: mirror, namespace: "hashicorp", type: "aws", version: "5.100.0", module: join(cliDir, "test", "testdata", "secret-provider.mjs") });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: readonly string[]): { code: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 240_000,
    env: { ...process.env, XDG_CACHE_HOME: join(dir, "cache"), MAGMA_PLUGIN_DIRS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

test("package.json: @magma/fake-aws is an optional peer (and a dev dependency), not a dependency", () => {
  expect(Object.keys(pkg.dependencies)).not.toContain("@magma/fake-aws");
  expect(pkg.peerDependencies?.["@magma/fake-aws"]).toBeDefined();
  expect(pkg.peerDependenciesMeta?.["@magma/fake-aws"]?.optional).toBe(true);
  expect(pkg.devDependencies["@magma/fake-aws"]).toBeDefined();
});

test("the scratch install really lacks @magma/fake-aws", () => {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("@magma/fake-aws")'], { cwd: join(dir, "app"), encoding: "utf8" });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain("ERR_MODULE_NOT_FOUND");
});

test("schema, plan and apply work without it", () => {
  const s = run(["schema", "random", "--json"]);
  expect([s.code, s.stderr]).toEqual([0, ""]);
  expect(Object.keys(JSON.parse(s.stdout) as object)).toEqual(["provider", "resource_schemas", "ephemeral_resource_schemas"]);
  const a = run(["apply", "random", "random_string", "--config", '{"length": 6}', "--json"]);
  expect([a.code, a.stderr]).toEqual([0, ""]);
});

test("demo --no-aws works without it", () => {
  const r = run(["demo", "--no-aws"]);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(r.stdout).toContain("8. destroy");
});

test("demo with its AWS part: the native part runs, then a not_installed error with a hint", () => {
  const r = run(["demo", "--plugin-dir", mirror]);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("Part 2: the real hashicorp/aws provider against a local fake AWS");
  expect(r.stderr).toBe(
    "error: the demo's hashicorp/aws part needs @magma/fake-aws (the local fake AWS endpoint), which is not installed\nhint: install it next to @magma/cli (npm install @magma/fake-aws), or run `magma demo --no-aws`\n",
  );
});

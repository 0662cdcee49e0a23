// The published `magma` bin is a bundle (scripts/bundle-bin.mjs): dist/bin/magma.js and the
// chunks it imports on demand. These run it beside the same program unbundled (`main` of
// dist/main.js, module by module as tsc built it) and compare what they print, and check which
// chunks a command loads: `--version` must not load the engine or the provider launcher
// (@magma/plugin with connect-rpc and protobuf-es).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MAGMA_BIN } from "./support/run-magma.js";
import { removeWorkdirs, workdir } from "./support/workdir.js";

const here = dirname(fileURLToPath(import.meta.url));
const MAIN = join(here, "..", "dist", "main.js");
const BIN_DIR = dirname(MAGMA_BIN);
const scratch = mkdtempSync(join(tmpdir(), "magma-bundle-test-"));

// A module-loading hook that appends every URL node loads to $MAGMA_LOADED_OUT.
const HOOK = join(scratch, "hook.mjs");
writeFileSync(
  HOOK,
  `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  const r = await next(url, context);
  appendFileSync(process.env.MAGMA_LOADED_OUT, url + "\\n");
  return r;
}
`,
);
const PRELOAD = join(scratch, "preload.mjs");
writeFileSync(PRELOAD, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(HOOK).href)});\n`);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeWorkdirs();
});

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(nodeArgs: readonly string[], args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Run> {
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd,
    env: { ...process.env, XDG_CACHE_HOME: join(scratch, "cache"), MAGMA_PLUGIN_DIRS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined, TF_CLI_ARGS: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

const bundled = (args: readonly string[], cwd: string): Promise<Run> => run([MAGMA_BIN], args, cwd);
const unbundled = (args: readonly string[], cwd: string): Promise<Run> =>
  run(["--input-type=module", "-e", `const { main } = await import(${JSON.stringify(pathToFileURL(MAIN).href)}); await main(process.argv.slice(1));`, "--"], args, cwd);

/** The bundle's files a command line loads, and whether any of them holds a module of the engine or of @magma/plugin. */
async function loadedChunks(args: readonly string[], cwd: string): Promise<{ files: string[]; engine: boolean; plugin: boolean; run: Run }> {
  const out = join(scratch, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(out, "");
  // No CLI configuration file (none named, a home without one): with one, every command reads it at start-up
  // (terraform's main does), which loads its parser; what is measured here is the commands' own code.
  const r = await run(["--import", PRELOAD, MAGMA_BIN], args, cwd, { MAGMA_LOADED_OUT: out, TF_CLI_CONFIG_FILE: undefined, TERRAFORM_CONFIG: undefined, HOME: cwd });
  const files = readFileSync(out, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"))
    .map((u) => fileURLToPath(u))
    .filter((f) => dirname(f) === BIN_DIR);
  // esbuild marks where each original module starts with a comment naming its file.
  const text = files.map((f) => readFileSync(f, "utf8")).join("\n");
  return { files, engine: /^\/\/ \.\.\/engine\/dist\//m.test(text), plugin: /^\/\/ \.\.\/plugin\/dist\//m.test(text), run: r };
}

// regex and yamldecode load re2js and yaml through `createRequire(import.meta.url)` in @magma/hcl,
// and a working-directory plan takes the state lock through koffi in @magma/state: found from
// those packages only if the bundle kept their modules' own URLs.
const CONFIG =
  'variable "n" {\n  type = number\n  default = 21\n}\noutput "twice" {\n  value = var.n * 2\n}\n' +
  'output "re" {\n  value = regex("[a-z]+", "123abc456")\n}\noutput "y" {\n  value = yamldecode("a: 1")\n}\n';

describe("the bundled magma bin", () => {
  test("prints what the unbundled program prints, with the same exit code", async () => {
    const dir = workdir({ "main.tf": CONFIG });
    const lines: (readonly string[])[] = [
      ["--version"],
      ["-version"],
      ["--help"],
      ["plan", "--help"],
      ["aply"],
      ["validate", "-json"],
      ["plan", "-input=false", "-no-color"],
      ["schema", "random", "random_string", "--json"],
      ["plan", "random", "random_string", "--config", '{"length": 8}', "--json"],
    ];
    for (const args of lines) {
      // One after the other: both run in the same directory, and a plan takes its state lock.
      const a = await bundled(args, dir);
      const b = await unbundled(args, dir);
      expect({ args, ...a }).toEqual({ args, ...b });
    }
    // Not vacuous: they did run the commands.
    const v = await bundled(["validate", "-json"], dir);
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true });
    const p = await bundled(["plan", "-input=false", "-no-color"], dir);
    expect(p.stdout).toContain("+ twice = 42");
    expect(p.stdout).toContain('+ re    = "abc"');
  }, 240_000);

  test("--version loads neither the engine nor the provider launcher; plan does", async () => {
    const dir = workdir({ "main.tf": CONFIG });
    const version = await loadedChunks(["--version"], dir);
    expect(version.run).toMatchObject({ code: 0, stdout: `${(JSON.parse(readFileSync(join(here, "..", "package.json"), "utf8")) as { version: string }).version}\n` });
    expect(version.files.length).toBeGreaterThan(0);
    expect({ engine: version.engine, plugin: version.plugin }).toEqual({ engine: false, plugin: false });

    // The same check sees the engine and the launcher where they are loaded.
    const plan = await loadedChunks(["plan", "random", "random_string", "--config", '{"length": 8}', "--json"], dir);
    expect(plan.run.code).toBe(0);
    expect({ engine: plan.engine, plugin: plan.plugin }).toEqual({ engine: true, plugin: true });
  }, 240_000);
});

/** The original modules (esbuild's comment naming each) in the bundle's files a command line loads. */
async function loadedModules(args: readonly string[], cwd: string): Promise<{ modules: string[]; run: Run }> {
  const { files, run: r } = await loadedChunks(args, cwd);
  const modules = files.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)].map((m) => m[1]!));
  return { modules, run: r };
}

const NATIVE = 'terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\nresource "random_id" "a" {\n  count       = 3\n  byte_length = 8\n}\n';

describe("what a command line loads", () => {
  // Registration (names, flags, help text) is apart from the actions, which are loaded when they run.
  const inPackage = (modules: readonly string[], pkg: string): string[] => modules.filter((m) => m.startsWith(`../${pkg}/dist/`));

  test("--help loads the commands' registrations and none of their actions", async () => {
    const dir = workdir({ "main.tf": NATIVE });
    const help = await loadedModules(["--help"], dir);
    expect(help.run).toMatchObject({ code: 0, stdout: expect.stringContaining("Usage: magma") });
    // Not vacuous: the registrations are there...
    expect(help.modules).toEqual(expect.arrayContaining(["src/commands/plan.ts", "src/commands/show-command.ts", "src/commands/state-mv-command.ts", "src/run-cli.ts"]));
    // ...and no action's code: neither the engine (but its colour-code leaf, `@magma/engine/colorstring`, which colour.ts
    // uses to paint any output), the provider launcher, the configuration, the state nor HCL.
    const leaves = new Set(["../engine/dist/render/colorstring.js"]);
    for (const pkg of ["engine", "plugin", "config", "state", "hcl", "provider-random"]) expect({ pkg, modules: inPackage(help.modules, pkg).filter((m) => !leaves.has(m)) }).toEqual({ pkg, modules: [] });
    for (const action of ["src/workdir/run-operation.ts", "src/operations.ts", "src/commands/show.ts", "src/commands/state-mv.ts", "src/provider-session.ts"]) expect(help.modules).not.toContain(action);
  }, 240_000);

  test("a plan over a native provider loads the plan's code, not the gRPC stack or other commands'", async () => {
    const dir = workdir({ "main.tf": NATIVE });
    const init = await bundled(["init", "-no-color"], dir);
    expect({ code: init.code, stderr: init.stderr }).toEqual({ code: 0, stderr: "" });
    const plan = await loadedModules(["plan", "-no-color"], dir);
    expect(plan.run).toMatchObject({ code: 0, stdout: expect.stringContaining("3 to add") });
    expect(plan.modules).toEqual(expect.arrayContaining(["src/workdir/run-operation.ts", "../engine/dist/engine.js", "../provider-random/dist/random-provider.js"]));
    // provider-random runs in-process: connect-rpc, protobuf-es and the tfplugin code stay unloaded.
    expect(plan.modules.filter((m) => /@connectrpc|@bufbuild|\/tfplugin\/|\/internal\/grpc-stack\.js$/.test(m))).toEqual([]);
    // Other commands' actions stay unloaded too.
    const others = ["src/commands/show.ts", "src/commands/graph.ts", "src/commands/validate.ts", "src/commands/init.ts", "src/commands/state-mv.ts", "src/commands/state-show.ts", "src/commands/apply.ts", "src/commands/schema.ts", "src/workdir/run-import.ts", "src/workdir/init-providers.ts"];
    expect(plan.modules.filter((m) => others.includes(m))).toEqual([]);
  }, 240_000);

  test("init loads installation and the configuration, not the engine or the provider launcher", async () => {
    const dir = workdir({ "main.tf": NATIVE });
    const init = await loadedModules(["init", "-no-color"], dir);
    expect(init.run).toMatchObject({ code: 0, stdout: expect.stringContaining("Terraform has been successfully initialized!") });
    expect(init.modules).toEqual(expect.arrayContaining(["src/commands/init.ts", "src/workdir/init-providers.ts", "../install/dist/install-providers.js", "../config/dist/load-config.js"]));
    // a start-up cost every init paid: the engine came with the colour markup, the launcher with the native providers' names
    for (const pkg of ["engine", "plugin", "provider-random"]) expect({ pkg, modules: inPackage(init.modules, pkg).filter((m) => m !== "../engine/dist/render/colorstring.js") }).toEqual({ pkg, modules: [] });
  }, 240_000);
});

/**
 * Test support for the language-fidelity oracles: one configuration in two working
 * directories (magma's and terraform's), initialised by terraform with native test providers
 * served from a filesystem mirror, then the same commands run in
 * each, side by side, each tool's steps in order; and the state files made comparable
 * (random results and ids blanked).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, testProvidersCliConfig, type ToolRun } from "./side-by-side.js";
import { terraformAsync, workdir } from "./workdir.js";

let cliConfig: string | undefined;

/**
 * The CLI configuration terraform uses (made once per test file): the mirror serves
 * `magma/random` (magma's native provider), `magma/blocks` and `magma/attrs`
 * (test/testdata/blocks-provider.mjs, attrs-provider.mjs).
 */
export function pairCliConfig(): string {
  cliConfig ??= testProvidersCliConfig({ random: "random-provider.mjs", blocks: "blocks-provider.mjs", attrs: "attrs-provider.mjs" });
  return cliConfig;
}

/** A pair of working directories, magma's first. */
export type Pair = readonly [magma: string, terraform: string];

/** Two directories holding `files`, each initialised by terraform (with `cliConfig`, default {@link pairCliConfig}). */
export async function initialisedPair(files: Readonly<Record<string, string>>, cliConfig = pairCliConfig()): Promise<Pair> {
  const dirs = [workdir({ ...files }), workdir({ ...files })] as const;
  await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
  return dirs;
}

/**
 * Runs each command (`-no-color -input=false` added after its name) in both directories, terraform
 * with `cliConfig` (default {@link pairCliConfig}) and magma with `magmaEnv` added to its
 * environment; the runs by command, magma's first.
 */
export async function runPair(
  pair: Pair,
  commands: readonly (readonly string[])[],
  cliConfig = pairCliConfig(),
  magmaEnv: Readonly<Record<string, string>> = {},
): Promise<[ours: ToolRun, theirs: ToolRun][]> {
  const each = async (tool: "magma" | "terraform", dir: string): Promise<ToolRun[]> => {
    const runs: ToolRun[] = [];
    for (const c of commands) {
      // The flags right after the command's name (terraform reads no flag after a positional argument).
      runs.push(await runTool(tool, [c[0]!, "-no-color", "-input=false", ...c.slice(1)], dir, tool === "terraform" ? { TF_CLI_CONFIG_FILE: cliConfig } : magmaEnv));
    }
    return runs;
  };
  const [ours, theirs] = await Promise.all([each("magma", pair[0]), each("terraform", pair[1])]);
  return ours.map((o, i) => [o, theirs[i]!]);
}

/** Output with what differs from run to run blanked: ids in brackets (up to the line's last bracket: a random id can hold one), durations. */
export function stableText(s: string): string {
  return s.replace(/\[id=.*\]$/gm, "[id=ID]").replace(/after \d+s/g, "after Ns");
}

/** Attribute names of the random provider whose values differ from run to run. */
const RANDOM = new Set(["id", "result", "hex", "dec", "b64_std", "b64_url", "bcrypt_hash"]);

/**
 * A working directory's state file with its lineage, its serial and the random provider's
 * random results blanked (`check_results` kept), or undefined when there is none. (How
 * often terraform persists the state during an apply, and so its serial, is not compared.)
 */
export function stableState(dir: string): unknown {
  const file = join(dir, "terraform.tfstate");
  if (!existsSync(file)) return undefined;
  const doc = JSON.parse(readFileSync(file, "utf8")) as { lineage?: string; serial?: number; resources?: { instances: { attributes?: Record<string, unknown> }[] }[] };
  doc.lineage = "L";
  doc.serial = 0;
  for (const r of doc.resources ?? []) {
    for (const i of r.instances) {
      for (const k of Object.keys(i.attributes ?? {})) if (RANDOM.has(k)) i.attributes![k] = "X";
    }
  }
  return doc;
}

/** Progress lines, which objects worked on in parallel print in any order. */
const PROGRESS = /^[^\s:]+(?:\[[^\]]*\])?(?:\.[^\s:]+(?:\[[^\]]*\])?)*: (?:Creating|Creation complete|Modifying|Modifications complete|Destroying|Destruction complete|Refreshing state|Reading|Read complete|Importing|Import complete|Still )/;

/** {@link stableText} with each run of progress lines sorted. */
export function comparableText(s: string): string {
  const lines = stableText(s).split("\n");
  const out: string[] = [];
  let run: string[] = [];
  for (const l of lines) {
    if (PROGRESS.test(l)) {
      run.push(l);
      continue;
    }
    out.push(...run.sort(), l);
    run = [];
  }
  out.push(...run.sort());
  return out.join("\n");
}

/** Expects magma's runs to match terraform's: exit codes, stdout and stderr ({@link comparableText}). */
export function expectSameRuns(runs: readonly (readonly [ToolRun, ToolRun])[], commands: readonly (readonly string[])[]): void {
  runs.forEach(([ours, theirs], i) => {
    const command = commands[i]!.join(" ");
    expect({ command, code: ours.code, stdout: comparableText(ours.stdout), stderr: comparableText(ours.stderr) }).toEqual({
      command,
      code: theirs.code,
      stdout: comparableText(theirs.stdout),
      stderr: comparableText(theirs.stderr),
    });
  });
}

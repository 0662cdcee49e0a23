/**
 * Diagnostics about a configuration's provider requirements and two reference rules that
 * terraform 1.11.4 reports and magma did not (issues 31 and 32), against terraform on the
 * same files, native and JSON syntax: `validate` and `plan`, human (exit code, stdout, stderr)
 * and `-json` (validate's document; plan's lines without timestamps).
 *
 * - "missing provider provider[…]": a module call passing `random` from a root that has no
 *   `provider "random"` block nor `required_providers` entry (the graph builder's error; the
 *   root's implied default configuration is not there yet), and the same one level down
 *   ("Missing required provider configuration" warning first: the middle module requires
 *   random but is not passed it).
 * - "Missing required provider configuration" (error): a child module's
 *   `configuration_aliases` entry its call does not pass; `init` fails on it too.
 * - "Inconsistent dependency lock file" (plan) and "Missing required provider" (validate): a
 *   module without `required_providers` added after init whose resources imply
 *   hashicorp/random, where the root requires magma/random.
 * - "Ephemeral value not allowed": an output of `terraform.applying`.
 * - "Invalid resource count attribute": `random_string.s.count`, `data.terraform_remote_state.x.count`.
 * - "Unable to open CLI configuration file": the warning on stderr before `version`, `validate`
 *   and `plan` when TF_CLI_CONFIG_FILE names a file that does not exist.
 *
 * `@magma/provider-random` is served to terraform as both `hashicorp/random` and `magma/random`;
 * terraform initialises both directories (except where `init` itself is compared). Skipped
 * without terraform.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { comparableRun, filesIn, SYNTAXES, VALIDATE_PLAN_COMMANDS } from "./support/validate-plan-runs.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** A CLI configuration whose filesystem mirror serves @magma/provider-random as hashicorp/random and magma/random. */
function randomCliConfig(): string {
  const mirror = workdir();
  for (const namespace of ["hashicorp", "magma"]) {
    bundleLauncherEntry(
      writeProviderLauncher({
        mirrorDir: mirror,
        hostname: "registry.terraform.io",
        namespace,
        type: "random",
        version: "1.0.0",
        module: createRequire(import.meta.url).resolve("@magma/provider-random"),
        exportName: "createRandomProvider",
      }),
    );
  }
  const include = '["registry.terraform.io/hashicorp/random", "registry.terraform.io/magma/random"]';
  return join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ${include}\n  }\n}\n` }), "cli.tfrc");
}

const RANDOM_STRING = `resource "random_string" "s" {
  length = 3
}
`;

const REQUIRES_RANDOM = (source: string): string => `terraform {
  required_providers {
    random = { source = "${source}" }
  }
}
`;

interface Case {
  readonly name: string;
  /** The files (native syntax) before init. */
  readonly files: Readonly<Record<string, string>>;
  /** Files written after terraform's init, then installed with `terraform get`. */
  readonly later?: Readonly<Record<string, string>>;
  /** `init` is compared too (each tool initialises its own directory). */
  readonly compareInit?: boolean;
  /** A summary each tool's validate and plan must print. */
  readonly expect: string;
}

const CASES: readonly Case[] = [
  {
    name: "a module passed random from a root without it",
    files: {
      "main.tf": `module "m" {
  source = "./m"
  providers = {
    random = random
  }
}
`,
      "m/main.tf": REQUIRES_RANDOM("hashicorp/random") + RANDOM_STRING,
    },
    expect: "missing provider",
  },
  {
    name: "a nested module passed random its module only inherits",
    files: {
      "main.tf": `provider "random" {}
module "a" {
  source = "./a"
}
`,
      "a/main.tf": `${REQUIRES_RANDOM("hashicorp/random")}module "b" {
  source = "./b"
  providers = {
    random = random
  }
}
`,
      "a/b/main.tf": REQUIRES_RANDOM("hashicorp/random") + RANDOM_STRING,
    },
    expect: "Missing required provider configuration",
  },
  {
    name: "a configuration alias the call does not pass",
    files: {
      "main.tf": `${REQUIRES_RANDOM("hashicorp/random")}module "m" {
  source = "./m"
}
`,
      "m/main.tf": `terraform {
  required_providers {
    random = {
      source                = "hashicorp/random"
      configuration_aliases = [random.a]
    }
  }
}
resource "random_string" "s" {
  provider = random.a
  length   = 3
}
`,
    },
    compareInit: true,
    expect: "Missing required provider configuration",
  },
  {
    name: "a module implying hashicorp/random added after init",
    files: { "main.tf": REQUIRES_RANDOM("magma/random") + RANDOM_STRING.replace('"s"', '"r"') },
    later: { "mod.tf": 'module "m" {\n  source = "./m"\n}\n', "m/main.tf": RANDOM_STRING },
    expect: "registry.terraform.io/hashicorp/random",
  },
  {
    name: "an output of terraform.applying",
    files: { "main.tf": 'output "a" {\n  value = terraform.applying\n}\n' },
    expect: "Ephemeral value not allowed",
  },
  {
    name: "a managed resource's count attribute",
    files: { "main.tf": `${REQUIRES_RANDOM("magma/random")}${RANDOM_STRING}output "a" {\n  value = random_string.s.count\n}\n` },
    expect: "Invalid resource count attribute",
  },
  {
    name: "a data resource's count attribute",
    files: {
      "main.tf": `data "terraform_remote_state" "x" {
  backend = "local"
  config = {
    path = "none.tfstate"
  }
}
output "b" {
  value = data.terraform_remote_state.x.count
}
`,
    },
    expect: "Invalid resource count attribute",
  },
];


const INIT = ["init", "-no-color", "-input=false"] as const;
const runs = new Map<string, [ours: ToolRun, theirs: ToolRun][]>();

/** Commands run with TF_CLI_CONFIG_FILE naming a file that does not exist (in a directory with one output). */
const MISSING_CONFIG_COMMANDS = [["version"], ["validate", "-json"], ["plan", "-no-color", "-input=false"]] as const;
let missingConfigRuns: [ours: ToolRun, theirs: ToolRun][] = [];

(TERRAFORM !== undefined ? describe : describe.skip)("provider requirement diagnostics, against terraform's", () => {
  beforeAll(async () => {
    const env = { TF_CLI_CONFIG_FILE: randomCliConfig() };
    const missingConfig = async (): Promise<void> => {
      const each = async (tool: "magma" | "terraform"): Promise<ToolRun[]> => {
        const dir = workdir({ "main.tf": 'output "a" {\n  value = 1\n}\n' });
        const out: ToolRun[] = [];
        for (const command of MISSING_CONFIG_COMMANDS) out.push(await runTool(tool, command, dir, { TF_CLI_CONFIG_FILE: join(dir, "missing.tfrc") }));
        return out;
      };
      const [m, t] = await Promise.all([each("magma"), each("terraform")]);
      missingConfigRuns = m.map((r, i) => [r, t[i]!]);
    };
    await Promise.all([
      missingConfig(),
      ...CASES.flatMap((c) =>
        SYNTAXES.map(async (syntax) => {
          const each = async (tool: "magma" | "terraform"): Promise<ToolRun[]> => {
            const dir = workdir(filesIn(syntax, c.files));
            const out: ToolRun[] = [];
            const init = await runTool(c.compareInit === true ? tool : "terraform", INIT, dir, env);
            if (c.compareInit === true) out.push(init);
            else if (init.code !== 0) throw new Error(`terraform init failed in ${c.name} (${syntax}):\n${init.stdout}${init.stderr}`);
            if (c.later !== undefined) {
              for (const [path, text] of Object.entries(filesIn(syntax, c.later))) {
                mkdirSync(dirname(join(dir, path)), { recursive: true });
                writeFileSync(join(dir, path), text);
              }
              const get = await runTool("terraform", ["get", "-no-color"], dir, env);
              if (get.code !== 0) throw new Error(`terraform get failed in ${c.name} (${syntax}):\n${get.stdout}${get.stderr}`);
            }
            for (const command of VALIDATE_PLAN_COMMANDS) out.push(await runTool(tool, command, dir, env));
            return out;
          };
          const [m, t] = await Promise.all([each("magma"), each("terraform")]);
          runs.set(`${c.name}/${syntax}`, m.map((r, i) => [r, t[i]!]));
        }),
      ),
    ]);
  }, 900_000);

  // Terraform warns on stderr before every command that the CLI configuration file it was told to use cannot be opened.
  test.each(MISSING_CONFIG_COMMANDS.map((command, i) => [command.join(" "), i] as const))("TF_CLI_CONFIG_FILE naming a missing file: %s", (_command, i) => {
    const [ours, theirs] = missingConfigRuns[i]!;
    // The working directories differ: their paths are blanked.
    const blank = (r: ToolRun): ToolRun => ({ ...r, stderr: r.stderr.replace(/"[^"]*\/missing\.tfrc"/g, '"MISSING"') });
    expect(blank(ours)).toEqual(blank(theirs));
    expect(ours.code).toBe(0);
    expect(ours.stderr).toContain("Warning: Unable to open CLI configuration file");
  });

  const commandsOf = (c: Case): readonly (readonly string[])[] => (c.compareInit === true ? [INIT, ...VALIDATE_PLAN_COMMANDS] : VALIDATE_PLAN_COMMANDS);

  test.each(CASES.flatMap((c) => SYNTAXES.flatMap((syntax) => commandsOf(c).map((command, i) => [c.name, syntax, command.join(" "), i] as const))))(
    "%s, %s syntax: %s",
    (name, syntax, _command, i) => {
      const c = CASES.find((x) => x.name === name)!;
      const command = commandsOf(c)[i]!;
      const [ours, theirs] = runs.get(`${name}/${syntax}`)![i]!;
      expect(comparableRun(ours, command)).toEqual(comparableRun(theirs, command));
      expect(ours.code).toBe(1);
      if (command[0] !== "init") expect(command.includes("-json") ? ours.stdout : ours.stdout + ours.stderr).toContain(c.expect);
    },
  );
});

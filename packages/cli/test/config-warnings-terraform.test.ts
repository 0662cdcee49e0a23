/**
 * Warnings terraform 1.11.4 prints about a configuration that magma did not (issue 31, found
 * in real module code), against terraform on the same files, native and JSON syntax:
 * `validate` and `plan`, human (exit code, stdout, stderr) and `-json` (validate's document;
 * plan's lines without timestamps). One init per directory, shared by the commands.
 *
 * - "Reference to undefined provider": a module call passing `random` where the calling
 *   module declares no such local name (parent side) or the child module does not
 *   (child side). Terraform's `validateProviderConfigs`; plan prints them too.
 * - "Redundant empty provider block": an empty `provider` block in a child module.
 * - "Deprecated attribute": a reference to an attribute the provider's schema marks deprecated.
 *
 * `@magma/provider-random` is served to both tools as `hashicorp/random` (the warnings are
 * about default providers). Skipped without terraform.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { comparableRun, filesIn, SYNTAXES, VALIDATE_PLAN_COMMANDS } from "./support/validate-plan-runs.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** A CLI configuration whose filesystem mirror serves @magma/provider-random as hashicorp/random. */
function hashicorpRandomCliConfig(): string {
  const mirror = workdir();
  bundleLauncherEntry(
    writeProviderLauncher({
      mirrorDir: mirror,
      hostname: "registry.terraform.io",
      namespace: "hashicorp",
      type: "random",
      version: "1.0.0",
      module: createRequire(import.meta.url).resolve("@magma/provider-random"),
      exportName: "createRandomProvider",
    }),
  );
  return join(workdir({ "cli.tfrc": `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/hashicorp/random"]\n  }\n}\n` }), "cli.tfrc");
}

const CHILD_RESOURCE = `resource "random_string" "s" {
  length = 3
}
`;

/** Each case: a name, its files (native syntax), and the warnings' summaries terraform prints. */
const CASES: readonly { readonly name: string; readonly files: Readonly<Record<string, string>>; readonly warnings: readonly string[] }[] = [
  {
    // The root passes `random` without declaring it (parent side); the child's empty block is redundant.
    name: "undefined in the caller, empty provider block in the child",
    files: {
      "main.tf": `provider "random" {}
module "m" {
  source = "./m"
  providers = {
    random = random
  }
}
`,
      "m/main.tf": `provider "random" {}
${CHILD_RESOURCE}`,
    },
    warnings: ["Reference to undefined provider", "Redundant empty provider block"],
  },
  {
    // The root declares random; the child neither requires it nor has a block for it (child side).
    name: "undefined in the child",
    files: {
      "main.tf": `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
provider "random" {}
module "m" {
  source = "./m"
  providers = {
    random = random
  }
}
`,
      "m/main.tf": CHILD_RESOURCE,
    },
    warnings: ["Reference to undefined provider"],
  },
  {
    // Aliased empty blocks in a child that requires the provider: one warning listing the aliases.
    name: "aliased empty provider blocks in the child",
    files: {
      "main.tf": `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
provider "random" {}
module "m" {
  source = "./m"
  providers = {
    random.b = random
    random.a = random
  }
}
`,
      "m/main.tf": `terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}
provider "random" {
  alias = "b"
}
provider "random" {
  alias = "a"
}
resource "random_string" "s" {
  provider = random.a
  length   = 3
}
`,
    },
    warnings: ["Redundant empty provider block"],
  },
  {
    // A reference to an attribute the schema marks deprecated (random_string's number): validate
    // warns once, plan twice (its plan walk validates the reference again).
    name: "a reference to a deprecated attribute",
    files: {
      "main.tf": `resource "random_string" "s" {
  length = 3
}
output "n" {
  value = random_string.s.number
}
`,
    },
    warnings: ["Deprecated attribute"],
  },
];


const runs = new Map<string, [ours: ToolRun, theirs: ToolRun][]>();

(TERRAFORM !== undefined ? describe : describe.skip)("configuration warnings, against terraform's", () => {
  beforeAll(async () => {
    const env = { TF_CLI_CONFIG_FILE: hashicorpRandomCliConfig() };
    await Promise.all(
      CASES.flatMap((c) =>
        SYNTAXES.map(async (syntax) => {
          const files = filesIn(syntax, c.files);
          const each = async (tool: "magma" | "terraform"): Promise<ToolRun[]> => {
            const dir = workdir(files);
            const init = await runTool(tool, ["init", "-no-color", "-input=false"], dir, env);
            if (init.code !== 0) throw new Error(`${tool} init failed in ${c.name} (${syntax}):\n${init.stdout}${init.stderr}`);
            const out: ToolRun[] = [];
            for (const command of VALIDATE_PLAN_COMMANDS) out.push(await runTool(tool, command, dir, env));
            return out;
          };
          const [m, t] = await Promise.all([each("magma"), each("terraform")]);
          runs.set(`${c.name}/${syntax}`, m.map((r, i) => [r, t[i]!]));
        }),
      ),
    );
  }, 600_000);

  test.each(CASES.flatMap((c) => SYNTAXES.flatMap((syntax) => VALIDATE_PLAN_COMMANDS.map((command, i) => [c.name, syntax, command.join(" "), i] as const))))(
    "%s, %s syntax: %s",
    (name, syntax, _command, i) => {
      const [ours, theirs] = runs.get(`${name}/${syntax}`)![i]!;
      const command: readonly string[] = VALIDATE_PLAN_COMMANDS[i]!;
      expect(comparableRun(ours, command)).toEqual(comparableRun(theirs, command));
      expect(ours.code).toBe(0);
      for (const w of CASES.find((c) => c.name === name)!.warnings) expect(ours.stdout).toContain(w);
    },
  );
});

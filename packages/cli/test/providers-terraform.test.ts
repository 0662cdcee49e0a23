// magma providers (the requirements tree of the configuration's modules and the state's
// providers) and providers schema -json through the built binary beside terraform 1.11.4 on
// copies of one working directory, in native and JSON syntax: stdout, stderr and exit code
// must be identical. Terraform prints each module's providers in Go map order, so each module
// here requires one provider. Skipped without terraform.
import { cpSync } from "node:fs";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 300_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const STATE = JSON.stringify({
  version: 4,
  terraform_version: "1.11.4",
  serial: 1,
  lineage: "0b7a3a1e-4a8f-4c8e-9d1e-2f6a5b4c3d2e",
  outputs: {},
  resources: [
    { mode: "managed", type: "random_pet", name: "p", provider: 'module.child.provider["registry.terraform.io/magma/random"]', module: "module.child", instances: [{ schema_version: 0, attributes: { id: "x" }, sensitive_attributes: [] }] },
  ],
  check_results: null,
});

const NATIVE = {
  "main.tf": `terraform {
  required_providers {
    random = { source = "magma/random", version = ">= 1.0, < 2.0" }
  }
}
module "child" {
  source = "./child"
}
`,
  "child/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random", version = "~> 1.0" }
  }
}
resource "random_pet" "p" {}
module "grandchild" {
  source = "./gc"
}
`,
  "child/gc/main.tf": `resource "random_id" "i" {
  provider = random
  byte_length = 2
}
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
`,
};

const JSON_SYNTAX = {
  "main.tf.json": JSON.stringify({ terraform: { required_providers: { random: { source: "magma/random", version: ">= 1.0, < 2.0" } } }, module: { child: { source: "./child" } } }),
  "child/main.tf.json": JSON.stringify({
    terraform: { required_providers: { random: { source: "magma/random", version: "~> 1.0" } } },
    resource: { random_pet: { p: {} } },
    module: { grandchild: { source: "./gc" } },
  }),
  "child/gc/main.tf.json": JSON.stringify({ terraform: { required_providers: { random: { source: "magma/random" } } }, resource: { random_id: { i: { byte_length: 2 } } } }),
};

/** Runs ARGS with terraform and magma on copies of an initialised directory and expects the same output and exit code. */
async function sameAsTerraform(base: string, args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true, verbatimSymlinks: true });
  cpSync(base, b, { recursive: true, verbatimSymlinks: true });
  const [theirs, ours] = await Promise.all([runTool("terraform", args, a, env), runTool("magma", args, b, env)]);
  expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  return theirs;
}

describe("providers beside terraform", () => {
  it_(
    "the requirements tree, the state's providers and every provider's schema as JSON, in native and JSON syntax",
    async () => {
      const cliConfig = randomMirrorCliConfig();
      const env = { TF_CLI_CONFIG_FILE: cliConfig };
      for (const files of [NATIVE, JSON_SYNTAX]) {
        const base = workdir({ ...files, "terraform.tfstate": STATE });
        terraform(["init", "-no-color", "-input=false"], base, { env });
        const tree = await sameAsTerraform(base, ["providers", "-no-color"], env);
        expect(tree.stdout).toContain("module.grandchild");
        const schema = await sameAsTerraform(base, ["providers", "schema", "-json"], env);
        expect(schema.stdout).toContain('"registry.terraform.io/magma/random"');
      }
      const empty = workdir();
      expect((await sameAsTerraform(empty, ["providers", "-no-color", "extra"], env)).code).toBe(1);
      await sameAsTerraform(empty, ["providers", "schema", "-json"], env);
    },
    TIMEOUT,
  );
});

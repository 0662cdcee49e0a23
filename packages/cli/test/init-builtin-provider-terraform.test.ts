// `init` and terraform's built-in provider, against terraform 1.11.4 on the same files, in
// native and JSON syntax: a configuration using terraform_data or the terraform_remote_state
// data source makes init print "- terraform.io/builtin/terraform is built in to Terraform"
// before the other providers' lines (terraform's installer reports built-in providers first);
// a version constraint on it, or an unknown type in terraform.io/builtin/, is terraform's
// "Invalid dependency on built-in provider". Exit code, stdout and stderr compared. Skipped
// without terraform.
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CASES: Readonly<Record<string, string>> = {
  // terraform_data beside a provider from the mirror: the built-in line comes first
  data: `terraform {
  required_providers {
    blocks = { source = "magma/blocks" }
  }
}
resource "terraform_data" "a" {
  input = 1
}
provider "blocks" {}
`,
  // the terraform_remote_state data source alone
  remote: `data "terraform_remote_state" "p" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}
`,
  // a version constraint on the built-in provider
  constrained: `terraform {
  required_providers {
    terraform = {
      source  = "terraform.io/builtin/terraform"
      version = "1.0.0"
    }
  }
}
resource "terraform_data" "a" {
  input = 1
}
`,
  // no built-in provider of that name
  unknown: `terraform {
  required_providers {
    foo = { source = "terraform.io/builtin/foo" }
  }
}
provider "foo" {}
`,
};

const runs = new Map<string, [ToolRun, ToolRun]>();

(TERRAFORM !== undefined ? describe : describe.skip)("init with terraform's built-in provider beside terraform's", () => {
  beforeAll(async () => {
    const cliConfig = testProvidersCliConfig({ blocks: "blocks-provider.mjs" });
    const env = { TF_CLI_CONFIG_FILE: cliConfig };
    await Promise.all(
      Object.entries(CASES).flatMap(([name, tf]) =>
        (["native", "json"] as const).map(async (syntax) => {
          const files = syntax === "native" ? { "main.tf": tf } : { "main.tf.json": tfToJson(tf) };
          const [m, t] = [workdir({ ...files }), workdir({ ...files })];
          // one after the other: the machine is shared
          const ours = await runTool("magma", ["init", "-no-color"], m, env);
          const theirs = await runTool("terraform", ["init", "-no-color"], t, env);
          runs.set(`${name} ${syntax}`, [ours, theirs]);
        }),
      ),
    );
  }, 600_000);

  test.each(Object.keys(CASES).flatMap((name) => [`${name} native`, `${name} json`]))("%s", (key) => {
    const [ours, theirs] = runs.get(key)!;
    expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
    if (key.startsWith("data") || key.startsWith("remote")) {
      expect(theirs.code).toBe(0);
      expect(theirs.stdout).toContain("Initializing provider plugins...\n- terraform.io/builtin/terraform is built in to Terraform\n");
    } else {
      expect(theirs.code).toBe(1);
      expect(theirs.stderr).toContain("Error: Invalid dependency on built-in provider");
    }
  });
});

// magma init on a directory with a backend block and local modules, against terraform 1.11.4
// on a copy of the same directory: the same output, the same .terraform/terraform.tfstate
// (backend type, configuration, hash) and .terraform/modules/modules.json byte for byte, and
// terraform plan runs on magma's directory without asking for terraform init. Registry modules
// and changed backends get clear errors.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasTerraform } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { copyWorkdir, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const FILES: Record<string, string> = {
  "main.tf": 'terraform {\n  backend "local" {\n    path = "state/my.tfstate"\n  }\n}\n\nmodule "b" {\n  source = "./mod"\n}\n\nmodule "a" {\n  source = ".//mod/"\n}\n\noutput "y" {\n  value = module.a.y\n}\n',
  "mod/main.tf": 'module "c" {\n  source = "./sub/"\n}\n\noutput "y" {\n  value = module.c.y\n}\n',
  "mod/sub/main.tf": 'output "y" {\n  value = 2\n}\n',
};

const withTerraform = hasTerraform() ? describe : describe.skip;

withTerraform("magma init records the backend and local modules as terraform init does", () => {
  test("same output and files as terraform init; terraform plan needs no re-init", async () => {
    const viaTerraform = workdir(FILES);
    const viaMagma = copyWorkdir(viaTerraform);
    const tf = terraform(["init", "-no-color", "-input=false"], viaTerraform);
    const m = await magma(["init"], { cwd: viaMagma, env: { TF_IN_AUTOMATION: "1" } });
    expect(m.stderr).toBe("");
    expect(m.code).toBe(0);
    expect(m.stdout).toBe(tf.stdout);
    for (const f of [".terraform/terraform.tfstate", ".terraform/modules/modules.json"]) {
      expect(readFileSync(join(viaMagma, f), "utf8")).toBe(readFileSync(join(viaTerraform, f), "utf8"));
    }
    const plan = terraform(["plan", "-no-color", "-input=false", "-detailed-exitcode"], viaMagma, { expect: 2 });
    expect(plan.stdout).toContain("Changes to Outputs:");
    // A second init changes nothing and says so as terraform does.
    const again = await magma(["init"], { cwd: viaMagma, env: { TF_IN_AUTOMATION: "1" } });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(terraform(["init", "-no-color", "-input=false"], viaTerraform).stdout);
  }, 180_000);
});

describe("magma init: what it cannot do, said clearly", () => {
  test("an s3:: module names the module and what magma supports; a changed backend needs -reconfigure", async () => {
    const s3 = workdir({ "main.tf": 'module "vpc" {\n  source = "s3::https://s3.amazonaws.com/bucket/vpc.zip"\n}\n' });
    const r = await magma(["init"], { cwd: s3 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: Failed to download module');
    expect(r.stderr).toContain('\n  on main.tf line 1:\n   1: module "vpc" {\n'); // the block's lines, as terraform's diagnostics
    expect(r.stderr.replace(/\s+/g, " ")).toContain('Could not download module "vpc" (main.tf:1) source code from "s3::https://s3.amazonaws.com/bucket/vpc.zip": magma does not support the s3:: module source');
    expect(existsSync(join(s3, ".terraform", "modules", "vpc"))).toBe(false);

    const dir = workdir({ "main.tf": 'terraform {\n  backend "local" {}\n}\n' });
    expect((await magma(["init"], { cwd: dir })).code).toBe(0);
    const changed = copyWorkdir(dir);
    writeFileSync(join(changed, "main.tf"), 'terraform {\n  backend "local" {\n    path = "other.tfstate"\n  }\n}\n');
    const c = await magma(["init"], { cwd: changed });
    expect(c.code).toBe(1);
    expect(c.stderr).toContain("Backend configuration changed");
    const re = await magma(["init", "-reconfigure"], { cwd: changed });
    expect(re.code).toBe(0);
    expect(re.stdout).toContain('Successfully configured the backend "local"!');
  }, 120_000);
});

// `init -migrate-state` between the local backend and s3 (fake-aws), workspaces included, side
// by side with terraform 1.11.4: each tool moves a local default and `dev` workspace into the
// bucket at the same keys, the other tool plans each workspace there with no changes, and
// magma moves them back to local files terraform plans with no changes; terraform_remote_state's
// `workspace` reads a migrated workspace in both. Skipped without
// terraform.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { cleanUp } from "./support/run-magma.js";
import { migrationSteps, type Tool } from "./support/migrate-workspaces.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_PROFILE: "" };

let fake: FakeAws;
beforeAll(async () => {
  fake = await startFakeAws();
  fake.createBucket("tfstate");
});
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await fake?.close();
});

const backend = (key: string): string =>
  `terraform {\n  backend "s3" {\n    bucket = "tfstate"\n    key = "${key}"\n    region = "us-east-1"\n    endpoints = { s3 = "${fake.url}" }\n    use_path_style = true\n    use_lockfile = true\n    skip_credentials_validation = true\n    skip_requesting_account_id = true\n    skip_metadata_api_check = true\n    skip_s3_checksum = true\n    access_key = "AKIDSTATIC"\n    secret_key = "secret"\n  }\n}\n`;

const { run, localWorkspaces, plansClean } = migrationSteps(env);

maybe("init -migrate-state between local and s3, workspaces included, as terraform", () => {
  test("both move default and dev into the bucket at the same keys; each plans the other's with no changes; magma moves them back", async () => {
    const dirs = { terraform: await localWorkspaces("terraform"), magma: await localWorkspaces("magma") };
    for (const tool of ["terraform", "magma"] as const) {
      writeFileSync(join(dirs[tool], "backend.tf"), backend(`mig-${tool}/terraform.tfstate`));
      await run(tool, ["init", "-input=false", "-migrate-state", "-force-copy"], dirs[tool]);
    }
    const keys = (tool: Tool): string[] =>
      fake
        .state()
        .s3Objects.map((o) => o.key)
        .filter((k) => k.includes(`mig-${tool}/`))
        .map((k) => k.replace(tool, "<tool>"))
        .sort();
    expect(keys("magma")).toEqual(keys("terraform"));
    expect(keys("terraform")).toEqual(["env:/dev/mig-<tool>/terraform.tfstate", "mig-<tool>/terraform.tfstate"]);
    await plansClean("terraform", dirs.magma);
    await plansClean("magma", dirs.terraform);
    // terraform_remote_state's `workspace` over s3 reads magma's migrated dev state, in both.
    const consumer = {
      "main.tf": `data "terraform_remote_state" "s" {\n  backend = "s3"\n  workspace = "dev"\n  config = {\n    bucket = "tfstate"\n    key = "mig-magma/terraform.tfstate"\n    region = "us-east-1"\n    endpoints = { s3 = "${fake.url}" }\n    use_path_style = true\n    skip_credentials_validation = true\n    skip_requesting_account_id = true\n    skip_s3_checksum = true\n    access_key = "AKIDSTATIC"\n    secret_key = "secret"\n  }\n}\noutput "ws" {\n  value = data.terraform_remote_state.s.outputs.ws\n}\n`,
    };
    for (const tool of ["terraform", "magma"] as const) {
      const c = workdir(consumer);
      if (tool === "terraform") await run(tool, ["init", "-input=false"], c);
      await run(tool, ["apply", "-auto-approve", "-input=false"], c);
      expect((await run(tool, ["output", "-raw", "ws"], c)).stdout).toBe("dev");
    }
    // Back to local (magma), then terraform plans the local files with no changes.
    const m = dirs.magma;
    rmSync(join(m, "backend.tf"));
    rmSync(join(m, "terraform.tfstate"), { force: true });
    rmSync(join(m, "terraform.tfstate.d"), { recursive: true, force: true });
    await run("magma", ["init", "-input=false", "-migrate-state", "-force-copy"], m);
    expect(existsSync(join(m, "terraform.tfstate.d", "dev", "terraform.tfstate"))).toBe(true);
    expect(JSON.parse(readFileSync(join(m, "terraform.tfstate.d", "dev", "terraform.tfstate"), "utf8")).resources[0].instances[0].attributes.input).toEqual({ type: "string", value: "dev" });
    await plansClean("terraform", m);
  });
});

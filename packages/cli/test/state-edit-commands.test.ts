// magma taint, untaint, state replace-provider and version through the built binary beside
// terraform 1.11.4 on copies of one working directory (a local state with a counted managed
// resource and a data source of another provider, a dependency lock file with two providers):
// stdout, stderr, exit code and the state written must be identical. None of them reads the configuration's language, so there is no JSON
// syntax variant. Skipped without terraform.
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 180_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const instance = (key: string, attrs: string, extra = ""): string =>
  `{ ${key}"schema_version": 0, "attributes": ${attrs}, "sensitive_attributes": []${extra} }`;

const STATE = `{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 3,
  "lineage": "2c1e0a4e-5d52-4b8f-9e57-0a1c6c7f0e11",
  "outputs": {},
  "resources": [
    { "mode": "managed", "type": "random_pet", "name": "a", "provider": "provider[\\"registry.terraform.io/hashicorp/random\\"]",
      "instances": [${instance('"index_key": 0, ', '{ "id": "x", "length": 2 }')}, ${instance('"index_key": 1, ', '{ "id": "y", "length": 2 }', ', "status": "tainted"')}] },
    { "mode": "data", "type": "null_d", "name": "d", "provider": "provider[\\"registry.terraform.io/hashicorp/null\\"]",
      "instances": [${instance("", '{ "id": "z" }')}] }
  ],
  "check_results": null
}
`;

const LOCK = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/random" {
  version = "3.6.0"
  hashes = [
    "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=",
  ]
}

provider "registry.terraform.io/magma/aaa" {
  version = "1.0.0"
}
`;

/** Runs ARGS with terraform and magma on copies of a directory and expects the same output, exit code and state file. */
async function sameAsTerraform(files: Record<string, string>, args: readonly string[], stdin?: string): Promise<{ code: number | null; stdout: string; dir: string }> {
  const base = workdir({ ...files, "cli.tfrc": "" });
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true });
  cpSync(base, b, { recursive: true });
  const env = { TF_CLI_CONFIG_FILE: join(base, "cli.tfrc") };
  const opts = stdin === undefined ? {} : { stdin };
  const [theirs, ours] = await Promise.all([runTool("terraform", args, a, env, opts), runTool("magma", args, b, env, opts)]);
  expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  const state = (d: string): string | undefined => (existsSync(join(d, "terraform.tfstate")) ? readFileSync(join(d, "terraform.tfstate"), "utf8") : undefined);
  expect(state(b)).toEqual(state(a));
  // The state commands' timestamped backup (magma's local backend also keeps terraform.tfstate.backup, as terraform's does for taint).
  const backups = (d: string): number => readdirSync(d).filter((n) => /^terraform\.tfstate\.\d+\.backup$/.test(n)).length;
  expect(backups(b)).toBe(backups(a));
  if (args[0] !== "state") expect(existsSync(join(b, "terraform.tfstate.backup"))).toBe(existsSync(join(a, "terraform.tfstate.backup")));
  return { ...theirs, dir: a };
}

describe("taint, untaint and version beside terraform", () => {
  it_("taint marks an instance tainted; untaint clears it; each refuses what terraform refuses", async () => {
    const files = { "terraform.tfstate": STATE };
    expect((await sameAsTerraform(files, ["taint", "-no-color", "random_pet.a[0]"])).code).toBe(0);
    expect((await sameAsTerraform(files, ["untaint", "-no-color", "random_pet.a[1]"])).code).toBe(0);
    expect((await sameAsTerraform(files, ["untaint", "-no-color", "random_pet.a[0]"])).code).toBe(1);
    expect((await sameAsTerraform(files, ["taint", "-no-color", "data.null_d.d"])).code).toBe(1);
    expect((await sameAsTerraform(files, ["taint", "-no-color", "random_pet.a[7]"])).code).toBe(1);
    expect((await sameAsTerraform(files, ["taint", "-no-color", "-allow-missing", "random_pet.b"])).code).toBe(0);
  }, TIMEOUT);

  it_("no state, a bad address, a wrong number of arguments", async () => {
    expect((await sameAsTerraform({}, ["taint", "-no-color", "random_pet.a"])).code).toBe(1);
    expect((await sameAsTerraform({}, ["untaint", "-no-color", "-allow-missing", "random_pet.a"])).code).toBe(0);
    expect((await sameAsTerraform({}, ["taint", "-no-color", "foo"])).code).toBe(1);
    expect((await sameAsTerraform({}, ["untaint", "-no-color"])).code).toBe(1);
  }, TIMEOUT);

  it_("state replace-provider: the changes shown, confirmed by -auto-approve or yes, refused by anything else; nothing to change; no state", async () => {
    const files = { "terraform.tfstate": STATE };
    const move = ["state", "replace-provider", "-no-color"];
    expect((await sameAsTerraform(files, [...move, "-auto-approve", "hashicorp/random", "registry.terraform.io/magma/random"])).code).toBe(0);
    await sameAsTerraform(files, [...move, "hashicorp/random", "magma/random"], "yes\n");
    await sameAsTerraform(files, [...move, "hashicorp/random", "magma/random"], "no\n");
    expect((await sameAsTerraform(files, [...move, "-auto-approve", "hashicorp/aws", "magma/aws"])).stdout).toContain("No matching resources found.");
    expect((await sameAsTerraform(files, [...move, "hashicorp/random"])).code).toBe(1);
    expect((await sameAsTerraform({}, [...move, "-auto-approve", "hashicorp/random", "magma/random"])).code).toBe(1);
  }, TIMEOUT);

  it_("version and version -json list the lock file's provider selections", async () => {
    for (const files of [{}, { ".terraform.lock.hcl": LOCK }]) {
      await sameAsTerraform(files, ["version"]);
      await sameAsTerraform(files, ["version", "-json"]);
    }
  }, TIMEOUT);
});

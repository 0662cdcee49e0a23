// magma init and magma validate through the built binary, against terraform 1.11.4 on the
// same directories: the lock file byte for byte (providers from the filesystem mirror),
// h1 verification, a missing provider, and validate -json (skipped without terraform / AWS).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { awsAvailable, cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, copyWorkdir, mirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const withTerraformAndAws = TERRAFORM !== undefined && awsAvailable ? describe : describe.skip;
const withTerraform = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

withTerraformAndAws("magma init with hashicorp/aws from the filesystem mirror", () => {
  test("writes terraform's lock file byte for byte, verifies it on the next run, refuses a wrong hash", async () => {
    const config = { "main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = ">= 5.0, ~> 5.1"\n    }\n  }\n}\n' };
    const viaTerraform = workdir(config);
    const tf = terraform(["init", "-no-color", "-input=false"], viaTerraform);
    const viaMagma = workdir(config);
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig(), TF_IN_AUTOMATION: "1" };
    const m = await magma(["init"], { cwd: viaMagma, env });
    expect(m.stderr).toBe("");
    expect(m.code).toBe(0);
    expect(m.stdout).toBe(tf.stdout);
    const lock = readFileSync(join(viaMagma, ".terraform.lock.hcl"), "utf8");
    expect(lock).toBe(readFileSync(join(viaTerraform, ".terraform.lock.hcl"), "utf8"));
    // Terraform takes the directory over as it is.
    terraform(["validate", "-no-color"], viaMagma);

    const again = await magma(["init"], { cwd: viaMagma, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("- Reusing previous version of hashicorp/aws from the dependency lock file\n- Using previously-installed hashicorp/aws v5.100.0\n");

    const tampered = copyWorkdir(viaMagma);
    writeFileSync(join(tampered, ".terraform.lock.hcl"), lock.replace(/"h1:[^"]+"/, '"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="'));
    const bad = await magma(["init"], { cwd: tampered, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("doesn't match any of the checksums previously recorded in the dependency lock file");
  }, 300_000);
});

describe("magma init without the provider", () => {
  test("names the directories searched as terraform does; native providers need nothing", async () => {
    const dir = workdir({ "main.tf": 'terraform {\n  required_providers {\n    nothere = {\n      source = "example.com/acme/nothere"\n    }\n  }\n}\n' });
    const r = await magma(["init", "-plugin-dir=" + join(dir, "plugins")], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Failed to query available provider packages");
    expect(r.stderr).toContain(join(dir, "plugins"));
    // terraform's own words (the search locations listed, nothing else)
    expect(r.stderr).toContain(`provider example.com/acme/nothere was not found in any of the search locations\n\n  - ${join(dir, "plugins")}\n`);
    const native = workdir({ "main.tf": 'terraform {\n  required_providers {\n    random = {\n      source = "magma/random"\n    }\n  }\n}\n' });
    const n = await magma(["init"], { cwd: native });
    expect(n.code).toBe(0);
    expect(n.stdout).toContain("- Using magma/random (native, built into magma)");
  }, 120_000);
});

interface ValidateDocument {
  diagnostics: { summary: string; range?: { filename: string; start: { byte: number } } }[];
}

function sortedDiagnostics(json: string): ValidateDocument {
  const doc = JSON.parse(json) as ValidateDocument;
  const key = (d: ValidateDocument["diagnostics"][number]): string => `${d.range?.filename ?? ""}\0${String(d.range?.start.byte ?? -1).padStart(12, "0")}\0${d.summary}`;
  doc.diagnostics.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return doc;
}

withTerraform("magma validate", () => {
  test("-json is terraform's document and the human form has terraform's snippets", async () => {
    const dir = workdir({
      "main.tf": 'resource "terraform_data" "a" {\n  input = var.nope\n}\n\noutput "o" {\n  value = terraform_data.b.id\n}\n',
    });
    const tf = terraform(["validate", "-json"], dir, { expect: 1 });
    const m = await magma(["validate", "-json"], { cwd: dir });
    expect(m.code).toBe(1);
    // terraform validate walks its graph concurrently, so the order of its diagnostics varies
    // from run to run: compare the documents with the diagnostics in source order.
    expect(sortedDiagnostics(m.stdout)).toEqual(sortedDiagnostics(tf.stdout));
    const human = await magma(["validate"], { cwd: dir });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('\nError: Reference to undeclared input variable\n\n  on main.tf line 2, in resource "terraform_data" "a":\n   2:   input = var.nope\n');
    const ok = await magma(["validate"], { cwd: workdir({ "main.tf": 'output "x" {\n  value = 1\n}\n' }) });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("Success! The configuration is valid.\n\n");
  }, 120_000);
});

withTerraformAndAws("magma validate and provider-defined functions (hashicorp/aws 5.100.0)", () => {
  test("calls with known arguments are made and their errors reported, unknown arguments are not called, unknown names are errors — as terraform validate", async () => {
    const config = {
      "main.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}
variable "x" {
  default = "q"
}
locals {
  a = provider::aws::arn_parse("not-an-arn")
  b = provider::aws::arn_parse(var.x)
  c = provider::aws::nope("x")
  d = provider::aws::trim_iam_role_path("arn:aws:iam::444455556666:role/some/path/deployer")
}
`,
    };
    const env = { TF_CLI_CONFIG_FILE: mirrorCliConfig(), TF_IN_AUTOMATION: "1" };
    const viaTerraform = workdir(config);
    terraform(["init", "-no-color", "-input=false"], viaTerraform);
    const tf = terraform(["validate", "-json"], viaTerraform, { expect: 1 });
    const viaMagma = workdir(config);
    expect((await magma(["init"], { cwd: viaMagma, env })).code).toBe(0);
    const m = await magma(["validate", "-json"], { cwd: viaMagma, env });
    expect(m.code).toBe(1);
    // The diagnostics (terraform's snippets also describe the called function's signature).
    const plain = (json: string): unknown[] => sortedDiagnostics(json).diagnostics.map((d) => ({ summary: d.summary, detail: (d as { detail?: string }).detail, range: d.range }));
    expect(plain(m.stdout)).toEqual(plain(tf.stdout));
    expect(plain(m.stdout).map((d) => (d as { summary: string }).summary)).toEqual(["Error in function call", "Unknown provider function"]);
  }, 300_000);
});

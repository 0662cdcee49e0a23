// The s3 backend shared by magma and terraform 1.11.4 on one bucket and DynamoDB table, on
// real S3- and DynamoDB-compatible servers from npm (s3rver, dynalite; see
// @magma/state's test/support/aws-servers.ts for what they do not speak): the init record,
// state written by one planned with no changes by the other, workspaces, locks blocking
// each other and force-unlock (bad inputs: s3-bad-inputs-terraform.test.ts; S3 lock files:
// s3-lockfile-terraform.test.ts). Skipped without terraform.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openConfiguredBackend } from "@magma/state";
import { S3RVER_CREDENTIALS, startAwsServers, type AwsServers } from "../../state/test/support/aws-servers.js";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_PROFILE: "" };

let aws: AwsServers;
beforeAll(async () => {
  aws = await startAwsServers();
  await aws.createBucket("tfstate");
  await aws.createLockTable("locks");
}, 60_000);
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await aws?.stop();
});

/** The settings terraform's s3 backend needs against s3rver/dynalite (no STS, no checksums, path style). */
function settings(key: string): Record<string, string | boolean | Record<string, string>> {
  return {
    bucket: "tfstate",
    key,
    region: "us-east-1",
    endpoints: { s3: aws.s3, dynamodb: aws.dynamodb },
    use_path_style: true,
    skip_credentials_validation: true,
    skip_requesting_account_id: true,
    skip_metadata_api_check: true,
    skip_region_validation: true,
    skip_s3_checksum: true,
    access_key: S3RVER_CREDENTIALS.accessKeyId,
    secret_key: S3RVER_CREDENTIALS.secretAccessKey,
    dynamodb_table: "locks",
  };
}

function hcl(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return String(v);
  return `{ ${Object.entries(v as Record<string, string>).map(([k, x]) => `${k} = ${JSON.stringify(x)}`).join(", ")} }`;
}

const config = (key: string): string =>
  `terraform {\n  backend "s3" {\n${Object.entries(settings(key)).map(([k, v]) => `    ${k} = ${hcl(v)}`).join("\n")}\n  }\n}\nresource "terraform_data" "a" {\n  input = var.v\n}\nvariable "v" {\n  default = "x"\n}\noutput "o" {\n  value = terraform_data.a.output\n}\n`;

const magmaIn = (args: string[], cwd: string): ReturnType<typeof magma> => magma(args, { cwd, env });

maybe("the s3 backend, shared with terraform", () => {
  test("init records the block as terraform does; each plans the other's state with no changes; workspaces are shared", async () => {
    const t = workdir({ "main.tf": config("app/terraform.tfstate") });
    const m = workdir({ "main.tf": config("app/terraform.tfstate") });
    await terraformAsync(["init", "-input=false"], t, { env });
    expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
    expect(readFileSync(join(m, ".terraform", "terraform.tfstate"), "utf8")).toBe(readFileSync(join(t, ".terraform", "terraform.tfstate"), "utf8"));
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
    let r = await magmaIn(["plan", "-detailed-exitcode", "-input=false"], m);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    r = await magmaIn(["apply", "-auto-approve", "-input=false", "-var", "v=y"], m);
    expect(r.code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false", "-var", "v=y"], t, { env });
    // A workspace made by magma is terraform's.
    expect((await magmaIn(["workspace", "new", "dev"], m)).code).toBe(0);
    expect((await magmaIn(["apply", "-auto-approve", "-input=false", "-var", "v=dev"], m)).code).toBe(0);
    expect((await terraformAsync(["workspace", "list"], t, { env })).stdout).toContain("dev");
    await terraformAsync(["workspace", "select", "dev"], t, { env });
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false", "-var", "v=dev"], t, { env });
    expect((await terraformAsync(["output", "-raw", "o"], t, { env })).stdout).toBe("dev");
  });

  test("a DynamoDB lock blocks terraform and magma alike; magma's force-unlock releases it", async () => {
    const t = workdir({ "main.tf": config("locked/terraform.tfstate") });
    const m = workdir({ "main.tf": config("locked/terraform.tfstate") });
    await terraformAsync(["init", "-input=false"], t, { env });
    expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
    const holder = await openConfiguredBackend("s3", settings("locked/terraform.tfstate"), { dir: m, env: {} });
    const id = await holder.backend.store("default").lock({ operation: "OperationTypeApply" });
    await holder.close();
    const tp = await terraformAsync(["plan", "-no-color", "-input=false"], t, { env, expect: 1 });
    const mp = await magmaIn(["plan", "-no-color", "-input=false"], m);
    expect(mp.code).toBe(1);
    for (const out of [tp.stderr, mp.stderr]) {
      expect(out).toContain("Error acquiring the state lock");
      expect(out).toContain(id);
    }
    const fu = await magmaIn(["force-unlock", "-force", id], m);
    expect(fu.code).toBe(0);
    expect((await magmaIn(["apply", "-auto-approve", "-input=false"], m)).code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], t, { env });
  });
});

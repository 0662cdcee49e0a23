// Bad inputs to the s3 backend, each run by magma and by terraform 1.11.4 on the same kind of
// directory and compared: wrong credentials (s3rver checks signatures), a missing bucket, a
// corrupt state object, and the connection cut during the upload of the state at the end of
// an apply (fake-aws's S3 with a dropConnection fault on every PutObject: the server gone
// mid-write as the client sees it). In each case the error is terraform's and no state is
// lost: the stored object is the one before, and a failed upload leaves errored.tfstate,
// which `state push` then stores. (A lock held by a dead holder: s3-lockfile-terraform.test.ts.)
// Skipped without terraform.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { S3RVER_CREDENTIALS, startAwsServers, type AwsServers } from "../../state/test/support/aws-servers.js";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_PROFILE: "" };

let fake: FakeAws;
let aws: AwsServers;
beforeAll(async () => {
  fake = await startFakeAws();
  fake.createBucket("tfstate");
  aws = await startAwsServers();
  await aws.createBucket("tfstate");
}, 60_000);
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await fake?.close();
  await aws?.stop();
});

function config(s3: string, settings: Record<string, string>): string {
  const all: Record<string, string> = {
    bucket: `"tfstate"`,
    region: `"us-east-1"`,
    endpoints: `{ s3 = "${s3}" }`,
    use_path_style: "true",
    skip_credentials_validation: "true",
    skip_requesting_account_id: "true",
    skip_metadata_api_check: "true",
    skip_region_validation: "true",
    skip_s3_checksum: "true",
    access_key: `"${S3RVER_CREDENTIALS.accessKeyId}"`,
    secret_key: `"${S3RVER_CREDENTIALS.secretAccessKey}"`,
    max_retries: "1",
    ...settings,
  };
  return `terraform {\n  backend "s3" {\n${Object.entries(all)
    .map(([k, v]) => `    ${k} = ${v}`)
    .join("\n")}\n  }\n}\nresource "terraform_data" "a" {\n  input = var.v\n}\nvariable "v" {\n  default = "x"\n}\n`;
}

const magmaIn = (args: string[], cwd: string): ReturnType<typeof magma> => magma(args, { cwd, env });

/** The `Error: <summary>` lines of an output. */
const summaries = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("Error: ")).map((l) => l.trim());

/** Runs `init` in a fresh directory per tool; both must fail (terraform lists the workspaces and reads the state at init). */
async function bothFailInit(files: Record<string, string>): Promise<{ t: string; m: string; mdir: string }> {
  const t = workdir(files);
  const m = workdir(files);
  const tr = await terraformAsync(["init", "-no-color", "-input=false"], t, { env, expect: 1 });
  const mr = await magmaIn(["init", "-no-color", "-input=false"], m);
  expect(mr.code).toBe(1);
  return { t: tr.stderr, m: mr.stderr, mdir: m };
}

maybe("bad inputs to the s3 backend, as terraform", () => {
  test("wrong credentials: both fail to read the state with the service's InvalidAccessKeyId", async () => {
    const { t, m, mdir } = await bothFailInit({ "main.tf": config(aws.s3, { key: `"creds/terraform.tfstate"`, access_key: `"WRONG"` }) });
    const line = 'Error: Failed to get existing workspaces: Unable to list objects in S3 bucket "tfstate" with prefix "env:/": operation error S3: ListObjectsV2, https response error StatusCode: 403';
    for (const out of [t, m]) expect(out).toContain(line);
    for (const out of [t, m]) expect(out).toContain("api error InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.");
    // As terraform, the backend is not recorded.
    expect(existsSync(join(mdir, ".terraform", "terraform.tfstate"))).toBe(false);
  });

  test("a missing bucket: terraform's 'S3 bucket does not exist' at init", async () => {
    const { t, m } = await bothFailInit({ "main.tf": config(aws.s3, { key: `"nb/terraform.tfstate"`, bucket: `"nope"` }) });
    // (The last line is the SDK's error, which the Go and JavaScript SDKs word apart.)
    for (const out of [t, m]) expect(summaries(out)[0]).toBe('Error: Failed to get existing workspaces: S3 bucket "nope" does not exist.');
    for (const out of [t, m]) expect(out).toContain("operation error S3: ListObjectsV2, https response error StatusCode: 404");
  });

  test("a corrupt state object is refused as terraform refuses it, and left as it was", async () => {
    const key = "corrupt/terraform.tfstate";
    await fetch(`${aws.s3}/tfstate/${key}`, { method: "PUT", body: "{ not json" });
    const { t, m } = await bothFailInit({ "main.tf": config(aws.s3, { key: `"${key}"` }) });
    for (const out of [t, m]) expect(summaries(out)[0]).toMatch(/^Error: Error refreshing state: /);
    // terraform: "Unsupported state file format: The state file could not be parsed as JSON: …"; magma names the offset in its own words.
    expect(t).toContain("Unsupported state file format");
    expect(m).toContain("the state file is not valid");
    expect(await (await fetch(`${aws.s3}/tfstate/${key}`)).text()).toBe("{ not json");
  });

  test("the connection cut during the state upload: terraform's errors, errored.tfstate written, the stored state is the one before", async () => {
    const files = { "main.tf": config(fake.url, { key: `"cut/terraform.tfstate"` }) };
    const t = workdir(files);
    const m = workdir(files);
    await terraformAsync(["init", "-input=false"], t, { env });
    expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
    const stored = (): string => Buffer.from(fake.state().s3Objects.find((o) => o.key === "cut/terraform.tfstate")!.body).toString("utf8");
    const before = stored();
    const fault = fake.inject({ action: "PutObject", service: "s3", times: "always", dropConnection: true });
    let tr: { stderr: string };
    let mr: { stderr: string; code: number | null };
    try {
      tr = await terraformAsync(["apply", "-auto-approve", "-no-color", "-input=false", "-var", "v=t"], t, { env, expect: 1 });
      mr = await magmaIn(["apply", "-auto-approve", "-no-color", "-input=false", "-var", "v=m"], m);
    } finally {
      fault.remove();
    }
    expect(mr.code).toBe(1);
    expect(summaries(mr.stderr)).toEqual(summaries(tr.stderr));
    expect(mr.stderr).toContain("failed to upload state");
    expect(stored()).toBe(before);
    // The new state is in errored.tfstate; pushed, it is what both plan with no changes.
    for (const dir of [t, m]) expect(existsSync(join(dir, "errored.tfstate"))).toBe(true);
    expect(JSON.parse(readFileSync(join(m, "errored.tfstate"), "utf8")).resources[0].instances[0].attributes.input).toEqual({ type: "string", value: "m" });
    // Both keep it with the serial its write would have had, so that `state push` takes it.
    const serial = (d: string): number => (JSON.parse(readFileSync(join(d, "errored.tfstate"), "utf8")) as { serial: number }).serial;
    expect(serial(m)).toBe(serial(t));
    expect(serial(m)).toBe((JSON.parse(before) as { serial: number }).serial + 1);
    const push = await magmaIn(["state", "push", "errored.tfstate"], m);
    expect(push.stderr).toBe("");
    expect(push.code).toBe(0);
    expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false", "-var", "v=m"], m)).code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false", "-var", "v=m"], t, { env });
  });
});

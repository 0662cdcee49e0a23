// Integration: the real terraform CLI and the real hashicorp/aws 5.100.0 provider against the
// fake. One working directory, one `terraform init`, one fake server for the whole file: the
// provider needs ~10 s of CPU per command, so the three resource types share each command.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startFakeAws, type FakeAws, type FakeAwsCall } from "../src/index.js";

const PROVIDER_BIN = "/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";
const terraformOnPath = (process.env["PATH"] ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, "terraform")));
const d = terraformOnPath && existsSync(PROVIDER_BIN) ? describe : describe.skip;

const STEP_TIMEOUT = 600_000;

interface TfResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface StateResource {
  address: string;
  type: string;
  tainted?: boolean;
  values: Record<string, unknown>;
}

/** A resource of `terraform state pull`'s document (state format 4). */
interface PulledResource {
  mode: string;
  type: string;
  name: string;
  instances: { index_key?: unknown; status?: string; attributes: Record<string, unknown> }[];
}

const children = new Set<ChildProcess>();
/** Actions the provider called, per lifecycle step (printed at the end for the record). */
const actionsByStep = new Map<string, string[]>();

function providerBlock(url: string): string {
  return `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "5.100.0" }
  }
}
provider "aws" {
  region                      = "us-east-1"
  access_key                  = "test"
  secret_key                  = "test"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  skip_region_validation      = true
  max_retries                 = 2
  endpoints {
    ssm  = "${url}"
    logs = "${url}"
    ec2  = "${url}"
    sts  = "${url}"
    iam  = "${url}"
  }
}
`;
}

const V1 = `
resource "aws_ssm_parameter" "plain" {
  name  = "/app/plain"
  type  = "String"
  value = "v1"
  tags  = { env = "dev", old = "x" }
}
resource "aws_ssm_parameter" "secret" {
  name  = "/app/secret"
  type  = "SecureString"
  value = "s3cret"
  tags  = { kind = "secret" }
}
resource "aws_cloudwatch_log_group" "lg" {
  name              = "/app/logs"
  retention_in_days = 7
  tags              = { env = "dev", old = "x" }
}
resource "aws_eip" "ip" {
  domain = "vpc"
  tags   = { Name = "test-eip", old = "x" }
}
`;

const V2 = `
resource "aws_ssm_parameter" "plain" {
  name        = "/app/plain"
  type        = "String"
  value       = "v2"
  description = "updated"
  tags        = { env = "prod", team = "core" }
}
resource "aws_ssm_parameter" "secret" {
  name  = "/app/secret-renamed"
  type  = "SecureString"
  value = "s3cret"
  tags  = { kind = "secret" }
}
resource "aws_cloudwatch_log_group" "lg" {
  name              = "/app/logs"
  retention_in_days = 30
  tags              = { env = "prod" }
}
resource "aws_eip" "ip" {
  domain = "vpc"
  tags   = { Name = "test-eip", env = "prod" }
}
`;

d("terraform + hashicorp/aws 5.100.0 against the fake", () => {
  let fake: FakeAws;
  let dir: string;
  let eipId = "";

  const tf = (args: string[]): Promise<TfResult> =>
    new Promise((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc"), TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
      delete env["TF_REATTACH_PROVIDERS"];
      delete env["TF_LOG"];
      const child = spawn("terraform", args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
      child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT - 30_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        children.delete(child);
        resolve({ code, stdout, stderr });
      });
    });

  /** Runs a terraform command, records the actions the provider called under `step`. */
  const step = async (name: string, args: string[]): Promise<TfResult> => {
    fake.resetCalls();
    const r = await tf(args);
    const actions = fake.calls.map((c) => `${c.service}:${c.action}`);
    actionsByStep.set(name, [...new Set(actions)].sort());
    expect(fake.unknownCalls()).toEqual([]);
    return r;
  };

  const failInfo = (r: TfResult): string => `exit ${String(r.code)}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`;

  const expectExit = (r: TfResult, code: number): void => {
    if (r.code !== code) throw new Error(`expected terraform to exit ${code}, got ${failInfo(r)}`);
  };

  /**
   * The state terraform stored, from `terraform state pull`: unlike `show -json` it does not
   * start the provider for its schema (each hashicorp/aws start costs seconds of CPU), and the
   * stored attributes are the values `show -json` prints.
   */
  const showState = async (): Promise<Map<string, StateResource>> => {
    const r = await tf(["state", "pull"]);
    expectExit(r, 0);
    const doc = JSON.parse(r.stdout) as { resources?: PulledResource[] };
    const out = new Map<string, StateResource>();
    for (const res of doc.resources ?? []) {
      if (res.mode !== "managed") continue;
      for (const inst of res.instances) {
        if (inst.index_key !== undefined) throw new Error(`unexpected instance key ${JSON.stringify(inst.index_key)} of ${res.type}.${res.name}`);
        const address = `${res.type}.${res.name}`;
        out.set(address, { address, type: res.type, values: inst.attributes, ...(inst.status === "tainted" ? { tainted: true } : {}) });
      }
    }
    return out;
  };

  const writeConfig = (body: string): void => writeFileSync(join(dir, "main.tf"), providerBlock(fake.url) + body);
  const callsOf = (action: string, service?: FakeAwsCall["service"]): FakeAwsCall[] => fake.callsOf(action, service);

  beforeAll(async () => {
    fake = await startFakeAws();
    dir = mkdtempSync(join(tmpdir(), "fake-aws-tf-"));
    writeFileSync(join(dir, "cli.tfrc"), `provider_installation {\n  filesystem_mirror {\n    path = "/opt/tf-plugins"\n  }\n}\n`);
    writeConfig(V1);
    const r = await tf(["init", "-input=false", "-no-color"]);
    expectExit(r, 0);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    if (fake !== undefined) await fake.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(`provider calls per step:\n${[...actionsByStep].map(([k, v]) => `  ${k}: ${v.join(", ")}`).join("\n")}`);
  });

  test(
    "apply creates an SSM String and SecureString with tags, a log group with retention and tags, and a VPC EIP",
    async () => {
      const r = await step("create (apply)", ["apply", "-auto-approve", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("Apply complete! Resources: 4 added, 0 changed, 0 destroyed.");

      const s = fake.state();
      expect(s.ssmParameters.map((p) => [p.name, p.type, p.value, p.tags])).toEqual([
        ["/app/plain", "String", "v1", { env: "dev", old: "x" }],
        ["/app/secret", "SecureString", "s3cret", { kind: "secret" }],
      ]);
      expect(s.logGroups.map((g) => [g.name, g.retentionInDays, g.tags])).toEqual([["/app/logs", 7, { env: "dev", old: "x" }]]);
      expect(s.addresses).toHaveLength(1);
      const eip = s.addresses[0]!;
      eipId = eip.allocationId;
      expect(eip).toMatchObject({ domain: "vpc", tags: { Name: "test-eip", old: "x" } });
      expect(callsOf("AllocateAddress")[0]?.params).toEqual({
        Domain: "vpc",
        TagSpecification: [{ ResourceType: "elastic-ip", Tag: expect.arrayContaining([{ Key: "Name", Value: "test-eip" }, { Key: "old", Value: "x" }]) }],
      });

      const st = await showState();
      expect(st.get("aws_ssm_parameter.plain")?.values).toMatchObject({
        name: "/app/plain",
        type: "String",
        value: "v1",
        version: 1,
        tier: "Standard",
        data_type: "text",
        arn: "arn:aws:ssm:us-east-1:123456789012:parameter/app/plain",
        tags: { env: "dev", old: "x" },
      });
      expect(st.get("aws_ssm_parameter.secret")?.values).toMatchObject({ type: "SecureString", value: "s3cret", key_id: "alias/aws/ssm", insecure_value: null });
      expect(st.get("aws_cloudwatch_log_group.lg")?.values).toMatchObject({
        name: "/app/logs",
        retention_in_days: 7,
        arn: "arn:aws:logs:us-east-1:123456789012:log-group:/app/logs",
        tags: { env: "dev", old: "x" },
        log_group_class: "STANDARD",
      });
      expect(st.get("aws_eip.ip")?.values).toMatchObject({
        id: eip.allocationId,
        allocation_id: eip.allocationId,
        public_ip: eip.publicIp,
        domain: "vpc",
        public_ipv4_pool: "amazon",
        network_border_group: "us-east-1",
        tags: { Name: "test-eip", old: "x" },
      });
    },
    STEP_TIMEOUT,
  );

  test(
    "plan right after apply shows no changes (-detailed-exitcode 0)",
    async () => {
      const r = await step("refresh (plan)", ["plan", "-detailed-exitcode", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("No changes.");
    },
    STEP_TIMEOUT,
  );

  test(
    "update: value, description and tags in place; a new name replaces the parameter; retention and tags of the log group and EIP change",
    async () => {
      writeConfig(V2);
      const r = await step("update (apply)", ["apply", "-auto-approve", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("aws_ssm_parameter.secret must be replaced");
      expect(r.stdout).toContain("Apply complete! Resources: 1 added, 3 changed, 1 destroyed.");

      expect(callsOf("DeleteParameter").map((c) => c.params)).toEqual([{ Name: "/app/secret" }]);
      expect(callsOf("PutParameter").map((c) => [c.params["Name"], c.params["Overwrite"]])).toEqual(
        expect.arrayContaining([
          ["/app/plain", true],
          ["/app/secret-renamed", false],
        ]),
      );
      expect(callsOf("RemoveTagsFromResource").map((c) => c.params["TagKeys"])).toEqual([["old"]]);
      expect(callsOf("UntagResource", "logs").map((c) => c.params["tagKeys"])).toEqual([["old"]]);
      expect(callsOf("DeleteTags").map((c) => c.params["Tag"])).toEqual([[{ Key: "old", Value: "x" }]]);
      expect(callsOf("PutRetentionPolicy").map((c) => c.params["retentionInDays"])).toEqual([30]);

      const s = fake.state();
      expect(s.ssmParameters.map((p) => [p.name, p.value, p.version, p.description, p.tags])).toEqual([
        ["/app/plain", "v2", 2, "updated", { env: "prod", team: "core" }],
        ["/app/secret-renamed", "s3cret", 1, undefined, { kind: "secret" }],
      ]);
      expect(s.logGroups.map((g) => [g.retentionInDays, g.tags])).toEqual([[30, { env: "prod" }]]);
      expect(s.addresses.map((a) => [a.allocationId, a.tags])).toEqual([[eipId, { Name: "test-eip", env: "prod" }]]);

      const st = await showState();
      expect(st.get("aws_ssm_parameter.plain")?.values).toMatchObject({ value: "v2", description: "updated", version: 2, tags: { env: "prod", team: "core" } });
      expect(st.get("aws_ssm_parameter.secret")?.values).toMatchObject({ name: "/app/secret-renamed", id: "/app/secret-renamed" });
      expect(st.get("aws_cloudwatch_log_group.lg")?.values).toMatchObject({ retention_in_days: 30, tags: { env: "prod" } });
      expect(st.get("aws_eip.ip")?.values).toMatchObject({ id: eipId, tags: { Name: "test-eip", env: "prod" } });
    },
    STEP_TIMEOUT,
  );

  test(
    "import blocks bring all four back after `state rm`, and the next plan shows no changes",
    async () => {
      const before = await showState();
      const rm = await tf(["state", "rm", "-no-color", "aws_ssm_parameter.plain", "aws_ssm_parameter.secret", "aws_cloudwatch_log_group.lg", "aws_eip.ip"]);
      expectExit(rm, 0);
      expect((await showState()).size).toBe(0);

      writeConfig(
        V2 +
          [
            ["aws_ssm_parameter.plain", "/app/plain"],
            ["aws_ssm_parameter.secret", "/app/secret-renamed"],
            ["aws_cloudwatch_log_group.lg", "/app/logs"],
            ["aws_eip.ip", eipId],
          ]
            .map(([to, id]) => `import {\n  to = ${to}\n  id = "${id}"\n}\n`)
            .join(""),
      );
      const r = await step("import (apply with import blocks)", ["apply", "-auto-approve", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("Apply complete! Resources: 4 imported, 0 added, 0 changed, 0 destroyed.");

      const after = await showState();
      for (const address of ["aws_ssm_parameter.plain", "aws_ssm_parameter.secret", "aws_cloudwatch_log_group.lg", "aws_eip.ip"]) {
        const b = before.get(address)?.values ?? {};
        const a = after.get(address)?.values ?? {};
        for (const key of ["id", "arn", "name", "value", "type", "description", "tags", "retention_in_days", "public_ip", "allocation_id", "domain"]) {
          if (key in b) expect([address, key, a[key]]).toEqual([address, key, b[key]]);
        }
      }

      const plan = await step("plan after import", ["plan", "-detailed-exitcode", "-input=false", "-no-color"]);
      expectExit(plan, 0);
    },
    STEP_TIMEOUT,
  );

  test(
    "destroy removes everything from the state and from the fake",
    async () => {
      const r = await step("destroy", ["destroy", "-auto-approve", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("Destroy complete! Resources: 4 destroyed.");
      expect((await showState()).size).toBe(0);
      expect(fake.isEmpty()).toBe(true);
      expect(callsOf("ReleaseAddress").map((c) => c.params["AllocationId"])).toEqual([eipId]);
      expect(callsOf("DeleteLogGroup").map((c) => c.params["logGroupName"])).toEqual(["/app/logs"]);
      expect(callsOf("DeleteParameter").map((c) => c.params["Name"]).sort()).toEqual(["/app/plain", "/app/secret-renamed"]);
    },
    STEP_TIMEOUT,
  );

  test(
    "EIP create whose follow-up DescribeAddresses fails (500, always): apply errors, the SDK retries max_retries times, the EIP is saved tainted",
    async () => {
      fake.clearFaults();
      writeConfig(`resource "aws_eip" "faulty" {\n  domain = "vpc"\n  tags   = { Name = "faulty" }\n}\n`);
      const fault = fake.inject({ action: "DescribeAddresses", times: "always", error: { code: "InternalError", message: "An internal error has occurred", status: 500 } });
      const r = await step("EIP create, DescribeAddresses failing", ["apply", "-auto-approve", "-input=false", "-no-color"]);
      fake.clearFaults();
      expectExit(r, 1);
      const out = r.stdout + r.stderr;
      expect(out).toMatch(/waiting for EC2 EIP \(eipalloc-[0-9a-f]+\) create/);
      expect(out).toContain("InternalError");

      expect(fake.calls.map((c) => `${c.action}:${c.status}`)).toEqual(["AllocateAddress:200", "DescribeAddresses:500", "DescribeAddresses:500"]);
      expect(fault.hits).toBe(2);
      const [orphan] = fake.state().addresses;
      expect(orphan).toBeDefined();

      const st = await showState();
      const res = st.get("aws_eip.faulty");
      expect(res?.tainted).toBe(true);
      expect(res?.values["id"]).toBe(orphan?.allocationId);
      expect(res?.values["public_ip"]).toBeNull();
    },
    STEP_TIMEOUT,
  );

  test(
    "the next apply replaces the tainted EIP, tolerating one InvalidAllocationID.NotFound after AllocateAddress; destroy empties the fake",
    async () => {
      const tainted = fake.state().addresses[0]?.allocationId;
      const fault = fake.inject({ action: "DescribeAddresses", nth: 1, error: { code: "InvalidAllocationID.NotFound", message: "The allocation ID does not exist" } });
      // -refresh=false: the first DescribeAddresses is then the wait after AllocateAddress.
      const r = await step("EIP replace, one NotFound after create", ["apply", "-auto-approve", "-refresh=false", "-input=false", "-no-color"]);
      expectExit(r, 0);
      expect(r.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 1 destroyed.");
      expect(fault.hits).toBe(1);
      expect(callsOf("ReleaseAddress").map((c) => c.params["AllocationId"])).toEqual([tainted]);
      expect(callsOf("DescribeAddresses").map((c) => c.errorCode ?? String(c.status))).toEqual(expect.arrayContaining(["InvalidAllocationID.NotFound", "200"]));
      const [fresh] = fake.state().addresses;
      expect(fake.state().addresses).toHaveLength(1);
      expect(fresh?.allocationId).not.toBe(tainted);
      const st = await showState();
      expect(st.get("aws_eip.faulty")?.tainted).toBeUndefined();
      expect(st.get("aws_eip.faulty")?.values).toMatchObject({ id: fresh?.allocationId, public_ip: fresh?.publicIp, tags: { Name: "faulty" } });

      const d2 = await step("EIP destroy", ["destroy", "-auto-approve", "-input=false", "-no-color"]);
      expectExit(d2, 0);
      expect(fake.isEmpty()).toBe(true);
    },
    STEP_TIMEOUT,
  );
});

// `pnpm hello`'s script (scripts/run-hello.mjs) run as a user runs it, on examples/hello with
// the built magma: init, plan, apply, plan again, a changed plan, terraform taking the
// directory over (terraform plan -detailed-exitcode exits 0 on magma's state), destroy.
// With hashicorp/aws and terraform present the SSM parameters go through the real provider
// against @magma/fake-aws; and on a machine without them (simulated by pointing every
// location at empty directories) the AWS part and the hand-over are skipped, saying so, and
// the random part runs alone.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PLUGIN_MIRROR, hasTerraformAndAws } from "@magma/test-support";
import { MAGMA_BIN } from "./support/run-magma.js";

const script = join(dirname(fileURLToPath(import.meta.url)), "..", "scripts", "run-hello.mjs");
const scratch = mkdtempSync(join(tmpdir(), "magma-hello-test-"));
// An empty CLI configuration (a missing one named by TF_CLI_CONFIG_FILE is warned about, as terraform warns).
const emptyCliConfig = join(scratch, "empty.tfrc");
writeFileSync(emptyCliConfig, "");

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function runHello(env: Record<string, string | undefined>, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  const child = spawn(process.execPath, [script], { cwd, env: { ...process.env, MAGMA_PLUGIN_DIRS: undefined, TF_PLUGIN_CACHE_DIR: undefined, TF_DATA_DIR: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  const timer = setTimeout(() => child.kill("SIGKILL"), 1_100_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (c) => resolve(c));
    });
    return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
  } finally {
    clearTimeout(timer);
  }
}

/** The text between a step's narration and the next one (each step's heading follows a blank line). */
function step(stdout: string, heading: string): string {
  const start = stdout.indexOf(`# ${heading}`);
  if (start < 0) throw new Error(`no step ${JSON.stringify(heading)} in:\n${stdout}`);
  const next = stdout.indexOf("\n\n# ", start + 1);
  return stdout.slice(start, next < 0 ? undefined : next);
}

function workdirOf(stdout: string): string {
  const m = /copied to (\S+?)[;\s]/.exec(stdout);
  if (m === null) throw new Error(`no working directory in:\n${stdout}`);
  return m[1]!;
}

(hasTerraformAndAws() ? describe : describe.skip)("pnpm hello with hashicorp/aws and terraform", () => {
  test("the whole workflow on examples/hello, random and SSM parameters, handed to terraform", async () => {
    const r = await runHello({ MAGMA_TF_PLUGIN_MIRROR: PLUGIN_MIRROR, TF_CLI_CONFIG_FILE: emptyCliConfig }, scratch);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain("hashicorp/aws 5.100.0 found at");
    expect(out).toMatch(/A fake AWS endpoint \(@magma\/fake-aws\) is listening at http:\/\/127\.0\.0\.1:\d+/);
    const init = step(out, "Prepare the working directory");
    expect(init).toContain("Initializing modules...\n- ssm in ssm\n");
    expect(init).toContain("- Using magma/random (native, built into magma)");
    expect(init).toContain("- Installed hashicorp/aws v5.100.0 (unauthenticated)");
    expect(step(out, "Plan: 7 objects")).toContain("\nPlan: 7 to add, 0 to change, 0 to destroy.\n");
    const apply = step(out, "Apply:");
    expect(apply).toMatch(/module\.ssm\.aws_ssm_parameter\.token: Creation complete after \d+s \[id=\/hello\/token\]/);
    expect(apply).toContain("Apply complete! Resources: 7 added, 0 changed, 0 destroyed.");
    expect(apply).toMatch(/\nOutputs:\n\nnames = \[\n  "[a-z0-9]{6}-[0-9a-f]{6}",\n  "[a-z0-9]{6}-[0-9a-f]{6}",\n\]\nparameters = \[\n  "\/hello\/names\/0",\n  "\/hello\/names\/1",\n\]\ntoken = <sensitive>(\n|$)/);
    expect(step(out, "Plan again")).toContain("No changes. Your infrastructure matches the configuration.");
    const changed = step(out, "A changed plan");
    expect(changed).toContain("# module.ssm.aws_ssm_parameter.name[2] will be created");
    expect(changed).toContain("# random_string.name[2] will be created");
    expect(changed).toContain("Plan: 2 to add, 0 to change, 0 to destroy.");
    const handOver = step(out, "Hand the directory to terraform");
    expect(handOver).toContain("$ terraform plan -detailed-exitcode");
    expect(handOver.slice(handOver.indexOf("$ terraform plan"))).toContain("No changes. Your infrastructure matches the configuration.");
    expect(step(out, "Destroy everything")).toContain("Destroy complete! Resources: 7 destroyed.");
    expect(out).toContain("# The fake AWS endpoint holds 0 SSM parameters after the destroy.");
    expect(existsSync(workdirOf(out))).toBe(false);
  }, 1_200_000);
});

describe("pnpm hello on a machine without hashicorp/aws and terraform", () => {
  test("says the AWS part and the hand-over are skipped and why, and runs the random part", async () => {
    const home = join(scratch, "home");
    mkdirSync(home, { recursive: true });
    const r = await runHello(
      {
        MAGMA_TF_PLUGIN_MIRROR: join(scratch, "no-mirror"),
        MAGMA_TERRAFORM: join(scratch, "no-terraform"),
        HOME: home,
        XDG_DATA_HOME: join(home, ".local", "share"),
        XDG_DATA_DIRS: join(home, "none"),
        TF_CLI_CONFIG_FILE: emptyCliConfig,
      },
      scratch,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain("WITHOUT its AWS part (aws.tf, ssm/)");
    expect(out).toContain("The hashicorp/aws 5.100.0 provider binary was not found (");
    expect(out).not.toContain("is listening at");
    expect(step(out, "Plan: 4 objects")).toContain("Plan: 4 to add, 0 to change, 0 to destroy.");
    expect(step(out, "Apply:")).toContain("Apply complete! Resources: 4 added, 0 changed, 0 destroyed.");
    expect(step(out, "Plan again")).toContain("No changes.");
    expect(step(out, "A changed plan")).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(step(out, "Hand the directory to terraform")).toContain("terraform is not on PATH (or at MAGMA_TERRAFORM): skipping the hand-over.");
    expect(step(out, "Destroy everything")).toContain("Destroy complete! Resources: 4 destroyed.");
    expect(existsSync(workdirOf(out))).toBe(false);
  }, 600_000);
});

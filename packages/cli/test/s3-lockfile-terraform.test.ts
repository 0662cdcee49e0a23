// The s3 backend's S3-native lock (`use_lockfile`: `<key>.tflock` written with
// `If-None-Match: *`) shared by magma and terraform 1.11.4, against a server that honours
// conditional writes (fake-aws's S3: no npm S3 server does, see its README), alone and with
// DynamoDB locking (dynalite): each tool, holding the lock in an apply waiting at its
// approval prompt, blocks the other with terraform's error; each force-unlocks the other's
// lock; a holder killed with SIGKILL leaves its lock, which blocks until force-unlock.
// Skipped without terraform.
import { spawn, type ChildProcess } from "node:child_process";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { S3RVER_CREDENTIALS, startAwsServers, type AwsServers } from "../../state/test/support/aws-servers.js";
import { MAGMA_BIN, cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_PROFILE: "" };

let fake: FakeAws;
let aws: AwsServers;
const holders = new Set<ChildProcess>();
beforeAll(async () => {
  fake = await startFakeAws();
  fake.createBucket("tfstate");
  aws = await startAwsServers();
  await aws.createLockTable("locks");
}, 60_000);
afterAll(async () => {
  for (const h of holders) h.kill("SIGKILL");
  cleanUp();
  removeWorkdirs();
  await fake?.close();
  await aws?.stop();
});

/** The backend block: fake-aws's S3 for state and lock file, dynalite for the table when asked. */
function config(key: string, table: boolean): string {
  const lines = [
    `bucket = "tfstate"`,
    `key = "${key}"`,
    `region = "us-east-1"`,
    `endpoints = { s3 = "${fake.url}", dynamodb = "${aws.dynamodb}" }`,
    `use_path_style = true`,
    `skip_credentials_validation = true`,
    `skip_requesting_account_id = true`,
    `skip_metadata_api_check = true`,
    `skip_region_validation = true`,
    `skip_s3_checksum = true`,
    `access_key = "${S3RVER_CREDENTIALS.accessKeyId}"`,
    `secret_key = "${S3RVER_CREDENTIALS.secretAccessKey}"`,
    `use_lockfile = true`,
    ...(table ? [`dynamodb_table = "locks"`] : []),
  ];
  return `terraform {\n  backend "s3" {\n${lines.map((l) => `    ${l}`).join("\n")}\n  }\n}\nresource "terraform_data" "a" {\n  input = var.v\n}\nvariable "v" {\n  default = "x"\n}\n`;
}

const lockObject = (key: string): string | undefined => {
  const o = fake.state().s3Objects.find((x) => x.bucket === "tfstate" && x.key === `${key}.tflock`);
  return o === undefined ? undefined : Buffer.from(o.body).toString("utf8");
};

interface Holder {
  /** The lock's id, read from the lock file. */
  readonly id: string;
  /** Answers "no" at the prompt and waits for the exit (the lock is released). */
  release(): Promise<void>;
  /** SIGKILLs it and waits: the lock stays behind. */
  kill(): Promise<void>;
}

/** Starts `apply -var v=<value>` with stdin open; resolves once its lock file is in the bucket. */
async function holdLock(tool: "terraform" | "magma", dir: string, key: string, value: string): Promise<Holder> {
  const args = ["apply", "-input=true", "-no-color", "-var", `v=${value}`];
  const child =
    tool === "terraform"
      ? spawn(TERRAFORM!, args, { cwd: dir, env: { ...process.env, ...env, TF_CLI_CONFIG_FILE: mirrorCliConfig() }, stdio: ["pipe", "pipe", "pipe"] })
      : spawn(process.execPath, [MAGMA_BIN, ...args], { cwd: dir, env: { ...process.env, ...env, FORCE_COLOR: undefined }, stdio: ["pipe", "pipe", "pipe"] });
  holders.add(child);
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (out += b.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const text = lockObject(key);
    if (text !== undefined && out.includes("Enter a value")) {
      const id = (JSON.parse(text) as { ID: string }).ID;
      return {
        id,
        release: async () => {
          child.stdin.end("no\n");
          await exited;
          holders.delete(child);
        },
        kill: async () => {
          child.kill("SIGKILL");
          await exited;
          holders.delete(child);
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${tool} did not hold the lock:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const magmaIn = (args: string[], cwd: string): ReturnType<typeof magma> => magma(args, { cwd, env });

/** The lines of a lock error that do not vary between the tools (the holder's fields). */
function holderLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => /^\s*(ID|Path|Operation|Who|Version):/.test(l)).map((l) => l.trim());
}

maybe.each([
  ["use_lockfile alone", false],
  ["use_lockfile with dynamodb_table", true],
])("the S3 lock file shared with terraform (%s)", (_name, table) => {
  test("each tool's held lock blocks the other with terraform's error; each force-unlocks the other's; state is not lost", async () => {
    const key = `held-${String(table)}/terraform.tfstate`;
    const t = workdir({ "main.tf": config(key, table) });
    const m = workdir({ "main.tf": config(key, table) });
    await terraformAsync(["init", "-input=false"], t, { env });
    expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });

    // magma holds; terraform is refused, naming magma as the holder.
    const mh = await holdLock("magma", m, key, "m");
    const tp = await terraformAsync(["plan", "-no-color", "-input=false"], t, { env, expect: 1 });
    expect(tp.stderr).toContain("Error acquiring the state lock");
    expect(tp.stderr).toContain("PreconditionFailed");
    expect(tp.stderr).toContain(mh.id);
    // ...and a second magma alike, with the same holder lines.
    const mp = await magmaIn(["plan", "-no-color", "-input=false"], m);
    expect(mp.code).toBe(1);
    expect(mp.stderr).toContain("Error acquiring the state lock");
    expect(holderLines(mp.stderr)).toEqual(holderLines(tp.stderr));
    await mh.release();
    expect(lockObject(key)).toBeUndefined();

    // terraform holds; magma is refused, naming terraform.
    const th = await holdLock("terraform", t, key, "t");
    const mp2 = await magmaIn(["plan", "-no-color", "-input=false"], m);
    expect(mp2.code).toBe(1);
    expect(mp2.stderr).toContain("Error acquiring the state lock");
    expect(mp2.stderr).toContain(th.id);
    expect(mp2.stderr).toContain("PreconditionFailed");
    await th.release();
    expect(lockObject(key)).toBeUndefined();

    // Each tool's lock, left by a killed holder, is force-unlocked by the other.
    const dead = await holdLock("terraform", t, key, "t2");
    await dead.kill();
    expect(lockObject(key)).toBeDefined();
    const blocked = await magmaIn(["plan", "-no-color", "-input=false"], m);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(dead.id);
    const fu = await magmaIn(["force-unlock", "-force", dead.id], m);
    expect(fu.stderr).toBe("");
    expect(fu.code).toBe(0);
    expect(lockObject(key)).toBeUndefined();
    const deadM = await holdLock("magma", m, key, "m2");
    await deadM.kill();
    await terraformAsync(["plan", "-no-color", "-input=false"], t, { env, expect: 1 });
    await terraformAsync(["force-unlock", "-force", deadM.id], t, { env });
    expect(lockObject(key)).toBeUndefined();

    // Nothing was lost: the state terraform applied first is planned with no changes by both.
    expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], m)).code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], t, { env });
  });
});

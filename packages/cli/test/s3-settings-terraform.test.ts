// s3 backend settings beyond the basics, side by side with terraform 1.11.4 on fake-aws (S3
// with SSE-C, STS GetCallerIdentity and AssumeRoleWithWebIdentity): `sse_customer_key`
// (each reads the other's SSE-C state; a wrong key and a malformed one fail as terraform's),
// `allowed_account_ids`/`forbidden_account_ids` checked through STS, and
// `assume_role_with_web_identity`, and HTTPS through a TLS front with a CA of the test's own
// (`custom_ca_bundle`, `AWS_CA_BUNDLE`, `insecure`). Skipped without terraform.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAws, type FakeAws } from "@magma/fake-aws";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

const maybe = TERRAFORM === undefined ? describe.skip : describe;
const env = { TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "", AWS_PROFILE: "", AWS_SSE_CUSTOMER_KEY: "" };
const KEY = Buffer.alloc(32, 3).toString("base64");
const OTHER_KEY = Buffer.alloc(32, 4).toString("base64");

let fake: FakeAws;
let certDir: string;
beforeAll(async () => {
  fake = await startFakeAws();
  fake.createBucket("tfstate");
  certDir = mkdtempSync(join(tmpdir(), "magma-s3-tls-"));
});
afterAll(async () => {
  cleanUp();
  removeWorkdirs();
  await fake?.close();
  rmSync(certDir, { recursive: true, force: true });
});

/** A CA of the test's own and a server certificate for 127.0.0.1 it signed (openssl). */
function makeCa(dir: string): { key: string; cert: string; caFile: string } {
  const run = (args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  };
  run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=magma s3 test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1"]);
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
  run(["x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem", "-days", "2", "-extfile", "ext.cnf"]);
  return { key: readFileSync(join(dir, "srv.key"), "utf8"), cert: readFileSync(join(dir, "srv.pem"), "utf8"), caFile: join(dir, "ca.pem") };
}

/** An HTTPS server that hands every request on to fake-aws (plain HTTP) unchanged. */
async function tlsFront(key: string, cert: string): Promise<{ url: string; server: HttpsServer }> {
  const target = new URL(fake.url);
  const server = createHttpsServer({ key, cert }, (req, res) => {
    const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (back) => {
      res.writeHead(back.statusCode ?? 502, back.headers);
      back.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  return { url: `https://127.0.0.1:${typeof addr === "object" && addr !== null ? addr.port : 0}`, server };
}

function config(key: string, settings: Record<string, string>): string {
  const all: Record<string, string> = {
    bucket: `"tfstate"`,
    key: `"${key}"`,
    region: `"us-east-1"`,
    endpoints: `{ s3 = "${fake.url}", sts = "${fake.url}" }`,
    use_path_style: "true",
    skip_credentials_validation: "true",
    skip_requesting_account_id: "true",
    skip_metadata_api_check: "true",
    skip_region_validation: "true",
    skip_s3_checksum: "true",
    access_key: `"AKIDSTATIC"`,
    secret_key: `"secret"`,
    use_lockfile: "true",
    ...settings,
  };
  const body = Object.entries(all)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `    ${k} = ${v}`)
    .join("\n");
  return `terraform {\n  backend "s3" {\n${body}\n  }\n}\nresource "terraform_data" "a" {\n  input = "x"\n}\n`;
}

const magmaIn = (args: string[], cwd: string, extra: Record<string, string> = {}): ReturnType<typeof magma> => magma(args, { cwd, env: { ...env, ...extra } });

/** Query parameters as comparable text: keys sorted, list members sorted (Go sends a map's tags in random order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).sort().join(",")}]`;
  if (typeof v === "object" && v !== null) {
    return `{${Object.entries(v)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** init in a fresh directory per tool (`extra`: more environment); returns both results. */
async function initBoth(files: Record<string, string>, expectCode: number, extra: Record<string, string> = {}): Promise<{ t: string; m: string; tdir: string; mdir: string }> {
  const tdir = workdir(files);
  const mdir = workdir(files);
  const t = await terraformAsync(["init", "-no-color", "-input=false"], tdir, { env: { ...env, ...extra }, expect: expectCode });
  const m = await magmaIn(["init", "-no-color", "-input=false"], mdir, extra);
  expect({ code: m.code, stderr: m.code === expectCode ? "" : m.stderr }).toEqual({ code: expectCode, stderr: "" });
  return { t: t.stderr, m: m.stderr, tdir, mdir };
}

maybe("s3 settings, as terraform", () => {
  test("sse_customer_key: each reads the other's SSE-C state; a wrong key is refused by the store, a malformed one by both", async () => {
    const files = (key: string): Record<string, string> => ({ "main.tf": config("ssec/terraform.tfstate", { encrypt: "true", sse_customer_key: `"${key}"` }) });
    const { tdir, mdir } = await initBoth(files(KEY), 0);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], tdir, { env });
    const stored = fake.state().s3Objects.find((o) => o.key === "ssec/terraform.tfstate");
    expect(stored?.sseCustomerKeyMd5).toBeDefined();
    expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], mdir)).code).toBe(0);
    expect((await magmaIn(["apply", "-auto-approve", "-input=false", "-replace", "terraform_data.a"], mdir)).code).toBe(0);
    await terraformAsync(["plan", "-detailed-exitcode", "-input=false"], tdir, { env });
    // A wrong key: the store answers 403 to both.
    const wrong = await initBoth(files(OTHER_KEY), 1);
    for (const out of [wrong.t, wrong.m]) expect(out).toContain("Error refreshing state");
    for (const out of [wrong.t, wrong.m]) expect(out).toContain("StatusCode: 403");
    // Malformed: terraform's validation message.
    const bad = await initBoth(files("c2hvcnQ="), 1);
    for (const out of [bad.t, bad.m]) expect(out).toContain("sse_customer_key must be 44 characters in length");
    const both = await initBoth({ "main.tf": config("ssec2/terraform.tfstate", { encrypt: "true", sse_customer_key: `"${KEY}"`, kms_key_id: `"arn:aws:kms:us-east-1:123456789012:key/k"` }) }, 1);
    for (const out of [both.t, both.m]) expect(out).toContain("Only one of kms_key_id, sse_customer_key can be set.");
  });

  test("credentials are validated with STS unless skip_credentials_validation; allowed_account_ids and forbidden_account_ids are checked against the caller identity", async () => {
    const checked = { skip_credentials_validation: "", skip_requesting_account_id: "" };
    fake.resetCalls();
    await initBoth({ "main.tf": config("acct/terraform.tfstate", { ...checked, allowed_account_ids: `["${fake.accountId}"]` }) }, 0);
    expect(fake.callsOf("GetCallerIdentity").length).toBeGreaterThanOrEqual(2);
    for (const [k, ids] of [
      ["allowed_account_ids", `["111111111111"]`],
      ["forbidden_account_ids", `["${fake.accountId}"]`],
    ] as const) {
      const r = await initBoth({ "main.tf": config(`acct-${k}/terraform.tfstate`, { ...checked, [k]: ids }) }, 1);
      for (const out of [r.t, r.m]) expect(out).toContain("Invalid account ID");
      for (const out of [r.t, r.m]) expect(out).toContain(`AWS account ID not allowed: ${fake.accountId}`);
    }
    // skip_credentials_validation = false: STS refusing the caller fails init for both.
    fake.inject({ action: "GetCallerIdentity", times: "always", error: { code: "InvalidClientTokenId", message: "The security token included in the request is invalid.", status: 403 } });
    try {
      const r = await initBoth({ "main.tf": config("acct-refused/terraform.tfstate", { ...checked, max_retries: "0" }) }, 1);
      for (const out of [r.t, r.m]) expect(out).toMatch(/Error: validating provider credentials: retrieving caller identity from STS: operation error STS: GetCallerIdentity, https response error StatusCode: 403, RequestID: [0-9a-f-]+, api error InvalidClientTokenId/);
      for (const out of [r.t, r.m]) expect(out).toContain("InvalidClientTokenId");
    } finally {
      fake.clearFaults();
    }
  });

  test("assume_role_with_web_identity: both sign with the role's temporary credentials", async () => {
    const files = { "main.tf": config("web/terraform.tfstate", { access_key: "", secret_key: "", assume_role_with_web_identity: `{ role_arn = "arn:aws:iam::${fake.accountId}:role/ci", web_identity_token = "token-from-the-ci" }` }) };
    fake.resetCalls();
    const { tdir, mdir } = await initBoth(files, 0);
    await terraformAsync(["apply", "-auto-approve", "-input=false"], tdir, { env });
    expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], mdir)).code).toBe(0);
    const assumed = fake.callsOf("AssumeRoleWithWebIdentity");
    expect(assumed.length).toBeGreaterThanOrEqual(2);
    for (const c of assumed) expect(c.params).toMatchObject({ RoleArn: `arn:aws:iam::${fake.accountId}:role/ci`, WebIdentityToken: "token-from-the-ci" });
    const s3Keys = new Set(fake.calls.filter((c) => c.service === "s3").map((c) => c.accessKeyId));
    expect([...s3Keys].every((k) => k?.startsWith("ASIA") === true)).toBe(true);
    const missing = await initBoth({ "main.tf": config("web2/terraform.tfstate", { access_key: "", secret_key: "", assume_role_with_web_identity: `{ role_arn = "arn:aws:iam::${fake.accountId}:role/ci" }` }) }, 1);
    for (const out of [missing.t, missing.m]) expect(out).toContain("Exactly one of web_identity_token, web_identity_token_file must be set.");
  });

  test("HTTPS with a private CA: custom_ca_bundle or AWS_CA_BUNDLE trusts it, insecure skips the check, neither fails as terraform", async () => {
    const { key, cert, caFile } = makeCa(certDir);
    const front = await tlsFront(key, cert);
    try {
      const files = (k: string, settings: Record<string, string>): Record<string, string> => ({ "main.tf": config(k, { endpoints: `{ s3 = "${front.url}", sts = "${front.url}" }`, ...settings }) });
      const noBundle = { AWS_CA_BUNDLE: "" };
      const { tdir, mdir } = await initBoth(files("tls/terraform.tfstate", { custom_ca_bundle: JSON.stringify(caFile) }), 0, noBundle);
      await terraformAsync(["apply", "-auto-approve", "-input=false"], tdir, { env: { ...env, ...noBundle } });
      expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], mdir, noBundle)).code).toBe(0);
      // The bundle from the environment instead of the setting.
      const fromEnv = await initBoth(files("tls/terraform.tfstate", {}), 0, { AWS_CA_BUNDLE: caFile });
      expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], fromEnv.mdir, { AWS_CA_BUNDLE: caFile })).code).toBe(0);
      // insecure: no verification at all.
      await initBoth(files("tls/terraform.tfstate", { insecure: "true" }), 0, noBundle);
      // Neither: the system's roots do not know the CA.
      const refused = await initBoth(files("tls/terraform.tfstate", { max_retries: "0" }), 1, noBundle);
      for (const out of [refused.t, refused.m]) expect(out).toContain("Failed to get existing workspaces");
      expect(refused.t).toContain("certificate signed by unknown authority");
      expect(refused.m).toMatch(/self[- ]signed certificate|unable to verify|unable to get local issuer/);
      // A bundle that is not there.
      const missing = await initBoth(files("tls/terraform.tfstate", { custom_ca_bundle: JSON.stringify(join(certDir, "absent.pem")) }), 1, noBundle);
      for (const out of [missing.t, missing.m]) expect(out).toContain(`reading custom CA bundle: open ${join(certDir, "absent.pem")}: no such file or directory`);
    } finally {
      front.server.closeAllConnections();
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
    }
  });

  test("assume_role (every setting) on a shared credentials file's profile, STS in sts_region, retry_mode: both make the same AssumeRole call", async () => {
    writeFileSync(join(certDir, "credentials"), "[ci]\naws_access_key_id = AKIDFROMFILE\naws_secret_access_key = from-file\n");
    const role = `arn:aws:iam::${fake.accountId}:role/deploy`;
    const assume = `{ role_arn = "${role}", session_name = "deployer", external_id = "ext-1", duration = "15m", policy = ${JSON.stringify(JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "s3:*", Resource: "*" }] }))}, policy_arns = ["arn:aws:iam::aws:policy/ReadOnlyAccess"], source_identity = "alice", tags = { team = "core", env = "ci" }, transitive_tag_keys = ["team"] }`;
    const settings = { access_key: "", secret_key: "", profile: `"ci"`, shared_credentials_files: `[${JSON.stringify(join(certDir, "credentials"))}]`, sts_region: `"eu-west-1"`, retry_mode: `"adaptive"`, assume_role: assume };
    const files = { "main.tf": config("role/terraform.tfstate", settings) };
    const tdir = workdir(files);
    const mdir = workdir(files);
    const seen = (): { params: string[]; signers: string[]; s3: string[] } => ({
      params: [...new Set(fake.callsOf("AssumeRole").map((c) => canonical(c.params)))],
      signers: [...new Set(fake.callsOf("AssumeRole").map((c) => `${c.accessKeyId} ${c.region}`))],
      s3: [...new Set(fake.calls.filter((c) => c.service === "s3").map((c) => c.accessKeyId?.slice(0, 4) ?? "none"))],
    });
    fake.resetCalls();
    await terraformAsync(["init", "-no-color", "-input=false"], tdir, { env });
    await terraformAsync(["apply", "-auto-approve", "-input=false"], tdir, { env });
    const t = seen();
    fake.resetCalls();
    expect((await magmaIn(["init", "-no-color", "-input=false"], mdir)).code).toBe(0);
    expect((await magmaIn(["plan", "-detailed-exitcode", "-input=false"], mdir)).code).toBe(0);
    const m = seen();
    expect(t.params.length).toBe(1);
    expect(m).toEqual(t);
    expect(t.signers).toEqual(["AKIDFROMFILE eu-west-1"]);
    expect(t.s3).toEqual(["ASIA"]);
    expect(JSON.parse(t.params[0]!)).toMatchObject({ RoleArn: role, RoleSessionName: "deployer", ExternalId: "ext-1", DurationSeconds: "900", SourceIdentity: "alice" });
    const bogus = await initBoth({ "main.tf": config("role2/terraform.tfstate", { retry_mode: `"bogus"` }) }, 1);
    for (const out of [bogus.t, bogus.m]) expect(out).toContain("unknown RetryMode, bogus");
  });

  test("encrypt (AES256, then aws:kms with kms_key_id): both write encrypted as terraform; terraform_remote_state reads the s3 state in both", async () => {
    const kms = `arn:aws:kms:us-east-1:${fake.accountId}:key/57ff7a43-341d-46b6-aee3-a450c9de6dc8`;
    const producer = (k: string, settings: Record<string, string>): Record<string, string> => ({ "main.tf": `${config(k, settings)}output "o" {\n  value = { from = "producer", n = 2 }\n}\n` });
    const badKey = await initBoth(producer("enc-bad/terraform.tfstate", { encrypt: "true", kms_key_id: `"arn:aws:kms:us-east-1:${fake.accountId}:key/state"` }), 1);
    for (const out of [badKey.t, badKey.m]) expect(out).toContain("Invalid KMS Key ARN");
    const sseOf = (k: string): string | undefined => fake.state().s3Objects.find((o) => o.key === k)?.serverSideEncryption;
    for (const [name, settings, expected] of [
      ["aes", { encrypt: "true" }, "AES256"],
      ["kms", { encrypt: "true", kms_key_id: `"${kms}"` }, "aws:kms"],
    ] as const) {
      const t = workdir(producer(`enc-${name}-t/terraform.tfstate`, settings));
      const m = workdir(producer(`enc-${name}-m/terraform.tfstate`, settings));
      await terraformAsync(["init", "-input=false"], t, { env });
      await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
      expect((await magmaIn(["init", "-input=false"], m)).code).toBe(0);
      expect((await magmaIn(["apply", "-auto-approve", "-input=false"], m)).code).toBe(0);
      expect([sseOf(`enc-${name}-t/terraform.tfstate`), sseOf(`enc-${name}-m/terraform.tfstate`)]).toEqual([expected, expected]);
    }
    // terraform_remote_state over s3, reading magma's state, in both tools.
    const consumer = {
      "main.tf": `data "terraform_remote_state" "s" {\n  backend = "s3"\n  config = {\n    bucket = "tfstate"\n    key = "enc-kms-m/terraform.tfstate"\n    region = "us-east-1"\n    endpoints = { s3 = "${fake.url}" }\n    use_path_style = true\n    skip_credentials_validation = true\n    skip_requesting_account_id = true\n    skip_metadata_api_check = true\n    skip_s3_checksum = true\n    access_key = "AKIDSTATIC"\n    secret_key = "secret"\n  }\n}\noutput "o" {\n  value = data.terraform_remote_state.s.outputs.o\n}\n`,
    };
    const t = workdir(consumer);
    const m = workdir(consumer);
    await terraformAsync(["init", "-input=false"], t, { env });
    await terraformAsync(["apply", "-auto-approve", "-input=false"], t, { env });
    expect((await magmaIn(["apply", "-auto-approve", "-input=false"], m)).code).toBe(0);
    const tOut = (await terraformAsync(["output", "-json", "o"], t, { env })).stdout;
    const mOut = await magmaIn(["output", "-json", "o"], m);
    expect(JSON.parse(mOut.stdout)).toEqual(JSON.parse(tOut));
    expect(JSON.parse(tOut)).toEqual({ from: "producer", n: 2 });
  });
});

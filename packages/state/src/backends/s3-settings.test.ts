// The s3 backend's setting checks that need no server (each refused with a typed error that
// names the setting, before any request); what they do against a server is tested side by
// side with terraform in packages/cli/test/s3-settings-terraform.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConfiguredBackend, type BackendConfigValues } from "../backend-config.js";

const base: BackendConfigValues = {
  bucket: "b",
  key: "k",
  region: "us-east-1",
  access_key: "AKID",
  secret_key: "s",
  skip_credentials_validation: true,
  endpoints: { s3: "http://127.0.0.1:9" },
};
const open = (extra: BackendConfigValues, env: Record<string, string> = {}): ReturnType<typeof openConfiguredBackend> =>
  openConfiguredBackend("s3", { ...base, ...extra }, { dir: tmpdir(), env });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "magma-s3-settings-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("sse_customer_key: 44 base64 characters, not with kms_key_id; AWS_SSE_CUSTOMER_KEY likewise; kms_key_id a key id, alias or key ARN", async () => {
  const key = Buffer.alloc(32, 7).toString("base64");
  await expect(open({ encrypt: true, sse_customer_key: "c2hvcnQ=" })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining("sse_customer_key must be 44 characters in length") });
  await expect(open({ encrypt: true, sse_customer_key: `${"!".repeat(43)}=` })).rejects.toMatchObject({ message: expect.stringContaining("sse_customer_key must be base64 encoded") });
  await expect(open({ sse_customer_key: key, kms_key_id: "k" })).rejects.toMatchObject({ message: expect.stringContaining("Only one of kms_key_id, sse_customer_key can be set.") });
  await expect(open({ kms_key_id: "k" }, { AWS_SSE_CUSTOMER_KEY: key })).rejects.toMatchObject({ message: expect.stringContaining('the environment variable "AWS_SSE_CUSTOMER_KEY"') });
  await expect(open({}, { AWS_SSE_CUSTOMER_KEY: "short" })).rejects.toMatchObject({ message: expect.stringContaining('The environment variable "AWS_SSE_CUSTOMER_KEY" must be 44 characters in length') });
  await expect(open({ kms_key_id: "$%wrongkey" })).rejects.toMatchObject({ message: expect.stringContaining('Invalid KMS Key ID: Value must be a valid KMS Key ID, got "$%wrongkey"') });
  await expect(open({ kms_key_id: "arn:aws:lamda:foo:bar:key/xyz" })).rejects.toMatchObject({ message: expect.stringContaining("Invalid KMS Key ARN") });
  for (const id of ["57ff7a43-341d-46b6-aee3-a450c9de6dc8", "mrk-f827515944fb43f9b902a09d2c8b554f", "alias/state", "arn:aws:kms:us-west-2:111122223333:key/57ff7a43-341d-46b6-aee3-a450c9de6dc8", "arn:aws:kms:us-west-2:111122223333:alias/state"]) {
    await (await open({ encrypt: true, kms_key_id: id })).close();
  }
  const ok = await open({ encrypt: true, sse_customer_key: key });
  await ok.close();
});

test("allowed_account_ids and forbidden_account_ids exclude each other; web identity needs exactly one token", async () => {
  await expect(open({ allowed_account_ids: ["1"], forbidden_account_ids: ["2"] })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining("Only one of allowed_account_ids, forbidden_account_ids can be set.") });
  const role = "arn:aws:iam::123456789012:role/ci";
  await expect(open({ assume_role_with_web_identity: { role_arn: role } })).rejects.toMatchObject({ message: expect.stringContaining("Exactly one of web_identity_token, web_identity_token_file must be set.") });
  await expect(open({ assume_role_with_web_identity: { role_arn: role, web_identity_token: "t", web_identity_token_file: "/f" } })).rejects.toMatchObject({ message: expect.stringContaining("Exactly one of") });
  await expect(open({ assume_role_with_web_identity: { web_identity_token: "t" } })).rejects.toMatchObject({ message: expect.stringContaining("assume_role_with_web_identity.role_arn") });
  await expect(open({ assume_role_with_web_identity: { role_arn: role, web_identity_token_file: join(dir, "absent") } })).rejects.toMatchObject({ message: expect.stringContaining("web_identity_token_file") });
  await expect(open({ assume_role_with_web_identity: { role_arn: role, web_identity_token: "t", duration: "an hour" } })).rejects.toMatchObject({ message: expect.stringContaining('assume_role_with_web_identity.duration "an hour" is not a duration') });
});

test("custom_ca_bundle and AWS_CA_BUNDLE must be readable; insecure alone needs no file", async () => {
  const absent = join(dir, "absent.pem");
  await expect(open({ custom_ca_bundle: absent })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining(`reading custom CA bundle: open ${absent}: no such file or directory`) });
  await expect(open({}, { AWS_CA_BUNDLE: absent })).rejects.toMatchObject({ message: expect.stringContaining(`open ${absent}`) });
  writeFileSync(join(dir, "empty.pem"), "");
  await (await open({ custom_ca_bundle: join(dir, "empty.pem") })).close();
  await (await open({ insecure: true })).close();
});

test("retry_mode is standard or adaptive; several shared files of a kind are refused, one is taken", async () => {
  await expect(open({ retry_mode: "bogus" })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining("retry_mode: unknown RetryMode, bogus") });
  await (await open({ retry_mode: "adaptive" })).close();
  const { access_key: _a, secret_key: _s, ...chain } = base;
  const openChain = (extra: BackendConfigValues): ReturnType<typeof openConfiguredBackend> => openConfiguredBackend("s3", { ...chain, ...extra }, { dir: tmpdir(), env: {} });
  await expect(openChain({ shared_credentials_files: ["/a", "/b"] })).rejects.toMatchObject({ message: expect.stringContaining("shared_credentials_files with more than one file is not supported") });
  await expect(openChain({ shared_config_files: ["/a", "/b"] })).rejects.toMatchObject({ message: expect.stringContaining("shared_config_files with more than one file") });
  await (await openChain({ shared_credentials_file: "/a", shared_config_files: ["/b"] })).close();
});

test("settings magma does not implement are refused by name, unless set to their no-op value", async () => {
  for (const k of ["http_proxy", "https_proxy", "no_proxy"]) {
    await expect(open({ [k]: "http://proxy:3128" })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringContaining(`${k} is not supported by magma yet`) });
  }
  await expect(open({ use_fips_endpoint: true })).rejects.toMatchObject({ message: expect.stringContaining("use_fips_endpoint is not supported") });
  await expect(open({}, { AWS_USE_DUALSTACK_ENDPOINT: "true" })).rejects.toMatchObject({ message: expect.stringContaining("AWS_USE_DUALSTACK_ENDPOINT is not supported") });
  await (await open({ use_fips_endpoint: false, use_dualstack_endpoint: false })).close();
});

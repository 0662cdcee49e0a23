import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CredentialsHelper, credentialsHelperDirs, findCredentialsHelper } from "./credentials-helper.js";
import { HostCredentials } from "./host-credentials.js";
import { readCliConfig } from "./cli-config.js";

const root = mkdtempSync(join(tmpdir(), "magma-cred-helper-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function script(path: string, body: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

describe("findCredentialsHelper", () => {
  test("terraform's names in ~/.terraform.d/plugins and its platform directory: the newest version", () => {
    const home = join(root, "home");
    const [dir, plat] = credentialsHelperDirs("linux_amd64", { HOME: home });
    expect([dir, plat]).toEqual([join(home, ".terraform.d", "plugins"), join(home, ".terraform.d", "plugins", "linux_amd64")]);
    script(join(dir!, "terraform-credentials-acme"), "exit 0");
    expect(findCredentialsHelper("acme", [dir!, plat!])).toBe(join(dir!, "terraform-credentials-acme"));
    script(join(plat!, "terraform-credentials-acme_v1.2.0"), "exit 0");
    script(join(dir!, "terraform-credentials-acme_v1.10.0"), "exit 0");
    script(join(dir!, "terraform-credentials-acmex_v9.0.0"), "exit 0");
    script(join(dir!, "terraform-credentials-acme_vbad"), "exit 0");
    expect(findCredentialsHelper("acme", [dir!, plat!])).toBe(join(dir!, "terraform-credentials-acme_v1.10.0"));
    expect(findCredentialsHelper("other", [dir!, plat!, join(root, "missing")])).toBeUndefined();
  });
});

describe("CredentialsHelper and HostCredentials", () => {
  test("the token by host, asked once; configured tokens first; a failure is terraform's error for forHost and no token for get", () => {
    const log = join(root, "calls.log");
    const ok = new CredentialsHelper(script(join(root, "ok"), `echo "$@" >> ${log}\ncase "$3" in a.example) echo '{"token":"t-a"}';; n.example) echo null;; *) echo '{"other":1}';; esac`), ["x"]);
    const creds = new HostCredentials(new Map([["c.example", "configured"]]), ok);
    expect(creds.forHost("A.example")).toBe("t-a");
    expect(creds.get("a.example")).toBe("t-a");
    expect(creds.get("b.example")).toBeUndefined();
    expect(creds.get("c.example")).toBe("configured");
    expect(() => creds.forHost("n.example")).toThrow(`malformed output from ${join(root, "ok")}: not a JSON object`);
    expect(readFileSync(log, "utf8")).toBe("x get a.example\nx get b.example\nx get n.example\n");
    const failing = new HostCredentials(new Map(), new CredentialsHelper(script(join(root, "fail"), 'echo "denied" >&2; exit 2'), []));
    expect(() => failing.forHost("a.example")).toThrow(`error in ${join(root, "fail")}: denied\n`);
    expect(failing.get("a.example")).toBeUndefined();
    const silent = new CredentialsHelper(script(join(root, "silent"), "exit 2"), []);
    expect(() => silent.token("a.example")).toThrow(`error in ${join(root, "silent")}, but it produced no error message`);
    expect(() => new CredentialsHelper(join(root, "absent"), []).token("a.example")).toThrow(/^failed to run /);
  });

  test("store and forget: the verb and host after the args, the token as JSON on standard input; the answer kept; failures in terraform's words", () => {
    const log = join(root, "store.log");
    const helper = new CredentialsHelper(script(join(root, "store"), `echo "$@" >> ${log}\nif [ "$2" = store ]; then cat >> ${log}; echo >> ${log}; fi\nif [ "$2" = get ]; then echo '{"token":"from-get"}'; fi`), ["x"]);
    helper.store("Vault.Example", "t-1");
    expect(helper.token("vault.example")).toBe("t-1");
    helper.forget("vault.example");
    expect(helper.token("vault.example")).toBeUndefined();
    expect(readFileSync(log, "utf8")).toBe('x store vault.example\n{"token":"t-1"}\nx forget vault.example\n');
    const failing = new CredentialsHelper(script(join(root, "store-fail"), 'cat > /dev/null; echo "sealed" >&2; exit 2'), []);
    expect(() => failing.store("a.example", "t")).toThrow(`error in ${join(root, "store-fail")}: sealed\n`);
    expect(() => failing.forget("a.example")).toThrow(`error in ${join(root, "store-fail")}: sealed\n`);
    expect(() => new CredentialsHelper(script(join(root, "store-silent"), "exit 1"), []).forget("a.example")).toThrow("but it produced no error message");
  });

  test("readCliConfig: an empty TF_CLI_CONFIG_FILE is unset (~/.terraformrc under HOME is read)", () => {
    const home = join(root, "rc-home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, ".terraformrc"), 'credentials_helper "rc" {}\n');
    expect(readCliConfig({ env: { HOME: home, TF_CLI_CONFIG_FILE: "" } }).credentialsHelper).toEqual({ name: "rc", args: [] });
  });

  test("readCliConfig reads the first credentials_helper block and its args", () => {
    const file = join(root, "cli.tfrc");
    writeFileSync(file, 'credentials_helper "acme" {\n  args = ["--profile", "p"]\n}\n');
    expect(readCliConfig({ file, env: {} }).credentialsHelper).toEqual({ name: "acme", args: ["--profile", "p"] });
    writeFileSync(file, 'credentials_helper "acme" {\n  args = "no"\n}\n');
    expect(() => readCliConfig({ file, env: {} })).toThrow("credentials_helper.args must be a list of strings");
    writeFileSync(file, "");
    expect(readCliConfig({ file, env: {} }).credentialsHelper).toBeUndefined();
  });
});

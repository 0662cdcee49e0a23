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

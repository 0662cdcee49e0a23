import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCliConfig } from "./cli-config.js";
import { parseProviderPattern } from "./multi-source.js";
import { parseModuleSource } from "./module-source.js";
import { compareVersions } from "./provider-source.js";

const dir = mkdtempSync(join(tmpdir(), "magma-cli-config-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readCliConfig", () => {
  test("provider_installation methods in order, host services, credentials, the cache, TF_TOKEN_ variables", () => {
    const file = join(dir, "cli.tfrc");
    writeFileSync(
      file,
      `plugin_cache_dir = "/var/cache/tf"\nplugin_cache_may_break_dependency_lock_file = true\n` +
        `host "example.com" {\n  services = {\n    "providers.v1" = "https://127.0.0.1:1/v1/providers/"\n  }\n}\n` +
        `credentials "example.com" {\n  token = "from-file"\n}\n` +
        `provider_installation {\n  filesystem_mirror {\n    path    = "/m"\n    include = ["example.com/*/*"]\n  }\n  network_mirror {\n    url = "https://mirror.example.com/p"\n  }\n  direct {\n    exclude = ["example.com/*/*"]\n  }\n}\n`,
    );
    const c = readCliConfig({ env: { TF_CLI_CONFIG_FILE: file, TF_TOKEN_my__host_example_org: "tok", TF_TOKEN_example_com: "from-env" } });
    expect(c.pluginCacheDir).toBe("/var/cache/tf");
    expect(c.pluginCacheMayBreakLockFile).toBe(true);
    expect(c.hosts.get("example.com")).toEqual({ "providers.v1": "https://127.0.0.1:1/v1/providers/" });
    expect(c.credentials.get("my-host.example.org")).toBe("tok");
    expect(c.credentials.get("example.com")).toBe("from-env");
    expect(c.providerInstallation?.map((m) => m.kind)).toEqual(["filesystem_mirror", "network_mirror", "direct"]);
    expect(c.providerInstallation?.[1]).toMatchObject({ url: "https://mirror.example.com/p/" });
  });

  test("a malformed file is a bad_config error naming the file and line", () => {
    const file = join(dir, "bad.tfrc");
    writeFileSync(file, "provider_installation {\n  network_mirror {\n    url = \"http://plain\"\n  }\n}\n");
    expect(() => readCliConfig({ env: { TF_CLI_CONFIG_FILE: file } })).toThrow(/\[bad_config\].*network_mirror needs an https url/);
    expect(readCliConfig({ env: { TF_CLI_CONFIG_FILE: join(dir, "missing") } }).providerInstallation).toBeUndefined();
  });
});

describe("readCliConfig: the CLI configuration directory", () => {
  test("~/.terraformrc, then ~/.terraform.d's *.tfrc and *.tfrc.json in name order, merged as terraform's Config.Merge; not read when TF_CLI_CONFIG_FILE names the file", () => {
    const home = join(dir, "home");
    mkdirSync(join(home, ".terraform.d", "sub.tfrc"), { recursive: true });
    writeFileSync(join(home, ".terraformrc"), `plugin_cache_dir = "/main-cache"\ncredentials "a.example" {\n  token = "main-a"\n}\nprovider_installation {\n  direct {}\n}\n`);
    writeFileSync(join(home, ".terraform.d", "b.tfrc"), `plugin_cache_dir = "/dir-cache"\ncredentials "a.example" {\n  token = "dir-a"\n}\ncredentials_helper "first" {\n  args = ["x"]\n}\n`);
    writeFileSync(join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { "c.example": { token: "json-c" } } }));
    writeFileSync(join(home, ".terraform.d", "ignored.txt"), "not = [a config");
    const c = readCliConfig({ env: { HOME: home } });
    expect(c.pluginCacheDir).toBe("/main-cache");
    expect(c.credentials.get("a.example")).toBe("dir-a");
    expect(c.credentials.get("c.example")).toBe("json-c");
    expect(c.credentialsHelper).toEqual({ name: "first", args: ["x"] });
    expect(c.providerInstallation?.map((m) => m.kind)).toEqual(["direct"]);
    const only = readCliConfig({ env: { HOME: home, TF_CLI_CONFIG_FILE: join(home, ".terraformrc") } });
    expect(only.credentialsHelper).toBeUndefined();
    expect(only.credentials.get("a.example")).toBe("main-a");
    expect(only.credentials.has("c.example")).toBe(false);
  });
});

describe("readCliConfig: problems terraform reports and goes on without", () => {
  test("a file that cannot be parsed or read is left out; more than one credentials_helper; JSON told from the text, not the name", () => {
    const home = join(dir, "home-problems");
    mkdirSync(join(home, ".terraform.d", "d.tfrc"), { recursive: true });
    writeFileSync(join(home, ".terraformrc"), `credentials_helper "a" {\n  args = [\n}\n`);
    writeFileSync(join(home, ".terraform.d", "b.tfrc"), `{"credentials_helper": {"b": {"args": ["x"]}, "c": {}}, "plugin_cache_dir": "/json-cache"}`);
    const c = readCliConfig({ env: { HOME: home } });
    expect(c.problems).toEqual([
      expect.stringMatching(/^Error parsing \S+\.terraformrc: At 3:1: Invalid expression/),
      `Error reading ${join(home, ".terraform.d", "d.tfrc")}: read ${join(home, ".terraform.d", "d.tfrc")}: is a directory`,
      "No more than one credentials_helper block may be specified",
    ]);
    expect(c.pluginCacheDir).toBe("/json-cache");
    expect(c.credentialsHelper).toEqual({ name: "b", args: ["x"] });
    expect(readCliConfig({ env: { HOME: home, TF_CLI_CONFIG_FILE: join(home, ".terraform.d", "b.tfrc") } }).problems).toEqual(["No more than one credentials_helper block may be specified"]);
    expect(readCliConfig({ env: { HOME: join(dir, "nowhere") } }).problems).toEqual([]);
    // several provider_installation blocks (here one per file): the first one's methods, and terraform's problem
    writeFileSync(join(home, ".terraformrc"), `provider_installation {\n  filesystem_mirror {\n    path = "/m"\n  }\n}\n`);
    writeFileSync(join(home, ".terraform.d", "c.tfrc.json"), JSON.stringify({ provider_installation: [{ direct: {} }, { direct: {} }] }));
    const several = readCliConfig({ env: { HOME: home } });
    expect(several.providerInstallation).toEqual([{ kind: "filesystem_mirror", path: "/m", include: [], exclude: [] }]);
    expect(several.problems.slice(-2)).toEqual(["No more than one credentials_helper block may be specified", "No more than one provider_installation block may be specified"]);
  });
});

describe("addresses and versions", () => {
  test("provider patterns as terraform parses them", () => {
    expect(parseProviderPattern("hashicorp/*")).toEqual({ hostname: "registry.terraform.io", namespace: "hashicorp", type: "*" });
    expect(() => parseProviderPattern("*/aws")).toThrow("namespace can be a wildcard only if the provider type is also a wildcard");
    expect(() => parseProviderPattern("a")).toThrow("must have either two or three slash-separated segments");
  });

  test("module sources classified and normalised", () => {
    expect(parseModuleSource("./m")).toEqual({ kind: "local", path: "./m" });
    expect(parseModuleSource("hashicorp/consul/aws//modules/x")).toMatchObject({ kind: "registry", hostname: "registry.terraform.io", subdir: "modules/x", display: "hashicorp/consul/aws//modules/x" });
    expect(parseModuleSource("example.com/a/b/c")).toMatchObject({ kind: "registry", display: "example.com/a/b/c" });
    expect(parseModuleSource("github.com/o/r//sub?ref=v1")).toMatchObject({ kind: "remote", packageAddr: "git::https://github.com/o/r.git?ref=v1", subdir: "sub" });
    expect(parseModuleSource("git::file:///tmp/r//sub?ref=v1&depth=1")).toMatchObject({ packageAddr: "git::file:///tmp/r?ref=v1&depth=1", subdir: "sub", display: "git::file:///tmp/r//sub?ref=v1&depth=1" });
  });

  test("versions by semver precedence", () => {
    expect(["1.10.0", "1.2.0", "1.2.0-beta1", "0.9.9"].sort(compareVersions)).toEqual(["0.9.9", "1.2.0-beta1", "1.2.0", "1.10.0"]);
  });
});

// magma logout through the built binary beside terraform 1.11.4, each with a home directory of
// its own holding the same ~/.terraform.d/credentials.tfrc.json: stdout, stderr, exit code
// and the credentials file written must be identical — the default host and a named one
// removed (the other hosts' tokens kept), a host with no token, a host configured in the CLI
// configuration file (refused), the configuration directory not read when
// TF_CLI_CONFIG_FILE overrides it, too many arguments. Skipped without terraform.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 180_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const CREDENTIALS = JSON.stringify({ credentials: { "app.terraform.io": { token: "abc" }, "example.com": { token: "def" }, "tfe.local:8443": { token: "ghi" } } }, null, 2);

/** A credentials helper script `terraform-credentials-test` in `home`'s plugin directory: logs its arguments beside itself, then runs `body`. */
function writeHelper(home: string, body: string): void {
  const dir = join(home, ".terraform.d", "plugins");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "terraform-credentials-test"), `#!/bin/sh\necho "$*" >> "$(dirname "$0")/helper.log"\n${body}\n`, { mode: 0o755 });
}

async function sameAsTerraform(args: readonly string[], cliConfig?: string, helper?: string, terraformrc?: string): Promise<{ code: number | null; stdout: string; helperLog: string }> {
  const base = workdir({ ".terraform.d/credentials.tfrc.json": CREDENTIALS, "cli.tfrc": cliConfig ?? "", ...(terraformrc === undefined ? {} : { ".terraformrc": terraformrc }) });
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true });
  cpSync(base, b, { recursive: true });
  if (helper !== undefined) for (const home of [a, b]) writeHelper(home, helper);
  const env = (home: string): Record<string, string> => ({ HOME: home, TF_CLI_CONFIG_FILE: cliConfig === undefined ? "" : join(home, "cli.tfrc") });
  const [theirs, ours] = await Promise.all([runTool("terraform", args, a, env(a)), runTool("magma", args, b, env(b))]);
  const norm = (s: string, home: string): string => s.split(home).join("HOME");
  expect({ code: ours.code, stdout: norm(ours.stdout, b), stderr: norm(ours.stderr, b) }).toEqual({ code: theirs.code, stdout: norm(theirs.stdout, a), stderr: norm(theirs.stderr, a) });
  const creds = (home: string): string => readFileSync(join(home, ".terraform.d", "credentials.tfrc.json"), "utf8");
  expect(creds(b)).toBe(creds(a));
  const log = (home: string): string => (existsSync(join(home, ".terraform.d", "plugins", "helper.log")) ? readFileSync(join(home, ".terraform.d", "plugins", "helper.log"), "utf8") : "");
  expect(log(b)).toBe(log(a));
  return { code: theirs.code, stdout: theirs.stdout, helperLog: log(b) };
}

describe("logout beside terraform", () => {
  it_(
    "removes stored tokens, refuses manually configured hosts, honours the configuration override",
    async () => {
      expect((await sameAsTerraform(["logout", "-no-color"])).stdout).toContain("Success!");
      await sameAsTerraform(["logout", "-no-color", "EXAMPLE.com"]);
      await sameAsTerraform(["logout", "-no-color", "tfe.local:8443"]);
      expect((await sameAsTerraform(["logout", "-no-color", "nothing.io"])).stdout).toContain("No credentials");
      expect((await sameAsTerraform(["logout", "-no-color", "example.com"], "# empty\n")).stdout).toContain("No credentials");
      expect((await sameAsTerraform(["logout", "-no-color", "only.io"], 'credentials "only.io" {\n  token = "x"\n}\n')).code).toBe(1);
      expect((await sameAsTerraform(["logout", "-no-color", "a", "b"])).code).toBe(1);
    },
    TIMEOUT,
  );

  it_(
    "forgets through the configured credentials_helper (forget HOST) unless the file holds the host; a failing helper is terraform's error",
    async () => {
      const helperConfig = 'credentials_helper "test" {\n  args = ["--from", "tests"]\n}\n';
      const viaHelper = await sameAsTerraform(["logout", "-no-color", "vault.example.test"], helperConfig, "exit 0");
      expect(viaHelper.stdout).toContain('from the configured\n"test" credentials helper.');
      expect(viaHelper.helperLog).toBe("--from tests forget vault.example.test\n");
      // TF_CLI_CONFIG_FILE set: credentials.tfrc.json is not read, so its host goes to the helper too
      expect((await sameAsTerraform(["logout", "-no-color", "example.com"], helperConfig, "exit 0")).helperLog).toBe("--from tests forget example.com\n");
      // ~/.terraformrc: a host in credentials.tfrc.json is removed from the file, the helper not asked
      const inFile = await sameAsTerraform(["logout", "-no-color", "example.com"], undefined, "exit 0", helperConfig);
      expect(inFile.helperLog).toBe("");
      expect(inFile.stdout).toContain("from the following file");
      expect((await sameAsTerraform(["logout", "-no-color", "vault.example.test"], undefined, "exit 0", helperConfig)).helperLog).toBe("--from tests forget vault.example.test\n");
      expect((await sameAsTerraform(["logout", "-no-color", "vault.example.test"], helperConfig, 'echo "vault sealed" >&2\nexit 2')).code).toBe(1);
      expect((await sameAsTerraform(["logout", "-no-color", "vault.example.test"], helperConfig, "exit 3")).code).toBe(1);
    },
    TIMEOUT,
  );
});

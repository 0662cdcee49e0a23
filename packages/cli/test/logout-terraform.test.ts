// magma logout through the built binary beside terraform 1.11.4, each with a home directory of
// its own holding the same ~/.terraform.d/credentials.tfrc.json: stdout, stderr, exit code
// and the credentials file written must be identical — the default host and a named one
// removed (the other hosts' tokens kept), a host with no token, a host configured in the CLI
// configuration file (refused), the configuration directory not read when
// TF_CLI_CONFIG_FILE overrides it, too many arguments. Skipped without terraform.
import { cpSync, readFileSync } from "node:fs";
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

async function sameAsTerraform(args: readonly string[], cliConfig?: string): Promise<{ code: number | null; stdout: string }> {
  const base = workdir({ ".terraform.d/credentials.tfrc.json": CREDENTIALS, "cli.tfrc": cliConfig ?? "" });
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true });
  cpSync(base, b, { recursive: true });
  const env = (home: string): Record<string, string> => ({ HOME: home, TF_CLI_CONFIG_FILE: cliConfig === undefined ? "" : join(home, "cli.tfrc") });
  const [theirs, ours] = await Promise.all([runTool("terraform", args, a, env(a)), runTool("magma", args, b, env(b))]);
  const norm = (s: string, home: string): string => s.split(home).join("HOME");
  expect({ code: ours.code, stdout: norm(ours.stdout, b), stderr: norm(ours.stderr, b) }).toEqual({ code: theirs.code, stdout: norm(theirs.stdout, a), stderr: norm(theirs.stderr, a) });
  const creds = (home: string): string => readFileSync(join(home, ".terraform.d", "credentials.tfrc.json"), "utf8");
  expect(creds(b)).toBe(creds(a));
  return { code: theirs.code, stdout: theirs.stdout };
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
});

// magma login through the built binary beside terraform 1.11.4, each with a home directory of
// its own, against one local OAuth host (a `host` block in the CLI configuration gives its
// login.v1 service: an authorization endpoint that also plays the user's browser, and a token
// endpoint that checks the PKCE verifier against the challenge). Compared: stdout, stderr and
// exit code (the authorization URL's random state and challenge, and the callback port, taken
// out) and the credentials file written. Also the refusals: -input=false, too many arguments,
// an invalid hostname, "no", a host without a login service, a host configured by hand, a token
// endpoint that refuses the code. It reads no configuration, so there is no JSON-syntax
// variant. Skipped without terraform.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 180_000;

/** The OAuth host: codes it issued with their PKCE challenges, and what the token endpoint answers. */
interface OAuthHost {
  readonly server: Server;
  readonly port: number;
  /** The token endpoint's answer to a valid code (default a token made from the code's number). */
  refuse: boolean;
  readonly tokenRequests: string[];
}

let host: OAuthHost;

beforeAll(async () => {
  const challenges = new Map<string, string>();
  let issued = 0;
  const state: { refuse: boolean; tokenRequests: string[] } = { refuse: false, tokenRequests: [] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (url.pathname === "/authz") {
        const code = `code-${++issued}`;
        challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      if (url.pathname === "/token" && req.method === "POST") {
        state.tokenRequests.push(body);
        const p = new URLSearchParams(body);
        const verified = createHash("sha256").update(p.get("code_verifier") ?? "").digest("base64url") === challenges.get(p.get("code") ?? "");
        if (state.refuse || !verified || p.get("grant_type") !== "authorization_code" || p.get("client_id") !== "terraform-cli") {
          res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant", error_description: "the code is not valid" }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "token-for-everyone", token_type: "bearer" }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = Object.assign(state, { server, port: (server.address() as AddressInfo).port });
});

afterAll(async () => {
  stopToolRuns();
  removeWorkdirs();
  await new Promise((resolve) => host.server.close(resolve));
});

function cliConfig(extra = ""): string {
  return `host "login.example.test" {
  services = {
    "login.v1" = {
      client = "terraform-cli"
      grant_types = ["authz_code"]
      authz = "http://127.0.0.1:${host.port}/authz"
      token = "http://127.0.0.1:${host.port}/token"
      ports = [20000, 20999]
    }
  }
}

host "plain.example.test" {
  services = {
    "modules.v1" = "https://plain.example.test/modules/"
  }
}
${extra}`;
}

/** Plays the browser: follows the authorization URL a tool printed, which redirects to the tool's callback. */
function openInBrowser(stdout: string): void {
  const m = /http:\/\/127\.0\.0\.1:\d+\/authz\?\S+/.exec(stdout);
  if (m === null) return;
  get(m[0], (res) => {
    res.resume();
    const back = res.headers.location;
    if (back !== undefined) get(back, (r) => r.resume()).on("error", () => undefined);
  }).on("error", () => undefined);
}

/** The output with what differs from run to run taken out: homes, the URL's state, challenge and callback port. */
function normalised(s: string, home: string): string {
  return s
    .split(home)
    .join("HOME")
    .replace(/code_challenge=[\w-]+/g, "code_challenge=C")
    .replace(/state=[\w-]+/g, "state=S")
    .replace(/localhost%3A\d+/g, "localhost%3APORT");
}

/** A credentials helper script `terraform-credentials-test` in `home`'s plugin directory: logs its arguments and standard input beside itself, then runs `body`. */
function writeHelper(home: string, body: string): void {
  const dir = join(home, ".terraform.d", "plugins");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "terraform-credentials-test"), `#!/bin/sh\nlog="$(dirname "$0")/helper.log"\necho "args: $*" >> "$log"\nif [ "$3" = store ]; then echo "stdin: $(cat)" >> "$log"; fi\n${body}\n`, { mode: 0o755 });
}

/** What a helper written by {@link writeHelper} logged. */
const helperLog = (home: string): string => {
  const f = join(home, ".terraform.d", "plugins", "helper.log");
  return existsSync(f) ? readFileSync(f, "utf8") : "";
};

async function sameAsTerraform(args: readonly string[], options: { stdin?: string; extraConfig?: string; credentials?: string; helper?: string } = {}): Promise<{ code: number | null; stdout: string; home: string; helperLog: string }> {
  const base = workdir({ "cli.tfrc": cliConfig(options.extraConfig), ...(options.credentials === undefined ? {} : { ".terraform.d/credentials.tfrc.json": options.credentials }) });
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true });
  cpSync(base, b, { recursive: true });
  if (options.helper !== undefined) for (const home of [a, b]) writeHelper(home, options.helper);
  const env = (home: string): Record<string, string> => ({ HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc") });
  const run = (tool: "terraform" | "magma", dir: string): ReturnType<typeof runTool> =>
    runTool(tool, args, dir, env(dir), { ...(options.stdin === undefined ? {} : { stdin: options.stdin }), onOutput: { match: /Terraform will now wait/, run: openInBrowser } });
  const [theirs, ours] = await Promise.all([run("terraform", a), run("magma", b)]);
  expect({ code: ours.code, stdout: normalised(ours.stdout, b), stderr: normalised(ours.stderr, b) }).toEqual({ code: theirs.code, stdout: normalised(theirs.stdout, a), stderr: normalised(theirs.stderr, a) });
  const creds = (home: string): string | undefined => {
    const f = join(home, ".terraform.d", "credentials.tfrc.json");
    return existsSync(f) ? readFileSync(f, "utf8") + `\nmode ${(statSync(f).mode & 0o777).toString(8)}` : undefined;
  };
  expect(creds(b)).toEqual(creds(a));
  expect(helperLog(b)).toBe(helperLog(a));
  return { code: ours.code, stdout: ours.stdout, home: b, helperLog: helperLog(b) };
}

describe("login beside terraform", () => {
  it_("logs in through the host's login.v1 service (authorization code with PKCE) and stores the token", async () => {
    const { code, stdout, home } = await sameAsTerraform(["login", "-no-color", "login.example.test"], { stdin: "yes\n", credentials: JSON.stringify({ credentials: { "other.example.test": { token: "kept" } } }) });
    expect(code).toBe(0);
    expect(stdout).toContain("Success! Terraform has obtained and saved an API token.");
    expect(JSON.parse(readFileSync(join(home, ".terraform.d", "credentials.tfrc.json"), "utf8"))).toEqual({ credentials: { "login.example.test": { token: "token-for-everyone" }, "other.example.test": { token: "kept" } } });
  }, TIMEOUT);

  it_.each([
    ["-input=false", ["login", "-no-color", "-input=false", "login.example.test"], {}],
    ["two hostnames", ["login", "-no-color", "a.example.test", "b.example.test"], {}],
    ["an invalid hostname", ["login", "-no-color", "bad_host!"], {}],
    ["the answer no", ["login", "-no-color", "login.example.test"], { stdin: "no\n" }],
    ["a host without a login service", ["login", "-no-color", "plain.example.test"], { stdin: "yes\n" }],
    ["a host whose credentials are configured by hand", ["login", "-no-color", "login.example.test"], { stdin: "yes\n", extraConfig: 'credentials "login.example.test" {\n  token = "manual"\n}\n' }],
  ] as const)("refuses as terraform does: %s", async (_name, args, options) => {
    const { code } = await sameAsTerraform(args, options);
    expect(code).toBe(1);
  }, TIMEOUT);

  const HELPER = 'credentials_helper "test" {\n  args = ["--from", "tests"]\n}\n';

  it_("stores the token through the configured credentials_helper (store HOST, the token as JSON on its input), not in the file", async () => {
    const { code, stdout, helperLog: log } = await sameAsTerraform(["login", "-no-color", "login.example.test"], { stdin: "yes\n", extraConfig: HELPER, helper: "exit 0" });
    expect(code).toBe(0);
    expect(stdout).toContain('store the token in the configured\n"test" credentials helper');
    expect(log).toBe('args: --from tests store login.example.test\nstdin: {"token":"token-for-everyone"}\n');
  }, TIMEOUT);

  it_("a helper that fails to store is terraform's error", async () => {
    const failed = await sameAsTerraform(["login", "-no-color", "login.example.test"], { stdin: "yes\n", extraConfig: HELPER, helper: 'echo "vault sealed" >&2\nexit 2' });
    expect(failed.code).toBe(1);
  }, TIMEOUT);

  it_("reports a token endpoint that refuses the code as terraform does", async () => {
    host.refuse = true;
    try {
      const { code } = await sameAsTerraform(["login", "-no-color", "login.example.test"], { stdin: "yes\n" });
      expect(code).toBe(1);
    } finally {
      host.refuse = false;
    }
  }, TIMEOUT);
});

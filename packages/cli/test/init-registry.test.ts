/**
 * `magma init` against terraform 1.11.4 on the same local HTTPS provider registry and network
 * mirror (test-support's startLocalRegistry: a CA and an OpenPGP key made for the run, a
 * `host` block mapping the provider hostname to 127.0.0.1): the same lock files and
 * `.terraform` layouts, a directory either tool can take over, and terraform's errors for
 * packages that must not be installed.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry, startLocalRegistry, type LocalRegistry, type ZipWriterEntry } from "@magma/test-support";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { removeWorkdirs, TERRAFORM, workdir } from "./support/workdir.js";

const describeTf = TERRAFORM === undefined ? describe.skip : describe;
const NS = "testing";

let reg: LocalRegistry;
let files: ZipWriterEntry[];

beforeAll(async () => {
  reg = await startLocalRegistry();
  const launcherDir = workdir();
  const require = createRequire(import.meta.url);
  const launcher = bundleLauncherEntry(
    writeProviderLauncher({ mirrorDir: launcherDir, hostname: reg.hostname, namespace: NS, type: "random", version: "1.0.0", module: require.resolve("@magma/provider-random"), exportName: "createRandomProvider" }),
  );
  files = [
    { name: "terraform-provider-random_v1.0.0", data: readFileSync(launcher.executable), mode: 0o755 },
    { name: "magma-entry.mjs", data: readFileSync(launcher.entry) },
  ];
  await reg.publish({ namespace: NS, type: "random", version: "1.0.0", files });
  await reg.publish({ namespace: NS, type: "random", version: "1.1.0", files });
  await reg.publish({ namespace: NS, type: "random", version: "1.1.0", platform: "darwin_arm64", files: [...files, { name: "README", data: "darwin" }] });
  await reg.publish({ namespace: NS, type: "random", version: "2.0.0", files });
}, 120_000);

afterAll(async () => {
  stopToolRuns();
  removeWorkdirs();
  await reg?.close();
});

const mainTf = (type = "random", constraint = "~> 1.0"): string =>
  `terraform {\n  required_providers {\n    random = {\n      source  = "${reg.hostname}/${NS}/${type}"\n      version = "${constraint}"\n    }\n  }\n}\n\nresource "random_id" "x" {\n  byte_length = 4\n}\n\noutput "id" {\n  value = random_id.x.hex\n}\n`;

/** A working directory with the configuration and a CLI configuration beside it; the environment to run in it. */
function setup(options: { mirror?: boolean; tf?: string; extraCli?: string } = {}): { dir: string; env: Record<string, string> } {
  const dir = workdir({ "main.tf": options.tf ?? mainTf(), "cli/cli.tfrc": reg.cliConfig({ ...(options.mirror === true ? { mirror: true } : {}), ...(options.extraCli !== undefined ? { extra: options.extraCli } : {}) }) });
  return { dir, env: { ...reg.env, TF_CLI_CONFIG_FILE: join(dir, "cli", "cli.tfrc"), TF_REGISTRY_CLIENT_TIMEOUT: "3" } };
}

/** `.terraform`'s tree: each path with its kind, a file's hash and mode, a link's target made relative to the working directory. */
function layout(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.push(`${rel} -> ${relative(dir, readlinkSync(p))}`);
      else if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${(st.mode & 0o777).toString(8)} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`);
    }
  };
  if (existsSync(join(dir, ".terraform"))) walk(join(dir, ".terraform"));
  return out;
}

describeTf("magma init from a provider registry and a network mirror, against terraform", () => {
  test("registry: same output, lock file and layout; init → plan → apply, and either tool takes the directory over", async () => {
    const a = setup();
    const b = setup();
    const [m, t] = [await runTool("magma", ["init", "-no-color"], a.dir, a.env), await runTool("terraform", ["init", "-no-color"], b.dir, b.env)];
    expect(t.stderr).toBe("");
    expect(m.stderr).toBe("");
    expect(m.code).toBe(0);
    expect(m.stdout).toBe(t.stdout);
    expect(m.stdout).toContain(`- Installed ${reg.hostname}/${NS}/random v1.1.0 (self-signed, key ID ${reg.keyId})`);
    const lock = readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
    expect(lock.match(/"zh:/g)).toHaveLength(2); // both platforms' signed zip hashes
    expect(layout(a.dir)).toEqual(layout(b.dir));

    // magma applies, terraform sees no changes
    expect((await runTool("magma", ["apply", "-auto-approve", "-no-color"], a.dir, a.env)).code).toBe(0);
    const tp = await runTool("terraform", ["plan", "-detailed-exitcode", "-no-color"], a.dir, a.env);
    expect(tp.stdout).toContain("No changes.");
    expect(tp.code).toBe(0);
    // terraform applies, magma sees no changes
    expect((await runTool("terraform", ["apply", "-auto-approve", "-no-color"], b.dir, b.env)).code).toBe(0);
    const mp = await runTool("magma", ["plan", "-detailed-exitcode", "-no-color"], b.dir, b.env);
    expect(mp.stdout).toContain("No changes.");
    expect(mp.code).toBe(0);

    // a second init reuses the locked, installed package, as terraform's
    const [m2, t2] = [await runTool("magma", ["init", "-no-color"], a.dir, a.env), await runTool("terraform", ["init", "-no-color"], b.dir, b.env)];
    expect(m2.stdout).toBe(t2.stdout);
  }, 300_000);
});

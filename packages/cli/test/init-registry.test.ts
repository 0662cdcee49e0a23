/**
 * `magma init` against terraform 1.11.4 on the same local HTTPS provider registry and network
 * mirror (test-support's startLocalRegistry: a CA and an OpenPGP key made for the run, a
 * `host` block mapping the provider hostname to 127.0.0.1): the same lock files and
 * `.terraform` layouts, a directory either tool can take over, and terraform's errors for
 * packages that must not be installed.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { writeProviderLauncher } from "@magma/provider-server";
import { bundleLauncherEntry, startLocalRegistry, type LocalRegistry, type ZipWriterEntry } from "@magma/test-support";
import { MAGMA_BIN } from "./support/run-magma.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { taggedGitRepo } from "./support/tagged-git-repo.js";
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

/** `.terraform`'s tree (or `root`'s): each path with its kind, a file's hash and mode, a link's target relative to the working directory (`cache` named `<cache>`). */
function layout(dir: string, cache?: string, root = join(dir, ".terraform")): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(root === join(dir, ".terraform") ? dir : root, p);
      const target = st.isSymbolicLink() ? readlinkSync(p) : "";
      if (name === ".git") continue; // a clone's own bookkeeping (times, pack names) is not the layout
      if (st.isSymbolicLink()) out.push(`${rel} -> ${cache !== undefined && target.startsWith(cache) ? `<cache>${target.slice(cache.length)}` : relative(dir, target)}`);
      else if (st.isDirectory()) {
        out.push(`${rel}/`);
        walk(p);
      } else out.push(`${rel} ${(st.mode & 0o777).toString(8)} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`);
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

describeTf("magma init from a provider registry and a network mirror, against terraform", () => {
  test("registry: same output, lock file and layout; a second init reuses the package", async () => {
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

    // (init → apply with either tool taking the directory over: the modules test below, whose
    // configuration has this provider too)

    // a second init reuses the locked, installed package, as terraform's
    const [m2, t2] = [await runTool("magma", ["init", "-no-color"], a.dir, a.env), await runTool("terraform", ["init", "-no-color"], b.dir, b.env)];
    expect(m2.stdout).toBe(t2.stdout);
  }, 300_000);
});

describeTf("network mirror, plugin cache and -upgrade, against terraform", () => {
  test("network mirror: same output, lock file (local h1: only, terraform's warning) and layout", async () => {
    const a = setup({ mirror: true });
    const b = setup({ mirror: true });
    const [m, t] = await Promise.all([runTool("magma", ["init", "-no-color"], a.dir, a.env), runTool("terraform", ["init", "-no-color"], b.dir, b.env)]);
    expect(t.code).toBe(0);
    expect(m.stderr).toBe("");
    expect(m.stdout).toBe(t.stdout);
    expect(m.stdout).toContain("(verified checksum)");
    expect(m.stdout).toContain("Incomplete lock file information for providers");
    expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
    expect(layout(a.dir)).toEqual(layout(b.dir));
  }, 120_000);

  test("plugin cache: installed there and linked, reused with a lock file; -upgrade moves to the newest match", async () => {
    const a = setup();
    const b = setup();
    const cacheA = workdir();
    const cacheB = workdir();
    const envA = { ...a.env, TF_PLUGIN_CACHE_DIR: cacheA };
    const envB = { ...b.env, TF_PLUGIN_CACHE_DIR: cacheB };
    const both = async (args: string[]): Promise<void> => {
      const [m, t] = await Promise.all([runTool("magma", args, a.dir, envA), runTool("terraform", args, b.dir, envB)]);
      expect(t.code).toBe(0);
      expect(m.stderr).toBe("");
      expect(m.stdout).toBe(t.stdout);
      expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
      expect(layout(a.dir, cacheA)).toEqual(layout(b.dir, cacheB));
      expect(layout(a.dir, cacheA, cacheA)).toEqual(layout(b.dir, cacheB, cacheB));
    };
    await both(["init", "-no-color"]);
    expect(layout(a.dir, cacheA).some((l) => l.endsWith("-> <cache>/registry.magma.test/testing/random/1.1.0/linux_amd64"))).toBe(true);
    for (const d of [a.dir, b.dir]) rmSync(join(d, ".terraform"), { recursive: true });
    await both(["init", "-no-color"]); // "- Using … from the shared cache directory"
    for (const d of [a.dir, b.dir]) writeFileSync(join(d, "main.tf"), mainTf("random", ">= 1.0"));
    await both(["init", "-no-color"]); // the lock file's version is kept, its constraints updated
    await both(["init", "-upgrade", "-no-color"]); // 2.0.0
    expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toContain('version     = "2.0.0"');
  }, 180_000);
});

describeTf("magma providers lock and providers mirror, against terraform", () => {
  test("lock for two platforms, then mirror: same output, lock file, mirror tree and indexes", async () => {
    const a = setup();
    const b = setup();
    const args = ["providers", "lock", "-platform=linux_amd64", "-platform=darwin_arm64", "-no-color"];
    const [m, t] = await Promise.all([runTool("magma", args, a.dir, a.env), runTool("terraform", args, b.dir, b.env)]);
    expect(t.code).toBe(0);
    expect(m.stderr).toBe("");
    // terraform lists the "Obtained" lines in Go's map order, which varies from run to run
    const obtainedSorted = (out: string): string => {
      const lines = out.split("\n");
      const first = lines.findIndex((l) => l.startsWith("- Obtained "));
      const n = lines.slice(first).findIndex((l) => !l.startsWith("- Obtained "));
      return [...lines.slice(0, first), ...lines.slice(first, first + n).sort(), ...lines.slice(first + n)].join("\n");
    };
    expect(obtainedSorted(m.stdout)).toBe(obtainedSorted(t.stdout));
    const lock = readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
    expect(lock.match(/"h1:/g)).toHaveLength(2); // each platform's package hashed
    const mirrorArgs = ["providers", "mirror", "-platform=linux_amd64", "-platform=darwin_arm64", "-no-color"];
    const [mm, tm] = await Promise.all([runTool("magma", [...mirrorArgs, join(a.dir, "mirror")], a.dir, a.env), runTool("terraform", [...mirrorArgs, join(b.dir, "mirror")], b.dir, b.env)]);
    expect(tm.code).toBe(0);
    expect(mm.stderr).toBe("");
    expect(mm.stdout).toBe(tm.stdout);
    expect(layout(a.dir, undefined, join(a.dir, "mirror"))).toEqual(layout(b.dir, undefined, join(b.dir, "mirror")));

    // the mirror (packed layout) as -plugin-dir of a fresh directory: unpacked, h1: only
    const c = setup();
    const d = setup();
    const [mi, ti] = await Promise.all([
      runTool("magma", ["init", `-plugin-dir=${join(a.dir, "mirror")}`, "-no-color"], c.dir, c.env),
      runTool("terraform", ["init", `-plugin-dir=${join(a.dir, "mirror")}`, "-no-color"], d.dir, d.env),
    ]);
    expect(ti.code).toBe(0);
    expect(mi.stderr).toBe("");
    expect(mi.stdout).toBe(ti.stdout);
    expect(readFileSync(join(c.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(d.dir, ".terraform.lock.hcl"), "utf8"));
    expect(layout(c.dir)).toEqual(layout(d.dir));
  }, 120_000);
});

describeTf("modules from a module registry, git and an https archive, against terraform", () => {
  test("same output and modules.json; magma init → apply, terraform sees no changes (and the reverse)", async () => {
    const modTf = `terraform {\n  required_providers {\n    random = {\n      source = "${reg.hostname}/${NS}/random"\n    }\n  }\n}\n\nresource "random_id" "m" {\n  byte_length = 2\n}\n\noutput "hex" {\n  value = random_id.m.hex\n}\n`;
    reg.publishModule({ namespace: NS, name: "pet", provider: "random", version: "1.0.0", files: { "main.tf": modTf } });
    reg.publishModule({ namespace: NS, name: "pet", provider: "random", version: "1.1.0", files: { "main.tf": modTf } });
    reg.publishModule({ namespace: NS, name: "pet", provider: "random", version: "2.0.0", files: { "main.tf": modTf } });
    const repo = taggedGitRepo({ "main.tf": 'output "where" {\n  value = "top"\n}\n', "sub/main.tf": 'output "where" {\n  value = "sub"\n}\n' }, 'output "where" {\n  value = "top, after v1"\n}\n');
    const tf =
      mainTf() +
      `\nmodule "pet" {\n  source  = "${reg.hostname}/${NS}/pet/random"\n  version = "~> 1.0"\n}\n` +
      `\nmodule "git" {\n  source = "git::file://${repo}?ref=v1"\n}\n` +
      `\nmodule "gitsub" {\n  source = "git::file://${repo}//sub?ref=v1&depth=1"\n}\n` +
      `\nmodule "arch" {\n  source = "${reg.url}/archives/${NS}/pet/random/2.0.0.tar.gz"\n}\n` +
      `\noutput "pet" {\n  value = module.pet.hex\n}\n\noutput "where" {\n  value = [module.git.where, module.gitsub.where]\n}\n`;
    const a = setup({ tf });
    const b = setup({ tf });
    const [m, t] = await Promise.all([runTool("magma", ["init", "-no-color"], a.dir, a.env), runTool("terraform", ["init", "-no-color"], b.dir, b.env)]);
    expect(t.stderr).toBe("");
    expect(m.stderr).toBe("");
    expect(m.stdout).toBe(t.stdout);
    const manifest = readFileSync(join(a.dir, ".terraform", "modules", "modules.json"), "utf8");
    expect(manifest).toBe(readFileSync(join(b.dir, ".terraform", "modules", "modules.json"), "utf8"));
    expect(layout(a.dir)).toEqual(layout(b.dir));
    expect((await runTool("magma", ["apply", "-auto-approve", "-no-color"], a.dir, a.env)).code).toBe(0);
    const out = await runTool("magma", ["output", "-json", "where"], a.dir, a.env);
    expect(JSON.parse(out.stdout)).toEqual(["top", "sub"]);
    const tp = await runTool("terraform", ["plan", "-detailed-exitcode", "-no-color"], a.dir, a.env);
    expect(tp.stdout).toContain("No changes.");
    expect((await runTool("terraform", ["apply", "-auto-approve", "-no-color"], b.dir, b.env)).code).toBe(0);
    const mp = await runTool("magma", ["plan", "-detailed-exitcode", "-no-color"], b.dir, b.env);
    expect(mp.stdout).toContain("No changes.");
    // magma init on terraform's directory keeps what terraform installed and recorded
    const lockB = readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8");
    const modsB = readFileSync(join(b.dir, ".terraform", "modules", "modules.json"), "utf8");
    const mi = await runTool("magma", ["init", "-no-color"], b.dir, b.env);
    expect(mi.stdout).toContain(`- Using previously-installed ${reg.hostname}/${NS}/random v1.1.0`);
    expect(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8")).toBe(lockB);
    expect(readFileSync(join(b.dir, ".terraform", "modules", "modules.json"), "utf8")).toBe(modsB);
    // -upgrade fetches the modules again, the newest matching versions
    const [mu, tu] = await Promise.all([runTool("magma", ["init", "-upgrade", "-no-color"], a.dir, a.env), runTool("terraform", ["init", "-upgrade", "-no-color"], b.dir, b.env)]);
    expect(mu.stdout).toBe(tu.stdout);
    expect(readFileSync(join(a.dir, ".terraform", "modules", "modules.json"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform", "modules", "modules.json"), "utf8"));
    // get -update: the same again, as terraform get
    const [mg, tg] = await Promise.all([runTool("magma", ["get", "-update", "-no-color"], a.dir, a.env), runTool("terraform", ["get", "-update", "-no-color"], b.dir, b.env)]);
    expect(tg.code).toBe(0);
    expect(mg.stderr).toBe("");
    expect(mg.stdout).toBe(tg.stdout);
    expect(layout(a.dir)).toEqual(layout(b.dir));
  }, 300_000);
});

/** Publishes `type` for a bad-input case (the good archive unless `entries` replaces it). */
async function publishBad(type: string, extra: { entries?: ZipWriterEntry[]; signWithUnknownKey?: boolean; wrongShasum?: boolean; trustSignature?: string } = {}): Promise<void> {
  const renamed = files.map((f) => (f.name.startsWith("terraform-provider-") ? { ...f, name: `terraform-provider-${type}_v1.0.0` } : f));
  await reg.publish({
    namespace: NS,
    type,
    version: "1.0.0",
    files: extra.entries ?? renamed,
    ...(extra.signWithUnknownKey === true ? { signWithUnknownKey: true } : {}),
    ...(extra.wrongShasum === true ? { wrongShasum: true } : {}),
    ...(extra.trustSignature !== undefined ? { trustSignature: extra.trustSignature } : {}),
  });
}

describeTf("a download cut short", () => {
  test("magma continues it (Range requests) and installs what terraform installs uncut: same output, lock file and layout", async () => {
    await publishBad("resume");
    // the first two answers for the archive stop halfway (terraform, which does not resume, gets the whole archive afterwards)
    reg.fault(/\/dl\/testing\/resume\/.*\.zip$/, { kind: "cut", times: 2 });
    const a = setup({ tf: mainTf("resume", ">= 1.0") });
    const b = setup({ tf: mainTf("resume", ">= 1.0") });
    const from = reg.requests.length;
    const m = await runTool("magma", ["init", "-no-color"], a.dir, a.env);
    const zips = reg.requests.slice(from).flatMap((p, i) => (p.endsWith(".zip") ? [reg.ranges[from + i]] : []));
    expect(zips).toHaveLength(3);
    expect(zips[0]).toBe("");
    expect(zips.slice(1).every((r) => /^bytes=[1-9]\d*-$/.test(r ?? ""))).toBe(true);
    const t = await runTool("terraform", ["init", "-no-color"], b.dir, b.env);
    expect(t.code).toBe(0);
    expect(m.stderr).toBe("");
    expect(m.stdout).toBe(t.stdout);
    expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
    expect(layout(a.dir)).toEqual(layout(b.dir));
  }, 120_000);
});

const describeTty = TERRAFORM !== undefined && existsSync("/usr/bin/script") ? describe : describe.skip;

describeTty("on a terminal", () => {
  /** Runs `tool init -no-color` on a pseudo-terminal (util-linux `script`): what the terminal received, stdout and stderr together. */
  const onTerminal = (tool: "magma" | "terraform", dir: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> => {
    const argv = tool === "magma" ? [process.execPath, MAGMA_BIN, "init", "-no-color"] : [TERRAFORM!, "init", "-no-color"];
    const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const child = spawn("/usr/bin/script", ["-qec", quoted, "/dev/null"], { cwd: dir, env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, out }));
    });
  };

  test("downloads show on one status line, erased before each line of terraform's output", async () => {
    await publishBad("tty");
    const a = setup({ tf: mainTf("tty", ">= 1.0") });
    const b = setup({ tf: mainTf("tty", ">= 1.0") });
    const m = await onTerminal("magma", a.dir, a.env);
    const t = await onTerminal("terraform", b.dir, b.env);
    expect(t.code).toBe(0);
    expect(m.code).toBe(0);
    const status = /\r\x1b\[2K(Downloading [^\r\n\x1b]*)?/g;
    expect(m.out).toMatch(new RegExp(`\\r\\x1b\\[2KDownloading ${reg.hostname}/${NS}/tty v1\\.0\\.0 \\d+\\.\\d/\\d+\\.\\d MiB`));
    expect(m.out.replace(status, "")).toBe(t.out);
    expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
  }, 120_000);
});

describeTf("module registry requests, against terraform", () => {
  test("a 503 is retried once with the registry hostname's token; one that persists is terraform's diagnostic", async () => {
    reg.publishModule({ namespace: NS, name: "flaky", provider: "random", version: "1.0.0", files: { "main.tf": 'output "a" {\n  value = 1\n}\n' } });
    const tf = `module "m" {\n  source = "${reg.hostname}/${NS}/flaky/random"\n}\n`;
    const extraCli = `credentials "${reg.hostname}" {\n  token = "mod-token"\n}\n`;
    const versions = /\/v1\/modules\/testing\/flaky\/random\/versions$/;
    const auths = (from: number): string[] => reg.requests.slice(from).flatMap((p, i) => (p.startsWith(`/v1/modules/${NS}/flaky/`) ? [`${p} ${reg.authorizations[from + i]!}`] : []));
    const once = async (tool: "magma" | "terraform"): Promise<{ out: string; auth: string[]; modules: string }> => {
      reg.fault(versions, { kind: "status", status: 503, times: 1 });
      const s = setup({ tf, extraCli });
      const from = reg.requests.length;
      const r = await runTool(tool, ["init", "-no-color"], s.dir, s.env);
      expect({ tool, code: r.code, stderr: r.stderr }).toEqual({ tool, code: 0, stderr: "" });
      return { out: r.stdout, auth: auths(from), modules: readFileSync(join(s.dir, ".terraform", "modules", "modules.json"), "utf8") };
    };
    const m = await once("magma");
    const t = await once("terraform");
    expect(m).toEqual(t);
    expect(t.auth[0]).toBe(`/v1/modules/${NS}/flaky/random/versions Bearer mod-token`);
    expect(t.auth).toHaveLength(3); // versions twice, then download
    reg.fault(versions, { kind: "status", status: 503 });
    const a = setup({ tf, extraCli });
    const b = setup({ tf, extraCli });
    const [mf, tf2] = await Promise.all([runTool("magma", ["init", "-no-color"], a.dir, a.env), runTool("terraform", ["init", "-no-color"], b.dir, b.env)]);
    expect([mf.code, tf2.code]).toEqual([1, 1]);
    expect(mf.stdout).toBe(tf2.stdout);
    expect(mf.stderr).toBe(tf2.stderr); // the module block's lines, the detail wrapped as terraform's
    expect(mf.stderr.replace(/\s+/g, " ")).toContain("the request failed after 2 attempts, please try again later: 503 Service Unavailable returned from");
  }, 120_000);
});

describeTf("credentials_helper, against terraform", () => {
  /** A directory for each tool whose HOME holds the helper `terraform-credentials-test` (a shell script doing `body`), and the CLI configuration naming it. */
  const withHelper = (type: string, body: string, mirror = false): { a: { dir: string; env: Record<string, string> }; b: { dir: string; env: Record<string, string> }; log: (dir: string) => string } => {
    const extraCli = `credentials_helper "test" {\n  args = ["--from", "tests"]\n}\n`;
    const one = (): { dir: string; env: Record<string, string> } => {
      const s = setup({ tf: mainTf(type, ">= 1.0"), extraCli, mirror });
      const helper = join(s.dir, "home", ".terraform.d", "plugins", "terraform-credentials-test");
      mkdirSync(dirname(helper), { recursive: true });
      writeFileSync(helper, `#!/bin/sh\necho "$@" >> "${s.dir}/helper.log"\n${body}\n`, { mode: 0o755 });
      return { dir: s.dir, env: { ...s.env, HOME: join(s.dir, "home") } };
    };
    return { a: one(), b: one(), log: (dir) => (existsSync(join(dir, "helper.log")) ? readFileSync(join(dir, "helper.log"), "utf8") : "") };
  };
  /** The Authorization header of each registry API request (versions, download metadata) made for `type` since `from`. */
  const apiAuth = (type: string, from: number): string[] => reg.requests.slice(from).flatMap((p, i) => (p.startsWith(`/v1/providers/${NS}/${type}/`) ? [reg.authorizations[from + i]!] : []));

  test("the helper's token goes with the registry's requests (asked once, with its args, for the registry's hostname)", async () => {
    await publishBad("credok");
    const { a, b, log } = withHelper("credok", `echo '{"token":"secret-'"$4"'"}'`);
    let from = reg.requests.length;
    const m = await runTool("magma", ["init", "-no-color"], a.dir, a.env);
    const magmaAuth = apiAuth("credok", from);
    from = reg.requests.length;
    const t = await runTool("terraform", ["init", "-no-color"], b.dir, b.env);
    const tfAuth = apiAuth("credok", from);
    expect(t.code).toBe(0);
    expect(m.stderr).toBe("");
    expect(m.stdout).toBe(t.stdout);
    expect(tfAuth).toEqual([`Bearer secret-${reg.hostname}`, `Bearer secret-${reg.hostname}`]);
    expect(magmaAuth).toEqual(tfAuth);
    expect(log(a.dir)).toBe(`--from tests get ${reg.hostname}\n`);
    expect(log(a.dir)).toBe(log(b.dir));
    expect(readFileSync(join(a.dir, ".terraform.lock.hcl"), "utf8")).toBe(readFileSync(join(b.dir, ".terraform.lock.hcl"), "utf8"));
  }, 120_000);

  test.each([".tfrc", ".tfrc.json"])("the helper configured in ~/.terraform.d/*%s (merged after ~/.terraformrc, as terraform's LoadConfig); not read when TF_CLI_CONFIG_FILE names the file", async (ext) => {
    await publishBad("creddir");
    const helperConfig = ext === ".tfrc" ? `credentials_helper "test" {\n  args = ["--from", "dir"]\n}\n` : JSON.stringify({ credentials_helper: { test: { args: ["--from", "dir"] } } });
    /** HOME holding ~/.terraformrc (the registry's host block), the helper's configuration in ~/.terraform.d, and the helper. */
    const one = (): { dir: string; env: Record<string, string> } => {
      const s = setup({ tf: mainTf("creddir", ">= 1.0") });
      const home = join(s.dir, "home");
      mkdirSync(join(home, ".terraform.d", "plugins"), { recursive: true });
      writeFileSync(join(home, ".terraformrc"), readFileSync(join(s.dir, "cli", "cli.tfrc")));
      writeFileSync(join(home, ".terraform.d", `helper${ext}`), helperConfig);
      writeFileSync(join(home, ".terraform.d", "plugins", "terraform-credentials-test"), `#!/bin/sh\necho "$@" >> "${s.dir}/helper.log"\necho '{"token":"dir-token"}'\n`, { mode: 0o755 });
      return { dir: s.dir, env: { ...s.env, HOME: home, TF_CLI_CONFIG_FILE: "" } };
    };
    const log = (dir: string): string => (existsSync(join(dir, "helper.log")) ? readFileSync(join(dir, "helper.log"), "utf8") : "");
    const [a, b] = [one(), one()];
    let from = reg.requests.length;
    const m = await runTool("magma", ["init", "-no-color"], a.dir, a.env);
    const magmaAuth = apiAuth("creddir", from);
    from = reg.requests.length;
    const t = await runTool("terraform", ["init", "-no-color"], b.dir, b.env);
    expect(t.code).toBe(0);
    expect(apiAuth("creddir", from)).toEqual(["Bearer dir-token", "Bearer dir-token"]);
    expect({ code: m.code, stdout: m.stdout, stderr: m.stderr, auth: magmaAuth, log: log(a.dir) }).toEqual({ code: 0, stdout: t.stdout, stderr: t.stderr, auth: ["Bearer dir-token", "Bearer dir-token"], log: log(b.dir) });
    expect(log(a.dir)).toBe(`--from dir get ${reg.hostname}\n`);
    // TF_CLI_CONFIG_FILE naming the main file: the directory is not read, no helper
    const [c, d] = [one(), one()];
    const named = (x: { dir: string; env: Record<string, string> }): Record<string, string> => ({ ...x.env, TF_CLI_CONFIG_FILE: join(x.env["HOME"]!, ".terraformrc") });
    from = reg.requests.length;
    const m2 = await runTool("magma", ["init", "-no-color"], c.dir, named(c));
    const magmaAuth2 = apiAuth("creddir", from);
    from = reg.requests.length;
    const t2 = await runTool("terraform", ["init", "-no-color"], d.dir, named(d));
    expect(t2.code).toBe(0);
    expect(apiAuth("creddir", from)).toEqual(["", ""]);
    expect({ code: m2.code, stdout: m2.stdout, auth: magmaAuth2, log: log(c.dir) }).toEqual({ code: 0, stdout: t2.stdout, auth: ["", ""], log: "" });
  }, 120_000);

  test("a helper that fails: terraform's error with the helper's stderr; malformed output is refused", async () => {
    await publishBad("credfail");
    const fail = withHelper("credfail", `echo "no token for $4" >&2\nexit 3`);
    const [m, t] = await Promise.all([runTool("magma", ["init", "-no-color"], fail.a.dir, fail.a.env), runTool("terraform", ["init", "-no-color"], fail.b.dir, fail.b.env)]);
    expect(t.code).toBe(1);
    expect(m.code).toBe(1);
    const words = (s: string, dir: string): string => s.replaceAll(dir, "<dir>").replace(/\s+/g, " ").trim();
    expect(words(m.stderr, fail.a.dir)).toBe(words(t.stderr, fail.b.dir));
    expect(m.stderr).toContain(`error in ${fail.a.dir}/home/.terraform.d/plugins/terraform-credentials-test: no token for ${reg.hostname}`);
    const bad = withHelper("credfail", `echo 'not json'`);
    const [mb, tb] = await Promise.all([runTool("magma", ["init", "-no-color"], bad.a.dir, bad.a.env), runTool("terraform", ["init", "-no-color"], bad.b.dir, bad.b.env)]);
    expect(tb.code).toBe(1);
    expect(tb.stderr.replace(/\s+/g, " ")).toContain(`failed to retrieve credentials for ${reg.hostname}: malformed output from`);
    expect(mb.code).toBe(1);
    expect(mb.stderr.replace(/\s+/g, " ")).toContain(`failed to retrieve credentials for ${reg.hostname}: malformed output from ${bad.a.dir}/home/.terraform.d/plugins/terraform-credentials-test:`);
    expect(existsSync(join(bad.a.dir, ".terraform.lock.hcl"))).toBe(false);
  }, 120_000);

  test("a network mirror: the helper is asked for the mirror's host and port, its token sent there; its failure is terraform's error", async () => {
    await publishBad("credmirror");
    const { a, b, log } = withHelper("credmirror", `echo '{"token":"mirror-token"}'`, true);
    const mirrorAuth = (from: number): string[] => reg.requests.slice(from).flatMap((p, i) => (p.includes("/credmirror/") && p.endsWith(".json") ? [`${p} ${reg.authorizations[from + i]!}`] : []));
    let from = reg.requests.length;
    const m = await runTool("magma", ["init", "-no-color"], a.dir, a.env);
    const magmaAuth = mirrorAuth(from);
    from = reg.requests.length;
    const t = await runTool("terraform", ["init", "-no-color"], b.dir, b.env);
    expect(t.code).toBe(0);
    expect(m.stdout).toBe(t.stdout);
    expect(magmaAuth).toEqual(mirrorAuth(from));
    expect(magmaAuth.every((l) => l.endsWith(" Bearer mirror-token"))).toBe(true);
    expect(log(a.dir)).toBe(`--from tests get ${new URL(reg.url).host}\n`);
    expect(log(a.dir)).toBe(log(b.dir));
    const fail = withHelper("credmirror", `echo "refused" >&2\nexit 1`, true);
    const [mf, tf] = await Promise.all([runTool("magma", ["init", "-no-color"], fail.a.dir, fail.a.env), runTool("terraform", ["init", "-no-color"], fail.b.dir, fail.b.env)]);
    expect([mf.code, tf.code]).toEqual([1, 1]);
    const words = (text: string, dir: string): string => text.replaceAll(dir, "<dir>").replace(/\s+/g, " ").trim();
    expect(words(mf.stderr, fail.a.dir)).toBe(words(tf.stderr, fail.b.dir));
    expect(words(mf.stderr, fail.a.dir)).toContain("failed to determine request credentials: error in <dir>/home/.terraform.d/plugins/terraform-credentials-test: refused");
  }, 120_000);
});

describeTf("packages that must not be installed: terraform's errors, nothing installed", () => {
  const cases: [string, () => Promise<void>][] = [
    ["badsum", () => publishBad("badsum", { wrongShasum: true })],
    ["corrupt", async () => {
      await publishBad("corrupt");
      reg.fault(/\/dl\/testing\/corrupt\/.*\.zip$/, { kind: "body", body: "not the archive" });
    }],
    ["unknownkey", () => publishBad("unknownkey", { signWithUnknownKey: true })],
    // a partner trust signature HashiCorp's partners key did not make, and one that is not armored
    ["untrusted", () => publishBad("untrusted", { trustSignature: "stranger" })],
    ["badtrust", () => publishBad("badtrust", { trustSignature: "not an armored signature" })],
    ["badsig", async () => {
      await publishBad("badsig");
      reg.fault(/\/dl\/testing\/badsig\/.*SHA256SUMS$/, { kind: "body", body: `${"0".repeat(64)}  other.zip\n` });
    }],
    ["gone", async () => {
      await publishBad("gone");
      reg.fault(/\/dl\/testing\/gone\/.*\.zip$/, { kind: "status", status: 404 });
    }],
    ["trunc", async () => {
      await publishBad("trunc");
      reg.fault(/\/dl\/testing\/trunc\/.*\.zip$/, { kind: "truncate" });
    }],
    ["hang", async () => {
      await publishBad("hang");
      reg.fault(/\/v1\/providers\/testing\/hang\/.*\/download\//, { kind: "hang" });
    }],
    ["loop", async () => {
      await publishBad("loop");
      reg.fault(/\/dl\/testing\/loop\/.*\.zip$/, { kind: "redirect_loop" });
    }],
    ["dotdot", () => publishBad("dotdot", { entries: [{ name: "terraform-provider-dotdot_v1.0.0", data: "#!/bin/sh\n", mode: 0o755 }, { name: "../escaped", data: "x" }] })],
    ["symlink", () => publishBad("symlink", { entries: [{ name: "terraform-provider-symlink_v1.0.0", data: "#!/bin/sh\n", mode: 0o755 }, { name: "link", data: "../../../../../../../../tmp", symlink: true }] })],
  ];
  test.each(cases)("%s", async (type, prepare) => {
    await prepare();
    const a = setup({ tf: mainTf(type, ">= 1.0") });
    const b = setup({ tf: mainTf(type, ">= 1.0") });
    if (type === "hang") for (const e of [a.env, b.env]) e["TF_REGISTRY_CLIENT_TIMEOUT"] = "1";
    const [m, t] = await Promise.all([runTool("magma", ["init", "-no-color"], a.dir, a.env), runTool("terraform", ["init", "-no-color"], b.dir, b.env)]);
    expect(m.code).toBe(1);
    if (type === "symlink") {
      // terraform (go-getter) unpacks a symlink leaving the package; magma refuses it
      expect(t.code).toBe(0);
      expect(m.stderr).toContain("Error while installing registry.magma.test/testing/symlink v1.0.0: symlink link points outside the package directory");
    } else {
      expect(t.code).toBe(1);
      // terraform wraps the detail at 78 columns; the words are the same
      // (Go words a timeout with or without the phase it hit, by timing)
      const words = (s: string): string => s.replace(/\s+/g, " ").replace(/(net\/http: request canceled|context deadline exceeded)( \([^)]*\))?/, "<timeout>").trim();
      expect(words(m.stderr)).toBe(words(t.stderr));
    }
    expect(existsSync(join(a.dir, ".terraform.lock.hcl"))).toBe(false);
    expect(layout(a.dir).filter((l) => l.includes(`/${type}/1.0.0/`))).toEqual([]);
  }, 120_000);
});


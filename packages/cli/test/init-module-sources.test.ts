/**
 * `magma init` beside terraform 1.11.4 for module sources that need no registry: `.tar.bz2`,
 * `.tbz2`, `.tar.xz`, `.txz` archives (and `?archive=`) served by a local HTTP server, the
 * `bitbucket.org/…` shorthand (terraform makes it `git::https://bitbucket.org/….git` without
 * asking Bitbucket; git's `insteadOf` sends both tools to a repository on disk), and
 * `git::ssh://…?sshkey=` (the key written to a file given to ssh as `-i`, through a stand-in
 * ssh that records what it was given and runs git's command locally), and what terraform does
 * not unpack: a plain `.tar` (asked for its `X-Terraform-Get` and read as HTML, failing with
 * Go's XML error) and a `.gz` (a single file, not a directory). Compared: the output,
 * `modules.json`, the installed files and what ssh saw; in native and JSON syntax.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { taggedGitRepo } from "./support/tagged-git-repo.js";
import { removeWorkdirs, TERRAFORM, workdir } from "./support/workdir.js";

const describeTf = TERRAFORM === undefined ? describe.skip : describe;

let server: Server;
let base: string;
let served: string;
/** Until two requests under /held/ have been open at once, each waits for another (up to 5 s); how many were open at once at most. */
const held = { open: 0, max: 0, paired: false, waiting: [] as (() => void)[] };

beforeAll(async () => {
  served = workdir();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname.startsWith("/held/")) {
      held.open++;
      held.max = Math.max(held.max, held.open);
      const go = (): void => {
        held.open--;
        const file = join(served, url.pathname.slice("/held".length));
        if (!existsSync(file)) res.writeHead(404).end();
        else res.writeHead(200, { "Content-Length": lstatSync(file).size }).end(readFileSync(file));
      };
      const others = held.waiting.splice(0);
      if (held.paired) go();
      else if (others.length > 0) {
        held.paired = true;
        for (const o of others) o();
        go();
      } else {
        const t = setTimeout(() => {
          held.waiting.splice(held.waiting.indexOf(release), 1);
          go();
        }, 5_000);
        const release = (): void => {
          clearTimeout(t);
          go();
        };
        held.waiting.push(release);
      }
      return;
    }
    const path = join(served, decodeURIComponent(url.pathname));
    if (!path.startsWith(served) || !existsSync(path) || lstatSync(path).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(path);
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  stopToolRuns();
  removeWorkdirs();
  await new Promise((r) => server?.close(r));
});

/** A module whose one output says `where`, in native syntax. */
const moduleFiles = (where: string): Record<string, string> => ({ "main.tf": `output "where" {\n  value = "${where}"\n}\n` });

/** Packs `files` into `served/name` with tar's `flag` (`-j` bzip2, `-J` xz, `""` none). */
function archive(name: string, flag: string, files: Record<string, string>): void {
  const src = workdir(files);
  mkdirSync(join(served, ...name.split("/").slice(0, -1)), { recursive: true });
  execFileSync("tar", [...(flag === "" ? [] : [flag]), "-cf", join(served, name), "-C", src, "."]);
}

/** A git repository on disk with `files` committed and tagged v1, then changed. */
function gitRepo(files: Record<string, string>): string {
  return taggedGitRepo(files, 'output "where" {\n  value = "after v1"\n}\n');
}

/** The configuration calling `modules` (name → source), in native or JSON syntax, with an output of their `where`s. */
function config(modules: Record<string, string>, json: boolean): Record<string, string> {
  if (json) {
    return {
      "main.tf.json": JSON.stringify({ module: Object.fromEntries(Object.entries(modules).map(([n, s]) => [n, { source: s }])), output: { where: { value: `\${[${Object.keys(modules).map((n) => `module.${n}.where`).join(", ")}]}` } } }, null, 2),
    };
  }
  const calls = Object.entries(modules).map(([n, s]) => `module "${n}" {\n  source = "${s}"\n}\n`).join("\n");
  return { "main.tf": `${calls}\noutput "where" {\n  value = [${Object.keys(modules).map((n) => `module.${n}.where`).join(", ")}]\n}\n` };
}

/** `.terraform/modules`' files (not a clone's `.git`, not modules.json), each with its content's hash. */
function installed(dir: string): string[] {
  const root = join(dir, ".terraform", "modules");
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      if (name === ".git" || (d === root && name === "modules.json")) continue; // (compared on its own)
      const p = join(d, name);
      if (lstatSync(p).isDirectory()) walk(p);
      else out.push(`${relative(root, p)} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`);
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

/** Runs init with both tools in twin directories (`files`, or each tool's own); compares output, modules.json and files. */
async function initBoth(
  files: Record<string, string> | ((tool: "magma" | "terraform") => Record<string, string>),
  env: (tool: "magma" | "terraform") => Record<string, string> = () => ({}),
  fails = false,
): Promise<{ a: string; b: string }> {
  const filesOf = typeof files === "function" ? files : (): Record<string, string> => files;
  const a = workdir({ ...filesOf("magma"), "cli/cli.tfrc": "" });
  const b = workdir({ ...filesOf("terraform"), "cli/cli.tfrc": "" });
  const run = (tool: "magma" | "terraform", dir: string): ReturnType<typeof runTool> => runTool(tool, ["init", "-no-color"], dir, { TF_CLI_CONFIG_FILE: join(dir, "cli", "cli.tfrc"), ...env(tool) });
  const [m, t] = await Promise.all([run("magma", a), run("terraform", b)]);
  // (magma's held archives are under /held/)
  const norm = (text: string): string => text.replaceAll("/held/", "/");
  if (fails) {
    expect(t.code).toBe(1);
    expect({ code: m.code, stdout: norm(m.stdout), stderr: norm(m.stderr) }).toEqual({ code: 1, stdout: t.stdout, stderr: t.stderr });
  } else {
    expect(t.stderr).toBe("");
    expect(t.code).toBe(0);
    expect({ code: m.code, stdout: norm(m.stdout), stderr: m.stderr }).toEqual({ code: 0, stdout: t.stdout, stderr: "" });
  }
  expect(readFileSync(join(a, ".terraform", "modules", "modules.json"), "utf8").replaceAll("/held/", "/")).toBe(readFileSync(join(b, ".terraform", "modules", "modules.json"), "utf8"));
  expect(installed(a)).toEqual(installed(b));
  return { a, b };
}

describeTf("module archives compressed with bzip2 and xz, against terraform", () => {
  beforeAll(() => {
    archive("bz/mod.tar.bz2", "-j", moduleFiles("tar.bz2"));
    archive("bz/mod.tbz2", "-j", moduleFiles("tbz2"));
    archive("xz/mod.tar.xz", "-J", moduleFiles("tar.xz"));
    archive("xz/mod.txz", "-J", moduleFiles("txz"));
    archive("plain/xz-without-suffix", "-J", moduleFiles("archive=tar.xz"));
  });
  test.each([false, true])("json=%s: same output, modules.json and files; magma plans the outputs", async (json) => {
    const { a } = await initBoth(
      config({ bz: `${base}/bz/mod.tar.bz2`, tbz: `${base}/bz/mod.tbz2`, xz: `${base}/xz/mod.tar.xz`, txz: `${base}/xz/mod.txz`, param: `${base}/plain/xz-without-suffix?archive=tar.xz` }, json),
    );
    const out = await runTool("magma", ["plan", "-no-color"], a, { TF_CLI_CONFIG_FILE: join(a, "cli", "cli.tfrc") });
    expect(out.code).toBe(0);
    expect(out.stdout.replace(/\s+/g, " ")).toContain('+ where = [ + "tar.bz2", + "tbz2", + "tar.xz", + "txz", + "archive=tar.xz", ]');
  }, 240_000);
});

describeTf("a plain .tar and single-file compression (not terraform's archives), against terraform", () => {
  beforeAll(() => {
    archive("tar/mod.tar", "", moduleFiles("tar"));
    archive("tar/param", "", moduleFiles("archive=tar"));
    mkdirSync(join(served, "gz"), { recursive: true });
    writeFileSync(join(served, "gz", "main.tf.gz"), gzipSync(moduleFiles("gz")["main.tf"]!));
  });
  test.each([false, true])("json=%s: not unpacked; asked for X-Terraform-Get, the tar read as HTML (Go's XML error); .gz refused", async (json) => {
    const { a } = await initBoth(config({ plain: `${base}/tar/mod.tar`, param: `${base}/tar/param?archive=tar`, single: `${base}/gz/main.tf.gz` }, json), () => ({}), true);
    expect(existsSync(join(a, ".terraform", "modules", "plain"))).toBe(false);
  }, 240_000);
});

describeTf("bitbucket.org shorthand, against terraform", () => {
  test.each([false, true])("json=%s: git over https to bitbucket.org (insteadOf a repository on disk), ?ref= kept", async (json) => {
    const repo = gitRepo(moduleFiles("bitbucket v1"));
    const env = (): Record<string, string> => ({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: `url.file://${repo}.insteadOf`, GIT_CONFIG_VALUE_0: "https://bitbucket.org/acme/netmod.git" });
    const { a } = await initBoth(config({ bb: "bitbucket.org/acme/netmod?ref=v1" }, json), env);
    expect(readFileSync(join(a, ".terraform", "modules", "modules.json"), "utf8")).toContain('"Source":"git::https://bitbucket.org/acme/netmod.git?ref=v1"');
    expect(readFileSync(join(a, ".terraform", "modules", "bb", "main.tf"), "utf8")).toContain("bitbucket v1");
  }, 240_000);
});

describeTf("git::ssh with ?sshkey=, against terraform", () => {
  test.each([false, true])("json=%s: the key goes to ssh as -i (a file only the user reads), removed afterwards", async (json) => {
    const repo = gitRepo(moduleFiles("ssh v1"));
    const tools = workdir();
    const ssh = join(tools, "fake-ssh");
    // records its arguments (the key file's name taken out) and the key file, then runs git's remote command here
    writeFileSync(
      ssh,
      '#!/bin/sh\nkey=""\nif [ "$1" = "-i" ]; then key="$2"; shift 2; fi\necho "args: $*" >> "$SSH_LOG"\n[ -n "$key" ] && echo "key: $(cat "$key") mode $(stat -c %a "$key")" >> "$SSH_LOG"\necho "$key" >> "$SSH_LOG.keys"\nfor last; do :; done\nexec sh -c "$last"\n',
      { mode: 0o755 },
    );
    const key = Buffer.from("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key?>\n-----END OPENSSH PRIVATE KEY-----\n").toString("base64");
    const logs = { magma: join(tools, "magma.log"), terraform: join(tools, "terraform.log") };
    const env = (tool: "magma" | "terraform"): Record<string, string> => ({ GIT_SSH_COMMAND: ssh, GIT_SSH_VARIANT: "simple", SSH_LOG: logs[tool] });
    await initBoth(config({ viassh: `git::ssh://git@git.example.test${repo}?sshkey=${encodeURIComponent(key)}&ref=v1` }, json), env);
    const log = readFileSync(logs.magma, "utf8");
    expect(log).toBe(readFileSync(logs.terraform, "utf8"));
    expect(log).toContain(`args: git@git.example.test git-upload-pack '${repo}'`);
    expect(log).toContain(`key: ${Buffer.from(key, "base64").toString("utf8").trimEnd()} mode 600`);
    for (const f of readFileSync(`${logs.magma}.keys`, "utf8").split("\n").filter((l) => l !== "")) expect(existsSync(f)).toBe(false);
  }, 240_000);
});

describeTf("several modules at once, against terraform", () => {
  test.each([false, true])("json=%s: fetched together, lines in terraform's order; a failing call reported while the others are installed and recorded", async (json) => {
    archive("many/one.tar.gz", "-z", moduleFiles("one"));
    archive("many/three.tar.xz", "-J", { ...moduleFiles("three"), "calls.tf": 'module "inner" {\n  source = "./inner"\n}\n', "inner/main.tf": 'output "where" {\n  value = "inner"\n}\n' });
    archive("many/four.tar.bz2", "-j", moduleFiles("four"));
    const modules = (prefix: string): Record<string, string> => ({ one: `${prefix}/many/one.tar.gz`, three: `${prefix}/many/three.tar.xz`, four: `${prefix}/many/four.tar.bz2`, zlocal: "./local" });
    const local = { "local/main.tf": 'output "where" {\n  value = "local"\n}\n' };
    // magma's archives are held until two are asked for at once; terraform's are not
    held.max = 0;
    held.paired = false;
    await initBoth((tool) => ({ ...config(modules(tool === "magma" ? `${base}/held` : base), json), ...local }));
    expect(held.max).toBe(2);
    // a missing archive in the middle
    const broken = (prefix: string): Record<string, string> => ({ ...modules(prefix), two: `${prefix}/many/missing.tar.gz` });
    await initBoth((tool) => ({ ...config(broken(tool === "magma" ? `${base}/held` : base), json), ...local }), () => ({}), true);
  }, 240_000);
});

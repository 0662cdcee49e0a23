import { commandsFor, runCli } from "./run-cli.js";
import type { CliIo } from "./cli-io.js";

function memoryIo(): CliIo & { out: () => string; errOut: () => string } {
  let out = "";
  let err = "";
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env: {},
    cwd: process.cwd(),
    out: () => out,
    errOut: () => err,
  };
}

const ALL = ["schema", "plan", "apply", "destroy", "refresh", "read", "data", "import", "upgrade", "reap", "demo", "init", "validate", "output", "show", "graph", "state", "workspace", "force-unlock", "fmt", "version", "taint", "untaint", "providers", "logout", "get", "metadata", "login", "console", "test"];

describe("lazy command registration", () => {
  it("registers only the command a command line names, found as Terraform finds it (after -chdir and its value)", async () => {
    expect(await commandsFor(["apply", "-auto-approve"])).toHaveLength(1);
    expect(await commandsFor(["-chdir=dir", "plan"])).toHaveLength(1);
    expect(await commandsFor(["--chdir", "apply", "destroy"])).toHaveLength(1); // "apply" is -chdir's value
    expect(await commandsFor(["state", "list"])).toHaveLength(1);
    expect(await commandsFor(["force-unlock", "x"])).toHaveLength(1);
    // `providers` has two registrations: the command group, then the installation subcommands (lock, mirror) that join it.
    expect(await commandsFor(["providers", "lock"])).toHaveLength(2);
  });

  it("registers every command for help, no command, or one it does not know", async () => {
    for (const argv of [[], ["--help"], ["help", "apply"], ["bogus"], ["--version", "bogus"], ["--chdir", "--version"], ["-chdir", "-V"]]) expect(await commandsFor(argv)).toHaveLength(ALL.length + 1);
  });

  it("registers none for the version (magma --version loads no command module), and still prints it", async () => {
    for (const argv of [["--version"], ["-V"], ["-version"], ["-chdir=dir", "--version"], ["--chdir", "dir", "-V"], ["--help", "--version"]]) expect(await commandsFor(argv)).toHaveLength(0);
    const io = memoryIo();
    expect(await runCli(["-version"], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("a command registered alone runs as it did (its help, a usage error), and `magma --help` still lists every command", async () => {
    const one = memoryIo();
    expect(await runCli(["apply", "--help"], one)).toBe(0);
    expect(one.out()).toContain("Usage: magma apply");
    expect(one.out()).toContain("-auto-approve");

    const usage = memoryIo();
    expect(await runCli(["plan", "random", "random_string", "--nope"], usage)).toBe(2);
    expect(usage.errOut()).toContain("unknown option '--nope'");

    const all = memoryIo();
    expect(await runCli(["--help"], all)).toBe(0);
    for (const c of ALL) expect(all.out()).toContain(`  ${c}`);

    const unknown = memoryIo();
    expect(await runCli(["aply"], unknown)).toBe(2);
    expect(unknown.errOut()).toContain("(Did you mean apply?)");
  });
});

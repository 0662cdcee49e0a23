// A crash of magma (an internal error nothing handled: terraform's panic) during an apply with an
// ephemeral resource open, in both syntaxes: a preloaded module (NODE_OPTIONS=--import) throws,
// from a timer of the magma process once `eph_probe.a: Creating...` is printed, a TypeError whose
// message quotes the ephemeral token that is open (read from the recording provider's file,
// test/testdata/ephemeral-provider.mjs). magma prints its crash banner and exits 11 (terraform
// 1.11.4 prints its "TERRAFORM CRASH" banner and exits 11 too, and writes no crash.log; it cannot
// be crashed the same way, so only magma runs here): no secret and no stack in what it prints,
// no ephemeral value in the state, and the ephemeral resource closed (issue 36: "closed on every
// error path, interrupt and crash of the walk"). With MAGMA_LOG set, the error and its stack are
// printed (asked for). Skipped without terraform (which installs the test provider).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const d = TERRAFORM !== undefined ? describe : describe.skip;

let cli: string | undefined;
/** The CLI configuration serving magma/eph. */
const cliConfig = (): string => (cli ??= testProvidersCliConfig({ eph: "ephemeral-provider.mjs" }));

const TF = `terraform {
  required_providers {
    eph = { source = "magma/eph" }
  }
}
provider "eph" {
  alias = "plain"
}
ephemeral "eph_token" "t" {
  provider = eph.plain
  prefix   = "crash-"
}
provider "eph" {
  token = ephemeral.eph_token.t.value
}
resource "eph_probe" "a" {
  name = "a"
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { eph: { source: "magma/eph" } } },
  provider: { eph: [{ alias: "plain" }, { token: "${ephemeral.eph_token.t.value}" }] },
  ephemeral: { eph_token: { t: { provider: "eph.plain", prefix: "crash-" } } },
  resource: { eph_probe: { a: { name: "a" } } },
});

/** The preloaded module: in the magma process only, an uncaught TypeError quoting the last token opened, soon after CRASH_AFTER is printed. */
const HOOK = `import { readFileSync } from "node:fs";
const write = process.stdout.write.bind(process.stdout);
let armed = (process.argv[1] ?? "").endsWith("magma.js");
process.stdout.write = (chunk, ...rest) => {
  const r = write(chunk, ...rest);
  if (armed && String(chunk).includes(process.env.CRASH_AFTER)) {
    armed = false;
    setTimeout(() => {
      const opens = readFileSync(process.env.EPH_RECORD_FILE, "utf8").split("\\n").filter((l) => l.startsWith("open "));
      throw new TypeError("internal error holding " + opens[opens.length - 1].split(" ")[2]);
    }, 300);
  }
  return r;
};
`;

/** The record file's opens and closes (ids, sorted) and every secret it lists (the tokens handed out and configured). */
function record(dir: string): { opens: string[]; closes: string[]; secrets: string[] } {
  const lines = readFileSync(join(dir, "rec.txt"), "utf8").split("\n");
  return {
    opens: lines.filter((l) => l.startsWith("open ")).map((l) => l.split(" ")[1]!).sort(),
    closes: lines.filter((l) => l.startsWith("close ")).map((l) => l.slice(6)).sort(),
    secrets: lines.flatMap((l) => (l.startsWith("open ") ? [l.split(" ")[2]!] : l.startsWith("configure ") ? [l.slice(10)] : [])),
  };
}

d.each([
  ["native", { "main.tf": TF }],
  ["JSON", { "main.tf.json": JSON_CONFIG }],
] as const)("a crash during apply with an ephemeral resource open (%s syntax)", (_syntax, files) => {
  test("the crash banner without secret or stack, exit 11, nothing ephemeral in state, the ephemeral resource closed; the error shown when asked", async () => {
    const dir = workdir({ ...files, "crash-hook.mjs": HOOK });
    await terraformAsync(["init", "-no-color", "-input=false"], dir, { env: { TF_CLI_CONFIG_FILE: cliConfig() } });
    const crash = (more: Record<string, string>): Promise<ToolRun> =>
      runTool("magma", ["apply", "-no-color", "-input=false", "-auto-approve"], dir, {
        NODE_OPTIONS: `--import=${join(dir, "crash-hook.mjs")}`,
        CRASH_AFTER: "eph_probe.a: Creating...",
        EPH_SLOW_MS: "3000",
        EPH_RECORD_FILE: join(dir, "rec.txt"),
        ...more,
      });
    const run = await crash({});
    expect(run.code).toBe(11);
    expect(run.stderr).toContain("MAGMA CRASH");
    expect(run.stderr).toContain("internal\nerror (TypeError)");
    expect(run.stderr).toContain("MAGMA_LOG=debug");
    const { opens, closes, secrets } = record(dir);
    // Planning and applying each opened the token (and configured the provider with it).
    expect(opens).toHaveLength(2);
    expect(secrets.filter((s) => s.startsWith("crash-"))).toHaveLength(4);
    expect(closes).toEqual(opens);
    for (const text of [run.stdout, run.stderr]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain("internal error holding");
      expect(text).not.toMatch(/^\s+at /m);
    }
    // The state the stopped apply saved: no ephemeral resource, no token; no crash log left.
    expect(existsSync(join(dir, "terraform.tfstate"))).toBe(true);
    const state = readFileSync(join(dir, "terraform.tfstate"), "utf8");
    expect(state).not.toContain('"mode": "ephemeral"');
    for (const secret of secrets) expect(state).not.toContain(secret);
    expect(readdirSync(dir).filter((n) => /crash/i.test(n) && n !== "crash-hook.mjs")).toEqual([]);

    // Asked for: the error and its stack (from no state again, so that the object is created again).
    writeFileSync(join(dir, "rec.txt"), "");
    for (const n of readdirSync(dir).filter((f) => f.startsWith("terraform.tfstate"))) rmSync(join(dir, n));
    const asked = await crash({ MAGMA_LOG: "debug", EPH_SLOW_MS: "3000" });
    expect(asked.code).toBe(11);
    expect(asked.stderr).toContain("crash: TypeError: internal error holding crash-");
    expect(asked.stderr).toMatch(/^\s+at /m);
    const again = record(dir);
    expect(again.closes).toEqual(again.opens);
  }, 300_000);
});

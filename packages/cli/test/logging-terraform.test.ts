// TF_LOG, TF_LOG_CORE, TF_LOG_PROVIDER and TF_LOG_PATH through the built binary beside terraform
// 1.11.4: the lines' format (hclog text or JSON), the first line, where they go, the warning
// for an invalid level, the error for a log file that cannot be opened, and a provider
// process's own hclog lines passed through under its binary's name. Log texts are each
// program's own (and timestamps differ), so lines are compared by shape; what the command
// prints on stdout must be identical. Skipped without terraform.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 300_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const TEXT_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d{4}) \[(TRACE|DEBUG|INFO|WARN|ERROR)\]\s{1,2}\S/;

/** Runs ARGS with terraform and magma in copies of `base` with `env`; stdout and exit code must be the same. */
async function both(base: string, args: readonly string[], env: Record<string, string>): Promise<{ theirs: { stderr: string; dir: string }; ours: { stderr: string; dir: string } }> {
  const [a, b] = [workdir(), workdir()];
  cpSync(base, a, { recursive: true, verbatimSymlinks: true });
  cpSync(base, b, { recursive: true, verbatimSymlinks: true });
  const [t, m] = await Promise.all([runTool("terraform", args, a, env), runTool("magma", args, b, env)]);
  expect({ code: m.code, stdout: m.stdout }).toEqual({ code: t.code, stdout: t.stdout });
  return { theirs: { stderr: t.stderr, dir: a }, ours: { stderr: m.stderr, dir: b } };
}

const levels = (text: string): Set<string> => new Set([...text.matchAll(/\[(TRACE|DEBUG|INFO|WARN|ERROR)\]/g)].map((m) => m[1]!));

describe("logging beside terraform", () => {
  it_(
    "TF_LOG levels and JSON, TF_LOG_CORE, TF_LOG_PATH, an invalid level, an unopenable log file",
    async () => {
      const base = workdir({ "cli.tfrc": "" });
      const env = { TF_CLI_CONFIG_FILE: join(base, "cli.tfrc") };
      for (const level of ["TRACE", "info", "WARN"]) {
        const { theirs, ours } = await both(base, ["version"], { ...env, TF_LOG: level });
        for (const r of [theirs, ours]) {
          const lines = r.stderr.split("\n").filter((l) => l !== "");
          for (const l of lines) expect(l).toMatch(TEXT_LINE);
          if (level !== "WARN") expect(lines[0]).toMatch(/\[INFO\]  Terraform version: 1\.11\.4$/);
        }
        expect(levels(ours.stderr)).toEqual(levels(theirs.stderr));
      }
      const core = await both(base, ["version"], { ...env, TF_LOG_CORE: "DEBUG" });
      expect(levels(core.ours.stderr)).toEqual(levels(core.theirs.stderr));
      const json = await both(base, ["version"], { ...env, TF_LOG: "JSON" });
      for (const r of [json.theirs, json.ours]) {
        const docs = r.stderr.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, string>);
        expect(docs[0]).toMatchObject({ "@level": "info", "@message": "Terraform version: 1.11.4" });
        for (const d of docs) expect(Object.keys(d).slice(0, 3)).toEqual(["@level", "@message", "@timestamp"]);
        for (const d of docs) expect(d["@timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/);
      }
      const toFile = await both(base, ["version"], { ...env, TF_LOG: "DEBUG", TF_LOG_PATH: "tf.log" });
      for (const r of [toFile.theirs, toFile.ours]) {
        expect(r.stderr).toBe("");
        expect(readFileSync(join(r.dir, "tf.log"), "utf8").split("\n")[0]).toMatch(/\[INFO\]  Terraform version: 1\.11\.4$/);
      }
      const invalid = await both(base, ["version"], { ...env, TF_LOG: "loud" });
      const warning = '[WARN] Invalid log level: "LOUD". Defaulting to level: TRACE. Valid levels are: [TRACE DEBUG INFO WARN ERROR OFF]';
      expect(invalid.ours.stderr.startsWith(warning)).toBe(true);
      expect(invalid.theirs.stderr.startsWith(warning)).toBe(true);
      const unopenable = await both(base, ["version"], { ...env, TF_LOG: "INFO", TF_LOG_PATH: "/nonexistent-dir/tf.log" });
      expect(unopenable.ours.stderr.split("\n")[0]).toBe(unopenable.theirs.stderr.split("\n")[0]);
      const off = await both(base, ["version"], env);
      expect(off.ours.stderr).toBe(off.theirs.stderr);
      expect(existsSync(join(off.ours.dir, "tf.log"))).toBe(false);
    },
    TIMEOUT,
  );

  it_(
    "TF_LOG_PROVIDER passes a provider process's hclog lines through under its binary's name",
    async () => {
      const cliConfig = testProvidersCliConfig({ blocks: "blocks-provider.mjs" });
      const env = { TF_CLI_CONFIG_FILE: cliConfig };
      const base = workdir({ "main.tf": 'terraform {\n  required_providers {\n    blocks = { source = "magma/blocks" }\n  }\n}\n' });
      terraform(["init", "-no-color", "-input=false"], base, { env });
      const { theirs, ours } = await both(base, ["providers", "schema", "-json"], { ...env, TF_LOG_PROVIDER: "DEBUG" });
      // Terraform writes the fields in Go's map order; each program's own provider-side fields are compared by presence.
      const passed = /^\S+ \[DEBUG\] (provider\.[^:\s]+): plugin address: (?=.*\baddress=\S)(?=.*\bnetwork=unix\b).*$/m;
      const t = passed.exec(theirs.stderr);
      const m = passed.exec(ours.stderr);
      expect({ stderr: theirs.stderr, found: t !== null }).toMatchObject({ found: true });
      expect(m?.[1]).toBe(t?.[1]);
      // TF_LOG_PROVIDER alone leaves the core's log off.
      expect(ours.stderr).not.toContain("Terraform version");
      expect(theirs.stderr).not.toContain("Terraform version");
    },
    TIMEOUT,
  );

  it_(
    "TF_IN_AUTOMATION leaves out plan's next step; TF_INPUT=0 does not ask for a variable (native and JSON syntax)",
    async () => {
      const env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
      const variants = [
        { "main.tf": 'terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\nvariable "n" {}\nresource "random_id" "p" {\n  byte_length = var.n\n}\n' },
        { "main.tf.json": JSON.stringify({ terraform: { required_providers: { random: { source: "magma/random" } } }, variable: { n: {} }, resource: { random_id: { p: { byte_length: "${var.n}" } } } }) },
      ];
      for (const files of variants) {
        const base = workdir(files);
        terraform(["init", "-no-color", "-input=false"], base, { env });
        const plan = await both(base, ["plan", "-no-color", "-var", "n=2"], { ...env, TF_IN_AUTOMATION: "1" });
        expect(plan.ours.stderr).toBe(plan.theirs.stderr);
        const noInput = await both(base, ["plan", "-no-color"], { ...env, TF_INPUT: "0" });
        expect(noInput.ours.stderr).toBe(noInput.theirs.stderr);
      }
    },
    TIMEOUT,
  );
});

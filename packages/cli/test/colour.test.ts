// Colour in magma's human output, byte for byte with terraform 1.11.4's: the same working
// directory (the native random provider; served to terraform by @magma/provider-server) run
// by both, magma with FORCE_COLOR=1 against terraform's piped output (terraform colours even
// when piped): plan (create, outputs, sensitive values), apply, "No changes.", a replacing plan
// with updated outputs, a plan under -target (its warning in terraform's yellow rule), show,
// destroy, import, and validate with an error (the red rule, the subject underlined) and with a
// warning (the yellow rule). Values that
// differ from run to run (random ids and results, elapsed times) are normalised. Then: no
// colour when piped, with -no-color, with NO_COLOR=1 or FORCE_COLOR=0.
// Skipped without terraform (the no-colour checks run anyway).
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const CONFIG = {
  "main.tf": `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "n" {
  type    = number
  default = 4
}
resource "random_id" "p" {
  byte_length = var.n
}
# A chain (random_id.p, random_password.q, random_string.s): the progress and refresh lines come in one order.
resource "random_password" "q" {
  length  = 6
  keepers = { p = random_id.p.id }
}
resource "random_string" "s" {
  length  = 8
  special = false
  keepers = { id = random_password.q.id }
}
output "id" {
  value = random_id.p.hex
}
output "secret" {
  value     = random_string.s.result
  sensitive = true
}
`,
};

const INVALID = {
  "main.tf": 'variable "x" {\n  type    = string\n  default = "a"\n}\n\noutput "o" {\n  value = var.y\n}\n',
};

const ESC = "\x1b[";

/**
 * Random values and times replaced: `[id=…]`, `after Ns`, and every quoted string of an
 * attribute line (its value differs from run to run; the line's layout and colours stay).
 */
function normalise(text: string): string {
  return text
    .replace(/\[id=[^\]]*\]/g, "[id=ID]")
    .replace(/ after \d+s/g, " after Ns")
    .split("\n")
    .map((l) => (/ = |^\S+ = /.test(l) ? l.replace(/"[^"\n]*"/g, '"V"') : l))
    .join("\n");
}

const withTerraform = TERRAFORM !== undefined ? describe : describe.skip;

withTerraform("magma's colours are terraform's (FORCE_COLOR=1 against terraform's piped output)", () => {
  let env: Record<string, string>;
  beforeAll(() => {
    const cli = randomMirrorCliConfig();
    // Terraform colours by default (also when piped); TF_IN_AUTOMATION would change its wording.
    env = { TF_CLI_CONFIG_FILE: cli, TF_IN_AUTOMATION: "" };
  });

  test("plan, apply, no changes, replace, -target's warning, show, destroy: the same bytes", async () => {
    const m = workdir(CONFIG);
    const t = workdir(CONFIG);
    terraform(["init", "-input=false"], t, { env });
    const same = async (args: readonly string[], tfArgs: readonly string[] = args): Promise<string> => {
      const mine = await magma(args, { cwd: m, env: { FORCE_COLOR: "1" } });
      const theirs = terraform([...tfArgs], t, { env });
      expect([args, mine.code, mine.stderr]).toEqual([args, 0, ""]);
      expect(normalise(mine.stdout)).toBe(normalise(theirs.stdout));
      return mine.stdout;
    };

    const plan = await same(["plan"], ["plan", "-input=false"]);
    expect(plan).toContain(`${ESC}1m  # random_id.p${ESC}0m will be created\n${ESC}0m  ${ESC}32m+${ESC}0m${ESC}0m resource "random_id" "p" {\n`);
    expect(plan).toContain(`      ${ESC}32m+${ESC}0m${ESC}0m result      = (sensitive value)\n`);
    expect(plan).toContain(`\n${ESC}1mPlan:${ESC}0m 3 to add, 0 to change, 0 to destroy.\n`);
    expect(plan).toContain(`\n${ESC}90m\n${"─".repeat(77)}${ESC}0m\n`);

    const apply = await same(["apply", "-auto-approve"], ["apply", "-auto-approve", "-input=false"]);
    expect(apply).toContain(`${ESC}0m${ESC}1mrandom_id.p: Creating...${ESC}0m${ESC}0m\n${ESC}0m${ESC}1mrandom_id.p: Creation complete after `);
    expect(apply).toContain(`${ESC}0m${ESC}1m${ESC}32m\nApply complete! Resources: 3 added, 0 changed, 0 destroyed.\n${ESC}0m${ESC}0m${ESC}1m${ESC}32m\nOutputs:\n\n${ESC}0m`);

    const none = await same(["plan"], ["plan", "-input=false"]);
    expect(none).toContain(`${ESC}0m${ESC}1m${ESC}32mNo changes.${ESC}0m${ESC}1m Your infrastructure matches the configuration.${ESC}0m`);

    const replace = await same(["plan", "-var", "n=5"], ["plan", "-var", "n=5", "-input=false"]);
    expect(replace).toContain(`${ESC}1m  # random_id.p${ESC}0m must be ${ESC}1m${ESC}31mreplaced${ESC}0m\n`);
    expect(replace).toContain(`byte_length = 4 ${ESC}33m->${ESC}0m${ESC}0m 5 ${ESC}31m# forces replacement${ESC}0m${ESC}0m\n`);
    expect(replace).toContain(`  ${ESC}33m~${ESC}0m${ESC}0m secret = (sensitive value)\n`);

    const targeted = await same(["plan", "-target=random_id.p", "-var", "n=5"], ["plan", "-target=random_id.p", "-var", "n=5", "-input=false"]);
    expect(targeted).toContain(`${ESC}33m╷${ESC}0m${ESC}0m\n${ESC}33m│${ESC}0m ${ESC}0m${ESC}1m${ESC}33mWarning: ${ESC}0m${ESC}0m${ESC}1mResource targeting is in effect${ESC}0m\n`);

    // terraform show of a state prints no colour; magma neither.
    expect(await same(["show"])).not.toContain(ESC);

    const destroy = await same(["destroy", "-auto-approve"], ["destroy", "-auto-approve", "-input=false"]);
    expect(destroy).toContain(`${ESC}1m  # random_id.p${ESC}0m will be ${ESC}1m${ESC}31mdestroyed${ESC}0m\n`);
    expect(destroy).toContain(`${ESC}0m${ESC}1m${ESC}32m\nDestroy complete! Resources: 3 destroyed.\n${ESC}0m`);
    // Destroying nothing: terraform's green "No changes." in destroy mode.
    await same(["destroy", "-auto-approve"], ["destroy", "-auto-approve", "-input=false"]);
  }, 240_000);

  test("import: the bold and green progress and result", async () => {
    const files = { "main.tf": 'terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\nresource "random_id" "p" {\n  byte_length = 4\n}\n' };
    const m = workdir(files);
    const t = workdir(files);
    terraform(["init", "-input=false"], t, { env });
    const mine = await magma(["import", "random_id.p", "S_g3oQ"], { cwd: m, env: { FORCE_COLOR: "1" } });
    expect([mine.code, mine.stderr]).toEqual([0, ""]);
    expect(mine.stdout).toBe(terraform(["import", "-input=false", "random_id.p", "S_g3oQ"], t, { env }).stdout);
    expect(mine.stdout).toContain(`${ESC}0m${ESC}1m${ESC}32mrandom_id.p: Import prepared!${ESC}0m\n`);
  }, 120_000);

  test("validate: an error in the red rule on stderr, the subject underlined; a warning in the yellow rule; success in green", async () => {
    const m = workdir(INVALID);
    const mine = await magma(["validate"], { cwd: m, env: { FORCE_COLOR: "1" } });
    const theirs = terraform(["validate"], m, { env, expect: 1 });
    expect(mine.code).toBe(1);
    expect(mine.stdout).toBe(theirs.stdout);
    expect(mine.stderr).toBe(theirs.stderr);
    expect(mine.stderr).toContain(`${ESC}31m│${ESC}0m ${ESC}0m   7:   value = ${ESC}4mvar.y${ESC}0m${ESC}0m\n`);

    const ok = workdir({ "main.tf": 'output "o" {\n  value = 1\n}\n' });
    const good = await magma(["validate"], { cwd: ok, env: { FORCE_COLOR: "1" } });
    expect(good.code).toBe(0);
    expect(good.stdout).toBe(terraform(["validate"], ok, { env }).stdout);
    expect(good.stdout).toBe(`${ESC}32m${ESC}1mSuccess!${ESC}0m The configuration is valid.\n${ESC}0m\n`);

    // A warning: in the yellow rule on stdout, then the green "Success!" with terraform's note.
    const warned = workdir({ "main.tf": 'terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\nprovider "random" {\n  version = "1.0.0"\n}\n' });
    terraform(["init", "-input=false"], warned, { env });
    const w = await magma(["validate"], { cwd: warned, env: { FORCE_COLOR: "1" } });
    expect([w.code, w.stderr]).toEqual([0, ""]);
    expect(w.stdout).toBe(terraform(["validate"], warned, { env }).stdout);
    expect(w.stdout).toContain(`${ESC}33m│${ESC}0m ${ESC}0m${ESC}1m${ESC}33mWarning: ${ESC}0m${ESC}0m${ESC}1mVersion constraints inside provider configuration blocks are deprecated${ESC}0m\n`);
    expect(w.stdout).toContain("validation warnings as shown above.\n");
  }, 120_000);
});

describe("no colour unless asked for or on a terminal", () => {
  test("piped, -no-color, NO_COLOR=1 (even with FORCE_COLOR), FORCE_COLOR=0: plain text", async () => {
    const dir = workdir(CONFIG);
    const bad = workdir(INVALID);
    for (const [args, extra] of [
      [["plan"], {}],
      [["plan", "-no-color"], { FORCE_COLOR: "1" }],
      [["plan"], { FORCE_COLOR: "1", NO_COLOR: "1" }],
      [["plan"], { FORCE_COLOR: "0" }],
      [["plan"], { FORCE_COLOR: "1", TF_CLI_ARGS: "-no-color" }],
    ] as const) {
      const r = await magma(args, { cwd: dir, env: extra });
      expect([args, extra, r.code, r.stderr]).toEqual([args, extra, 0, ""]);
      expect(r.stdout).toContain("Plan: 3 to add, 0 to change, 0 to destroy.");
      expect(r.stdout).not.toContain("\x1b");
      const v = await magma(args[0] === "plan" ? ["validate", ...args.slice(1)] : args, { cwd: bad, env: extra });
      expect(v.code).toBe(1);
      expect(v.stderr).toContain("\nError: Reference to undeclared input variable\n");
      expect(v.stderr).not.toContain("\x1b");
    }
    // And FORCE_COLOR=1 alone colours the piped output.
    const forced = await magma(["plan"], { cwd: dir, env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain("\x1b[1mPlan:\x1b[0m 3 to add");
  }, 120_000);
});

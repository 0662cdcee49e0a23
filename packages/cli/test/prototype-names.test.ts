// `__proto__`, `constructor`, `toString` and every other name JavaScript objects inherit are
// ordinary names, against terraform 1.11.4, in both syntaxes: as for_each keys (and a resource
// iterating over those instances), map keys (keys(), length(), lookup(), merge()), output
// names (the state, `output -json`), variable, local and module names. Each name plays every
// role at once; the apply, `output -json` and the next plan (no changes: no instance
// "not in for_each map") must be terraform's.
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** The names every plain JavaScript object answers to (Object.prototype's own), each a valid HCL identifier. */
const NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

const q = (s: string): string => JSON.stringify(s);

/** The configuration in terraform's native syntax: `modules` is the child module's directory name. */
function nativeConfig(): string {
  const map = `{ ${NAMES.map((n, i) => `${q(n)} = ${i}`).join(", ")} }`;
  return `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
${NAMES.map((n) => `variable ${q(n)} {\n  default = ${q(`var-${n}`)}\n}`).join("\n")}
locals {
${NAMES.map((n) => `  ${n} = ${q(`local-${n}`)}`).join("\n")}
  m = ${map}
}
resource "random_id" "up" {
  for_each    = toset(${JSON.stringify(NAMES)})
  byte_length = 2
}
resource "random_id" "down" {
  for_each    = random_id.up
  byte_length = 2
  keepers     = { k = each.key }
}
${NAMES.map((n) => `module ${q(n)} {\n  source = "./mod"\n  x      = var.${n}\n}`).join("\n")}
${NAMES.map((n) => `output ${q(n)} {\n  value = [var.${n}, local.${n}, module.${n}.y, random_id.down[${q(n)}].keepers.k, lookup(local.m, ${q(n)}, -1)]\n}`).join("\n")}
output "keys" {
  value = [keys(random_id.down), keys(local.m), length(local.m), merge(local.m, { ${q(NAMES[0]!)} = "merged" })]
}
`;
}

/** The same configuration in terraform's JSON syntax. */
function jsonConfig(): string {
  return JSON.stringify({
    terraform: { required_providers: { random: { source: "magma/random" } } },
    variable: Object.fromEntries(NAMES.map((n) => [n, { default: `var-${n}` }])),
    locals: { ...Object.fromEntries(NAMES.map((n) => [n, `local-${n}`])), m: Object.fromEntries(NAMES.map((n, i) => [n, i])) },
    resource: {
      random_id: {
        up: { for_each: `\${toset(${JSON.stringify(NAMES)})}`, byte_length: 2 },
        down: { for_each: "${random_id.up}", byte_length: 2, keepers: { k: "${each.key}" } },
      },
    },
    module: Object.fromEntries(NAMES.map((n) => [n, { source: "./mod", x: `\${var.${n}}` }])),
    output: {
      ...Object.fromEntries(NAMES.map((n) => [n, { value: `\${[var.${n}, local.${n}, module.${n}.y, random_id.down[${q(n)}].keepers.k, lookup(local.m, ${q(n)}, -1)]}` }])),
      keys: { value: `\${[keys(random_id.down), keys(local.m), length(local.m), merge(local.m, { ${q(NAMES[0]!)} = "merged" })]}` },
    },
  });
}

const MODULE = 'variable "x" {}\noutput "y" {\n  value = "mod-${var.x}"\n}\n';

(TERRAFORM !== undefined ? describe : describe.skip)("names JavaScript objects inherit are ordinary names, against terraform's", () => {
  test.each([
    { syntax: "native", file: "main.tf", text: nativeConfig },
    { syntax: "JSON", file: "main.tf.json", text: jsonConfig },
  ])("$syntax syntax: apply, output -json and the next plan", async ({ file, text }) => {
    expect(NAMES).toEqual(expect.arrayContaining(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]));
    const env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
    const files = { [file]: text(), "mod/main.tf": MODULE };
    const dirs = [workdir(files), workdir(files)] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env })));
    const apply = ["apply", "-auto-approve", "-no-color", "-input=false"];
    const [ours, theirs] = await Promise.all([runTool("magma", apply, dirs[0], env), runTool("terraform", apply, dirs[1], env)]);
    expect({ code: theirs.code, stderr: theirs.stderr }).toEqual({ code: 0, stderr: "" });
    expect({ code: ours.code, stderr: ours.stderr }).toEqual({ code: 0, stderr: "" });
    const complete = (s: string): string | undefined => /Apply complete! .*/.exec(s)?.[0];
    expect(complete(ours.stdout)).toBe(complete(theirs.stdout));
    // The outputs as printed after the apply (values differ only in random ids: none are printed).
    expect(ours.stdout.slice(ours.stdout.indexOf("\nOutputs:"))).toBe(theirs.stdout.slice(theirs.stdout.indexOf("\nOutputs:")));
    const [ourOut, theirOut] = await Promise.all([runTool("magma", ["output", "-json"], dirs[0], env), runTool("terraform", ["output", "-json"], dirs[1], env)]);
    expect(JSON.parse(ourOut.stdout)).toEqual(JSON.parse(theirOut.stdout));
    expect(Object.keys(JSON.parse(ourOut.stdout) as object)).toEqual(expect.arrayContaining(NAMES));
    const plan = ["plan", "-detailed-exitcode", "-no-color", "-input=false"];
    const [ourPlan, theirPlan] = await Promise.all([runTool("magma", plan, dirs[0], env), runTool("terraform", plan, dirs[1], env)]);
    expect(theirPlan.code).toBe(0);
    expect({ code: ourPlan.code, stderr: ourPlan.stderr }).toEqual({ code: 0, stderr: "" });
  }, 300_000);
});

// magma graph through the built binary: the resource summary (no -type) and the operation
// graphs (-type=plan|plan-refresh-only|plan-destroy|apply, with -verbose and -draw-cycles) in
// terraform graph's DOT, compared byte for byte with terraform 1.11.4's on the same
// configuration and state (skipped without terraform and hashicorp/aws, whose schema terraform
// reads to build its graph; magma's graph starts no provider).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { TerraformWorkspace, hasAwsProvider, hasTerraform, bundleLauncherEntry } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { inTurn } from "./support/in-turn.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraform, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const AWS = `provider[\\"registry.terraform.io/hashicorp/aws\\"]`;

/** A root module with variables (one validated), locals, two provider configurations (one reading a variable), a data source, count, for_each, modules (nested, one with its own provider, one passed an alias), a check and outputs. */
const FILES: Record<string, string> = {
  "main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
variable "region" { default = "us-east-1" }
variable "unused" { default = 1 }
variable "n" {
  default = 2
  validation {
    condition     = var.n < 10
    error_message = "small"
  }
}
provider "aws" {
  region                      = var.region
  skip_credentials_validation = true
}
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
locals {
  name  = "x"
  other = local.name
  names = toset(["a", "b"])
  reg   = data.aws_region.r.name
}
data "aws_region" "r" {}
resource "aws_ssm_parameter" "a" {
  provider = aws.west
  count    = var.n
  name     = "\${local.other}-\${count.index}"
  type     = "String"
  value    = local.reg
}
resource "aws_ssm_parameter" "e" {
  for_each   = local.names
  name       = each.key
  type       = "String"
  value      = module.y["a"].k
  depends_on = [module.own]
}
module "m" {
  source    = "./mod"
  count     = var.n
  in        = aws_ssm_parameter.a[0].name
  providers = { aws = aws.west }
}
module "k" {
  source     = "./mod"
  in         = "k"
  depends_on = [aws_ssm_parameter.a]
}
module "y" {
  source   = "./each"
  for_each = local.names
  k        = each.key
}
module "own" {
  source = "./own"
}
check "c" {
  assert {
    condition     = length(local.names) > 0
    error_message = "no names"
  }
}
output "o" { value = module.m }
output "p" {
  value      = module.k.out
  depends_on = [local.name]
}
output "s" {
  value     = aws_ssm_parameter.e
  sensitive = true
}
`,
  "mod/main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
variable "in" {}
locals { l = upper(var.in) }
data "aws_caller_identity" "me" {}
resource "aws_ssm_parameter" "c" {
  name  = "\${local.l}-\${data.aws_caller_identity.me.account_id}"
  type  = "String"
  value = "c"
}
module "inner" {
  source = "./inner"
  v      = aws_ssm_parameter.c.id
}
output "out" { value = module.inner.r }
output "plain" { value = "x" }
`,
  "mod/inner/main.tf": `
variable "v" {}
output "r" { value = var.v }
`,
  "each/main.tf": `
variable "k" {}
output "k" { value = var.k }
`,
  "own/main.tf": `
variable "pfx" {
  default = "z"
  validation {
    condition     = length(var.pfx) > 0
    error_message = "empty"
  }
}
provider "aws" {
  region = "eu-west-1"
}
resource "aws_ssm_parameter" "c" {
  name  = var.pfx
  type  = "String"
  value = "c"
}
`,
};

/** Two cycles: a → b → local.l → c → a (through a local, which terraform never draws) and d → d2 → d3 → d; e outside both. */
const CYCLES: Record<string, string> = {
  "main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
provider "aws" {
  region = "us-east-1"
}
locals { l = aws_ssm_parameter.c.value }
resource "aws_ssm_parameter" "a" {
  name  = aws_ssm_parameter.b.value
  type  = "String"
  value = "a"
}
resource "aws_ssm_parameter" "b" {
  name  = local.l
  type  = "String"
  value = "b"
}
resource "aws_ssm_parameter" "c" {
  name  = "c"
  type  = "String"
  value = aws_ssm_parameter.a.value
}
resource "aws_ssm_parameter" "d" {
  name  = "d"
  type  = "String"
  value = aws_ssm_parameter.d2.value
}
resource "aws_ssm_parameter" "d2" {
  name  = "d2"
  type  = "String"
  value = aws_ssm_parameter.d3.value
}
resource "aws_ssm_parameter" "d3" {
  name  = "d3"
  type  = "String"
  value = aws_ssm_parameter.d.value
}
resource "aws_ssm_parameter" "e" {
  name  = "e"
  type  = "String"
  value = aws_ssm_parameter.a.value
}
`,
};

const instance = (key: number | undefined, id: string): string => `{${key === undefined ? "" : `"index_key":${key},`}"schema_version":0,"attributes":{"id":"${id}","name":"${id}","type":"String","value":"v"}}`;

/** A state with a counted resource in the configuration, an orphaned counted resource and an orphan in a module. */
const STATE = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"1b0c4c34-1111-2222-3333-444455556666","outputs":{},"resources":[
{"mode":"managed","type":"aws_ssm_parameter","name":"a","provider":"${AWS}.west","instances":[${instance(0, "a0")},${instance(1, "a1")}]},
{"mode":"managed","type":"aws_ssm_parameter","name":"gone","provider":"${AWS}","instances":[${instance(0, "g0")},${instance(1, "g1")}]},
{"module":"module.k","mode":"managed","type":"aws_ssm_parameter","name":"old","provider":"${AWS}","instances":[${instance(undefined, "old")}]}
]}
`;

const TYPES = ["plan", "plan-refresh-only", "plan-destroy", "apply"] as const;

const withTerraform = TERRAFORM !== undefined && hasAwsProvider() ? describe : describe.skip;

withTerraform("magma graph -type against terraform graph -type", () => {
  test("every type prints terraform's DOT byte for byte, with an empty state and with orphans in the state", async () => {
    const dir = workdir(FILES);
    terraform(["init", "-no-color", "-input=false"], dir);
    // Without a state plan's graph is checked; with orphans in the state, all four.
    for (const withState of [false, true]) {
      if (withState) writeFileSync(join(dir, "terraform.tfstate"), STATE);
      const runs: (readonly string[])[] = [
        ...(withState ? TYPES : (["plan"] as const)).map((type) => [`-type=${type}`]),
        // -verbose declares the provider closes; -draw-cycles changes nothing without a cycle; -module-depth is ignored.
        ...(withState ? [["-type=plan", "-verbose"], ["-type=plan-destroy", "-verbose=true"], ["-type=apply", "-draw-cycles", "-verbose", "-module-depth=1"]] : []),
        // Without -type: the resources clustered by module (orphans counted as their resource), the same with -verbose or -draw-cycles.
        ...(withState ? [[], ["-draw-cycles", "-verbose"]] : [[]]),
      ];
      // magma's runs and terraform's side by side (each tool's one after another: terraform graph locks the state).
      const [ours, theirs] = await Promise.all([inTurn(runs, (flags) => magma(["graph", ...flags], { cwd: dir })), inTurn(runs, (flags) => terraformAsync(["graph", ...flags], dir))]);
      runs.forEach((flags, i) => {
        expect({ flags, withState, stderr: ours[i]!.stderr, code: ours[i]!.code }).toEqual({ flags, withState, stderr: "", code: 0 });
        expect({ flags, withState, dot: ours[i]!.stdout }).toEqual({ flags, withState, dot: theirs[i]!.stdout });
      });
    }
  }, 900_000);

  test("a cycle: an error per cycle without -draw-cycles; with it, terraform's unreduced graph with each cycle's pairs in red", async () => {
    const dir = workdir(CYCLES);
    terraform(["init", "-no-color", "-input=false"], dir);
    // Terraform names each cycle's nodes in Go's map order: compare them as sets.
    const cycles = (stderr: string): string[] =>
      [...stderr.matchAll(/Error: Cycle: (.*)/g)]
        .map((m) => m[1]!.split(", ").sort().join(", "))
        .sort();
    const drawnFlags = [["-type=plan", "-draw-cycles"], ["-type=apply", "-draw-cycles", "-verbose"]];
    // magma's runs and terraform's side by side (each tool's one after another: terraform graph locks the state).
    const [[ours, drawnPlan, drawnApply, summary, plainSummary], [theirs, theirDrawnPlan, theirDrawnApply, theirSummary]] = await Promise.all([
      inTurn([["-type=plan", "-no-color"], ...drawnFlags, ["-draw-cycles"], []], (flags) => magma(["graph", ...flags], { cwd: dir })),
      inTurn<readonly string[], { stdout: string; stderr: string }>(
        [["-type=plan", "-no-color"], ...drawnFlags, ["-draw-cycles"]],
        (flags) => terraformAsync(["graph", ...flags], dir, { expect: flags.includes("-draw-cycles") ? 0 : 1 }),
      ),
    ]);
    expect(ours!.code).toBe(1);
    expect(ours!.stdout).toBe("");
    expect(cycles(ours!.stderr)).toEqual(cycles(theirs!.stderr));
    expect(cycles(ours!.stderr)).toHaveLength(2);
    for (const [flags, drawn, their] of [
      [drawnFlags[0]!, drawnPlan!, theirDrawnPlan!],
      [drawnFlags[1]!, drawnApply!, theirDrawnApply!],
    ] as const) {
      expect({ flags, stderr: drawn.stderr, code: drawn.code }).toEqual({ flags, stderr: "", code: 0 });
      expect({ flags, dot: drawn.stdout }).toEqual({ flags, dot: their.stdout });
    }
    expect(drawnPlan!.stdout).toContain('"[root] aws_ssm_parameter.b (expand)" -> "[root] aws_ssm_parameter.a (expand)" [color = "red", penwidth = "2.0"]\n');
    // The resource summary of a cyclic configuration: terraform's reduction inside a cycle
    // depends on Go's map order (it even drops edges); magma keeps the cycle's edges, so every
    // edge terraform prints is one of magma's.
    expect(summary!.code).toBe(0);
    const edges = (dot: string): string[] => dot.split("\n").filter((l) => l.includes(" -> "));
    expect(edges(summary!.stdout)).toEqual(expect.arrayContaining(edges(theirSummary!.stdout)));
    // The cycle a → b → (local.l) → c → a keeps all its edges.
    expect(edges(summary!.stdout)).toEqual(expect.arrayContaining(['  "aws_ssm_parameter.a" -> "aws_ssm_parameter.b";', '  "aws_ssm_parameter.b" -> "aws_ssm_parameter.c";', '  "aws_ssm_parameter.c" -> "aws_ssm_parameter.a";']));
    expect(plainSummary!.code).toBe(1);
  }, 600_000);
});

/** Creates through count, for_each, a module and an output, with a reference to one instance and one to a whole resource, on a native provider. */
const PLANNED = `
terraform {
  required_providers {
    vault = { source = "example.com/magma/vault" }
  }
}
variable "n" { default = 2 }
resource "vault_secret" "a" {
  count = var.n
  name  = "a\${count.index}"
}
resource "vault_secret" "b" {
  name = vault_secret.a[0].name
}
resource "vault_secret" "c" {
  for_each = toset(["p", "q"])
  name     = "\${vault_secret.b.id}-\${each.key}"
}
module "m" {
  source = "./m"
  v      = vault_secret.b.name
}
output "o" { value = vault_secret.b.id }
`;

const PLANNED_MODULE = `
terraform {
  required_providers {
    vault = { source = "example.com/magma/vault" }
  }
}
variable "v" {}
resource "vault_secret" "d" { name = var.v }
output "r" { value = vault_secret.d.id }
`;

(hasTerraform() ? describe : describe.skip)("magma graph -plan against terraform graph -plan", () => {
  let base: TerraformWorkspace;
  let ws: TerraformWorkspace;

  beforeAll(async () => {
    base = TerraformWorkspace.create("magma-graph-mirror-");
    const mirror = join(base.dir, "mirror");
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", type: "vault", version: "1.0.0", module: join(dirname(fileURLToPath(import.meta.url)), "testdata", "secret-provider.mjs"), protocolVersions: [6] }));
    ws = TerraformWorkspace.create("magma-graph-plan-", { cliConfig: { mirrors: [{ path: mirror }] } });
    ws.write("main.tf", PLANNED);
    mkdirSync(join(ws.dir, "m"));
    ws.write("m/main.tf", PLANNED_MODULE);
    await ws.init();
    await ws.run(["plan", "-out=tf.plan", "-input=false", "-no-color"]);
  }, 600_000);

  afterAll(() => {
    ws?.dispose();
    base?.dispose();
  });

  test("saved plans of creates, then of updates: the apply graph with a node per changed instance, byte for byte; -type=apply without a plan has none", async () => {
    const planned = await magma(["plan", "-out=magma.plan", "-input=false", "-no-color"], { cwd: ws.dir });
    expect({ stderr: planned.stderr, code: planned.code }).toEqual({ stderr: "", code: 0 });
    for (const flags of [[], ["-type=apply"], ["-verbose"]]) {
      const [ours, theirs] = await Promise.all([magma(["graph", "-plan=magma.plan", ...flags], { cwd: ws.dir }), ws.run(["graph", "-plan=tf.plan", ...flags])]);
      expect({ flags, stderr: ours.stderr, code: ours.code }).toEqual({ flags, stderr: "", code: 0 });
      expect({ flags, dot: ours.stdout }).toEqual({ flags, dot: theirs.stdout });
    }
    const dot = (await magma(["graph", "-plan=magma.plan"], { cwd: ws.dir })).stdout;
    expect(dot).toContain('\t\t"[root] vault_secret.b (expand)" -> "[root] vault_secret.a[0]"\n');
    expect(dot).toContain('\t\t"[root] vault_secret.c[\\"p\\"]" [label = "vault_secret.c", shape = "box"]\n');
    expect((await magma(["graph", "-type=apply"], { cwd: ws.dir })).stdout).not.toContain('"[root] vault_secret.a[0]"');
    // Applied, then b renamed: updates of b and module.m's d (no-ops are not drawn; a reference to the unchanged a[0] waits for a's expansion).
    await ws.run(["apply", "-input=false", "-no-color", "tf.plan"]);
    ws.write("main.tf", PLANNED.replace("name = vault_secret.a[0].name", 'name = "\${vault_secret.a[0].name}-x"'));
    await ws.run(["plan", "-out=tf2.plan", "-input=false", "-no-color"]);
    const replanned = await magma(["plan", "-out=magma2.plan", "-input=false", "-no-color"], { cwd: ws.dir });
    expect({ stderr: replanned.stderr, code: replanned.code }).toEqual({ stderr: "", code: 0 });
    expect(replanned.stdout).toContain("2 to change");
    const [updates, theirUpdates] = await Promise.all([magma(["graph", "-plan=magma2.plan"], { cwd: ws.dir }), ws.run(["graph", "-plan=tf2.plan"])]);
    expect({ stderr: updates.stderr, code: updates.code }).toEqual({ stderr: "", code: 0 });
    expect(updates.stdout).toBe(theirUpdates.stdout);
    expect(updates.stdout).toContain('\t\t"[root] module.m.vault_secret.d" -> "[root] module.m.vault_secret.d (expand)"\n');
    expect(updates.stdout).not.toContain('"[root] vault_secret.a[0]"');
    const missing = await magma(["graph", "-plan=nope.plan"], { cwd: ws.dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Failed to read the given file as a plan file");
  }, 600_000);
});

/**
 * Destroy ordering: a replaced (count) resource, one on another provider configuration replaced
 * because it references it, create_before_destroy on a dependent (forced on what it depends on),
 * deletes of a count index and of a resource gone from the configuration, and a module instance
 * that goes away.
 */
const REPLACING = (k: string, n: number, cbd: boolean, gone: boolean): Record<string, string> => ({
  "main.tf": `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
provider "random" {
  alias = "two"
}
variable "k" { default = "${k}" }
resource "random_id" "a" {
  count       = ${n}
  byte_length = 4
  keepers     = { k = var.k }
}
resource "random_id" "b" {
  provider    = random.two
  byte_length = 4
  keepers     = { x = random_id.a[0].hex }${cbd ? "\n  lifecycle {\n    create_before_destroy = true\n  }" : ""}
}
resource "random_uuid" "c" {
  keepers = { b = random_id.b.hex }
}
${gone ? "" : 'resource "random_uuid" "old" {\n  keepers = { a = random_id.a[0].hex }\n}\n'}module "m" {
  source = "./m"
  count  = ${n}
  in     = random_id.a[0].hex
}
output "o" { value = random_uuid.c.id }
`,
  "m/main.tf": `
terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "in" {}
resource "random_id" "p" {
  byte_length = 4
  keepers     = { in = var.in }
}
output "p" { value = random_id.p.hex }
`,
});

(TERRAFORM !== undefined ? describe : describe.skip)("magma graph -plan with deletes and replaces against terraform graph -plan", () => {
  /** Terraform draws the key of a create_before_destroy replace's deposed object at random (magma too). */
  const keyless = (dot: string): string => dot.replace(/ \(destroy deposed [0-9a-f]{8}\)/g, " (destroy deposed KEY)");

  test("a delete, a replace, a create_before_destroy replace and a destroy plan: the same graph but for the random deposed keys", async () => {
    const env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
    const cases = [
      { why: "deletes (a count index, a module instance, a resource gone)", from: REPLACING("1", 2, false, false), to: REPLACING("1", 1, false, true), args: [] as string[] },
      { why: "replaces", from: REPLACING("1", 1, false, false), to: REPLACING("2", 1, false, false), args: [] },
      { why: "create_before_destroy replaces with a delete", from: REPLACING("1", 1, true, false), to: REPLACING("2", 1, true, true), args: [] },
      { why: "a destroy plan", from: REPLACING("1", 2, true, false), to: REPLACING("1", 2, true, false), args: ["-destroy"] },
    ];
    // The cases are independent working directories: two at a time (each one's steps in order).
    const queue = [...cases];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) await check(c);
    };
    const check = async ({ why, from, to, args }: (typeof cases)[number]): Promise<void> => {
      const dir = workdir(from);
      await terraformAsync(["init", "-no-color", "-input=false"], dir, { env });
      await terraformAsync(["apply", "-auto-approve", "-no-color", "-input=false"], dir, { env });
      for (const [name, text] of Object.entries(to)) writeFileSync(join(dir, name), text);
      await terraformAsync(["plan", ...args, "-out=tf.plan", "-no-color", "-input=false"], dir, { env });
      const planned = await magma(["plan", ...args, "-out=magma.plan", "-no-color", "-input=false"], { cwd: dir });
      expect({ why, stderr: planned.stderr, code: planned.code }).toEqual({ why, stderr: "", code: 0 });
      const flagSets = [[], ["-verbose"]];
      // magma's runs and terraform's side by side (each tool's one after another: terraform graph locks the state).
      const [ours, theirs] = await Promise.all([inTurn(flagSets, (flags) => magma(["graph", "-plan=magma.plan", ...flags], { cwd: dir })), inTurn(flagSets, (flags) => terraformAsync(["graph", "-plan=tf.plan", ...flags], dir, { env }))]);
      flagSets.forEach((flags, i) => {
        expect({ why, flags, stderr: ours[i]!.stderr, code: ours[i]!.code }).toEqual({ why, flags, stderr: "", code: 0 });
        expect({ why, flags, dot: keyless(ours[i]!.stdout) }).toEqual({ why, flags, dot: keyless(theirs[i]!.stdout) });
      });
      const dot = ours[0]!.stdout;
      if (why.startsWith("deletes")) expect(dot).toContain('\t\t"[root] random_id.a[1] (destroy)" [label = "random_id.a", shape = "box"]\n');
      if (why === "replaces") expect(dot).toContain('\t\t"[root] random_id.a[0]" -> "[root] random_id.a[0] (destroy)"\n');
      // The old b goes once c, which references the new b, is replaced (so after the new b).
      if (why.startsWith("create_before_destroy")) expect(keyless(dot)).toContain('\t\t"[root] random_id.b (destroy deposed KEY)" -> "[root] random_uuid.c"\n');
    };
    await Promise.all([worker(), worker()]);
  }, 900_000);
});

describe("magma graph -type without terraform", () => {
  test("prints the operation graph of an uninitialised directory; a bad type or flag value is terraform's error", async () => {
    const dir = workdir(FILES);
    const plan = await magma(["graph", "-type=plan"], { cwd: dir });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout.startsWith('digraph {\n\tcompound = "true"\n\tnewrank = "true"\n\tsubgraph "root" {\n')).toBe(true);
    expect(plan.stdout).toContain('\t\t"[root] aws_ssm_parameter.a (expand)" [label = "aws_ssm_parameter.a", shape = "box"]\n');
    expect(plan.stdout).toContain('\t\t"[root] module.m.var.in (expand)" -> "[root] aws_ssm_parameter.a (expand)"\n');
    expect(plan.stdout).toContain('\t\t"[root] root" -> "[root] check.c (expand)"\n');
    const bad = await magma(["graph", "-type=bogus"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Unsupported graph type");
    expect(bad.stderr).toContain('The -type=... argument must be either "plan", "plan-refresh-only", "plan-destroy", or "apply".');
    const validate = await magma(["graph", "-type=validate"], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain("Error: Graph type no longer available");
    expect(validate.stderr).toContain('The graph type "validate" is no longer available. Use -type=plan instead');
    const flag = await magma(["graph", "-type=plan", "-draw-cycles=maybe"], { cwd: dir });
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain('-draw-cycles: invalid boolean value "maybe"');
  }, 300_000);
});

const withTerraformOnly = TERRAFORM !== undefined ? describe : describe.skip;

withTerraformOnly("magma graph's errors against terraform graph's (no provider needed)", () => {
  /** Each `Cycle: …` line's node names sorted, and the diagnostics sorted (terraform lists both in Go's map order). */
  const sortCycles = (text: string): string =>
    text
      .replace(/Cycle: ([^\n\x1b]*)/g, (_, names: string) => `Cycle: ${names.split(", ").sort().join(", ")}`)
      .split(/(?=\x1b\[31m\x1b\[31m╷|\nError: )/)
      .sort()
      .join("");
  // Terraform colours its diagnostics even when piped (unless TF_IN_AUTOMATION or -no-color); magma when FORCE_COLOR=1.
  const env = { TF_IN_AUTOMATION: "" };

  test("a configuration error and two cycles: terraform's bytes, plain (-no-color) and in colour (each box inside red, then a newline)", async () => {
    const bad = workdir({ "main.tf": 'output "o" {\n  value = 1\n  value = 2\n}\n' });
    const cycles = workdir({ "main.tf": "locals {\n  a = local.b\n  b = local.a\n  c = local.d\n  d = local.c\n}\n" });
    for (const dir of [bad, cycles]) {
      const plain = await magma(["graph", "-type=plan", "-no-color"], { cwd: dir });
      expect(plain.code).toBe(1);
      expect(sortCycles(plain.stderr)).toBe(sortCycles(terraform(["graph", "-type=plan", "-no-color"], dir, { env, expect: 1 }).stderr));
      const coloured = await magma(["graph", "-type=plan"], { cwd: dir, env: { FORCE_COLOR: "1" } });
      expect(coloured.code).toBe(1);
      expect(sortCycles(coloured.stderr)).toBe(sortCycles(terraform(["graph", "-type=plan"], dir, { env, expect: 1 }).stderr));
      expect(coloured.stderr).toMatch(/^\x1b\[31m\x1b\[31m╷/);
    }
  }, 120_000);
});

/**
 * Differences the real-world corpus found (issue 32 item 5: example roots of public module
 * repositories run through both tools by `@magma/difftest`'s real-world driver, see
 * docs/compatibility.md), each minimised into a configuration of our own and compared with
 * terraform 1.11.4: `init`, `plan -out` (exit code, stdout, stderr) and `show -json` of the
 * plan (the whole document but its timestamp) in both syntaxes, as written
 * (`.tf`) and converted by @magma/test-support's tfToJson (`.tf.json`). The provider is
 * `@magma/provider-random` served to both tools from one filesystem mirror, or hashicorp/aws
 * from the plugin mirror configured offline.
 */
import { spawn } from "node:child_process";
import { AWS_OFFLINE_HCL, comparablePlanJson, tfToJson } from "@magma/test-support";
import { awsAvailable, cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, mirrorCliConfig, randomMirrorCliConfig, removeWorkdirs, workdir } from "./support/workdir.js";

const d = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const REQUIRED = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
`;

/** The cases: a name and the files of the root (paths relative to it). */
const CASES: readonly {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly planCode: number;
  readonly aws?: true;
  /** Compare the plan's stderr without terraform's snippet values (`├──` / `│ x will be known only after apply`), which magma does not give for this error yet. */
  readonly withoutSnippetValues?: true;
}[] = [
  {
    // terraform-aws-modules/terraform-aws-acm examples/complete-dns-validation: magma read a
    // dotted key of a module call's providers map as an expression to evaluate and refused it
    // ("Invalid map key"), where HCL's ExprMap hands the key over as a reference.
    name: "a module call passing providers to the child's configuration aliases (dotted keys, trailing comma)",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}module "m" {
  source = "./mod"
  providers = {
    random.a = random,
    random.b = random
  }
}
output "ids" {
  value = module.m.ids
}
`,
      "mod/main.tf": `terraform {
  required_providers {
    random = { source = "magma/random", configuration_aliases = [random.a, random.b] }
  }
}
resource "random_id" "a" {
  provider    = random.a
  byte_length = 4
}
resource "random_id" "b" {
  provider    = random.b
  byte_length = 2
}
output "ids" {
  value = [random_id.a.byte_length, random_id.b.byte_length]
}
`,
    },
  },
  {
    // terraform-aws-modules/terraform-aws-ecr examples/repository-template: `magma show -json`
    // of a plan failed with "[missing_schema] no schema of provider …/random" when the only
    // resource of that provider had count = 0 (the plan's provider list names only providers
    // with changes; the document's configuration section covers every resource).
    name: "show -json of a plan whose only resource of a provider has count = 0, in a module",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}module "m" {
  source = "./mod"
}
`,
      "mod/main.tf": `${REQUIRED}resource "random_password" "this" {
  count  = 0
  length = 8
}
output "n" {
  value = length(random_password.this)
}
`,
    },
  },
  {
    // Every terraform-aws-modules example with an IAM policy: terraform shows a created string
    // holding a JSON object or array as jsonencode(…) laid out as HCL (keys sorted, aligned,
    // each entry marked), magma printed the quoted string.
    name: "plan text of created JSON strings (resource argument, list elements, output) as jsonencode(…)",
    planCode: 0,
    files: {
      "main.tf": `resource "terraform_data" "p" {
  input = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "A"
      Action    = ["ecr:ListImages", "ecr:BatchGetImage"]
      Effect    = "Allow"
      Principal = { AWS = "arn:aws:iam::123456789012:root" }
      Condition = { StringEquals = { "aws:SourceAccount" = "1" } }
      n         = 1.5
      t         = true
      z         = null
      e         = {}
      l         = []
    }]
  })
  triggers_replace = ["[1,2]", "{}", "[not json"]
}
output "o" {
  value = jsonencode(["x"])
}
`,
    },
  },
  {
    // terraform-aws-modules/terraform-aws-memory-db examples/complete (and eventbridge's
    // with-api-destination): a module variable of type any given a map whose element holds a
    // sensitive value became sensitive as a whole in magma, so a for_each over it failed with
    // "Invalid for_each argument"; terraform converts the marked value and keeps the mark where
    // it was.
    name: "for_each over a module variable whose elements hold a sensitive value",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}variable "secret" {
  type      = string
  default   = "s3cret"
  sensitive = true
}
module "m" {
  source = "./mod"
  users = {
    a = { passwords = [var.secret] }
    b = { passwords = [] }
  }
}
output "keys" {
  value = module.m.keys
}
`,
      "mod/main.tf": `${REQUIRED}variable "users" {
  type    = any
  default = {}
}
variable "create" {
  type    = bool
  default = true
}
resource "random_id" "for" {
  for_each    = { for k, v in var.users : k => v if var.create }
  byte_length = 2
}
resource "random_id" "direct" {
  for_each    = var.users
  byte_length = 3
}
output "keys" {
  value = keys(random_id.for)
}
`,
    },
  },
  {
    // Most terraform-aws-modules examples: terraform shows a nested block the provider left
    // unknown as a whole (aws_s3_bucket's cors_rule, aws_iam_role's inline_policy) as
    // "+ cors_rule (known after apply)" after a blank line; magma left it out. hashicorp/aws
    // offline (no call is made to plan these).
    name: "plan text of nested blocks unknown as a whole (hashicorp/aws)",
    planCode: 0,
    aws: true,
    files: {
      "main.tf": `${AWS_OFFLINE_HCL}
resource "aws_s3_bucket" "b" {
  bucket = "x"
}
resource "aws_iam_role" "r" {
  name               = "r"
  assume_role_policy = jsonencode({ Version = "2012-10-17", Statement = [] })
}
`,
    },
  },
  {
    // Session 15's corpus rerun, terraform-aws-s3-bucket examples/complete: terraform's block
    // renderer always shows its important attributes (id, name, tags), in nested blocks too; a
    // created cors_rule's id, which the legacy provider plans as "" (read as null), is shown as
    // "id = null" without a symbol. magma counted it among the hidden attributes.
    name: "an important attribute of a created nested block shown unchanged (hashicorp/aws)",
    planCode: 0,
    aws: true,
    files: {
      "main.tf": `${AWS_OFFLINE_HCL}
resource "aws_s3_bucket_cors_configuration" "c" {
  bucket = "x"
  cors_rule {
    allowed_methods = ["PUT"]
    allowed_origins = ["https://example.com"]
    max_age_seconds = 3000
  }
}
`,
    },
  },
  {
    // terraform-aws-modules/terraform-aws-vpn-gateway examples/minimal-vpn-gateway: a sensitive
    // output whose value is "" (a try() falling back) is not shown by terraform's plan (its
    // renderer reads a sensitive output's "" as null, a legacy-SDK rule), while show -json keeps
    // the create; magma showed "+ o = (sensitive value)".
    name: "sensitive outputs of empty strings are not shown in the plan text",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}resource "random_id" "a" {
  byte_length = 4
}
resource "random_id" "none" {
  count       = 0
  byte_length = 4
}
output "empty" {
  value     = try(random_id.none[0].hex, "")
  sensitive = true
}
output "set" {
  value     = "x"
  sensitive = true
}
output "plain" {
  value = ""
}
`,
    },
  },
  {
    // Session 15's corpus rerun, terraform-aws-elasticache, rds and others (an output of whole
    // resources, e.g. `cloudwatch_log_groups = aws_cloudwatch_log_group.this`): terraform renders
    // an output's change from its JSON, so a created object shows its null attributes
    // ("+ kms_key_id = null"), a map's keys are unquoted identifiers, a set is a list; magma
    // rendered them as a resource's attributes (nulls left out, map keys quoted).
    name: "created outputs rendered from their JSON: null attributes shown, maps as objects, sets as lists",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}variable "k" {
  type    = string
  default = null
}
resource "random_id" "a" {
  byte_length = 4
}
output "resource" {
  value = random_id.a
}
output "values" {
  value = {
    a = var.k
    b = 1
    c = { d = null, e = [null, 1] }
    f = tomap({ x = null, y = "1", "not an identifier" = "2" })
    g = toset(["b", "a"])
  }
}
`,
    },
  },
  {
    // Session 15's corpus rerun, terraform-aws-cloudwatch examples/cis-alarms
    // (`merge(v, try(var.control_overrides[k], {}))` over every control, the overrides holding an
    // unknown SNS topic ARN): HCL's try (v2.23, terraform 1.11) evaluates each argument, skips
    // one that fails and is unknown only when the value it got holds unknowns; magma still gave
    // unknown whenever the argument referred to a value not wholly known, so every control's
    // pattern and namespace were "(known after apply)".
    name: "try and can over a known object holding unknowns, indexed by a key that is not a literal",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}resource "random_id" "a" {
  byte_length = 4
}
module "m" {
  source    = "./mod"
  overrides = { a = { topic = random_id.a.hex } }
}
output "controls" {
  value = module.m.controls
}
`,
      "mod/main.tf": `variable "overrides" {
  type    = any
  default = {}
}
locals {
  all      = { a = { pattern = "p-a" }, b = { pattern = "p-b" } }
  controls = { for k, v in local.all : k => merge(v, try(var.overrides[k], {})) }
}
output "controls" {
  value = {
    merged  = local.controls
    can     = { for k in ["a", "b"] : k => can(var.overrides[k]) }
    unknown = try(var.overrides["a"], "fb")
  }
}
`,
    },
  },
  {
    // Session 15's corpus rerun, terraform-aws-eventbridge examples/with-api-destination
    // (`for_each = { for k, v in local.eventbridge_connections : v.name => v }` over
    // `flatten([for index, conn in var.connections : merge(conn, { name = index })])`, a
    // connection holding a random_pet id): go-cty's flatten is unknown only when a nested
    // sequence is; magma's was unknown whenever the list held an unknown anywhere, so the keys
    // were unknown ("Invalid for_each argument") where terraform plans every connection. Then
    // show -json: terraform's relevant_attributes follow local values to their expressions
    // (random_id.a's hex through local.connections); magma's stopped at locals.
    name: "for_each over flatten of objects holding unknowns",
    planCode: 0,
    files: {
      "main.tf": `${REQUIRED}resource "random_id" "a" {
  byte_length = 4
}
module "m" {
  source = "./mod"
  connections = {
    basic   = { type = "BASIC", auth = { username = random_id.a.hex } }
    api_key = { type = "API_KEY", auth = { key = "k" } }
  }
}
output "out" {
  value = module.m.out
}
`,
      "mod/main.tf": `${REQUIRED}variable "connections" {
  type    = any
  default = {}
}
locals {
  connections = flatten([for index, conn in var.connections : merge(conn, { name = index })])
}
resource "random_id" "c" {
  for_each    = { for v in local.connections : v.name => v }
  byte_length = each.value.type == "BASIC" ? 2 : 3
}
output "out" {
  value = {
    lengths = { for k, r in random_id.c : k => r.byte_length }
    nested  = flatten([[for v in local.connections : v.auth], "x"])
  }
}
`,
    },
  },
  {
    // Session 15's corpus rerun, terraform-aws-transit-gateway examples/multi-account: a
    // for_each whose keys are known only after apply ("Invalid for_each argument") is an error
    // the plan walk meets after validation passed; terraform shows the plan of everything else
    // first ("Terraform planned the following actions, but then encountered a problem", 49
    // resources there). magma printed the error alone.
    name: "an unknown for_each key met while planning: the partial plan, then the error",
    planCode: 1,
    withoutSnippetValues: true,
    files: {
      "main.tf": `${REQUIRED}resource "random_id" "a" {
  byte_length = 4
}
resource "random_id" "b" {
  for_each    = { for x in [random_id.a.hex] : x => x }
  byte_length = 2
}
resource "random_id" "c" {
  count       = length(random_id.a.hex) > 0 ? 1 : 0
  byte_length = 3
}
output "a" {
  value = random_id.a.hex
}
`,
    },
  },
];

/** The files of `files` in the JSON syntax (every `.tf` converted). */
function asJson(files: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith(".tf")) out[`${name}.json`] = tfToJson(text, name);
    else out[name] = text;
  }
  return out;
}

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

d("real-world differences, minimised, against terraform", () => {
  let cli: string;
  let awsCli: string;
  beforeAll(() => {
    cli = randomMirrorCliConfig();
    awsCli = mirrorCliConfig();
  });

  /** `init` then each command in `commands`, in both tools, each in its own copy of `files`, stopping at the first failure. */
  const both = async (files: Record<string, string>, aws: boolean, ...commands: (readonly string[])[]): Promise<{ theirs: Outcome[]; ours: Outcome[] }> => {
    const tfDir = workdir(files);
    const mgDir = workdir(files);
    const env = { TF_CLI_CONFIG_FILE: aws ? awsCli : cli, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
    const run = async (tool: "terraform" | "magma", dir: string): Promise<Outcome[]> => {
      const out: Outcome[] = [];
      for (const a of [["init", "-no-color", "-input=false"], ...commands]) {
        const r = tool === "terraform" ? await runTerraform(a, dir, env) : await magma(a, { cwd: dir, env });
        out.push({ code: r.code, stdout: r.stdout, stderr: r.stderr });
        if (r.code !== 0) break;
      }
      return out;
    };
    const [theirs, ours] = await Promise.all([run("terraform", tfDir), run("magma", mgDir)]);
    return { theirs, ours };
  };

  for (const c of CASES) {
    (c.aws === true && !awsAvailable ? test.skip : test).each([["native"], ["JSON"]])(`%s syntax: ${c.name}`, async (syntax) => {
      const files = syntax === "native" ? { ...c.files } : asJson(c.files);
      const { theirs, ours } = await both(files, c.aws === true, ["plan", "-no-color", "-input=false", "-out=tfplan"], ["show", "-json", "tfplan"]);
      // terraform's outcome is the case's (so that a broken fixture cannot pass by failing alike).
      expect(theirs.map((o) => o.code)).toEqual(c.planCode === 0 ? [0, 0, 0] : [0, c.planCode]);
      expect(ours.map((o) => o.code)).toEqual(theirs.map((o) => o.code));
      const values = (o: Outcome | undefined): Outcome | undefined => (o === undefined || c.withoutSnippetValues !== true ? o : { ...o, stderr: o.stderr.replace(/^ {4}├─+\n(?: {4}│ .*\n)+/gm, "") });
      expect(values(ours[1])).toEqual(values(theirs[1]));
      if (c.withoutSnippetValues === true) expect(theirs[1]!.stdout).toContain("Terraform planned the following actions, but then encountered a problem:");
      if (c.planCode === 0) {
        const doc = (o: Outcome) => comparablePlanJson(JSON.parse(o.stdout) as Record<string, unknown>);
        expect(doc(ours[2]!)).toEqual(doc(theirs[2]!));
      }
    }, 240_000);
  }
});

/** Runs terraform in `cwd` with `env` added; resolves with its exit code and output whatever the code. */
function runTerraform(args: readonly string[], cwd: string, env: Record<string, string>): Promise<Outcome> {
  const child = spawn(TERRAFORM!, [...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 200_000);
  return new Promise((resolve, reject) => {
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

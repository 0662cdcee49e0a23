// Attributes of a list or set of objects written as blocks (terraform's `blocktoattr` fixup),
// static and `dynamic`, and `dynamic` blocks kept in source order among static blocks of the
// same type, against terraform 1.11.4 on the same files: a native schema
// (test/testdata/attrs-provider.mjs) in both syntaxes — plan, apply, state, a clean re-plan —
// and the real hashicorp/aws provider's plan (`aws_default_security_group` ingress/egress,
// an `aws_iam_policy_document` with a dynamic statement before a static one; skipped without
// the provider). Skipped without terraform.
import { AWS_OFFLINE_HCL } from "@magma/test-support";
import { expectSameRuns, initialisedPair, runPair, stableState } from "./support/lang-pair.js";
import { awsAvailable } from "./support/run-magma.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const NATIVE = `terraform {
  required_providers {
    attrs = { source = "magma/attrs" }
  }
}
variable "ports" {
  default = [443, 8443]
}
resource "attrs_thing" "a" {
  name = "a"
  step {
    cmd = "first"
  }
  rule {
    port  = 80
    proto = "tcp"
    hop {
      via = "x"
    }
  }
  dynamic "rule" {
    for_each = var.ports
    content {
      port = rule.value
    }
  }
  rule {
    port = 22
  }
  dynamic "step" {
    for_each = ["d1", "d2"]
    content {
      cmd = step.value
    }
  }
  step {
    cmd = "last"
  }
  tagset {
    key   = "k"
    value = "v"
  }
}
resource "attrs_thing" "empty" {
  name = "empty"
  dynamic "rule" {
    for_each = []
    content {
      port = rule.value
    }
  }
}
resource "attrs_thing" "attr" {
  name = "attr"
  rule = [{ port = 1, proto = "udp", hop = [] }]
}
output "ports" {
  value = attrs_thing.a.rule[*].port
}
output "steps" {
  value = attrs_thing.a.step[*].cmd
}
output "empty" {
  value = attrs_thing.empty.rule
}
`;

/** In JSON a property is an argument: attributes as blocks come only from `dynamic`. */
const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { attrs: { source: "magma/attrs" } } },
  variable: { ports: { default: [443, 8443] } },
  resource: {
    attrs_thing: {
      a: {
        name: "a",
        step: [{ cmd: "first" }],
        dynamic: {
          rule: { for_each: "${var.ports}", content: { port: "${rule.value}", hop: [{ via: "h${rule.key}" }] } },
          step: { for_each: ["d1", "d2"], content: { cmd: "${step.value}" } },
        },
        tagset: [{ key: "k", value: "v" }],
      },
      b: { name: "b", dynamic: { step: { for_each: ["d1"], content: { cmd: "${step.value}" } } }, step: { cmd: "after" } },
    },
  },
  output: { ports: { value: "${attrs_thing.a.rule[*].port}" }, steps: { value: "${attrs_thing.a.step[*].cmd}" }, bsteps: { value: "${attrs_thing.b.step[*].cmd}" } },
});

const COMMANDS = [["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]] as const;

(TERRAFORM !== undefined ? describe : describe.skip)("attributes written as blocks and dynamic blocks in source order, against terraform's", () => {
  test.each([
    ["native syntax", { "main.tf": NATIVE }, 'steps = tolist([\n  "first",\n  "d1",\n  "d2",\n  "last",\n])'],
    ["JSON syntax", { "main.tf.json": JSON_CONFIG }, 'bsteps = tolist([\n  "d1",\n  "after",\n])'],
  ])("%s: apply, state and a clean re-plan", async (_name, files, output) => {
    const pair = await initialisedPair(files);
    const runs = await runPair(pair, COMMANDS);
    expectSameRuns(runs, COMMANDS);
    expect(runs[0]![0].stdout).toContain(output);
    expect(runs[1]![0].code).toBe(0);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
  }, 600_000);
});

const AWS_NATIVE = `${AWS_OFFLINE_HCL}
variable "ports" {
  default = [80, 443]
}
resource "aws_default_security_group" "d" {
  vpc_id = "vpc-123"
  ingress {
    protocol  = -1
    self      = true
    from_port = 0
    to_port   = 0
  }
  dynamic "egress" {
    for_each = var.ports
    content {
      from_port   = egress.value
      to_port     = egress.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }
}
data "aws_iam_policy_document" "p" {
  dynamic "statement" {
    for_each = ["a", "b"]
    content {
      sid       = statement.value
      actions   = ["s3:GetObject"]
      resources = ["*"]
    }
  }
  statement {
    sid       = "static"
    actions   = ["s3:PutObject"]
    resources = ["*"]
  }
}
output "sids" {
  value = jsondecode(data.aws_iam_policy_document.p.json).Statement[*].Sid
}
`;

const AWS_JSON = {
  "provider.tf": AWS_OFFLINE_HCL,
  "main.tf.json": JSON.stringify({
    resource: {
      aws_default_security_group: {
        d: {
          vpc_id: "vpc-123",
          dynamic: {
            ingress: { for_each: [0], content: { protocol: "-1", self: true, from_port: 0, to_port: 0 } },
            egress: { for_each: [80, 443], content: { from_port: "${egress.value}", to_port: "${egress.value}", protocol: "tcp", cidr_blocks: ["0.0.0.0/0"] } },
          },
        },
      },
    },
    data: {
      aws_iam_policy_document: {
        p: {
          dynamic: { statement: { for_each: ["a", "b"], content: { sid: "${statement.value}", actions: ["s3:GetObject"], resources: ["*"] } } },
          statement: { sid: "static", actions: ["s3:PutObject"], resources: ["*"] },
        },
      },
    },
    output: { sids: { value: "${jsondecode(data.aws_iam_policy_document.p.json).Statement[*].Sid}" } },
  }),
};

(TERRAFORM !== undefined && awsAvailable ? describe : describe.skip)("attributes as blocks with hashicorp/aws, against terraform's plan", () => {
  test.each([
    ["native syntax", { "main.tf": AWS_NATIVE }],
    ["JSON syntax", AWS_JSON],
  ])("%s: aws_default_security_group ingress/egress blocks, a policy document's dynamic statement first", async (_name, files) => {
    const cliConfig = mirrorCliConfig();
    const pair = await initialisedPair(files, cliConfig);
    const runs = await runPair(pair, [["plan"]], cliConfig);
    expectSameRuns(runs, [["plan"]]);
    expect(runs[0]![0].stdout).toContain('  + sids = [\n      + "a",\n      + "b",\n      + "static",\n    ]\n');
    expect(runs[0]![0].stdout).toContain("      + egress                 = [\n");
  }, 600_000);
});

/**
 * magma vs Terraform 1.11.4 on the same inputs, with the real AWS provider offline:
 * data source reads (terraform apply of a data-only configuration, then
 * `terraform show -json`) and state upgrades (a stored state at an old schema version,
 * `terraform plan -refresh=false -out`, then the plan's `prior_state`, which holds the
 * upgraded values: Terraform upgrades on every plan walk, even without refresh).
 *
 * One magma provider process and one `terraform init` for the whole file.
 */
import { toJson } from "@magma/cty";
import { configValue, type PlainConfig } from "@magma/provider-api";
import { dialConfiguredProvider, type LiveProvider } from "../src/dial-provider.js";
import { AWS_ADDRESS, AWS_BINARY, AWS_OFFLINE_CONFIG, AWS_OFFLINE_HCL, hasTerraformAndAws, TerraformWorkspace } from "@magma/test-support";

const d = hasTerraformAndAws() ? describe : describe.skip;

interface ShownResource {
  address: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  provider_name: string;
  schema_version: number;
  values: Record<string, unknown>;
}

interface ShownState {
  values?: { root_module: { resources?: ShownResource[] } };
}

function resourcesOf(state: ShownState | undefined): Map<string, ShownResource> {
  return new Map((state?.values?.root_module.resources ?? []).map((r) => [r.address, r]));
}

// The same configurations as HCL (for terraform) and as plain data (for magma).
const DATA_SOURCES: readonly { type: string; name: string; hcl: string; plain: PlainConfig }[] = [
  { type: "aws_partition", name: "p", hcl: "", plain: {} },
  {
    type: "aws_arn",
    name: "a",
    hcl: 'arn = "arn:aws:iam::123456789012:user/x"',
    plain: { arn: "arn:aws:iam::123456789012:user/x" },
  },
  {
    type: "aws_iam_policy_document",
    name: "doc",
    hcl: `
  statement {
    sid       = "S1"
    actions   = ["s3:GetObject", "s3:ListBucket", "s3:PutObject"]
    resources = ["arn:aws:s3:::b", "arn:aws:s3:::b/*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::123456789012:root", "arn:aws:iam::210987654321:user/y"]
    }
    condition {
      test     = "StringEquals"
      variable = "aws:username"
      values   = ["x", "y"]
    }
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["true"]
    }
  }
  statement {
    effect        = "Deny"
    not_actions   = ["iam:*"]
    resources     = ["*"]
  }`,
    plain: {
      statement: [
        {
          sid: "S1",
          actions: ["s3:GetObject", "s3:ListBucket", "s3:PutObject"],
          resources: ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
          principals: [
            {
              type: "AWS",
              identifiers: ["arn:aws:iam::123456789012:root", "arn:aws:iam::210987654321:user/y"],
            },
          ],
          condition: [
            { test: "StringEquals", variable: "aws:username", values: ["x", "y"] },
            { test: "Bool", variable: "aws:SecureTransport", values: ["true"] },
          ],
        },
        { effect: "Deny", not_actions: ["iam:*"], resources: ["*"] },
      ],
    },
  },
];

// Stored states at older schema versions: aws_security_group_rule (version 2 today) as a v0
// state of the era before description/ipv6/prefix lists/rule ids (missing attributes, plus a
// key the schema no longer has) and as a complete v1 state (its MigrateState only runs on
// flatmap states, so these JSON states are normalised, not rewritten); aws_ssm_patch_group
// (version 1) as a v0 state, whose JSON state upgrader rewrites the id.
const STORED: readonly {
  type: string;
  name: string;
  version: number;
  attributes: Record<string, unknown>;
}[] = [
  {
    type: "aws_security_group_rule",
    name: "v0",
    version: 0,
    attributes: {
      id: "sgrule-2345678901",
      type: "ingress",
      from_port: 80,
      to_port: 8080,
      protocol: "tcp",
      cidr_blocks: ["10.0.0.0/16"],
      security_group_id: "sg-0123456789abcdef0",
      source_security_group_id: "",
      self: false,
      legacy_attribute: "dropped by the provider",
    },
  },
  {
    type: "aws_security_group_rule",
    name: "v1",
    version: 1,
    attributes: {
      id: "sgrule-1234567890",
      type: "egress",
      from_port: 0,
      to_port: 65535,
      protocol: "-1",
      cidr_blocks: ["0.0.0.0/0", "10.1.0.0/16"],
      ipv6_cidr_blocks: ["::/0"],
      prefix_list_ids: [],
      description: "all out",
      security_group_id: "sg-0123456789abcdef0",
      source_security_group_id: null,
      security_group_rule_id: "sgr-0abc",
      self: false,
      timeouts: null,
    },
  },
  {
    type: "aws_ssm_patch_group",
    name: "pg",
    version: 0,
    attributes: { id: "prod", baseline_id: "pb-0123456789abcdef0", patch_group: "prod" },
  },
];

d("magma vs terraform 1.11.4 on the real AWS provider (offline)", () => {
  let ws: TerraformWorkspace;
  let live: LiveProvider;

  beforeAll(async () => {
    ws = TerraformWorkspace.create();
    ws.write("main.tf", AWS_OFFLINE_HCL);
    await ws.init();
    live = await dialConfiguredProvider({ binary: AWS_BINARY, config: AWS_OFFLINE_CONFIG });
  }, 240_000);

  afterAll(async () => {
    await live?.close();
    ws?.dispose();
  });

  test("data sources aws_partition, aws_arn and aws_iam_policy_document read the same state as terraform apply stores", async () => {
    const blocks = DATA_SOURCES.map((x) => `data "${x.type}" "${x.name}" {\n${x.hcl}\n}\n`).join(
      "\n",
    );
    ws.write(
      "main.tf",
      `${AWS_OFFLINE_HCL}\n${blocks}\noutput "partition" {\n  value = data.aws_partition.p.partition\n}\n`,
    );
    ws.remove("terraform.tfstate");
    await ws.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    const shown = resourcesOf((await ws.json(["show", "-json", "-no-color"])) as ShownState);
    expect(shown.size).toBe(DATA_SOURCES.length);

    for (const x of DATA_SOURCES) {
      const tf = shown.get(`data.${x.type}.${x.name}`);
      expect(tf).toBeDefined();
      expect(tf!.mode).toBe("data");
      expect(tf!.provider_name).toBe(AWS_ADDRESS);
      const entry = live.schema.dataSources.get(x.type)!;
      const { state, warnings } = await live.provider.readDataSource(
        x.type,
        configValue(entry.block, x.plain),
      );
      expect(warnings).toEqual([]);
      expect(state.isWhollyKnown()).toBe(true);
      const ours = JSON.parse(toJson(state, entry.type)) as Record<string, unknown>;
      expect({ [x.type]: ours }).toEqual({ [x.type]: tf!.values });
    }
    // The comparison saw real content.
    const policy = shown.get("data.aws_iam_policy_document.doc")!.values;
    expect(JSON.parse(policy["json"] as string)).toMatchObject({ Version: "2012-10-17" });
    expect(shown.get("data.aws_arn.a")!.values["account"]).toBe("123456789012");
  }, 240_000);

  test("upgradeResourceState of aws_security_group_rule (v0, v1 -> v2) and aws_ssm_patch_group (v0 -> v1) equals terraform's upgraded prior state, attribute by attribute", async () => {
    expect(live.schema.resources.get("aws_security_group_rule")!.version).toBe(2);
    expect(live.schema.resources.get("aws_ssm_patch_group")!.version).toBe(1);
    ws.write("main.tf", AWS_OFFLINE_HCL); // no resources: the stored ones are orphans planned for deletion, upgraded first
    ws.write(
      "terraform.tfstate",
      JSON.stringify(
        {
          version: 4,
          terraform_version: "1.11.4",
          serial: 1,
          lineage: "6d2a1d1e-0000-4000-8000-000000000001",
          outputs: {},
          resources: STORED.map((r) => ({
            mode: "managed",
            type: r.type,
            name: r.name,
            provider: `provider["${AWS_ADDRESS}"]`,
            instances: [
              { schema_version: r.version, attributes: r.attributes, sensitive_attributes: [] },
            ],
          })),
        },
        null,
        2,
      ),
    );
    await ws.run(["plan", "-refresh=false", "-input=false", "-no-color", "-out=upgrade.tfplan"]);
    const plan = (await ws.json(["show", "-json", "-no-color", "upgrade.tfplan"])) as {
      prior_state?: ShownState;
    };
    const prior = resourcesOf(plan.prior_state);

    for (const r of STORED) {
      const entry = live.schema.resources.get(r.type)!;
      const tf = prior.get(`${r.type}.${r.name}`);
      expect(tf).toBeDefined();
      expect(tf!.schema_version).toBe(entry.version);
      const { upgradedState, warnings } = await live.provider.upgradeResourceState(
        r.type,
        r.version,
        JSON.stringify(r.attributes),
      );
      expect(warnings).toEqual([]);
      const ours = JSON.parse(toJson(upgradedState, entry.type)) as Record<string, unknown>;
      expect(Object.keys(ours).sort()).toEqual(Object.keys(tf!.values).sort());
      for (const name of Object.keys(tf!.values)) {
        expect({ [`${r.name}.${name}`]: ours[name] }).toEqual({
          [`${r.name}.${name}`]: tf!.values[name],
        });
      }
    }
    // What the upgrade did: the key the schema no longer has is gone, missing attributes are null.
    const v0 = prior.get("aws_security_group_rule.v0")!.values;
    expect("legacy_attribute" in v0).toBe(false);
    expect(v0["description"]).toBeNull();
    expect(v0["cidr_blocks"]).toEqual(["10.0.0.0/16"]);
    expect(prior.get("aws_ssm_patch_group.pg")!.values["id"]).toBe("prod,pb-0123456789abcdef0");
  }, 240_000);
});

// The benchmark configurations, written as .tf.json (the same files serve magma and terraform).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonConfig } from "../../hcl/bench/generate-config.mjs";
import { MEMORY_SOURCE, RANDOM_SOURCE } from "./magma-worker.mjs";

const AWS_ENDPOINTS = ["ssm", "sts", "iam"];

function awsProvider(url) {
  return {
    region: "us-east-1",
    access_key: "test",
    secret_key: "test",
    skip_credentials_validation: true,
    skip_requesting_account_id: true,
    skip_metadata_api_check: "true",
    skip_region_validation: true,
    max_retries: 2,
    endpoints: [Object.fromEntries(AWS_ENDPOINTS.map((k) => [k, url]))],
  };
}

function write(dir, doc) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.tf.json"), JSON.stringify(doc, null, 2) + "\n");
}

/**
 * Cases 1–3: `chains` chains of `length` aws_ssm_parameter; each link's value is the
 * previous link's ARN (known only after it is created), so each chain is applied in order.
 */
export function writeSsmChains(
  dir,
  url,
  { chains = 10, length = 10, prefix = "/magma/bench" } = {},
) {
  const params = {};
  for (let c = 0; c < chains; c++) {
    for (let i = 0; i < length; i++) {
      params[`c${c}_${i}`] = {
        name: `${prefix}/c${c}/p${i}`,
        type: "String",
        value: i === 0 ? `chain-${c}` : `\${aws_ssm_parameter.c${c}_${i - 1}.arn}`,
      };
    }
  }
  write(dir, {
    terraform: { required_providers: { aws: { source: "hashicorp/aws", version: "5.100.0" } } },
    provider: { aws: awsProvider(url) },
    resource: { aws_ssm_parameter: params },
  });
  return chains * length;
}

/**
 * Case 4: `total` native random_* instances: a quarter each of random_string (count),
 * random_integer (for_each), random_id (count) and random_uuid (for_each). `source` is the
 * provider's source address (default: the worker's native random provider; the `magma` CLI
 * knows it as `magma/random`).
 */
export function writeRandomScale(dir, total, source = RANDOM_SOURCE) {
  const q = Math.floor(total / 4);
  const keys = (n, p) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${p}${i}`, String(i)]));
  write(dir, {
    terraform: { required_providers: { random: { source, version: "1.0.0" } } },
    locals: { ints: keys(q, "k"), uuids: keys(total - 3 * q, "u") },
    resource: {
      random_string: { s: { count: q, length: 16, special: false } },
      random_integer: {
        n: { for_each: "${local.ints}", min: 1, max: 1000000, seed: "${each.key}" },
      },
      random_id: { id: { count: q, byte_length: 8, keepers: { index: "${count.index}" } } },
      random_uuid: { u: { for_each: "${local.uuids}", keepers: { key: "${each.key}" } } },
    },
  });
}

/** Case 5: `total` memory_item instances of the in-memory provider (count), half referencing the first. */
export function writeMemoryItems(dir, total) {
  write(dir, {
    terraform: { required_providers: { memory: { source: MEMORY_SOURCE, version: "1.0.0" } } },
    resource: {
      memory_item: {
        root: { name: "root", value: "r" },
        item: { count: total - 1, name: "item-${count.index}", value: "${memory_item.root.id}" },
      },
    },
  });
}

/**
 * Case 6: the hcl package's generated configuration of `resources` aws_instance resources
 * (`packages/hcl/bench/generate-config.mjs`), completed so that it is a valid Terraform
 * configuration: the variables, the VPC and subnets it refers to, and the provider.
 */
export function writeGeneratedAws(dir, resources) {
  const doc = JSON.parse(jsonConfig(resources));
  doc.terraform = { required_providers: { aws: { source: "hashicorp/aws", version: "5.100.0" } } };
  doc.provider = { aws: { region: "us-east-1" } };
  doc.variable.ami = { default: "ami-0123456789" };
  doc.variable.zones = { default: ["a", "b"] };
  doc.variable.sgs = { default: ["sg-1", "", "sg-2"] };
  doc.resource.aws_vpc = { main: { cidr_block: "10.0.0.0/16" } };
  doc.resource.aws_subnet = {
    main: {
      count: 8,
      vpc_id: "${aws_vpc.main.id}",
      cidr_block: "${cidrsubnet(aws_vpc.main.cidr_block, 8, count.index)}",
    },
  };
  for (const r of Object.values(doc.resource.aws_instance)) delete r["//"];
  write(dir, doc);
}

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTerraform } from "./binaries.js";
import { TfToJsonError, tfToJson } from "./tf-to-json.js";

/** A configuration with most of what oracle fixtures use, and only terraform's built-in provider. */
const FIXTURE = `
terraform {
  required_version = ">= 1.5"
}

variable "names" {
  type    = list(string)
  default = ["a", "b"]
  validation {
    condition     = length(var.names) > 0
    error_message = "Give at least one name."
  }
}

variable "settings" {
  type = object({ size = number, label = optional(string, "x") })
  default = { size = 2 }
}

locals {
  upper   = [for n in var.names : upper(n)]
  tagged  = { for n in var.names : n => "\${n}-\${var.settings.label}" }
  heredoc = <<-EOT
    one \${var.settings.size}
    two
  EOT
  escaped = "literal $\${not} and %%{nor}"
  quoted  = "say \\"hi\\""
  negative = -3
}

resource "terraform_data" "each" {
  for_each = toset(var.names)
  input    = "\${each.key}:\${join(",", local.upper)}"
  lifecycle {
    ignore_changes = [input]
  }
}

resource "terraform_data" "counted" {
  count      = var.settings.size
  input      = { index = count.index, tags = local.tagged }
  depends_on = [terraform_data.each]
}

moved {
  from = terraform_data.old
  to   = terraform_data.counted
}

check "sizes" {
  assert {
    condition     = length(terraform_data.counted) == var.settings.size
    error_message = "count mismatch"
  }
}

output "all" {
  value = {
    each    = [for k, v in terraform_data.each : v.input]
    counted = terraform_data.counted[*].input
    heredoc = local.heredoc
    escaped = local.escaped
    quoted  = local.quoted
    neg     = local.negative
  }
}
`;

describe("tfToJson", () => {
  test("literals become JSON, expressions templates, meta-arguments bare text", () => {
    const doc = JSON.parse(tfToJson(FIXTURE)) as Record<string, any>;
    expect(doc["variable"]["names"]).toEqual({
      type: "list(string)",
      default: ["a", "b"],
      validation: { condition: "${length(var.names) > 0}", error_message: "Give at least one name." },
    });
    expect(doc["resource"]["terraform_data"]["each"]["lifecycle"]).toEqual({ ignore_changes: ["input"] });
    expect(doc["resource"]["terraform_data"]["counted"]["depends_on"]).toEqual(["terraform_data.each"]);
    expect(doc["resource"]["terraform_data"]["each"]["input"]).toBe('${each.key}:${join(",", local.upper)}');
    expect(doc["moved"]).toEqual({ from: "terraform_data.old", to: "terraform_data.counted" });
    expect(doc["locals"]["escaped"]).toBe("literal $${not} and %%{nor}");
    expect(doc["locals"]["quoted"]).toBe('say "hi"');
    expect(doc["locals"]["negative"]).toBe(-3);
  });

  test("bad native text is a typed error naming the file", () => {
    expect(() => tfToJson('resource "x" {', "bad.tf")).toThrow(TfToJsonError);
    expect(() => tfToJson('resource "x" {', "bad.tf")).toThrow(/\[tf_to_json\] bad\.tf/);
  });

  const tf = findTerraform();
  (tf === undefined ? test.skip : test)(
    "terraform plans the native and the converted configuration identically",
    () => {
      const plans: unknown[] = [];
      for (const [file, text] of [["main.tf", FIXTURE], ["main.tf.json", tfToJson(FIXTURE)]] as const) {
        const dir = mkdtempSync(join(tmpdir(), "magma-tf-to-json-"));
        try {
          writeFileSync(join(dir, file), text);
          const env = { ...process.env, TF_CLI_CONFIG_FILE: join(dir, "none.tfrc"), CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
          execFileSync(tf!, ["init", "-no-color", "-input=false"], { cwd: dir, env, stdio: "pipe" });
          execFileSync(tf!, ["plan", "-no-color", "-input=false", "-out=p"], { cwd: dir, env, stdio: "pipe" });
          const doc = JSON.parse(execFileSync(tf!, ["show", "-json", "p"], { cwd: dir, env, encoding: "utf8" })) as Record<string, unknown>;
          plans.push({ resource_changes: doc["resource_changes"], output_changes: doc["output_changes"], checks: doc["checks"], variables: doc["variables"] });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      expect(plans[1]).toEqual(plans[0]);
      expect(JSON.stringify(plans[0])).toContain("one 2\\ntwo\\n");
    },
    120_000,
  );
});

// A root output reading a sensitive value without `sensitive = true`, against terraform
// 1.11.4 on the same files, in native and JSON syntax. When the value is sensitive only once
// planned (a provider's sensitive attribute, marked even while unknown), terraform's plan walk
// fails on "Output refers to sensitive values" and still shows what it planned ("Terraform
// planned the following actions, but then encountered a problem:", the other outputs'
// changes; with -json the planned_change, change_summary and outputs messages before the
// diagnostic); apply stops there too. When terraform's validation already sees the mark (a
// sensitive variable), nothing is shown but the error. plan, plan -json and apply compared:
// exit code, stdout, stderr. Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { initialisedPair, runPair, stableText } from "./support/lang-pair.js";
import { stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const PROVIDER = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
`;

const CASES: Readonly<Record<string, string>> = {
  // sensitive once planned: random_password.result (a sensitive attribute of the provider's schema)
  planned: `${PROVIDER}resource "random_password" "p" {
  length = 8
}
resource "terraform_data" "b" {
  input = "y"
}
output "first" {
  value = terraform_data.b.output
}
output "bad" {
  value = random_password.p.result
}
output "z" {
  value = "plain"
}
`,
  // sensitive in terraform's validation already: a sensitive variable
  validated: `variable "pw" {
  default   = "secret"
  sensitive = true
}
resource "terraform_data" "a" {
  input = "x"
}
output "first" {
  value = terraform_data.a.output
}
output "bad" {
  value = var.pw
}
`,
};

const COMMANDS = [["plan"], ["plan", "-json"], ["apply", "-auto-approve"]] as const;

/**
 * A -json stream with its timestamps blanked and its planned_change messages sorted (terraform
 * sends them in the order its walk planned the objects, which here depends on how fast each
 * provider answers).
 */
function jsonLines(text: string): unknown[] {
  const lines = text.split("\n").filter((l) => l !== "");
  const planned = lines.filter((l) => l.includes('"type":"planned_change"')).sort();
  return lines.map((l) => (l.includes('"type":"planned_change"') ? planned.shift()! : l)).map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), "@timestamp": "T" }));
}

const runs = new Map<string, [ToolRun, ToolRun][]>();

(TERRAFORM !== undefined ? describe : describe.skip)("a root output reading a sensitive value beside terraform's", () => {
  beforeAll(async () => {
    await Promise.all(
      Object.entries(CASES).flatMap(([name, tf]) =>
        (["native", "json"] as const).map(async (syntax) => {
          const pair = await initialisedPair(syntax === "native" ? { "main.tf": tf } : { "main.tf.json": tfToJson(tf) });
          runs.set(`${name} ${syntax}`, await runPair(pair, COMMANDS));
        }),
      ),
    );
  }, 600_000);

  test.each(Object.keys(CASES).flatMap((name) => [`${name} native`, `${name} json`]))("%s: plan, plan -json, apply", (key) => {
    const [[planO, planT], [jsonO, jsonT], [applyO, applyT]] = runs.get(key)! as [[ToolRun, ToolRun], [ToolRun, ToolRun], [ToolRun, ToolRun]];
    for (const [o, t] of [
      [planO, planT],
      [applyO, applyT],
    ] as const) {
      expect({ code: o.code, stdout: stableText(o.stdout), stderr: o.stderr }).toEqual({ code: t.code, stdout: stableText(t.stdout), stderr: t.stderr });
    }
    expect({ code: jsonO.code, stdout: jsonLines(jsonO.stdout), stderr: jsonO.stderr }).toEqual({ code: jsonT.code, stdout: jsonLines(jsonT.stdout), stderr: jsonT.stderr });
    for (const t of [planT, jsonT, applyT]) expect(t.code).toBe(1);
    if (key.startsWith("planned")) {
      expect(planT.stdout).toContain("Terraform planned the following actions, but then encountered a problem:");
      expect(planT.stdout).toContain("Changes to Outputs:\n  + first = (known after apply)\n");
      expect(jsonT.stdout).toContain('"type":"outputs"');
    } else {
      expect(planT.stdout).toBe("");
    }
    expect(planT.stderr).toContain("Error: Output refers to sensitive values");
  });
});

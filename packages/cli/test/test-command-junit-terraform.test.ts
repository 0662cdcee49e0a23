// `magma test -junit-xml=FILE` against `terraform test -junit-xml=FILE` 1.11.4 on the same
// directory: the XML files byte for byte with the `time` and `timestamp` attributes masked
// (they are the runs' durations and start times), and the console output. One directory, on
// magma's random provider (test/testdata/random-provider.mjs): a passing run with a warning
// (system-err), a run in error and the run it skips, a failed assertion whose message holds
// characters XML escapes and a `]]>` (split across CDATA sections), with a warning too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const FILES: Readonly<Record<string, string>> = {
  "main.tf": `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}

variable "n" {
  type    = number
  default = 3
}

resource "random_string" "s" {
  length  = var.n
  special = false
}

resource "random_integer" "i" {
  min = 1
  max = 5
}

output "result" {
  value = random_string.s.result
}

output "int" {
  value = random_integer.i.result
}
`,
  "a.tftest.hcl": `run "warns" {
  variables {
    undeclared = 1
  }
  assert {
    condition     = random_string.s.length == 3
    error_message = "len"
  }
}

run "errs" {
  assert {
    condition     = random_string.nope.length == 3
    error_message = "x < y & \\"z\\""
  }
}

run "skipped" {}
`,
  "b.tftest.hcl": `run "fails_with_warning" {
  variables {
    extra = "e"
  }
  assert {
    condition     = random_string.s.length == 4
    error_message = "length <is> \${random_string.s.length} ]]> end"
  }
}
`,
};

function masked(xml: string): string {
  return xml.replace(/ time="[^"]*"/g, ' time="T"').replace(/ timestamp="[^"]*"/g, ' timestamp="TS"');
}

(TERRAFORM !== undefined ? describe : describe.skip)("magma test -junit-xml against terraform test", () => {
  test("pass with a warning, error, skip, failure: the same XML (times masked) and output", async () => {
    const cliConfig = testProvidersCliConfig({ random: "random-provider.mjs" });
    const theirs = workdir(FILES);
    const ours = workdir(FILES);
    await terraformAsync(["init", "-no-color", "-input=false"], theirs, { env: { TF_CLI_CONFIG_FILE: cliConfig } });
    const [t, m]: ToolRun[] = await Promise.all([
      runTool("terraform", ["test", "-no-color", "-junit-xml=report.xml"], theirs, { TF_CLI_CONFIG_FILE: cliConfig }),
      runTool("magma", ["test", "-no-color", "-junit-xml=report.xml"], ours, {}),
    ]);
    expect({ code: m!.code, stdout: m!.stdout, stderr: m!.stderr }).toEqual({ code: t!.code, stdout: t!.stdout, stderr: t!.stderr });
    const theirXml = readFileSync(join(theirs, "report.xml"), "utf8");
    const ourXml = readFileSync(join(ours, "report.xml"), "utf8");
    expect(masked(ourXml)).toEqual(masked(theirXml));
    // What the comparison covers, and the masked attributes' shape.
    expect(theirXml).toContain('<skipped message="Testcase skipped due to a previous testcase error">');
    expect(theirXml).toContain("]]]]><![CDATA[>");
    expect(ourXml).toMatch(/<testcase name="warns" classname="a.tftest.hcl" time="\d+(\.\d+)?" timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">/);
  }, 600_000);
});

// Multi-line strings and collection changes in the human plan and in `show`, against
// terraform 1.11.4 on the same files, in native and JSON syntax: multi-line strings as
// `<<-EOT` heredocs (created, deleted, unchanged list elements, changed line by line, to
// null in a map, to unknown), map keys aligned on every key (the hidden and the sensitive
// ones too), an object's hidden count naming attributes, lists of unequal lengths as
// removals and additions, an output set to null as a delete; `show` printing outputs with
// terraform's renderer (four spaces per level, heredocs). Plan and show stdout byte for
// byte (the provider's ids blanked). Skipped without terraform.
import { initialisedPair, pairCliConfig, runPair, stableText } from "./support/lang-pair.js";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const TEXTS = { "1": "  a\nb\nc\n\n", "2": "a\nc\nd\ne" };

const NATIVE = `terraform {
  required_providers {
    blocks = { source = "magma/blocks" }
  }
}
variable "v" {
  default = 1
}
variable "s" {
  default   = "x"
  sensitive = true
}
locals {
  texts = ${JSON.stringify(TEXTS)}
}
resource "blocks_thing" "t" {
  name = "t"
  labels = {
    text             = local.texts[var.v]
    gone             = var.v == 1 ? "x\\ny" : null
    single           = var.v == 1 ? "one line" : "two\\nlines"
    a_much_longer_key = "same"
    k                = var.s
  }
}
resource "blocks_thing" "u" {
  count = var.v == 2 ? 1 : 0
  name  = "u"
}
output "text" {
  value = local.texts[var.v]
}
output "list" {
  value = var.v == 1 ? ["p", "q\\nr"] : ["p", "s\\nt", "u"]
}
output "gone" {
  value = var.v == 1 ? "x\\ny" : null
}
output "unknown" {
  value = try(blocks_thing.u[0].id, "x\\ny")
}
output "object" {
  value = { a = var.v, longer_name = "same", m = "l1\\n\${var.v}" }
}
`;

const JSON_CONFIG = JSON.stringify({
  terraform: { required_providers: { blocks: { source: "magma/blocks" } } },
  variable: { v: { default: 1 }, s: { default: "x", sensitive: true } },
  locals: { texts: TEXTS },
  resource: {
    blocks_thing: {
      t: {
        name: "t",
        labels: {
          text: "${local.texts[var.v]}",
          gone: '${var.v == 1 ? "x\\ny" : null}',
          single: '${var.v == 1 ? "one line" : "two\\nlines"}',
          a_much_longer_key: "same",
          k: "${var.s}",
        },
      },
      u: { count: "${var.v == 2 ? 1 : 0}", name: "u" },
    },
  },
  output: {
    text: { value: "${local.texts[var.v]}" },
    list: { value: '${var.v == 1 ? ["p", "q\\nr"] : ["p", "s\\nt", "u"]}' },
    gone: { value: '${var.v == 1 ? "x\\ny" : null}' },
    unknown: { value: '${try(blocks_thing.u[0].id, "x\\ny")}' },
    object: { value: { a: "${var.v}", longer_name: "same", m: "l1\n${var.v}" } },
  },
});

/** {@link stableText} with the provider's ids blanked where the plan shows them. */
const blanked = (s: string): string => stableText(s).replace(/id(\s+)= "[^"]*"/g, 'id$1= "ID"');

/** Applies, plans the changes, applies them and shows the state, in both tools; the runs by command (magma's first). */
async function runs(files: Readonly<Record<string, string>>): Promise<[ToolRun, ToolRun][]> {
  const pair = await initialisedPair(files);
  const out = await runPair(pair, [["apply", "-auto-approve"], ["plan", "-var", "v=2"], ["apply", "-auto-approve", "-var", "v=2"]]);
  // show takes no -input.
  out.push(await Promise.all([runTool("magma", ["show", "-no-color"], pair[0], {}), runTool("terraform", ["show", "-no-color"], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() })]));
  return out;
}

(TERRAFORM !== undefined ? describe : describe.skip)("multi-line strings and collection changes, against terraform's rendering", () => {
  test("native and JSON syntax: apply, plan of the changes, apply, show", async () => {
    const commands = ["apply", "plan -var v=2", "apply -var v=2", "show"];
    // Both syntaxes at once (each tool's steps in order).
    for (const [syntax, result] of await Promise.all([runs({ "main.tf": NATIVE }), runs({ "main.tf.json": JSON_CONFIG })].map(async (r, i) => [i === 0 ? "native" : "JSON", await r] as const))) {
      result.forEach(([ours, theirs], i) => {
        const command = `${syntax}: ${commands[i]!}`;
        expect({ command, code: ours.code, stdout: blanked(ours.stdout), stderr: ours.stderr }).toEqual({ command, code: theirs.code, stdout: blanked(theirs.stdout), stderr: theirs.stderr });
      });
      // The heredocs are there (not a comparison of two empty outputs).
      expect(result[1]![0].stdout).toContain("<<-EOT");
      expect(result[3]![0].stdout).toContain("text = <<-EOT");
    }
  }, 300_000);
});

// Override files (`override.tf`, `*_override.tf`, and their `.tf.json` forms) against
// terraform 1.11.4 on the same files, in both syntaxes: an override block sets only what it
// changes (every argument optional, Terraform's `schemaForOverrides`), its arguments replace
// the base's by name, and its nested blocks — static or `dynamic` — replace all the base's
// blocks of that type; variables, locals and outputs too. Plan, apply, state and the next
// plan ("No changes."). Skipped without terraform.
import { initialisedPair, expectSameRuns, runPair, stableState } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const PROVIDERS = `terraform {
  required_providers {
    random = { source = "magma/random" }
    blocks = { source = "magma/blocks" }
  }
}
`;

/** The base configuration, native syntax. */
const BASE_TF = `${PROVIDERS}variable "v" {
  type    = string
  default = "base"
}
locals {
  l = "base-local"
}
resource "random_string" "b" {
  length = 3
}
resource "blocks_thing" "t" {
  name = "t"
  note = "base-note"
  step {
    cmd = "base1"
  }
  dynamic "many" {
    for_each = ["d1"]
    content {
      v = many.value
    }
  }
  many {
    v = "s1"
  }
  one {
    a = "base-a"
  }
}
output "o" {
  value       = "\${var.v}-\${local.l}"
  description = "base"
}
`;

/** The base configuration, JSON syntax. */
const BASE_JSON = JSON.stringify({
  terraform: { required_providers: { random: { source: "magma/random" }, blocks: { source: "magma/blocks" } } },
  variable: { v: { type: "string", default: "base" } },
  locals: { l: "base-local" },
  resource: {
    random_string: { b: { length: 3 } },
    blocks_thing: {
      t: {
        name: "t",
        note: "base-note",
        step: [{ cmd: "base1" }],
        dynamic: { many: { for_each: '${["d1"]}', content: { v: "${many.value}" } } },
        many: [{ v: "s1" }],
        one: { a: "base-a" },
      },
    },
  },
  output: { o: { value: "${var.v}-${local.l}", description: "base" } },
});

/** An override file in native syntax: a required argument left out, a dynamic block replacing static ones. */
const OVERRIDE_TF = `resource "random_string" "b" {
  special = false
}
resource "blocks_thing" "t" {
  note = "over-note"
  dynamic "step" {
    for_each = ["o1", "o2"]
    content {
      cmd = step.value
    }
  }
}
output "o" {
  description = "over"
}
`;

/** An override file in JSON syntax: variables, locals, a resource argument and a nested block. */
const OVERRIDE_JSON = JSON.stringify({
  variable: { v: { default: "json-over" } },
  locals: { l: "json-local" },
  resource: { random_string: { b: { upper: false } }, blocks_thing: { t: { one: { b: "over-b" } } } },
});

/** The same overrides the other way round: a JSON override with what OVERRIDE_TF does, a native one with OVERRIDE_JSON's. */
const OVERRIDE_JSON_2 = JSON.stringify({
  resource: {
    random_string: { b: { special: false } },
    blocks_thing: { t: { note: "over-note", dynamic: { step: { for_each: '${["o1", "o2"]}', content: { cmd: "${step.value}" } } } } },
  },
  output: { o: { description: "over" } },
});
const OVERRIDE_TF_2 = `variable "v" {
  default = "json-over"
}
locals {
  l = "json-local"
}
resource "random_string" "b" {
  upper = false
}
resource "blocks_thing" "t" {
  one {
    b = "over-b"
  }
}
`;

const COMMANDS = [["plan"], ["apply", "-auto-approve"], ["plan", "-detailed-exitcode"]] as const;

(TERRAFORM !== undefined ? describe : describe.skip)("override files, against terraform's", () => {
  test.each([
    ["native base, native and JSON overrides", { "main.tf": BASE_TF, "override.tf": OVERRIDE_TF, "z_override.tf.json": OVERRIDE_JSON }],
    ["JSON base, JSON and native overrides", { "main.tf.json": BASE_JSON, "override.tf.json": OVERRIDE_JSON_2, "z_override.tf": OVERRIDE_TF_2 }],
  ])("%s: merged as terraform merges them; plan, apply, state and a clean re-plan", async (_name, files) => {
    const pair = await initialisedPair(files);
    const runs = await runPair(pair, COMMANDS);
    expectSameRuns(runs, COMMANDS);
    expect(runs[0]![0].stdout).toContain('      + note = "over-note"\n');
    expect(runs[0]![0].stdout).toContain("  + o = \"json-over-json-local\"\n");
    expect(runs[2]![0].code).toBe(0);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
  }, 600_000);
});

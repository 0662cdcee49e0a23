/**
 * The minimal reproductions of differences the differential test found (docs/compatibility.md,
 * "Differential testing", the numbered list), each kept as a regression case once fixed: a few
 * steps of native configuration (converted to JSON by test-support's tfToJson for the JSON
 * run) applied in turn by terraform and by magma with the testbed provider, and what
 * terraform's observations must show for the case to exercise its construct at all. The cases
 * run side by side in one root module (as the generator's sibling stacks), so each names its
 * objects with its own prefix (`cN_`) and its files `cN.tf`; a case with fewer steps keeps its
 * last configuration.
 */
import type { StepObservation } from "../src/index.js";

/** One regression case. */
export interface RegressionCase {
  /** The number of the difference in docs/compatibility.md and a few words. */
  readonly name: string;
  /** Each step's files (native syntax), relative to the root module (`cN.tf`, modules under `modules/cN_…/`). */
  readonly steps: readonly Readonly<Record<string, string>>[];
  /** Run in a root module of its own (what it tests needs a state without the other cases' objects). */
  readonly alone?: boolean;
  /** What terraform's observations of the steps must show (the case tests its construct), as a message when they do not. */
  readonly exercised: (terraform: readonly StepObservation[]) => string | undefined;
}

/** The root module's provider requirements and configuration (`root.tf`). */
export const ROOT_HEADER = `terraform {
  required_providers {
    testbed = { source = "magma/testbed" }
  }
}

provider "testbed" {}
`;

type Json = Record<string, unknown>;

/** A module with one testbed_value fed by its input. */
const MODULE_WITH_VALUE = `terraform {
  required_providers {
    testbed = { source = "magma/testbed" }
  }
}

variable "in" {
  type = string
}

resource "testbed_value" "v" {
  input = var.in
}

output "out" {
  value = testbed_value.v.output
}
`;

/** A module with one testbed_value fed by its input and a testbed_lookup data source reading it. */
const MODULE_WITH_DATA = `${MODULE_WITH_VALUE}
data "testbed_lookup" "d" {
  key   = testbed_value.v.output
  width = 1
}
`;

const planJson = (o: StepObservation | undefined): Json => (typeof o?.planJson === "object" && o.planJson !== null ? (o.planJson as Json) : {});
const state = (o: StepObservation | undefined): Json => (typeof o?.state === "object" && o.state !== null ? (o.state as Json) : {});
const json = (v: unknown): string => JSON.stringify(v) ?? "undefined";

/** The cases, in the order of docs/compatibility.md's list. */
export const REGRESSION_CASES: readonly RegressionCase[] = [
  {
    name: "1: optional attributes of nested attribute types may be left out",
    steps: [
      {
        "c1.tf": `resource "testbed_thing" "c1_a" {
  name      = "a"
  props     = { color = "red" }
  endpoints = [for p in [22, 80] : { host = "h\${p}", port = p }]
  members   = [{ user = "alpha" }]
  named     = { a = { value = "x" } }
}
`,
      },
      {
        "c1.tf": `resource "testbed_thing" "c1_a" {
  name      = "a"
  props     = { color = "blue", weight = 3 }
  endpoints = [{ host = "h", port = 1 }]
  members   = []
  named     = { b = { value = "y" } }
}
`,
      },
    ],
    exercised: (tf) => {
      const r = (state(tf[0])["resources"] as Json | undefined)?.["testbed_thing.c1_a"] as { instances?: { attributes?: Json }[] } | undefined;
      const props = r?.instances?.[0]?.attributes?.["props"];
      return json(props) === json({ color: "red", weight: 10 }) ? undefined : `terraform's first state has props ${json(props)}`;
    },
  },
  {
    name: "3: a plan that only reads a data source with a sensitive attribute (show -json, state)",
    // Alone: the bug was a plan reading a provider's data sources with no object of that provider in state.
    alone: true,
    steps: [{ "c3.tf": `data "testbed_lookup" "c3_d" {\n  key = "k"\n}\n` }],
    exercised: (tf) => {
      const r = (state(tf[0])["resources"] as Json | undefined)?.["data.testbed_lookup.c3_d"] as { instances?: { sensitive_attributes?: unknown }[] } | undefined;
      const sa = r?.instances?.[0]?.sensitive_attributes;
      return json(sa) === json([[{ type: "get_attr", value: "secret" }]]) && planJson(tf[0])["errored"] === false ? undefined : `terraform's state has sensitive_attributes ${json(sa)}`;
    },
  },
  {
    name: "15: removed { destroy = false }: the warning, the forget's action_reason, no refresh, no apply hooks",
    steps: [
      { "c15.tf": `resource "testbed_value" "c15_v" {\n  input = "x"\n}\n` },
      {
        "c15.tf": `removed {
  from = testbed_value.c15_v
  lifecycle {
    destroy = false
  }
}
`,
      },
    ],
    exercised: (tf) => {
      const rc = (planJson(tf[1])["resource_changes"] as Json | undefined)?.["testbed_value.c15_v"] as Json | undefined;
      const warned = tf[1]?.plan.diagnostics.includes("Warning: Some objects will no longer be managed by Terraform") === true;
      return warned && json((rc?.["change"] as Json | undefined)?.["actions"]) === json(["forget"]) ? undefined : `terraform's second plan: ${json(rc)}, warned ${String(warned)}`;
    },
  },
  {
    name: "18 (found this session): moved blocks between whole module calls with for_each and count keep the instance keys",
    steps: [
      {
        "c18.tf": `module "c18_a" {
  source   = "./modules/c18_m"
  for_each = toset(["x", "y"])
  in       = each.key
}

module "c18_c" {
  source = "./modules/c18_m"
  count  = 2
  in     = "c\${count.index}"
}
`,
        "modules/c18_m/main.tf": MODULE_WITH_VALUE,
      },
      {
        "c18.tf": `module "c18_b" {
  source   = "./modules/c18_m"
  for_each = toset(["x", "y"])
  in       = each.key
}

moved {
  from = module.c18_a
  to   = module.c18_b
}

module "c18_d" {
  source = "./modules/c18_m"
  count  = 2
  in     = "c\${count.index}"
}

moved {
  from = module.c18_c
  to   = module.c18_d
}
`,
        "modules/c18_m/main.tf": MODULE_WITH_VALUE,
      },
    ],
    exercised: (tf) => {
      const rc = (planJson(tf[1])["resource_changes"] ?? {}) as Record<string, Json>;
      const moved = Object.values(rc).filter((c) => typeof c["previous_address"] === "string" && String(c["previous_address"]).startsWith("module.c18_")).length;
      return moved === 4 ? undefined : `terraform's second plan moved ${moved} instances of module.c18_a/c18_c, not 4`;
    },
  },
  {
    name: "14: an output whose sensitive = true is removed: the change stays sensitive in show -json",
    steps: [
      {
        "c14.tf": `resource "testbed_value" "c14_v" {
  input = "x"
}

output "c14_o" {
  value     = provider::testbed::digest(testbed_value.c14_v.output)
  sensitive = true
}
`,
      },
      {
        "c14.tf": `resource "testbed_value" "c14_v" {
  input = "x"
}

output "c14_o" {
  value = provider::testbed::digest(testbed_value.c14_v.output)
}
`,
      },
    ],
    exercised: (tf) => {
      const oc = (planJson(tf[1])["output_changes"] as Json | undefined)?.["c14_o"] as Json | undefined;
      return oc?.["before_sensitive"] === true && oc["after_sensitive"] === true ? undefined : `terraform's second plan: ${json(oc)}`;
    },
  },
  {
    name: "10: implied moves between [0] and the no-key instance (count = 1 removed, then back; a module call's instances are not moved)",
    steps: [
      {
        "c10.tf": `resource "testbed_value" "c10_v" {
  count = 1
  input = "x"
}

module "c10_m" {
  source = "./modules/c10_m"
  count  = 1
  in     = "m"
}
`,
        "modules/c10_m/main.tf": MODULE_WITH_VALUE,
      },
      {
        "c10.tf": `resource "testbed_value" "c10_v" {
  input = "x"
}

module "c10_m" {
  source = "./modules/c10_m"
  in     = "m"
}
`,
        "modules/c10_m/main.tf": MODULE_WITH_VALUE,
      },
      {
        "c10.tf": `resource "testbed_value" "c10_v" {
  count = 1
  input = "x"
}

module "c10_m" {
  source = "./modules/c10_m"
  count  = 1
  in     = "m"
}
`,
        "modules/c10_m/main.tf": MODULE_WITH_VALUE,
      },
    ],
    exercised: (tf) => {
      const rc = (o: StepObservation | undefined, a: string): Json => ((planJson(o)["resource_changes"] ?? {}) as Record<string, Json>)[a] ?? {};
      const there = rc(tf[1], "testbed_value.c10_v");
      const back = rc(tf[2], "testbed_value.c10_v[0]");
      const module = rc(tf[1], "module.c10_m[0].testbed_value.v");
      const ok = there["previous_address"] === "testbed_value.c10_v[0]" && back["previous_address"] === "testbed_value.c10_v" && json((module["change"] as Json | undefined)?.["actions"]) === json(["delete"]);
      return ok ? undefined : `terraform's plans: ${json(there)}, ${json(back)}, ${json(module)}`;
    },
  },
  {
    name: "19: data source instances the configuration no longer has leave the state (module call count = 2 to for_each, a module call moved, a data count shrunk, a data source removed)",
    steps: [
      {
        "c19.tf": `module "c19_m" {
  source = "./modules/c19_m"
  count  = 2
  in     = "i\${count.index}"
}

data "testbed_lookup" "c19_c" {
  count = 2
  key   = "k\${count.index}"
}

data "testbed_lookup" "c19_e" {
  key = "e"
}

module "c19_n" {
  source = "./modules/c19_m"
  in     = "n"
}
`,
        "modules/c19_m/main.tf": MODULE_WITH_DATA,
      },
      {
        "c19.tf": `module "c19_m" {
  source   = "./modules/c19_m"
  for_each = toset(["a", "d"])
  in       = each.key
}

data "testbed_lookup" "c19_c" {
  count = 1
  key   = "k\${count.index}"
}

module "c19_o" {
  source = "./modules/c19_m"
  in     = "n"
}

moved {
  from = module.c19_n
  to   = module.c19_o
}
`,
        "modules/c19_m/main.tf": MODULE_WITH_DATA,
      },
    ],
    exercised: (tf) => {
      const before = Object.keys((state(tf[0])["resources"] ?? {}) as Json).filter((k) => k.includes("c19_"));
      const after = Object.keys((state(tf[1])["resources"] ?? {}) as Json).filter((k) => k.includes("c19_"));
      const gone = ["module.c19_m[0].data.testbed_lookup.d", "module.c19_m[1].data.testbed_lookup.d", "data.testbed_lookup.c19_e", "module.c19_n.data.testbed_lookup.d"];
      return gone.every((k) => before.includes(k) && !after.includes(k)) ? undefined : `terraform's states: ${json(before)} then ${json(after)}`;
    },
  },
  {
    name: "20 (found this session, seed 7 stack 11): a write-only attribute's apply-time evaluation sees a resource with no instances as empty, not unknown",
    steps: [
      {
        "c20.tf": `resource "testbed_value" "c20_e" {
  for_each = toset([])
  input    = "x"
}

resource "testbed_value" "c20_c" {
  count = 0
  input = "y"
}

resource "testbed_value" "c20_v" {
  input     = "\${join(",", [for k, v in testbed_value.c20_e : v.output])}-\${length(testbed_value.c20_c)}"
  secret_wo = "delta"
}
`,
      },
    ],
    exercised: (tf) => {
      const r = (state(tf[0])["resources"] as Json | undefined)?.["testbed_value.c20_v"] as { instances?: { attributes?: Json }[] } | undefined;
      const input = r?.instances?.[0]?.attributes?.["input"];
      return input === "-0" && tf[0]?.apply?.code === 0 ? undefined : `terraform's state has input ${json(input)}`;
    },
  },
  {
    name: "21 (found in session 15, seed 101 stack 4): create_before_destroy forced by a dependent is cleared from state when the dependent goes (destroyed or forgotten) and set when one comes",
    steps: [
      {
        "c21.tf": `resource "testbed_value" "c21_a" {
  input = "a"
}

resource "testbed_value" "c21_b" {
  input = testbed_value.c21_a.token
  lifecycle {
    create_before_destroy = true
  }
}

resource "testbed_value" "c21_e" {
  input = "e"
}

resource "testbed_value" "c21_f" {
  input = testbed_value.c21_e.token
  lifecycle {
    create_before_destroy = true
  }
}

resource "testbed_value" "c21_c" {
  input = "c"
}
`,
      },
      {
        "c21.tf": `resource "testbed_value" "c21_a" {
  input = "a"
}

resource "testbed_value" "c21_e" {
  input = "e"
}

removed {
  from = testbed_value.c21_f
  lifecycle {
    destroy = false
  }
}

resource "testbed_value" "c21_c" {
  input = "c"
}

resource "testbed_value" "c21_d" {
  input = testbed_value.c21_c.token
  lifecycle {
    create_before_destroy = true
  }
}
`,
      },
    ],
    exercised: (tf) => {
      const cbd = (o: StepObservation | undefined, name: string): unknown => ((state(o)["resources"] as Json | undefined)?.[`testbed_value.${name}`] as { instances?: Json[] } | undefined)?.instances?.[0]?.["create_before_destroy"];
      const seen = [cbd(tf[0], "c21_a"), cbd(tf[0], "c21_e"), cbd(tf[0], "c21_c"), cbd(tf[1], "c21_a"), cbd(tf[1], "c21_e"), cbd(tf[1], "c21_c")];
      return json(seen) === json([true, true, undefined, undefined, undefined, true]) ? undefined : `terraform's create_before_destroy of a, e, c: ${json(seen)}`;
    },
  },
  {
    name: "22 (found in session 15, seed 101 stack 20): an object imported with no change has no create_before_destroy in state, though its configuration asks for it; the next plan sets it",
    steps: [
      {
        "c22.tf": `resource "testbed_value" "c22_v" {
  input = "c22"
  lifecycle {
    create_before_destroy = true
  }
}

import {
  to = testbed_value.c22_v
  id = "c22"
}
`,
      },
      {
        "c22.tf": `resource "testbed_value" "c22_v" {
  input = "c22"
  lifecycle {
    create_before_destroy = true
  }
}
`,
      },
    ],
    exercised: (tf) => {
      const cbd = (o: StepObservation | undefined): unknown => ((state(o)["resources"] as Json | undefined)?.["testbed_value.c22_v"] as { instances?: Json[] } | undefined)?.instances?.[0]?.["create_before_destroy"];
      const change = ((planJson(tf[0])["resource_changes"] ?? {}) as Record<string, Json>)["testbed_value.c22_v"]?.["change"] as Json | undefined;
      const imported = change?.["importing"] !== undefined;
      return imported && cbd(tf[0]) === undefined && cbd(tf[1]) === true ? undefined : `terraform: imported ${imported}, create_before_destroy ${json(cbd(tf[0]))} then ${json(cbd(tf[1]))}`;
    },
  },
];

// How plans render nested attribute types (protocol 6: single, list, set and map nesting,
// objects with an optional+computed `arn`), against terraform 1.11.4 on the same files, in
// native and JSON syntax, with test/testdata/nested-provider.mjs: created (a map's object
// elements end in "},"), updated (elements and attributes going to null shown as
// `- arn = "X" -> null`, lists compared by index and sets by equal elements, the unchanged
// counted), an optional+computed object becoming unknown (each attribute
// `"X" -> (known after apply)`), removed (`} -> null`, `] -> null`) and destroyed. apply, plan
// and plan -destroy compared: exit code, stdout, stderr. Then, the provider failing every state
// upgrade: terraform's error in each resource's block and no "Refreshing state..." line.
// Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { expectSameRuns, initialisedPair, runPair, type Pair } from "./support/lang-pair.js";
import { stopToolRuns, testProvidersCliConfig, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const PROVIDER = `terraform {
  required_providers {
    nested = { source = "magma/nested" }
  }
}
`;

const BEFORE = `${PROVIDER}resource "nested_thing" "a" {
  name  = "a"
  one   = { v = "a" }
  oc    = { v = "c", arn = "given" }
  many  = [{ v = "x" }, { v = "y" }]
  set   = [{ v = "s1" }, { v = "s2" }]
  keyed = { k1 = { v = "m1" }, k2 = { v = "m2" } }
}
resource "nested_thing" "b" {
  name = "b"
  one  = { v = "b" }
  many = [{ v = "x" }]
}
`;

const AFTER = `${PROVIDER}resource "nested_thing" "a" {
  name  = "a"
  one   = { v = null }
  many  = [{ v = "x" }]
  set   = [{ v = "s1" }]
  keyed = { k1 = { v = "m1" } }
}
resource "nested_thing" "b" {
  name = "b"
}
`;

const COMMANDS = [["apply", "-auto-approve"]] as const;
const THEN = [["plan"], ["plan", "-destroy"]] as const;

const runs = new Map<string, [ToolRun, ToolRun][]>();
const pairs = new Map<string, Pair>();
const failed = new Map<string, [ToolRun, ToolRun]>();

(TERRAFORM !== undefined ? describe : describe.skip)("plans of nested attribute types beside terraform's", () => {
  beforeAll(async () => {
    const cliConfig = testProvidersCliConfig({ nested: "nested-provider.mjs" });
    await Promise.all(
      (["native", "json"] as const).map(async (syntax) => {
        const name = syntax === "native" ? "main.tf" : "main.tf.json";
        const text = (tf: string): string => (syntax === "native" ? tf : tfToJson(tf));
        const pair = await initialisedPair({ [name]: text(BEFORE) }, cliConfig);
        const first = await runPair(pair, COMMANDS, cliConfig);
        for (const d of pair) writeFileSync(join(d, name), text(AFTER));
        runs.set(syntax, [...first, ...(await runPair(pair, THEN, cliConfig))]);
        pairs.set(syntax, pair);
      }),
    );
    // then with the provider failing every state upgrade (both tools' provider processes inherit this environment)
    process.env["NESTED_FAIL_UPGRADE"] = "1";
    try {
      for (const [syntax, pair] of pairs) failed.set(syntax, (await runPair(pair, [["plan"]], cliConfig))[0]!);
    } finally {
      delete process.env["NESTED_FAIL_UPGRADE"];
    }
  }, 600_000);

  test.each(["native", "json"])("%s syntax: a failed state upgrade is an error in each resource's block, with no refresh shown", (syntax) => {
    const [o, t] = failed.get(syntax)!;
    // (In JSON syntax the error is placed at the object's closing brace: HCL's JSON MissingItemRange.)
    const [ours, theirs] = [o, t];
    expectSameRuns([[ours, theirs]], [["plan"]]);
    expect(theirs.code).toBe(1);
    expect(theirs.stdout).not.toContain("Refreshing state");
    expect(theirs.stderr).toContain('Error: Provider error\n\n  with nested_thing.a,\n  on main.tf');
  });

  test.each(["native", "json"])("%s syntax: apply (create), plan (to null, to unknown), plan -destroy", (syntax) => {
    const all = runs.get(syntax)!;
    expectSameRuns(all, [...COMMANDS, ...THEN]);
    const [apply, plan, destroy] = all.map(([, t]) => t);
    for (const t of [apply!, plan!, destroy!]) expect(t.code).toBe(0);
    expect(apply!.stdout).toContain('          + "k1" = {\n              + arn = (known after apply)\n              + v   = "m1"\n            },\n');
    expect(plan!.stdout).toContain('          - "k2" = {\n              - arn = "arn:m2" -> null\n              - v   = "m2" -> null\n            },\n            # (1 unchanged element hidden)\n');
    expect(plan!.stdout).toContain('      ~ oc    = {\n          ~ arn = "given" -> (known after apply)\n          ~ v   = "c" -> (known after apply)\n        } -> (known after apply)\n');
    expect(destroy!.stdout).toContain('      - one   = {\n          - arn = "arn:a" -> null\n          - v   = "a" -> null\n        } -> null\n');
  });
});

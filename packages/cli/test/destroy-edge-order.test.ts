// What a destroyed object depended on is updated after the destroy, as terraform 1.11.4's apply
// graph orders it (its DestroyEdgeTransformer): `b` (removed from the configuration) was
// stored as depending on `a`, and `a` is updated in the same apply — terraform destroys `b`
// first, then modifies `a`; when `b` was created with `create_before_destroy`, the edge is
// reversed (CBDEdgeTransformer): `a` is modified first. Against terraform on the same files,
// native and JSON syntax, the apply's output from the plan's summary on compared line for line
// in order (each step waits for the other, so the order is fixed), and the states. Skipped without terraform.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { initialisedPair, runPair, stableState, stableText } from "./support/lang-pair.js";
import { stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const before = (lifecycle: string): string => `resource "terraform_data" "a" {
  input = "1"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
${lifecycle}}
`;
const AFTER = `resource "terraform_data" "a" {
  input = "2"
}
`;

(TERRAFORM !== undefined ? describe : describe.skip)("a destroyed object's dependencies are updated after its destroy, as terraform orders them", () => {
  test.each([
    ["native", "plain", false, ""],
    ["json", "plain", true, ""],
    ["native", "create_before_destroy", false, "  lifecycle {\n    create_before_destroy = true\n  }\n"],
    ["json", "create_before_destroy", true, "  lifecycle {\n    create_before_destroy = true\n  }\n"],
  ] as const)("%s, %s", async (_syntax, _kind, json, lifecycle) => {
    const name = json ? "main.tf.json" : "main.tf";
    const text = (s: string): string => (json ? tfToJson(s) : s);
    const pair = await initialisedPair({ [name]: text(before(lifecycle)) });
    const [first] = await runPair(pair, [["apply", "-auto-approve"]]);
    expect(first![0].code).toBe(0);
    for (const dir of pair) writeFileSync(join(dir, name), text(AFTER));
    const [ours, theirs] = (await runPair(pair, [["apply", "-auto-approve"]]))[0]!;
    // The apply's lines, from the plan's summary on (the plan's text is compared elsewhere; its refresh lines come in any order).
    const applied = (stdout: string): string => stableText(stdout.slice(stdout.indexOf("Plan: ")));
    expect({ code: ours.code, stdout: applied(ours.stdout), stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: applied(theirs.stdout), stderr: theirs.stderr });
    const order = applied(theirs.stdout).split("\n").filter((l) => /: (Destroying|Modifying)/.test(l));
    expect(order).toEqual(lifecycle === "" ? ["terraform_data.b: Destroying... [id=ID]", "terraform_data.a: Modifying... [id=ID]"] : ["terraform_data.a: Modifying... [id=ID]", "terraform_data.b: Destroying... [id=ID]"]);
    expect(stableState(pair[0])).toEqual(stableState(pair[1]));
  }, 300_000);
});

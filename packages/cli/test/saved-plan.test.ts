// A saved plan applies what was approved, against terraform 1.11.4: `plan -out=p1`, then the
// configuration edited, then `apply p1` applies the plan from the configuration it carries
// (terraform's configuration snapshot), not from the edited files; a plan file applied with
// other provider selections in the lock file is refused ("Inconsistent dependency lock file");
// and a plan file edited anywhere (an output's value and sensitivity) is refused. Both syntaxes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const HCL = (count: number, extra = ""): string => `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
resource "random_id" "a" {
  count       = ${count}
  byte_length = 4
}
output "n" {
  value     = length(random_id.a)
  sensitive = true
}
${extra}`;

const JSON_CONFIG = (count: number, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    terraform: { required_providers: { random: { source: "magma/random" } } },
    resource: { random_id: { a: { count, byte_length: 4 } } },
    output: { n: { value: "${length(random_id.a)}", sensitive: true } },
    ...extra,
  });

/** Text with its line breaks and runs of spaces as single spaces (diagnostics are word-wrapped). */
const flat = (text: string): string => text.replace(/[\s│╷╵]+/g, " ");

(TERRAFORM !== undefined ? describe : describe.skip)("a saved plan applies what was approved, against terraform's", () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
  });

  const syntaxes = [
    { name: "native syntax", file: "main.tf", before: HCL(2), after: HCL(3, 'resource "random_id" "b" {\n  byte_length = 2\n}\noutput "extra" {\n  value = "new"\n}\n') },
    { name: "JSON syntax", file: "main.tf.json", before: JSON_CONFIG(2), after: JSON_CONFIG(3, { output: { n: { value: "${length(random_id.a)}" }, extra: { value: "new" } } }) },
  ];

  test.each(syntaxes)("$name: the configuration edited after plan -out; apply of the file applies the plan as made", async ({ file, before, after }) => {
    const dirs = [workdir({ [file]: before }), workdir({ [file]: before })] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env })));
    const plans = await Promise.all([runTool("magma", ["plan", "-out=p1", "-no-color", "-input=false"], dirs[0], env), runTool("terraform", ["plan", "-out=p1", "-no-color", "-input=false"], dirs[1], env)]);
    for (const p of plans) expect({ code: p.code, stderr: p.stderr }).toEqual({ code: 0, stderr: "" });
    for (const d of dirs) writeFileSync(join(d, file), after);
    const [ours, theirs] = await Promise.all([runTool("magma", ["apply", "-no-color", "-input=false", "p1"], dirs[0], env), runTool("terraform", ["apply", "-no-color", "-input=false", "p1"], dirs[1], env)]);
    expect({ code: ours.code, stderr: ours.stderr }).toEqual({ code: theirs.code, stderr: theirs.stderr });
    expect(ours.code).toBe(0);
    const summary = (out: string): string | undefined => /Apply complete! Resources: .*/.exec(out)?.[0];
    expect(summary(ours.stdout)).toBe(summary(theirs.stdout));
    expect(summary(ours.stdout)).toBe("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");
    // The state as approved: two objects, the one output, still sensitive.
    const state = (d: string): unknown => {
      const s = JSON.parse(readFileSync(join(d, "terraform.tfstate"), "utf8")) as { outputs: Record<string, { sensitive?: boolean; value: unknown }>; resources: { name: string; instances: unknown[] }[] };
      return { outputs: s.outputs, resources: s.resources.map((r) => `${r.name}:${r.instances.length}`) };
    };
    expect(state(dirs[0])).toEqual(state(dirs[1]));
    expect(state(dirs[0])).toEqual({ outputs: { n: { value: 2, type: "number", sensitive: true } }, resources: ["a:2"] });
  }, 240_000);

  test("other provider selections in the lock file: the saved plan is refused, as terraform refuses it", async () => {
    const dirs = [workdir({ "main.tf": HCL(1) }), workdir({ "main.tf": HCL(1) })] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env })));
    const plans = await Promise.all([runTool("magma", ["plan", "-out=p1", "-no-color", "-input=false"], dirs[0], env), runTool("terraform", ["plan", "-out=p1", "-no-color", "-input=false"], dirs[1], env)]);
    for (const p of plans) expect(p.code).toBe(0);
    for (const d of dirs) {
      const lock = join(d, ".terraform.lock.hcl");
      writeFileSync(lock, readFileSync(lock, "utf8").replace("  hashes = [\n", '  hashes = [\n    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",\n'));
    }
    const [ours, theirs] = await Promise.all([runTool("magma", ["apply", "-no-color", "-input=false", "p1"], dirs[0], env), runTool("terraform", ["apply", "-no-color", "-input=false", "p1"], dirs[1], env)]);
    expect(theirs.code).toBe(1);
    expect(ours.code).toBe(1);
    const words = "Inconsistent dependency lock file The given plan file was created with a different set of external dependency selections than the current configuration. A saved plan can be applied only to the same configuration it was created from. Create a new plan from the updated configuration.";
    expect(flat(theirs.stderr)).toContain(words);
    expect(flat(ours.stderr)).toContain(words);
    expect(ours.stdout).not.toMatch(/Creating/);
  }, 240_000);

  test("a plan file whose output was rewritten (value shown, sensitive flipped) is refused and nothing is applied", async () => {
    const dir = workdir({ "main.tf": HCL(1) });
    await terraformAsync(["init", "-no-color", "-input=false"], dir, { env });
    expect((await runTool("magma", ["plan", "-out=p1", "-no-color", "-input=false"], dir, env)).code).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, "p1"), "utf8")) as { outputs: { name: string; after: unknown; sensitive: boolean }[] };
    const n = plan.outputs.find((o) => o.name === "n")!;
    n.sensitive = false;
    writeFileSync(join(dir, "p1"), JSON.stringify(plan, null, 2));
    const r = await runTool("magma", ["apply", "-no-color", "-input=false", "p1"], dir, env);
    expect(r.code).toBe(1);
    expect(flat(r.stderr)).toMatch(/Failed to read plan file .*the content does not match the plan identity/);
    expect(r.stdout).not.toMatch(/Creating/);
  }, 240_000);
});

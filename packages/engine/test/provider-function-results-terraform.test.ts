/**
 * Provider-defined function results at apply, against the oracle: a native provider (served
 * to terraform 1.11.4 by @magma/provider-server, in-process for magma) whose function
 * `stamp(s)` answers `s:<text of a file>`. The file changes between the plan and the apply
 * of that plan. terraform calls the function again at apply and refuses a result that differs
 * from the plan's ("provider function returned an inconsistent result"); magma does the same
 * with a saved plan and with a plan result applied in-process. Root outputs planned wholly
 * known keep their planned values (not evaluated again, so not called again); a call whose
 * argument was unknown at plan is made at apply and is not checked.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Provider } from "@magma/provider-api";
import { createLocalBackend, decodeOutput, loadState, readStateFile } from "@magma/state";
import { createEngine, formatPlan, parsePlan, type ApplyResult, type ProviderSource } from "../src/index.js";
import { memoryOracle } from "./support/memory-oracle.js";
import { expectExit, findTerraform, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const d = findTerraform() !== undefined ? describe : describe.skip;
const fixture = fileURLToPath(new URL("./support/changing-function-provider.mjs", import.meta.url));
const MEMORY = "example.com/magma/memory";

const REQUIRED = `terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
`;

/** A resource argument from a call known at plan: its result changes before the apply. */
const IN_RESOURCE = `${REQUIRED}
resource "memory_item" "a" {
  name = provider::memory::stamp("a")
}
`;

/** Outputs only: one known at plan (kept), one on an id known only at apply (called then). */
const IN_OUTPUTS = `${REQUIRED}
resource "memory_item" "a" {
  name = "fixed"
}
output "o" {
  value = provider::memory::stamp("o")
}
output "p" {
  value = provider::memory::stamp(memory_item.a.id)
}
`;

const flat = (s: string): string => s.replace(/\s+/g, " ");

d("provider function results at apply, magma against terraform", () => {
  const tmp = memoryOracle("fnres-tf-", fixture, { processEnv: ["MEMORY_PROVIDER_STORE", "STAMP_FILE"] });
  let mod: { createProvider(): Provider };

  beforeAll(async () => {
    mod = (await import(fixture)) as { createProvider(): Provider };
  });

  function workDir(name: string, mainTf: string): { work: string; stamp: string; env: Record<string, string | undefined> } {
    const work = join(tmp.dir, name);
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "main.tf"), mainTf);
    const stamp = join(tmp.dir, `${name}-stamp`);
    writeFileSync(stamp, "one\n");
    const store = join(tmp.dir, `${name}-items.json`);
    return { work, stamp, env: terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store, STAMP_FILE: stamp }) };
  }

  const source = (): ProviderSource => ({
    async open(src) {
      if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
      const p = mod.createProvider();
      return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  });

  /** magma: plan, change the stamp, apply (the saved plan, read back from its file text, or the plan result in-process). */
  async function magma(name: string, mainTf: string, saved: boolean): Promise<{ applied: ApplyResult; work: string }> {
    const w = workDir(name, mainTf);
    process.env["MEMORY_PROVIDER_STORE"] = w.env["MEMORY_PROVIDER_STORE"];
    process.env["STAMP_FILE"] = w.stamp;
    const engine = createEngine({ providers: source(), cwd: w.work });
    const store = createLocalBackend({ dir: w.work }).store("default");
    try {
      const planned = await engine.plan(w.work, null, { env: {} });
      expect(planned.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      writeFileSync(w.stamp, "two\n");
      const applied = saved ? await engine.apply(parsePlan(formatPlan(planned.plan)), { store, config: w.work }) : await engine.apply(planned, { store });
      return { applied, work: w.work };
    } finally {
      await engine.close();
    }
  }

  const errorsOf = (r: ApplyResult): string[] => [...r.diagnostics, ...r.failed.flatMap((f) => f.diagnostics)].filter((x) => x.severity === "error").map((x) => `${x.summary}: ${x.detail}`);

  test("a result that changed between plan and apply is an error at apply: terraform's words, nothing created", async () => {
    const tf = workDir("terraform-resource", IN_RESOURCE);
    expectExit(await terraform(["init", "-no-color"], tf.work, tf.env), 0, "init", tf.env);
    expectExit(await terraform(["plan", "-no-color", "-out", "p.tfplan"], tf.work, tf.env), 0, "plan", tf.env);
    writeFileSync(tf.stamp, "two\n");
    const run = await terraform(["apply", "-no-color", "p.tfplan"], tf.work, tf.env);
    expectExit(run, 1, "apply of the saved plan", tf.env);
    const detail = 'Call to function "provider::memory::stamp" failed: provider function returned an inconsistent result.';
    expect(flat(run.stderr)).toContain("Error: Error in function call on main.tf line 8, in resource");
    expect(flat(run.stderr)).toContain(detail);
    const expected = `Error in function call: ${detail}`;
    const tfState = readStateFile(readFileSync(join(tf.work, "terraform.tfstate")))!;
    expect(tfState.resources.flatMap((r) => r.instances)).toEqual([]);

    for (const saved of [true, false]) {
      const { applied } = await magma(`magma-resource-${saved ? "saved" : "in-process"}`, IN_RESOURCE, saved);
      expect(applied.success).toBe(false);
      expect(errorsOf(applied)).toContain(expected);
      expect(applied.applied).toEqual([]);
      expect(applied.state.resources.flatMap((r) => r.instances)).toEqual([]);
    }
  }, 300_000);

  test("outputs planned known keep their planned value; a call first made at apply takes the apply's answer", async () => {
    const tf = workDir("terraform-outputs", IN_OUTPUTS);
    expectExit(await terraform(["init", "-no-color"], tf.work, tf.env), 0, "init", tf.env);
    expectExit(await terraform(["plan", "-no-color", "-out", "p.tfplan"], tf.work, tf.env), 0, "plan", tf.env);
    writeFileSync(tf.stamp, "two\n");
    expectExit(await terraform(["apply", "-no-color", "p.tfplan"], tf.work, tf.env), 0, "apply of the saved plan", tf.env);
    const tfState = readStateFile(readFileSync(join(tf.work, "terraform.tfstate")))!;
    const outputs = (s: NonNullable<typeof tfState>): Record<string, string> => Object.fromEntries([...s.outputs].map(([k, o]) => [k, decodeOutput(o).value.asString().replace(/item-\d+-/, "item-N-")]));
    expect(outputs(tfState)).toEqual({ o: "o:one", p: "item-N-1:two" });

    for (const saved of [true, false]) {
      const { applied, work } = await magma(`magma-outputs-${saved ? "saved" : "in-process"}`, IN_OUTPUTS, saved);
      expect(errorsOf(applied)).toEqual([]);
      expect(applied.success).toBe(true);
      const state = (await loadState(createLocalBackend({ dir: work }).store("default")))!;
      expect(outputs(state)).toEqual(outputs(tfState));
    }
  }, 300_000);
});

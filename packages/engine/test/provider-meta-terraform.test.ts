/**
 * provider_meta against the oracle: a native provider with a provider meta schema, served to
 * terraform 1.11.4 by @magma/provider-server and driven in-process by magma, records the meta
 * of every PlanResourceChange, ApplyResourceChange, ReadResource and ReadDataSource. On the
 * same configuration (a root module with a block, a child with its own, a child without one)
 * through apply and a refreshing plan, both send the same meta values on the same calls.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Provider } from "@magma/provider-api";
import { createLocalBackend, loadState } from "@magma/state";
import { createEngine, type ProviderSource } from "../src/index.js";
import { memoryOracle } from "./support/memory-oracle.js";
import { expectExit, findTerraform, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const d = findTerraform() !== undefined ? describe : describe.skip;
const fixture = fileURLToPath(new URL("./support/meta-recording-provider.mjs", import.meta.url));
const MEMORY = "example.com/magma/memory";

const MAIN_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
  provider_meta "memory" {
    module_name = "root-x"
  }
}
resource "memory_item" "a" {
  count = 2
  name  = "a-\${count.index}"
}
data "memory_lookup" "l" {
  name = memory_item.a[0].name
}
module "child" {
  source = "./child"
}
module "plain" {
  source = "./plain"
}
`;
const CHILD_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
  provider_meta "memory" {
    module_name = "child"
  }
}
resource "memory_item" "c" {
  name = "c"
}
`;
const PLAIN_TF = `
terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
resource "memory_item" "p" {
  name = "p"
}
`;

/** The distinct `op name meta` lines of a log. */
function calls(file: string): string[] {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  return [...new Set(lines.map((l) => JSON.parse(l) as { op: string; name: string; meta: string }).map((c) => `${c.op} ${c.name} ${c.meta}`))].sort();
}

d("provider_meta, magma against terraform", () => {
  const tmp = memoryOracle("meta-tf-", fixture, { processEnv: ["MEMORY_PROVIDER_STORE", "META_LOG"] });

  function workDir(name: string): { work: string; store: string; log: string; env: Record<string, string | undefined> } {
    const work = join(tmp.dir, name);
    for (const [sub, text] of [["", MAIN_TF], ["child", CHILD_TF], ["plain", PLAIN_TF]] as const) {
      mkdirSync(join(work, sub), { recursive: true });
      writeFileSync(join(work, sub, "main.tf"), text);
    }
    const store = join(tmp.dir, `${name}-items.json`);
    const log = join(tmp.dir, `${name}-meta.jsonl`);
    writeFileSync(log, "");
    return { work, store, log, env: terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store, META_LOG: log }) };
  }

  test("the same meta on the same calls: apply, then a refreshing plan", async () => {
    // terraform
    const tf = workDir("terraform");
    expectExit(await terraform(["init", "-no-color"], tf.work, tf.env), 0, "init", tf.env);
    expectExit(await terraform(["apply", "-auto-approve", "-no-color"], tf.work, tf.env), 0, "apply", tf.env);
    expectExit(await terraform(["plan", "-no-color", "-detailed-exitcode"], tf.work, tf.env), 0, "plan", tf.env);

    // magma, on the same module (in-process, its own item file and log)
    const mg = workDir("magma");
    process.env["MEMORY_PROVIDER_STORE"] = mg.store;
    process.env["META_LOG"] = mg.log;
    const mod = (await import(fixture)) as { createProvider(): Provider };
    const source: ProviderSource = {
      async open(src) {
        if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
        const p = mod.createProvider();
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      },
    };
    const engine = createEngine({ providers: source, cwd: mg.work });
    const backend = createLocalBackend({ dir: mg.work }).store("default");
    try {
      const first = await engine.plan(mg.work, null, { env: {} });
      expect(first.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      const applied = await engine.apply(first, { store: backend });
      expect(applied.success).toBe(true);
      const again = await engine.plan(mg.work, (await loadState(backend))!, { env: {} });
      expect(again.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(again.plan.changes.filter((c) => c.action !== "no-op")).toEqual([]);
    } finally {
      await engine.close();
    }

    const expected = calls(tf.log);
    // What terraform sent, for the record: every call carries the declaring module's meta.
    expect(expected).toEqual(
      expect.arrayContaining(["apply a-0 root-x", "apply c child", "apply p null", "plan a-1 root-x", "read a-0 root-x", "read c child", "read p null", "read-data a-0 root-x"]),
    );
    expect(calls(mg.log)).toEqual(expected);
  }, 300_000);
});

/**
 * What a targeted plan's references see, against the oracle (terraform 1.11.4 with the
 * file-backed memory provider served by @magma/provider-server; in-process for magma, on the
 * state terraform applied): under -target, `x[*]` (and a `for` over a `for_each` resource)
 * see the instances in state — stored values where not planned — and the planned ones, less
 * those planned for delete (Terraform's evaluator). An instance a shrunk `count` (or
 * `for_each`) left stays visible while its delete is not planned; one the configuration
 * adds but the plan leaves out is not. Compared per case: every change's actions and the
 * planned `name` of the resource that reads the others.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listVal, numberVal, stringVal } from "@magma/cty";
import type { Provider } from "@magma/provider-api";
import { readStateFile } from "@magma/state";
import { createEngine, type ProviderSource } from "../src/index.js";
import { memoryOracle } from "./support/memory-oracle.js";
import { expectExit, findTerraform, terraform, terraformEnv } from "../../provider-server/test/support/harness.js";

const d = findTerraform() !== undefined ? describe : describe.skip;
const fixture = fileURLToPath(new URL("./support/changing-function-provider.mjs", import.meta.url));
const MEMORY = "example.com/magma/memory";

const MAIN_TF = `terraform {
  required_providers {
    memory = { source = "${MEMORY}", version = "1.0.0" }
  }
}
variable "n" {
  default = 3
}
variable "keys" {
  type    = list(string)
  default = ["a", "b", "c"]
}
resource "memory_item" "x" {
  count = var.n
  name  = "x-\${count.index}"
}
resource "memory_item" "y" {
  name = join(",", memory_item.x[*].name)
}
resource "memory_item" "w" {
  for_each = toset(var.keys)
  name     = "w-\${each.key}"
}
resource "memory_item" "v" {
  name = join(",", [for k, w in memory_item.w : w.name])
}
`;

const ACTIONS: Record<string, string[]> = { "no-op": ["no-op"], create: ["create"], update: ["update"], "delete-then-create": ["delete", "create"], "create-then-delete": ["create", "delete"], delete: ["delete"] };

d("what a targeted plan's references see, magma against terraform", () => {
  const tmp = memoryOracle("tvis-", fixture, { processEnv: ["MEMORY_PROVIDER_STORE"] });

  test("shrunk and grown count and for_each, instance and resource targets", async () => {
    const work = join(tmp.dir, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    const store = join(tmp.dir, "items.json");
    const env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: store });
    const tf = (...args: string[]) => terraform(args, work, env);
    expectExit(await tf("init", "-no-color"), 0, "init", env);
    expectExit(await tf("apply", "-auto-approve", "-no-color"), 0, "apply", env);
    const state = readStateFile(readFileSync(join(work, "terraform.tfstate")))!;

    process.env["MEMORY_PROVIDER_STORE"] = store;
    const mod = (await import(fixture)) as { createProvider(): Provider };
    const source: ProviderSource = {
      async open(src) {
        if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
        const p = mod.createProvider();
        return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
      },
    };

    const cases: { n: number; keys: string[]; targets: string[] }[] = [
      { n: 2, keys: ["a", "b", "c"], targets: ["memory_item.x[0]", "memory_item.y"] },
      { n: 4, keys: ["a", "b", "c"], targets: ["memory_item.x[0]", "memory_item.y"] },
      { n: 2, keys: ["a", "b", "c"], targets: ["memory_item.y"] },
      { n: 1, keys: ["a", "b", "c"], targets: ["memory_item.x[1]", "memory_item.y"] },
      { n: 3, keys: ["a", "b"], targets: ['memory_item.w["a"]', "memory_item.v"] },
      { n: 3, keys: ["a", "b", "d"], targets: ['memory_item.w["d"]', "memory_item.v"] },
    ];
    for (const c of cases) {
      const keysHcl = `[${c.keys.map((k) => JSON.stringify(k)).join(",")}]`;
      expectExit(await tf("plan", "-no-color", `-var=n=${c.n}`, `-var=keys=${keysHcl}`, ...c.targets.map((t) => `-target=${t}`), "-out=tfplan"), 0, "plan", env);
      const show = await tf("show", "-json", "tfplan");
      expectExit(show, 0, "show -json", env);
      const plan = JSON.parse(show.stdout) as { resource_changes?: { address: string; change: { actions: string[]; after: { name?: string } | null } }[] };
      const expected = Object.fromEntries((plan.resource_changes ?? []).map((r) => [r.address, `${r.change.actions.join("+")} ${r.change.after?.name ?? ""}`]));

      const engine = createEngine({ providers: source, cwd: work });
      try {
        const r = await engine.plan(work, state, { env: {}, targets: c.targets, variables: { n: numberVal(c.n), keys: listVal(c.keys.map((k) => stringVal(k))) } });
        expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
        const name = (v: (typeof r.plan.changes)[number]["after"]): string => (v.isNull() || !v.isKnown() ? "" : v.getAttr("name").isKnown() ? v.getAttr("name").asString() : "");
        const got = Object.fromEntries(r.plan.changes.map((ch) => [ch.address, `${ACTIONS[ch.action]!.join("+")} ${name(ch.after)}`]));
        expect({ case: c, changes: got }).toEqual({ case: c, changes: expected });
      } finally {
        await engine.close();
      }
    }
  }, 600_000);
});

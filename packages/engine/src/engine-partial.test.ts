// EnginePlanResult.partial: set when a plan's errors are ones Terraform meets while planning
// objects (it then still shows what was planned), unset for errors Terraform finds before.
// Compared with terraform 1.11.4 through the CLI in packages/cli/test/plan-errors.test.ts.
import { ProviderError } from "@magma/provider-api";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { createEngine } from "./engine.js";
import type { ProviderSource } from "./provider-source.js";
import { configOf, MEMORY } from "./planner/test-support.js";

const PROVIDERS = `terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
`;

/** The memory provider, whose plan refuses an item named "refuse" (as a provider's PlanResourceChange error). */
const refusingSource: ProviderSource = {
  async open(source: string) {
    if (source !== MEMORY) throw new Error(`no provider ${source}`);
    const p = createMemoryProvider();
    const provider = {
      ...p,
      planResourceChange: (...args: Parameters<typeof p.planResourceChange>) => {
        const name = args[3].isNull() ? undefined : args[3].getAttr("name");
        if (name !== undefined && name.isKnown() && !name.isNull() && name.asString() === "refuse") {
          const diagnostics = [{ severity: "error" as const, summary: "refused", detail: "The provider refuses this item." }];
          return Promise.reject(new ProviderError({ code: "diagnostics", diagnostics }, "refused"));
        }
        return p.planResourceChange(...args);
      },
    };
    return { provider, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
  },
};

describe("EnginePlanResult.partial", () => {
  test("a provider's error planning one object: the others' changes are kept, the result is partial", async () => {
    const c = configOf({ "main.tf": `${PROVIDERS}resource "memory_item" "a" {\n  name = "a"\n}\nresource "memory_item" "b" {\n  name = "refuse"\n}\n` });
    const engine = createEngine({ providers: refusingSource, cwd: c.dir });
    try {
      const r = await engine.plan(c.config, null, { env: {} });
      expect(r.hasErrors).toBe(true);
      expect(r.partial).toBe(true);
      expect(r.plan.changes.map((x) => `${x.address} ${x.action}`)).toEqual(["memory_item.a create"]);
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([expect.objectContaining({ summary: "refused", address: "memory_item.b", inConfigBody: true })]);
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("an expression's error: not partial (Terraform's validation finds those it can before planning)", async () => {
    const c = configOf({ "main.tf": `${PROVIDERS}resource "memory_item" "a" {\n  name = "a"\n}\nresource "memory_item" "b" {\n  name = 1 + "x"\n}\n` });
    const engine = createEngine({ providers: refusingSource, cwd: c.dir });
    try {
      const r = await engine.plan(c.config, null, { env: {} });
      expect(r.hasErrors).toBe(true);
      expect(r.partial).toBeUndefined();
    } finally {
      await engine.close();
      c.cleanup();
    }
  });

  test("no errors: not partial", async () => {
    const c = configOf({ "main.tf": `${PROVIDERS}resource "memory_item" "a" {\n  name = "a"\n}\n` });
    const engine = createEngine({ providers: refusingSource, cwd: c.dir });
    try {
      const r = await engine.plan(c.config, null, { env: {} });
      expect(r.hasErrors).toBe(false);
      expect(r.partial).toBeUndefined();
    } finally {
      await engine.close();
      c.cleanup();
    }
  });
});

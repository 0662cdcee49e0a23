import type { EnginePlanResult } from "../engine.js";
import { createEngine } from "../engine.js";
import { configOf, testSource } from "./test-support.js";

const PROVIDERS = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
`;

async function planOf(files: Record<string, string>): Promise<EnginePlanResult> {
  const c = configOf(files);
  const source = testSource();
  const engine = createEngine({ providers: source, cwd: c.dir });
  try {
    return await engine.plan(c.config, null, { env: {} });
  } finally {
    await engine.close();
    c.cleanup();
  }
}

function errors(r: EnginePlanResult): { summary: string; detail: string; at: string }[] {
  return r.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => ({ summary: d.summary, detail: d.detail, at: d.subject === undefined ? "" : `${d.subject.filename.split("/").slice(-2).join("/")}:${d.subject.start.line}` }));
}

describe("provider-defined functions", () => {
  test("a provider:: call is a clear error at the call, not an unknown function", async () => {
    const r = await planOf({
      "main.tf": `${PROVIDERS}
locals {
  up = provider::memory::upper("a")
}
resource "memory_item" "a" {
  name = local.up
}
`,
    });
    const errs = errors(r);
    expect(errs).toHaveLength(1);
    expect(errs[0]!.summary).toBe("Error in function call");
    expect(errs[0]!.detail).toContain("provider functions are not supported yet: provider::memory::upper");
    expect(errs[0]!.at).toMatch(/main\.tf:9$/);
    expect(r.plan.changes).toEqual([]);
  }, 60_000);
});

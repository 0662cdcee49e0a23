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
  test("a provider:: call of a function the provider does not offer is Terraform's error at the call", async () => {
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
    expect(errs[0]!.summary).toBe("Unknown provider function");
    expect(errs[0]!.detail).toBe('There is no function named "provider::memory::upper". Ensure that provider name "memory" is declared in this module\'s required_providers block, and that this provider offers a function named "upper".');
    expect(errs[0]!.at).toMatch(/main\.tf:9$/);
    expect(r.plan.changes).toEqual([]);
  }, 60_000);
});

describe("modules with their own provider configurations", () => {
  const child = `
terraform {
  required_providers {
    memory = { source = "hashicorp/memory" }
  }
}
provider "memory" {
  id_prefix = "x-"
}
resource "memory_item" "a" {
  name = "a"
}
`;
  const detail = (path: string): string =>
    `The module at ${path} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module "./child", consider updating this module to instead expect provider configurations to be passed by its caller.`;

  test.each([
    ["count", `  count = 2\n`],
    ["for_each", `  for_each = toset(["a", "b"])\n`],
    ["depends_on", `  depends_on = [memory_item.root]\n`],
  ])("a call with %s is Terraform's error, naming the argument; nothing is planned", async (_arg, line) => {
    const r = await planOf({
      "main.tf": `${PROVIDERS}
resource "memory_item" "root" {
  name = "root"
}
module "m" {
  source = "./child"
${line}}
`,
      "child/main.tf": child,
    });
    expect(errors(r)).toEqual([{ summary: "Module is incompatible with count, for_each, and depends_on", detail: detail("module.m"), at: "main.tf:13" }]);
    expect(r.plan.changes).toEqual([]);
  }, 60_000);

  test("a descendant's provider configuration counts too; without count/for_each/depends_on it is allowed", async () => {
    const nested = await planOf({
      "main.tf": `${PROVIDERS}
module "m" {
  source = "./mid"
  count  = 1
}
`,
      "mid/main.tf": `module "inner" {\n  source = "../child"\n}\n`,
      "child/main.tf": child,
    });
    expect(errors(nested).map((e) => [e.summary, e.detail.split("\n")[0]])).toEqual([["Module is incompatible with count, for_each, and depends_on", detail("module.m.module.inner").split("\n")[0]]]);
    const plain = await planOf({ "main.tf": `${PROVIDERS}\nmodule "m" {\n  source = "./child"\n}\n`, "child/main.tf": child });
    expect(errors(plain)).toEqual([]);
    expect(plain.plan.changes.map((c) => `${c.address} ${c.action}`)).toEqual(["module.m.memory_item.a create"]);
  }, 60_000);
});

describe("import blocks in child modules", () => {
  test("are Terraform's 'Invalid import configuration' error at the first import block", async () => {
    const r = await planOf({
      "main.tf": `${PROVIDERS}\nmodule "m" {\n  source = "./child"\n}\n`,
      "child/main.tf": `resource "memory_item" "a" {\n  name = "a"\n}\nimport {\n  to = memory_item.a\n  id = "i-1"\n}\n`,
    });
    expect(errors(r)).toEqual([{ summary: "Invalid import configuration", detail: `An import block was detected in "module.m". Import blocks are only allowed in the root module.`, at: "child/main.tf:4" }]);
    expect(r.plan.changes).toEqual([]);
  }, 60_000);
});

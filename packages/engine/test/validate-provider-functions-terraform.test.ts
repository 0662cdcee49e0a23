/**
 * `validate` and provider-defined functions, against the oracle: terraform 1.11.4's
 * `validate -json` on a module that calls a native provider's function (served by
 * @magma/provider-server; in-process for magma) — with known arguments (called, and failing
 * here: the function reads a file that does not exist), with an unknown argument (`var.x`: not
 * called), with a name the provider does not offer and with a provider the module does not
 * require — gives the same diagnostics as magma's `validateExpressions` (the resource's body evaluated against the provider's schema) (summary,
 * detail, file and line), and neither configures the provider.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "@magma/config";
import type { Block, Provider } from "@magma/provider-api";
import { ProviderFunctionCalls, validateExpressions } from "../src/index.js";
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
variable "x" {
  default = "q"
}
locals {
  a = provider::memory::stamp("lit")
  b = provider::memory::stamp(var.x)
  c = provider::memory::nope("x")
  d = provider::other::stamp("x")
  e = [for s in ["p"] : provider::memory::stamp(upper(s))]
  f = var.x == "" ? provider::memory::stamp(var.x) : "no call"
}
resource "memory_item" "a" {
  count = length(provider::memory::stamp("count"))
  name  = provider::memory::stamp("res")
}
output "o" {
  value = provider::memory::stamp("o")
}
`;

interface Found {
  readonly summary: string;
  readonly detail: string;
  readonly at: string;
}

const key = (x: Found): string => `${x.at} ${x.summary} ${x.detail}`;

d("validate and provider-defined functions, magma against terraform", () => {
  const tmp = memoryOracle("fnval-tf-", fixture, { processEnv: ["STAMP_FILE"] });

  test("the same diagnostics: known calls made (their errors), unknown ones not, unknown names reported", async () => {
    const work = join(tmp.dir, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "main.tf"), MAIN_TF);
    const stamp = join(tmp.dir, "no-such-stamp");
    const env = terraformEnv(tmp.dir, { MEMORY_PROVIDER_STORE: join(tmp.dir, "items.json"), STAMP_FILE: stamp });
    expectExit(await terraform(["init", "-no-color"], work, env), 0, "init", env);
    const run = await terraform(["validate", "-json", "-no-color"], work, env);
    expectExit(run, 1, "validate", env);
    const doc = JSON.parse(run.stdout) as { diagnostics: { summary: string; detail: string; range?: { filename: string; start: { line: number } } }[] };
    const expected = doc.diagnostics.map((x) => ({ summary: x.summary, detail: x.detail, at: `${x.range?.filename}:${x.range?.start.line}` }));
    // What terraform said, for the record: the calls with known arguments fail, the others are unknown names.
    expect(expected.map((x) => x.at).sort()).toEqual(["main.tf:10", "main.tf:12", "main.tf:13", "main.tf:14", "main.tf:18", "main.tf:19", "main.tf:22"]);

    process.env["STAMP_FILE"] = stamp;
    const mod = (await import(fixture)) as { createProvider(): Provider };
    let configured = 0;
    const calls = new ProviderFunctionCalls(async (src) => {
      if (src !== MEMORY) throw new Error(`unknown provider ${src}`);
      const p = mod.createProvider();
      const watched = { ...p, configure: (...a: Parameters<Provider["configure"]>) => (configured++, p.configure(...a)) };
      return { provider: watched, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    });
    try {
      const { config, diags } = loadConfig(work);
      expect(diags.filter((x) => x.severity === "error")).toEqual([]);
      // The resource's body is evaluated against its schema (terraform's validate walk).
      const schema = await mod.createProvider().getSchema();
      const schemas = (_p: unknown, mode: string, type: string): Block | undefined => (mode === "managed" ? schema.resources.get(type)?.block : undefined);
      const found = (await validateExpressions(config, calls, { cwd: work, schemas })).map((x) => ({ summary: x.summary, detail: x.detail, at: `${x.subject!.filename.split("/").pop()}:${x.subject!.start.line}` }));
      expect(found.map(key).sort()).toEqual(expected.map(key).sort());
      expect(configured).toBe(0);
    } finally {
      await calls.close();
    }
  }, 300_000);
});

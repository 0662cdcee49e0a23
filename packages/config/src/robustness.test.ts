import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModuleFromFiles } from "./load-module.js";
import { graphInputs } from "./graph-inputs.js";
import { validateConfig } from "./validate.js";

const corpus = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "hcl", "testdata", "corpus");

/** Every way of cutting a text short, and a few corruptions: loading never throws. */
function variants(text: string): string[] {
  const out = [text];
  for (let i = 1; i < 12; i++) out.push(text.slice(0, Math.floor((text.length * i) / 12)));
  out.push(text.replace(/\{/g, "["), text.replace(/"/g, ""), text.replace(/=/g, ""), `${text}\n}}}`);
  return out;
}

describe("loading never throws on bad input", () => {
  const files = readdirSync(corpus).filter((f) => f.endsWith(".tf") || f.endsWith(".tf.json"));

  it.each(files)("%s and its corruptions", (f) => {
    const text = readFileSync(join(corpus, f), "utf8");
    for (const v of variants(text)) {
      const { module, diags } = loadModuleFromFiles(".", new Map([[f, v]]));
      expect(Array.isArray(diags)).toBe(true);
      for (const d of diags) expect(typeof d.summary).toBe("string");
      graphInputs(module);
      validateConfig({ module, path: [], children: new Map() });
    }
  });

  it("handles every block kind written wrongly", () => {
    const bad = [
      `variable {}`,
      `variable "a" "b" {}`,
      `resource "x" {}`,
      `module "m" { source = 1 }`,
      `moved { from = 1 \n to = "x" }`,
      `import { to = 1 }`,
      `removed { from = 1 }`,
      `check "c" { assert { condition = var.x } }`,
      `locals { a = }`,
      `terraform { required_providers { a = 1 } }`,
      `terraform { required_version = "banana" }`,
      `provider "a" { alias = 1 }`,
      `output "o" { value = 1 \n depends_on = 1 }`,
      `resource "a_b" "c" { lifecycle { ignore_changes = 1 } }`,
      `resource "a_b" "c" { depends_on = "x" }`,
      `resource "a_b" "c" { provider = a.b.c }`,
    ];
    for (const b of bad) {
      for (const name of ["main.tf", "main.tf.json"]) {
        const text = name.endsWith(".json") ? JSON.stringify({ x: b }) : b;
        const { module, diags } = loadModuleFromFiles(".", new Map([[name, text]]));
        if (name === "main.tf") expect([b, diags.length > 0]).toEqual([b, true]);
        validateConfig({ module, path: [], children: new Map() });
      }
    }
  });
});

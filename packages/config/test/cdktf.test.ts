import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { objectVal, stringVal, toJson } from "@magma/cty";
import { createRandomProvider } from "@magma/provider-random";
import { decodeSchemaBody, evaluateSchemaBody } from "../src/decode-schema-body.js";
import { graphInputs } from "../src/graph-inputs.js";
import { loadConfig } from "../src/load-config.js";
import { providerAddrString } from "../src/provider-addr.js";
import { subjectString } from "../src/references.js";
import { validateConfig } from "../src/validate.js";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata", "cdktf");

describe("a CDK for Terraform app's cdk.tf.json", () => {
  it("is what cdktf 0.21 synthesizes from app.mjs today", () => {
    const out = mkdtempSync(join(tmpdir(), "magma-cdktf-"));
    try {
      execFileSync(process.execPath, [join(appDir, "app.mjs"), out], { cwd: appDir, stdio: "pipe", timeout: 120_000 });
      const synthesized: unknown = JSON.parse(readFileSync(join(out, "stacks", "pets", "cdk.tf.json"), "utf8"));
      const committed: unknown = JSON.parse(readFileSync(join(appDir, "cdk.tf.json"), "utf8"));
      expect(synthesized).toEqual(committed);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("loads unmodified: providers as an array, references and iterators as templates, metadata as comments", async () => {
    const { config, diags } = loadConfig(appDir);
    expect(diags).toEqual([]);
    expect(validateConfig(config)).toEqual([]);
    const m = config.module;
    expect([...m.providerConfigs.keys()]).toEqual(["random", "random.west"]);
    expect(providerAddrString(m.requiredProviders.get("random")!.provider)).toBe("registry.terraform.io/hashicorp/random");
    expect(m.backend?.type).toBe("local");
    const each = m.managedResources.get("random_pet.each")!;
    expect(each.forEach).toBeDefined();
    expect(each.dependsOn.map((t) => t.root)).toEqual(["random_pet"]);
    expect(m.managedResources.get("random_pet.first")!.managed!.createBeforeDestroy).toBe(true);
    const suffix = m.managedResources.get("random_string.suffix")!;
    expect(suffix.providerConfigRef).toMatchObject({ name: "random", alias: "west" });
    expect(suffix.count).toBeDefined();

    const refs = Object.fromEntries(graphInputs(m).inputs.map((i) => [i.address, i.references.map((r) => subjectString(r.subject)).sort()]));
    expect(refs["random_pet.each"]).toEqual(["each.value", "random_pet.first", "var.names"]);
    expect(refs["random_string.suffix"]).toEqual(["random_pet.first"]);
    expect(refs["output.joined"]).toEqual(["random_pet.first", "var.prefix"]);

    // The body decodes against the real random_string schema ("//" metadata ignored).
    const schema = await createRandomProvider().getSchema();
    const block = schema.resources.get("random_string")!.block;
    const d = decodeSchemaBody(suffix.config, block);
    expect(d.diags).toEqual([]);
    const v = evaluateSchemaBody(d.decoded, block, { variables: { random_pet: objectVal({ first: objectVal({ id: stringVal("pet-x") }) }) } });
    expect(v.diags).toEqual([]);
    const plain = JSON.parse(toJson(v.value, v.value.type)) as Record<string, unknown>;
    expect(plain).toMatchObject({ length: 8, special: false, keepers: { pet: "pet-x" } });
  });
});

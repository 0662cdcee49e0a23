import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDir, type SchemaLookup } from "../src/validate.js";
import { findTerraform, hasTerraform } from "@magma/test-support";
import { builtinSchemas, magmaKeys, terraformValidate } from "./support/terraform.js";

const cases = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata", "validate");
const terraform = hasTerraform() ? findTerraform() : undefined;
const names = readdirSync(cases).sort();
let builtin: SchemaLookup = () => undefined;
beforeAll(() => {
  // The built-in provider's real schemas (terraform_data, terraform_remote_state), from terraform.
  if (terraform !== undefined) builtin = builtinSchemas(terraform);
}, 120_000);

describe("static validation agrees with terraform validate -json", () => {
  (terraform === undefined ? it.skip : it).each(names)("%s", (name) => {
    const dir = join(cases, name);
    const tf = terraformValidate(terraform!, dir);
    const magma = magmaKeys(validateDir(dir, { schemas: builtin }).diags);
    const strip = (ks: typeof magma): unknown[] => ks.map(({ detail: _d, ...rest }) => rest);
    expect(strip(magma)).toEqual(strip(tf.keys));
    // The same wording too.
    expect(magma.map((k) => k.detail)).toEqual(tf.keys.map((k) => k.detail));
  });
});

import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDir } from "../src/validate.js";
import { findTerraform, magmaKeys, terraformValidate } from "./support/terraform.js";

const cases = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata", "validate");
const terraform = findTerraform();
const names = readdirSync(cases).sort();

describe("static validation agrees with terraform validate -json", () => {
  (terraform === undefined ? it.skip : it).each(names)("%s", (name) => {
    const dir = join(cases, name);
    const tf = terraformValidate(terraform!, dir);
    const magma = magmaKeys(validateDir(dir).diags);
    const strip = (ks: typeof magma): unknown[] => ks.map(({ detail: _d, ...rest }) => rest);
    expect(strip(magma)).toEqual(strip(tf.keys));
    // The same wording too.
    expect(magma.map((k) => k.detail)).toEqual(tf.keys.map((k) => k.detail));
  });
});

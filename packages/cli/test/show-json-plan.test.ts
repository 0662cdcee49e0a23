/**
 * `magma plan -out FILE` then `magma show -json FILE` against `terraform plan -out` +
 * `terraform show -json` on the same working directory, state and remote objects, as whole
 * documents (only `timestamp` left out; `relevant_attributes` as a set, Terraform's order
 * coming from a map): after terraform applied the configuration, an object was changed
 * and another deleted outside both tools (resource_drift, relevant_attributes, the
 * refreshed prior_state), with check blocks, conditions and a variable validation (checks).
 * Both tools run the in-memory provider from one filesystem mirror, its objects kept in a
 * file (skipped without terraform). The configuration runs in both syntaxes: as written
 * (`main.tf`) and converted by @magma/test-support's tfToJson (`main.tf.json`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeProviderLauncher } from "@magma/provider-server";
import { comparablePlanJson, bundleLauncherEntry, tfToJson } from "@magma/test-support";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const here = dirname(fileURLToPath(import.meta.url));
const storedMemoryProvider = join(here, "../../provider-server/test/testdata/stored-memory-provider.mjs");
const d = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const CONFIG = `terraform {
  required_providers {
    memory = { source = "example.com/magma/memory", version = "1.0.0" }
  }
}
variable "n" {
  type    = number
  default = 3
  validation {
    condition     = var.n < 10
    error_message = "n must be below 10."
  }
}
resource "memory_item" "a" {
  name  = "a"
  value = "one"
}
resource "memory_item" "b" {
  name  = "b"
  value = memory_item.a.value
  lifecycle {
    postcondition {
      condition     = self.value != ""
      error_message = "b is empty."
    }
  }
}
resource "memory_item" "gone" { name = "gone" }
check "bad" {
  assert {
    condition     = memory_item.a.value == "nope"
    error_message = "a's value is not nope."
  }
}
output "o" { value = memory_item.a.value }
`;

d("magma show -json PLANFILE against terraform show -json PLANFILE", () => {
  test.each(["native", "json"] as const)("a plan after drift outside both tools, whole documents (%s syntax)", async (syntax) => {
    const base = workdir();
    const mirror = join(base, "mirror");
    mkdirSync(mirror);
    bundleLauncherEntry(writeProviderLauncher({ mirrorDir: mirror, hostname: "example.com", namespace: "magma", type: "memory", version: "1.0.0", module: storedMemoryProvider, exportName: "createProvider", protocolVersions: [6] }));
    writeFileSync(join(base, "cli.tfrc"), `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["example.com/*/*"]\n  }\n}\n`);
    const store = join(base, "store.json");
    const env = { TF_CLI_CONFIG_FILE: join(base, "cli.tfrc"), MEMORY_PROVIDER_STORE: store };
    const dir = workdir(syntax === "json" ? { "main.tf.json": tfToJson(CONFIG) } : { "main.tf": CONFIG });
    terraform(["init", "-no-color", "-input=false"], dir, { env });
    terraform(["apply", "-auto-approve", "-no-color", "-input=false"], dir, { env });

    // Outside both tools: a's value changes (b and the output refer to it), gone is deleted.
    const saved = JSON.parse(readFileSync(store, "utf8")) as { serial: number; items: Record<string, string> };
    for (const [id, text] of Object.entries(saved.items)) {
      const v = JSON.parse(text) as { name: string };
      if (v.name === "a") saved.items[id] = JSON.stringify({ ...v, value: "drifted" });
      if (v.name === "gone") delete saved.items[id];
    }
    writeFileSync(store, JSON.stringify(saved));

    terraform(["plan", "-no-color", "-input=false", "-out=tf.plan"], dir, { env });
    const expected = comparablePlanJson(JSON.parse(terraform(["show", "-json", "tf.plan"], dir, { env }).stdout) as Record<string, unknown>);
    expect((expected["resource_drift"] as { address: string }[]).map((r) => r.address)).toEqual(["memory_item.a", "memory_item.gone"]);
    expect(expected["checks"]).toBeDefined();

    const init = await magma(["init", "-no-color"], { cwd: dir, env });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const plan = await magma(["plan", "-no-color", "-out=magma.plan"], { cwd: dir, env });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    const shown = await magma(["show", "-json", "magma.plan"], { cwd: dir, env });
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(comparablePlanJson(JSON.parse(shown.stdout) as Record<string, unknown>)).toEqual(expected);
  }, 300_000);
});

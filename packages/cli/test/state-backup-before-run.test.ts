// terraform.tfstate.backup is the state before the run, against terraform 1.11.4: an apply that
// writes the state several times (a chain of objects applied one at a time) leaves the backup
// byte for byte the state file as it was when the run started (terraform: serials 4–7
// written, backup at 3), and a first apply in a directory without a state leaves none.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** A chain: each b depends on a, each c on its b, so the objects are applied (and the state written) one after another. */
const CONFIG = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "n" {
  default = 1
}
resource "random_id" "a" {
  byte_length = 4
}
resource "random_id" "b" {
  count       = var.n
  byte_length = 4
  keepers     = { a = random_id.a.hex }
}
resource "random_id" "c" {
  count       = var.n
  byte_length = 4
  keepers     = { b = random_id.b[count.index].hex }
}
`;

const serial = (text: string): number => (JSON.parse(text) as { serial: number }).serial;

(TERRAFORM !== undefined ? describe : describe.skip)("terraform.tfstate.backup, against terraform's", () => {
  test("is the state before the run, however many times the run wrote the state; none after a first run", async () => {
    const env = { TF_CLI_CONFIG_FILE: randomMirrorCliConfig() };
    const dirs = [workdir({ "main.tf": CONFIG }), workdir({ "main.tf": CONFIG })] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env })));
    const apply = ["apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=1"];
    const first = await Promise.all([runTool("magma", apply, dirs[0], env), runTool("terraform", apply, dirs[1], env)]);
    for (const r of first) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    for (const d of dirs) expect(existsSync(join(d, "terraform.tfstate.backup"))).toBe(false);
    const before = dirs.map((d) => readFileSync(join(d, "terraform.tfstate"), "utf8"));
    const second = await Promise.all([runTool("magma", [...apply, "-var", "n=3"], dirs[0], env), runTool("terraform", [...apply, "-var", "n=3"], dirs[1], env)]);
    for (const [i, r] of second.entries()) {
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      const d = dirs[i]!;
      // Several writes (the serial moved on by more than one), and the backup still the state the run started from.
      expect(serial(readFileSync(join(d, "terraform.tfstate"), "utf8"))).toBeGreaterThan(serial(before[i]!) + 1);
      expect(readFileSync(join(d, "terraform.tfstate.backup"), "utf8")).toBe(before[i]);
    }
  }, 240_000);
});

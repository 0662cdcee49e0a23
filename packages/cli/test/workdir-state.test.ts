// The working-directory commands through the built binary on terraform-made working
// directories: state list/show/pull/rm/mv, output and workspace list compared with what
// terraform 1.11.4 prints and writes on the same directory (skipped without terraform).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanUp, magma } from "./support/run-magma.js";
import { TERRAFORM, copyWorkdir, removeWorkdirs, terraform, workdir } from "./support/workdir.js";

const withTerraform = TERRAFORM !== undefined ? describe : describe.skip;

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

// Only Terraform's built-in provider: terraform applies it without any plugin.
const CONFIG = {
  "main.tf": `
resource "terraform_data" "z" {
  input = "x"
}
resource "terraform_data" "b" {
  count = 3
  input = count.index
}
# Dependencies state mv drops (on a moved resource) and keeps (on one never moved).
resource "terraform_data" "on_z" {
  input = terraform_data.z.output
}
resource "terraform_data" "w" {
  input = "w"
}
resource "terraform_data" "on_w" {
  input = terraform_data.w.output
}
module "m" {
  source = "./m"
}
output "o" {
  value = terraform_data.z.output
}
output "s" {
  value     = "top secret"
  sensitive = true
}
output "m" {
  value = { a = 1, b = [true, "x\\ny"], c = tolist(["p"]), d = tomap({ k = "v" }) }
}
`,
  "m/main.tf": `
resource "terraform_data" "k" {
  for_each = toset(["b", "a"])
  input    = each.key
}
resource "terraform_data" "j" {
  input = terraform_data.k["a"].output
}
`,
};

withTerraform("on a directory terraform applied", () => {
  let applied: string;

  beforeAll(() => {
    applied = workdir(CONFIG);
    terraform(["init", "-no-color", "-input=false"], applied);
    terraform(["apply", "-auto-approve", "-no-color", "-input=false"], applied);
  }, 240_000);

  test("state list, list with filters, pull, show, output and workspace list print what terraform prints", async () => {
    const same = async (magmaArgs: string[], tfArgs: string[] = magmaArgs): Promise<void> => {
      const m = await magma(magmaArgs, { cwd: applied });
      expect(m.stderr).toBe("");
      expect(m.code).toBe(0);
      expect(m.stdout).toBe(terraform(tfArgs, applied).stdout);
    };
    await same(["state", "list"]);
    await same(["state", "list", "module.m", "terraform_data.b[1]"]);
    await same(["state", "pull"]);
    await same(["state", "show", 'module.m.terraform_data.k["a"]'], ["state", "show", "-no-color", 'module.m.terraform_data.k["a"]']);
    await same(["output", "-json"]);
    await same(["output", "-no-color"]);
    await same(["output", "-raw", "s"]);
    await same(["output", "-json", "m"]);
    await same(["workspace", "list"]);
  }, 240_000);

  test("state rm and mv leave the same state file as terraform's, with a timestamped backup", async () => {
    const viaMagma = copyWorkdir(applied);
    const viaTerraform = copyWorkdir(applied);
    const steps: string[][] = [
      ["state", "rm", "terraform_data.b[2]", 'module.m.terraform_data.k["b"]'],
      ["state", "mv", "terraform_data.z", "terraform_data.y"],
      ["state", "mv", "terraform_data.b[1]", 'terraform_data.c["k"]'],
      ["state", "mv", "terraform_data.b", "terraform_data.q"],
      ["state", "mv", "module.m", "module.n"],
      ["state", "mv", "-dry-run", "terraform_data.y", "terraform_data.x"],
      ["state", "rm", "-dry-run", "terraform_data.y"],
    ];
    for (const s of steps) {
      const m = await magma(s, { cwd: viaMagma });
      expect(m.stderr).toBe("");
      expect(m.code).toBe(0);
      expect(m.stdout).toBe(terraform(s, viaTerraform).stdout);
    }
    // Same lineage (copied), same serial, same bytes.
    expect(readFileSync(join(viaMagma, "terraform.tfstate"), "utf8")).toBe(readFileSync(join(viaTerraform, "terraform.tfstate"), "utf8"));
    expect(readdirSync(viaMagma).filter((f) => /^terraform\.tfstate\.\d+\.backup$/.test(f)).length).toBeGreaterThan(0);
  }, 240_000);

  test("errors terraform reports: unknown address, no such instance, output not found (exit 1)", async () => {
    const rm = await magma(["state", "rm", "terraform_data.nope"], { cwd: applied });
    expect(rm.code).toBe(1);
    expect(rm.stderr).toContain("Error: Invalid target address");
    const show = await magma(["state", "show", "terraform_data.b"], { cwd: applied });
    expect(show.code).toBe(1);
    expect(show.stderr).toContain("No instance found for the given address!");
    const out = await magma(["output", "nope"], { cwd: applied });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Error: Output "nope" not found');
    const raw = await magma(["output", "-raw", "m"], { cwd: applied });
    expect(raw.code).toBe(1);
    expect(raw.stderr).toContain("Unsupported value for raw output");
  }, 120_000);
});

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { objectVal, toJson, typeToJson, type Value } from "@magma/cty";
import { formatRange } from "@magma/hcl";
import { loadConfig } from "../src/load-config.js";
import { loadModule } from "../src/load-module.js";
import { collectVariableValues, type VariableArg } from "../src/variable-values.js";
import { findTerraform, hasTerraform } from "@magma/test-support";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "..", "testdata", "tfvars");
const env = { TF_VAR_b: "env", TF_VAR_c: "env", TF_VAR_n: "42", TF_VAR_undeclared: "ignored" };
const args: VariableArg[] = [
  { kind: "var", arg: "f=cli" },
  { kind: "var", arg: "g=cli" },
  { kind: "var-file", path: "extra.tfvars" },
  { kind: "var", arg: 'l=["x","y"]' },
];

function magmaValues(dir: string): Record<string, Value> {
  const { module, diags } = loadModule(dir);
  expect(diags).toEqual([]);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const r = collectVariableValues(module, { dir, env, args });
    expect(r.diags.filter((d) => d.severity === "error")).toEqual([]);
    return Object.fromEntries([...r.values].map(([k, v]) => [k, v.value]));
  } finally {
    process.chdir(cwd);
  }
}

describe("variable values", () => {
  it("follow Terraform's precedence: default < TF_VAR_ < terraform.tfvars < .json < *.auto.tfvars < -var/-var-file in order", () => {
    const v = magmaValues(fixture);
    const plain = (x: Value | undefined): unknown => JSON.parse(toJson(x!, x!.type));
    expect(plain(v["a"])).toBe("default");
    expect(plain(v["b"])).toBe("env");
    expect(plain(v["c"])).toBe("tfvars");
    expect(plain(v["d"])).toBe("tfvars.json");
    expect(plain(v["e"])).toBe("b.auto");
    expect(plain(v["f"])).toBe("cli");
    expect(plain(v["g"])).toBe("var-file");
    expect(plain(v["n"])).toBe(42);
    expect(plain(v["l"])).toEqual(["x", "y"]);
    expect(plain(v["obj"])).toEqual({ name: "web", port: 80, tags: {} });
    expect(v["secret"]!.isMarked("sensitive")).toBe(true);
  });

  it("reports a missing required value and an unsuitable one with Terraform's wording", () => {
    const { module } = loadModule(fixture);
    const r = collectVariableValues(module, { dir: "/nonexistent-dir", env: { TF_VAR_n: "abc" }, args: [{ kind: "var", arg: "nope=1" }] });
    const summaries = r.diags.map((d) => d.summary);
    expect(summaries).toContain("No value for required variable");
    expect(summaries).toContain("Value for undeclared variable");
    // A number variable's environment value is a literal string (Terraform's literal parsing
    // mode for primitive types) that does not convert: reported at the declaration.
    const n = r.diags.find((d) => d.summary === "Invalid value for input variable");
    expect(n?.detail).toBe("Unsuitable value for var.n set using the TF_VAR_n environment variable: a number is required.");
    expect(n?.subject).toEqual(module.variables.get("n")!.declRange);
    const missing = r.diags.find((d) => d.summary === "No value for required variable" && d.detail.includes('"c"'));
    expect(missing?.detail).toBe(
      'The root module input variable "c" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.',
    );
  });

  it("words tfvars problems as terraform plan does", () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-tfvars-diags-"));
    try {
      writeFileSync(join(dir, "main.tf"), `variable "n" {\n  type = number\n}\nvariable "o" {\n  type    = object({ a = string })\n  default = { a = "x" }\n}\n`);
      writeFileSync(join(dir, "terraform.tfvars"), `nope = 1\nn = "abc"\no = { b = 1 }\n`);
      const { config } = loadConfig(dir);
      const r = collectVariableValues(config.module, { dir, env: {} });
      expect(r.diags.map((d) => [d.severity, d.summary, d.detail, d.subject === undefined ? "" : formatRange(d.subject)])).toEqual([
        [
          "warning",
          "Value for undeclared variable",
          'The root module does not declare a variable named "nope" but a value was found in file "terraform.tfvars". If you meant to use this value, add a "variable" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain "global" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.',
          "",
        ],
        ["error", "Invalid value for input variable", "The given value is not suitable for var.n declared at main.tf:1,1-13: a number is required.", "terraform.tfvars:2,5-10"],
        ["error", "Invalid value for input variable", 'The given value is not suitable for var.o declared at main.tf:4,1-13: attribute "a" is required.', "terraform.tfvars:3,5-14"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const tf = hasTerraform() ? findTerraform() : undefined;
  (tf === undefined ? it.skip : it)("give the values terraform apply gives", () => {
    const dir = mkdtempSync(join(tmpdir(), "magma-tfvars-"));
    try {
      cpSync(fixture, dir, { recursive: true });
      const cli = join(dir, ".terraformrc");
      writeFileSync(cli, "");
      const argv = ["apply", "-auto-approve", "-input=false", ...args.map((a) => (a.kind === "var" ? `-var=${a.arg}` : `-var-file=${a.path}`))];
      execFileSync(tf!, argv, { cwd: dir, env: { ...process.env, ...env, TF_CLI_CONFIG_FILE: cli, CHECKPOINT_DISABLE: "1" }, stdio: "ignore", timeout: 120_000 });
      const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { outputs: { all: { value: unknown; type: unknown } } };
      const v = magmaValues(dir);
      const { secret: _s, ...rest } = v;
      void _s;
      const all = objectVal(rest);
      expect(JSON.parse(toJson(all, all.type))).toEqual(state.outputs.all.value);
      expect(JSON.parse(typeToJson(all.type))).toEqual(state.outputs.all.type);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

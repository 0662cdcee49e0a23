import { isCliError } from "./cli-error.js";
import { mergeTerraformEnvArgs, splitShellWords } from "./terraform-env-args.js";

describe("splitShellWords (go-shellwords' rules, as terraform reads TF_CLI_ARGS)", () => {
  it.each([
    ["-no-color", ["-no-color"]],
    ["  -var  'a=b c'\t-lock=false ", ["-var", "a=b c", "-lock=false"]],
    ['-var "x=\\"q\\" \\$HOME" -var=y=\\ z', ["-var", 'x="q" $HOME', "-var=y= z"]],
    ["-var 'it''s'", ["-var", "its"]],
    ["$HOME *.tf # not a comment", ["$HOME", "*.tf", "#", "not", "a", "comment"]],
    ["-no-color ; a b", ["-no-color"]],
    ["-no-color;a | b", ["-no-color"]],
    ["-a 'x;y' \\> b > c", ["-a", "x;y", ">", "b"]],
    ['""', [""]],
    ["", []],
  ])("%j", (input, expected) => {
    expect(splitShellWords(input, "TF_CLI_ARGS")).toEqual(expected);
  });

  it.each([["-var 'a"], ['-var "a'], ["-var a\\"]])("refuses %j with terraform's error naming the variable", (input) => {
    let err: unknown;
    try {
      splitShellWords(input, "TF_CLI_ARGS_plan");
    } catch (e) {
      err = e;
    }
    expect(isCliError(err) && err.code === "bad_input" && err.message === "Error parsing extra CLI args from TF_CLI_ARGS_plan: invalid command line string").toBe(true);
  });
});

describe("mergeTerraformEnvArgs (terraform's mergeEnvArgs)", () => {
  it("puts TF_CLI_ARGS right after the command, and TF_CLI_ARGS_<command> before it", () => {
    const env = { TF_CLI_ARGS: "-no-color", TF_CLI_ARGS_plan: "-refresh=false -var-file=prod.tfvars" };
    expect(mergeTerraformEnvArgs(["plan", "-out=p"], env)).toEqual(["plan", "-refresh=false", "-var-file=prod.tfvars", "-no-color", "-out=p"]);
    expect(mergeTerraformEnvArgs(["apply", "p"], env)).toEqual(["apply", "-no-color", "p"]);
  });

  it("finds the command after global flags, and a nested command's last word", () => {
    const env = { TF_CLI_ARGS_state_list: "-state=other.tfstate", TF_CLI_ARGS_force_unlock: "-force", TF_CLI_ARGS_workspace_new: "-lock=false" };
    expect(mergeTerraformEnvArgs(["-chdir=dir", "state", "list", "a.b"], env)).toEqual(["-chdir=dir", "state", "list", "-state=other.tfstate", "a.b"]);
    expect(mergeTerraformEnvArgs(["--chdir", "dir", "force-unlock", "42"], env)).toEqual(["--chdir", "dir", "force-unlock", "-force", "42"]);
    expect(mergeTerraformEnvArgs(["workspace", "new", "dev"], env)).toEqual(["workspace", "new", "-lock=false", "dev"]);
  });

  it("leaves magma's own commands and empty variables alone", () => {
    const env = { TF_CLI_ARGS: "-no-color", TF_CLI_ARGS_plan: "" };
    expect(mergeTerraformEnvArgs(["schema", "random"], env)).toEqual(["schema", "random"]);
    expect(mergeTerraformEnvArgs(["demo"], env)).toEqual(["demo"]);
    expect(mergeTerraformEnvArgs([], env)).toEqual([]);
    expect(mergeTerraformEnvArgs(["plan"], { TF_CLI_ARGS_plan: "" })).toEqual(["plan"]);
  });
});

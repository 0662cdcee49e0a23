// TF_CLI_ARGS and TF_CLI_ARGS_<command> through the built binary, as terraform reads them
// (no terraform or provider needed: a configuration of a variable and an output).
import { cleanUp, magma } from "./support/run-magma.js";
import { removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  cleanUp();
  removeWorkdirs();
});

const CONFIG = 'variable "n" {\n  type = number\n}\noutput "twice" {\n  value = var.n * 2\n}\n';

describe("TF_CLI_ARGS", () => {
  test("the command's variable and the general one both reach the command; the command line's own flags too", async () => {
    const dir = workdir({ "main.tf": CONFIG });
    const r = await magma(["plan", "-input=false"], { cwd: dir, env: { TF_CLI_ARGS: "-no-color", TF_CLI_ARGS_plan: "-var 'n=21'" } });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain("+ twice = 42");
    // Another command's variable is not read.
    const v = await magma(["validate", "-json"], { cwd: dir, env: { TF_CLI_ARGS_plan: "-bogus" } });
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, error_count: 0 });
  });

  test("a value that cannot be split is terraform's error, exit 1", async () => {
    const dir = workdir({ "main.tf": CONFIG });
    const r = await magma(["plan"], { cwd: dir, env: { TF_CLI_ARGS_plan: "-var 'n=1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error parsing extra CLI args from TF_CLI_ARGS_plan: invalid command line string");
  });
});

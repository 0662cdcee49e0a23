// `magma init` on a configuration with errors, against terraform 1.11.4 on the same files,
// without colour (terraform colours its own error's text with an extra reset magma does not
// emit yet): "Initializing the backend..." on stdout, then terraform's "Terraform
// encountered problems during initialisation" error and the configuration's diagnostics on
// stderr, byte for byte; exit 1. Native syntax only: for JSON files terraform's diagnostics
// name a context path (`in output.o:`) magma does not give yet, and its init reports each
// of them twice (see the engine README's issue-31 gaps). Skipped without terraform.
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, mirrorCliConfig, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

(TERRAFORM !== undefined ? describe : describe.skip)("init on a configuration with errors, against terraform's", () => {
  test.each([
    ["an expression missing", { "main.tf": 'output "o" {\n  value = \n}\n' }],
    ["an unclosed block", { "main.tf": 'output "o" {\n  value = 1\n' }],
  ])("native syntax, %s: terraform's diagnostics", async (_name, files) => {
    for (const colour of [false]) {
      const args = ["init", ...(colour ? [] : ["-no-color"])];
      const [ours, theirs] = await Promise.all([
        runTool("magma", args, workdir(files), colour ? { FORCE_COLOR: "1" } : {}),
        runTool("terraform", args, workdir(files), { TF_CLI_CONFIG_FILE: mirrorCliConfig() }),
      ]);
      expect({ colour, code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ colour, code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
      expect(ours.code).toBe(1);
      if (!colour) expect(ours.stderr).toContain("\nError: Terraform encountered problems during initialisation, including problems\nwith the configuration, described below.\n");
    }
  }, 300_000);
});

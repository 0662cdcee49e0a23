// A `count` beyond what an integer holds, against terraform 1.11.4 on the same configuration in
// native and JSON syntax (issue 33 item 7): terraform's "Invalid count argument" (value must be
// a whole number between the int64 bounds), not a JavaScript "Invalid array length". The
// random provider is @magma/provider-random from a filesystem mirror, for both tools.
// Skipped without terraform.
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, randomMirrorCliConfig, removeWorkdirs, terraformAsync, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const PROVIDERS = { terraform: { required_providers: { random: { source: "magma/random" } } } };
const native = (count: string): string => `terraform {\n  required_providers {\n    random = { source = "magma/random" }\n  }\n}\nresource "random_id" "a" {\n  count       = ${count}\n  byte_length = 4\n}\n`;
const json = (count: string): string => JSON.stringify({ ...PROVIDERS, resource: { random_id: { a: { count: `\${${count}}`, byte_length: 4 } } } }, null, 2);

(TERRAFORM !== undefined ? describe : describe.skip)("count limits, against terraform's", () => {
  let cliConfig: string;
  beforeAll(() => {
    cliConfig = randomMirrorCliConfig();
  });

  test.each([
    ["native", "1e400", native],
    ["json", "1e400", json],
    ["native", '"1e400"', native],
  ] as const)("%s: count = %s", async (syntax, count, render) => {
    const files = syntax === "native" ? { "main.tf": render(count) } : { "main.tf.json": render(count) };
    const dirs = [workdir(files), workdir(files)] as const;
    await Promise.all(dirs.map((d) => terraformAsync(["init", "-no-color", "-input=false"], d, { env: { TF_CLI_CONFIG_FILE: cliConfig } })));
    const args = ["plan", "-no-color", "-input=false"];
    const [ours, theirs] = await Promise.all([runTool("magma", args, dirs[0], { TF_CLI_CONFIG_FILE: cliConfig }), runTool("terraform", args, dirs[1], { TF_CLI_CONFIG_FILE: cliConfig })]);
    expect(theirs.stderr).toContain("Error: Invalid count argument");
    expect(theirs.stderr).toContain("value must be a whole number,\nbetween -9223372036854775808 and 9223372036854775807.");
    expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  }, 300_000);
});

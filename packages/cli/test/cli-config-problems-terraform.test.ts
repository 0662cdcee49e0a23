// Problems in terraform's CLI configuration, beside terraform 1.11.4 on the same files, in
// native and JSON syntax: more than one credentials_helper block, more than one
// provider_installation block (cliconfig's Validate; terraform uses the first), a
// syntactically broken main file (TF_CLI_CONFIG_FILE), a broken *.tfrc / *.tfrc.json in
// ~/.terraform.d and a directory named like one. Terraform prints "There are some problems
// with the CLI configuration:", each problem as an error diagnostic, "As a result of the above
// problems, Terraform may not behave as intended." and goes on with the file left out; magma
// did not warn of the helpers and refused a broken file with bad_config. `init` of a
// configuration without providers: exit code, stdout and stderr compared. The parser's own
// message after "Error parsing <file>: " is HCL 1's in terraform (`At 4:1: object expected
// closing RBRACE got: EOF`) and HCL 2's in magma: blanked on both sides (checked present).
// Skipped without terraform.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tfToJson } from "@magma/test-support";
import { runTool, stopToolRuns, type ToolRun } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `variable "x" {
  default = 1
}
`;

/** What a run printed, the parser's message after each "Error parsing <file>: " blanked. */
function comparable(run: ToolRun): { code: number | null; stdout: string; stderr: string } {
  return { code: run.code, stdout: run.stdout, stderr: run.stderr.replace(/^(│ Error: Error parsing \S+): .*$/gm, "$1: <parser message>") };
}

interface Case {
  readonly name: string;
  /** The main file's text (TF_CLI_CONFIG_FILE), or undefined for none (then ~/.terraform.d is read). */
  readonly main?: string;
  /** Files of ~/.terraform.d (a name ending in "/" is a directory). */
  readonly dir?: Readonly<Record<string, string>>;
  /** The problems terraform reports (before blanking). */
  readonly problems: readonly RegExp[];
}

const SYNTAXES: readonly (readonly [string, { readonly config: Record<string, string>; readonly cases: readonly Case[] }])[] = [
  [
    "native syntax",
    {
      config: { "main.tf": MAIN },
      cases: [
        { name: "two credentials_helper blocks", main: 'credentials_helper "a" {\n  args = []\n}\ncredentials_helper "b" {\n  args = ["x"]\n}\n', problems: [/No more than one credentials_helper block may be specified/] },
        { name: "a broken main file", main: 'credentials_helper "a" {\n  args = [\n}\n', problems: [/Error parsing \S+cli\.tfrc: /] },
        {
          name: "two provider_installation blocks (written natively: terraform's decoder refuses the block in JSON)",
          main: 'provider_installation {\n  filesystem_mirror {\n    path = "/nonexistent-mirror"\n  }\n}\nprovider_installation {\n  direct {}\n}\n',
          problems: [/No more than one provider_installation block may be specified/],
        },
        {
          name: "a broken .tfrc and a directory named .tfrc in ~/.terraform.d",
          dir: { "a.tfrc/": "", "broken.tfrc": 'plugin_cache_dir = "/x"\nhost "example.com" {\n' },
          problems: [/Error reading \S+a\.tfrc: read \S+a\.tfrc: is a directory/, /Error parsing \S+broken\.tfrc: /],
        },
      ],
    },
  ],
  [
    "JSON syntax",
    {
      config: { "main.tf.json": tfToJson(MAIN) },
      cases: [
        { name: "two credentials_helper blocks", main: '{"credentials_helper": {"a": {"args": []}, "b": {"args": ["x"]}}}\n', problems: [/No more than one credentials_helper block may be specified/] },
        { name: "a broken main file", main: '{"credentials_helper" 1}\n', problems: [/Error parsing \S+cli\.tfrc: /] },
        {
          name: "two provider_installation blocks (written natively: terraform's decoder refuses the block in JSON)",
          main: 'provider_installation {\n  filesystem_mirror {\n    path = "/nonexistent-mirror"\n  }\n}\nprovider_installation {\n  direct {}\n}\n',
          problems: [/No more than one provider_installation block may be specified/],
        },
        { name: "a broken .tfrc.json in ~/.terraform.d", dir: { "broken.tfrc.json": '{"credentials_helper" 1}\n' }, problems: [/Error parsing \S+broken\.tfrc\.json: /] },
      ],
    },
  ],
];

(TERRAFORM !== undefined ? describe : describe.skip)("CLI configuration problems beside terraform's", () => {
  describe.each(SYNTAXES)("%s", (_syntax, { config, cases }) => {
    // every case's pair of runs at once (each a short init with nothing to install)
    let runs: Promise<[ToolRun, ToolRun][]>;
    beforeAll(() => {
      runs = Promise.all(
        cases.map((c) => {
          const home = workdir();
          mkdirSync(join(home, ".terraform.d"));
          for (const [name, text] of Object.entries(c.dir ?? {})) {
            if (name.endsWith("/")) mkdirSync(join(home, ".terraform.d", name));
            else writeFileSync(join(home, ".terraform.d", name), text);
          }
          let cliFile = "";
          if (c.main !== undefined) {
            cliFile = join(home, "cli.tfrc");
            writeFileSync(cliFile, c.main);
          }
          const env = { HOME: home, TF_CLI_CONFIG_FILE: cliFile };
          return Promise.all([runTool("magma", ["init", "-no-color"], workdir({ ...config }), env), runTool("terraform", ["init", "-no-color"], workdir({ ...config }), env)]);
        }),
      );
    });

    test.each(cases.map((c, i) => [c.name, i] as const))("%s: reported as terraform reports it, and init goes on", async (_name, i) => {
      const [ours, theirs] = (await runs)[i]!;
      const c = cases[i]!;
      expect(theirs.code).toBe(0);
      expect(theirs.stderr.startsWith("There are some problems with the CLI configuration:\n╷\n│ Error: ")).toBe(true);
      expect(theirs.stderr.endsWith("╵\n\nAs a result of the above problems, Terraform may not behave as intended.\n\n\n")).toBe(true);
      for (const p of c.problems) {
        expect(theirs.stderr).toMatch(p);
        expect(ours.stderr).toMatch(p);
      }
      expect(comparable(ours)).toEqual(comparable(theirs));
    }, 300_000);
  });
});

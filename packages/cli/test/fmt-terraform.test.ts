// magma fmt through the built binary beside terraform fmt 1.11.4 on the same files: a corpus
// of tricky inputs (test/testdata/fmt: heredocs, comments and their alignment, unicode keys,
// CRLF, a BOM, tabs, unquoted and escaped labels, "${…}" unwrapping, legacy type names,
// .tfvars and .tftest.hcl) formatted in place, listed, diffed and checked, from stdin, and
// the error cases (a file that does not parse, a missing path, a JSON file, bad flag values):
// stdout, stderr, exit code and the files written must be identical. Skipped without terraform.
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, removeWorkdirs, workdir } from "./support/workdir.js";

const corpus = join(dirname(fileURLToPath(import.meta.url)), "testdata", "fmt");
const it_ = TERRAFORM === undefined ? it.skip : it;
const TIMEOUT = 180_000;

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

/** Every file under `dir` (relative path → text). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "latin1");
    }
  };
  walk(dir);
  return out;
}

/** A copy of the corpus with a subdirectory holding a nested file, a file that does not parse, and files fmt ignores. */
function corpusCopy(): string {
  const dir = workdir({
    "sub/nested.tf": 'module  "m"{\nsource="./x"\n}\n',
    "sub/bad.tf": "locals {\n  a = \n}\n",
    "sub/.hidden/h.tf": "a=1\n",
    "sub/backup.tf~": "a=1\n",
    "sub/conf.tf.json": "{}\n",
    "cli.tfrc": "",
  });
  cpSync(corpus, dir, { recursive: true });
  return dir;
}

/** Runs `fmt ARGS` with terraform and magma on copies of the corpus and expects the same output, exit code and files. */
async function sameAsTerraform(args: readonly string[], stdin?: string): Promise<{ code: number | null; stdout: string }> {
  const [a, b] = [corpusCopy(), corpusCopy()];
  const env = { TF_CLI_CONFIG_FILE: join(a, "cli.tfrc") };
  const opts = stdin === undefined ? {} : { stdin };
  const [theirs, ours] = await Promise.all([runTool("terraform", ["fmt", ...args], a, env, opts), runTool("magma", ["fmt", ...args], b, env, opts)]);
  expect({ code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
  expect(tree(b)).toEqual(tree(a));
  return theirs;
}

describe("magma fmt beside terraform fmt", () => {
  it_("formats the corpus in place, recursively, listing the files and reporting the file that does not parse (exit 2)", async () => {
    const r = await sameAsTerraform(["-no-color", "-recursive"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("heredocs.tf");
  }, TIMEOUT);

  it_("-check -diff lists and diffs without writing (exit 3); the working directory alone without -recursive", async () => {
    expect((await sameAsTerraform(["-no-color", "-check", "-diff"])).code).toBe(3);
    await sameAsTerraform(["-no-color", "-check", "-list=false"]);
  }, TIMEOUT);

  it_("-write=false -list=false prints each file formatted; named files and directories", async () => {
    await sameAsTerraform(["-no-color", "-write=false", "-list=false", "labels.tf", "unwrap.tf", "sub"]);
    await sameAsTerraform(["-no-color", "-diff", "sub/nested.tf", "run.tftest.hcl", "vars.tfvars"]);
  }, TIMEOUT);

  it_("reads stdin for -, also with -check; a stdin that does not parse shows its snippet", async () => {
    const text = readFileSync(join(corpus, "expressions.tf"), "utf8");
    await sameAsTerraform(["-no-color", "-"], text);
    expect((await sameAsTerraform(["-no-color", "-check", "-"], text)).code).toBe(3);
    expect((await sameAsTerraform(["-no-color", "-"], "a = \n")).code).toBe(2);
  }, TIMEOUT);

  it_("errors: a missing path, a JSON file, a bad boolean, an unknown flag", async () => {
    expect((await sameAsTerraform(["-no-color", "nope"])).code).toBe(2);
    expect((await sameAsTerraform(["-no-color", "sub/conf.tf.json"])).code).toBe(2);
    expect((await sameAsTerraform(["-no-color", "-write=maybe"])).code).toBe(1);
    expect((await sameAsTerraform(["-no-color", "-bogus"])).code).toBe(1);
  }, TIMEOUT);
});


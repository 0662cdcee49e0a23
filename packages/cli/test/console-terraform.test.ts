// magma console beside terraform 1.11.4 console, piped stdin, on the same configuration in
// both syntaxes: before any apply (resources unknown) and after each tool applied it with its
// own state (seeded random_integer and random_shuffle, whose results are the same in both;
// a random_password, whose result is sensitive). Each run's stdout, stderr and exit code are
// compared: values of every kind as terraform's console prints them, the console-only
// type() (also nested in an expression: terraform's error), -plan (planned objects), a required variable without a value (unknown), -var, `exit`, `help`, and the
// refusals (an invalid reference, an undeclared resource, a parse error, the first error of
// several lines). Skipped without terraform.
import { tfToJson } from "@magma/test-support";
import { initialisedPair, pairCliConfig, runPair, type Pair } from "./support/lang-pair.js";
import { runTool, stopToolRuns } from "./support/side-by-side.js";
import { TERRAFORM, copyWorkdir, removeWorkdirs } from "./support/workdir.js";

afterAll(() => {
  stopToolRuns();
  removeWorkdirs();
});

const MAIN = `terraform {
  required_providers {
    random = { source = "magma/random" }
  }
}
variable "req" {
  type = number
}
variable "greeting" {
  default = "hello"
}
locals {
  l = [1, 2, "a"]
  m = { b = true, a = null }
}
resource "random_integer" "n" {
  count = 2
  min   = 1
  max   = 1000
  seed  = "s\${count.index}"
}
resource "random_shuffle" "s" {
  for_each     = toset(["x", "y"])
  input        = ["a", "b", "c"]
  result_count = 2
  seed         = each.key
}
resource "random_password" "p" {
  length = 8
}
module "m" {
  source = "./m"
  n      = random_integer.n[0].result
}
`;

const MODULE = `variable "n" {
  type = number
}
output "out" {
  value = "n is \${var.n}\\nsecond line"
}
`;

const LINES: readonly (readonly [string, string])[] = [
  ["resources, module output, unset variable", "random_integer.n\nrandom_shuffle.s\nmodule.m\nvar.req\n"],
  ["a count resource", "random_integer.n\n"],
  ["a for_each resource", "random_shuffle.s\n"],
  ["a sensitive attribute", "random_password.p\n"],
  ["a module output (heredoc)", "module.m.out\n"],
  ["an unset required variable", "var.req\n"],
  ["a for expression", "[for k, v in random_shuffle.s : v.result]\n"],
  ["type()", "type(random_integer.n[0])\n"],
  ["typed values", 'tomap({ a = tolist(["x"]), b = tolist([]) })\n'],
  ["nulls and sets", "[tostring(null), null, toset([2, 1]), local.m]\n"],
  ["path and workspace", "[path.module, path.root, terraform.workspace]\n"],
  ["help", "help\n"],
  ["exit before an error", "local.l\nexit\n1 +\n"],
  ["an invalid reference", "local.l\nfoo\nlocal.l\n"],
  ["an undeclared resource", "random_integer.q\n"],
  ["a parse error", "1 +\n"],
  ["an evaluation error", 'tonumber("x")\n'],
];

/**
 * The console-only type() as the whole value (also in parentheses, a conditional, a template of
 * one interpolation) and inside an expression (terraform's "Invalid use of type function"; a
 * function that drops the mark, as length(), is fine), and its argument errors.
 */
const TYPE_LINES: readonly string[] = [
  "type(local.m)\n",
  "(type(local.l))\n",
  'true ? type(local.l) : type("a")\n',
  '"${type(var.greeting)}"\n',
  "type(null)\n",
  "length([type(1)])\n",
  "[type(1)]\n",
  "{ a = type(local.l) }\n",
  "type(local.m) == type(1)\n",
  "jsonencode(type(1))\n",
  "type(1)[0]\n",
  "type()\n",
  "type(1, 2)\n",
  "type(1)\n[type(1)]\nlocal.l\n",
];

async function consolePair(pair: Pair, input: string, args: readonly string[] = []): Promise<void> {
  const [ours, theirs] = await Promise.all([
    runTool("magma", ["console", "-no-color", ...args], pair[0], {}, { stdin: input }),
    runTool("terraform", ["console", "-no-color", ...args], pair[1], { TF_CLI_CONFIG_FILE: pairCliConfig() }, { stdin: input }),
  ]);
  // Every run prints something but one that exits first.
  if (!input.includes("exit")) expect(theirs.stdout + theirs.stderr).not.toBe("");
  expect({ input, code: ours.code, stdout: ours.stdout, stderr: ours.stderr }).toEqual({ input, code: theirs.code, stdout: theirs.stdout, stderr: theirs.stderr });
}

(TERRAFORM !== undefined ? describe : describe.skip)("console beside terraform's", () => {
  describe.each([
    ["native syntax", { "main.tf": MAIN, "m/main.tf": MODULE }],
    ["JSON syntax", { "main.tf.json": tfToJson(MAIN), "m/main.tf.json": tfToJson(MODULE) }],
  ])("%s", (_name, files) => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await initialisedPair(files);
    }, 300_000);

    test("before any apply: resources in the configuration but not in state are unknown", async () => {
      await consolePair(pair, "[random_integer.n, module.m.out, local.l, var.greeting]\n");
    }, 300_000);

    test("-plan before any apply: the planned objects (unknown where the provider computes), a variable without a value unknown", async () => {
      const runs: readonly (readonly [string, readonly string[]])[] = [
        ["random_integer.n[0]\n", ["-plan", "-var", "req=1"]],
        ["module.m\n", ["-plan", "-var", "req=1"]],
        ["random_shuffle.s\n", ["-plan"]],
        ["var.req\n", ["-plan"]],
      ];
      const copies = [0, 1].map(() => [copyWorkdir(pair[0]), copyWorkdir(pair[1])] as const);
      await Promise.all(
        copies.map(async (copy, c) => {
          for (let i = c; i < runs.length; i += copies.length) await consolePair(copy, runs[i]![0], runs[i]![1]);
        }),
      );
    }, 600_000);

    test("type(): the whole value printed as a type, inside an expression an error", async () => {
      const copies = [0, 1].map(() => [copyWorkdir(pair[0]), copyWorkdir(pair[1])] as const);
      await Promise.all(
        copies.map(async (copy, c) => {
          for (let i = c; i < TYPE_LINES.length; i += copies.length) await consolePair(copy, TYPE_LINES[i]!);
        }),
      );
    }, 600_000);

    test("after an apply: every line as terraform's console prints it", async () => {
      const applied = await runPair(pair, [["apply", "-auto-approve", "-var", "req=1"]]);
      for (const [o, t] of applied) expect([o.code, t.code]).toEqual([0, 0]);
      const lines = _name === "native syntax" ? LINES : LINES.slice(0, 1);
      // Four copies of the pair, each running a quarter of the lines (a console holds its directory's state lock).
      const runs: (readonly [string, readonly string[]])[] = [...lines.map(([, input]) => [input, []] as const), ["var.req\n", ["-var", "req=7"]], ["[random_integer.n[1].result, random_password.p.length]\n", ["-plan", "-var", "req=1"]]];
      const copies = [0, 1, 2, 3].map(() => [copyWorkdir(pair[0]), copyWorkdir(pair[1])] as const);
      await Promise.all(
        copies.map(async (copy, c) => {
          for (let i = c; i < runs.length; i += copies.length) await consolePair(copy, runs[i]![0], runs[i]![1]);
        }),
      );
    }, 600_000);
  });
});

// The README's first example block, run as a user would type it: each `magma …` line goes
// to /bin/sh in one working directory (so `> state.json` and `--from state.json` chain),
// with `magma` on PATH running the built executable, and must exit 0. A trailing comment
// such as `# -/+ … # forces replacement` names what the human form shows: the same command
// run with `-o human` must print each `…`-separated part. Lines naming hashicorp/aws are
// skipped where that provider's binary is absent. A `--out FILE` must be JSON with mode 0600.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAGMA_BIN, awsAvailable } from "./support/run-magma.js";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");

/** One example line: the command as the shell sees it, and its trailing comment (if any). */
interface ExampleLine {
  readonly command: string;
  readonly comment: string | undefined;
  readonly aws: boolean;
}

/** The `magma …` lines of the README's first fenced block (backslash continuations joined). */
function exampleLines(): ExampleLine[] {
  const m = /```(?:sh|bash|shell)\n([\s\S]*?)```/.exec(readFileSync(join(pkg, "README.md"), "utf8"));
  if (m === null) throw new Error("README.md has no ```sh example block");
  return m[1]!
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("magma "))
    .map((l) => {
      const { command, comment } = splitComment(l);
      return { command, comment, aws: /\baws\b/.test(command) };
    });
}

/** Splits a shell line at its comment: a `#` outside quotes that starts a word. */
function splitComment(line: string): { command: string; comment: string | undefined } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { command: line, comment: undefined };
}

let work: string;
let env: Record<string, string | undefined>;

beforeAll(() => {
  if (!existsSync(MAGMA_BIN)) throw new Error(`build first: ${MAGMA_BIN} is missing`);
  work = mkdtempSync(join(tmpdir(), "magma-readme-"));
  const bin = join(work, "bin");
  mkdirSync(bin);
  const shim = join(bin, "magma");
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(MAGMA_BIN)} "$@"\n`);
  chmodSync(shim, 0o755);
  env = { ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}`, XDG_CACHE_HOME: join(work, "cache"), MAGMA_PLUGIN_DIRS: undefined, FORCE_COLOR: undefined, NO_COLOR: undefined };
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(command: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync("/bin/sh", ["-c", command], { cwd: work, env, encoding: "utf8", timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("the README's example block has the native random lifecycle and the hashicorp/aws schema line", () => {
  const lines = exampleLines();
  expect(lines.filter((l) => !l.aws).length).toBeGreaterThanOrEqual(4);
  expect(lines.filter((l) => l.aws).length).toBeGreaterThanOrEqual(1);
});

function check(line: ExampleLine): void {
  const r = sh(line.command);
  if (r.code !== 0) throw new Error(`\`${line.command}\` exited ${r.code}\n--- stderr\n${r.stderr}`);
  // Output redirected to a file is the JSON form.
  const to = /> *(\S+)\s*$/.exec(line.command)?.[1];
  // A --out file is the full JSON output, readable by its owner only.
  const outFile = /--out +(\S+)/.exec(line.command)?.[1];
  if (outFile !== undefined) {
    expect(statSync(join(work, outFile)).mode & 0o777).toBe(0o600);
    expect(() => JSON.parse(readFileSync(join(work, outFile), "utf8")) as unknown).not.toThrow();
  }
  if (to !== undefined) expect(() => JSON.parse(readFileSync(join(work, to), "utf8")) as unknown).not.toThrow();
  else if (line.comment !== undefined) {
    const human = sh(`${line.command} -o human`);
    if (human.code !== 0) throw new Error(`\`${line.command} -o human\` exited ${human.code}\n--- stderr\n${human.stderr}`);
    for (const part of line.comment.split("…").map((s) => s.trim()).filter((s) => s !== "")) expect(human.stdout).toContain(part);
  }
}

// In README order: later lines read the files earlier ones wrote.
describe("each README command with the native random provider exits 0", () => {
  test.each(exampleLines().filter((l) => !l.aws).map((l) => [l.command, l] as const))("%s", (_name, line) => check(line));
});

describe("each README command with hashicorp/aws exits 0", () => {
  (awsAvailable ? test : test.skip).each(exampleLines().filter((l) => l.aws).map((l) => [l.command, l] as const))("%s", (_name, line) => check(line));
});

// Function rows of `pnpm bench` for @magma/hcl (issue 33: no quadratic or unbounded work on
// ordinary input), run by hcl-bench.mjs. Each row times one call against a baseline that does
// the same amount of plain work, so the ratio shows the function's overhead per byte:
//  - length / substr / strrev / format("%-Ns") of a 1 MB string (grapheme clusters) against
//    one second, the bound of issue 33 (target: half of it; terraform does length() of 1 MB
//    in 0.28 s, magma's Intl.Segmenter-based version took minutes);
//  - fileset(".", "a/*.tf") in a directory whose sibling subtree holds 20,000 files against
//    listing the whole tree, as the walk did before it visited only what can match;
//  - file() and filemd5() of a named pipe: refused at once (terraform blocks forever), against
//    file() of a small regular file.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { numberVal, stringVal } from "@magma/cty";
import { callFunction, terraformFunctions } from "../dist/index.js";

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn, iterations) {
  fn();
  const runs = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

/** The function rows: `{ name, value, baseline, target }` in milliseconds. */
export function functionRows(iterations = 5) {
  const dir = mkdtempSync(join(tmpdir(), "magma-fn-bench-"));
  try {
    const fns = terraformFunctions({ baseDir: dir, plan: false });
    const call = (name, ...args) => callFunction(fns.get(name), args);
    const text = "héllo wörld 🇩🇪 👨‍👩‍👧 ".repeat(Math.ceil(1e6 / 32)).slice(0, 1_000_000);
    const big = stringVal(text);
    const mb = (Buffer.byteLength(text) / 1e6).toFixed(2);
    const SECOND = 1000;
    const rows = [
      { name: `length() of a ${mb} MB string vs one second`, value: time(() => call("length", big), iterations), baseline: SECOND, target: 0.5 },
      { name: `substr(s, 1000, -1) of a ${mb} MB string vs one second`, value: time(() => call("substr", big, numberVal(1000), numberVal(-1)), iterations), baseline: SECOND, target: 0.5 },
      { name: `strrev() of a ${mb} MB string vs one second`, value: time(() => call("strrev", big), iterations), baseline: SECOND, target: 0.5 },
      { name: `format("%-2000000s") of a ${mb} MB string vs one second`, value: time(() => call("format", stringVal("%-2000000s"), big), iterations), baseline: SECOND, target: 0.5 },
    ];

    // fileset: the named directory holds 10 files; a sibling subtree 20,000.
    mkdirSync(join(dir, "a"));
    for (let i = 0; i < 10; i++) writeFileSync(join(dir, "a", `f${i}.tf`), "");
    for (let d = 0; d < 200; d++) {
      mkdirSync(join(dir, "big", `d${d}`), { recursive: true });
      for (let i = 0; i < 100; i++) writeFileSync(join(dir, "big", `d${d}`, `f${i}.tf`), "");
    }
    rows.push({
      name: 'fileset(".", "a/*.tf") beside a 20,000-file subtree vs listing the whole tree',
      value: time(() => call("fileset", stringVal("."), stringVal("a/*.tf")), iterations),
      baseline: time(() => readdirSync(dir, { recursive: true }), iterations),
      target: 0.1,
    });

    // file() and filemd5() of a named pipe with no writer: refused, not blocked on.
    execFileSync("mkfifo", [join(dir, "pipe")]);
    writeFileSync(join(dir, "small.txt"), "hello\n");
    const refused = (name) => () => {
      try {
        call(name, stringVal("pipe"));
      } catch {
        return;
      }
      throw new Error(`${name} read a named pipe`);
    };
    const smallFile = time(() => call("file", stringVal("small.txt")), iterations);
    rows.push({ name: "file() of a named pipe (refused) vs file() of a small file", value: time(refused("file"), iterations), baseline: smallFile, target: 10 });
    rows.push({ name: "filemd5() of a named pipe (refused) vs file() of a small file", value: time(refused("filemd5"), iterations), baseline: smallFile, target: 10 });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

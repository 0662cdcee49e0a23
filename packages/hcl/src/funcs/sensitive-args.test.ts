// Every function, called with each argument in turn marked sensitive, over a table of
// argument values chosen to reach the functions' error paths (malformed CIDRs, timestamps,
// durations, base64, UUIDs, keys that are absent, …): an error never quotes the sensitive
// argument (issue 33: terraform's own `cidrhost`, `timeadd`, `parseint`, … do; magma
// redacts every one), and a result is still marked sensitive (the mark is never dropped).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Mark,
  boolVal,
  convert,
  listVal,
  mapType,
  mapVal,
  numberVal,
  objectVal,
  setVal,
  stringType,
  stringVal,
  tupleVal,
  type Value,
} from "@magma/cty";
import { callFunction } from "../call-function.js";
import { isFunctionError, type HclFunction } from "../function.js";
import { terraformFunctions } from "./index.js";

const baseDir = mkdtempSync(join(tmpdir(), "magma-sensitive-args-"));
writeFileSync(join(baseDir, "plain.txt"), "hello");
writeFileSync(join(baseDir, "binary.bin"), Buffer.from([0xff, 0xfe, 0x00]));

// Secrets: each contains a word that no message has of its own accord.
const SECRET_WORDS = ["s3cr3tQ", "987654321"];
const secrets: Value[] = [
  stringVal("s3cr3tQ"),
  stringVal("10.0.0.0/s3cr3tQ"),
  stringVal("2020-01-01Ts3cr3tQ"),
  stringVal("s3cr3tQ.txt"),
  stringVal("%s3cr3tQ"),
  numberVal("987654321.5"),
  numberVal(987654321),
  listVal([stringVal("s3cr3tQ"), stringVal("b")]),
  mapVal({ s3cr3tQ: stringVal("v"), k: stringVal("s3cr3tQ") }),
  objectVal({ length: numberVal(987654321), s3cr3tQ: stringVal("s3cr3tQ") }),
  tupleVal([stringVal("s3cr3tQ"), numberVal(987654321)]),
  listVal([boolVal(true), boolVal(false)]),
  mapVal({ s3cr3tQ: listVal([stringVal("s3cr3tQ")]) }),
];

// Ordinary values for the other arguments: valid ones, so the sensitive argument's own
// checks are reached, and a few invalid ones.
const plain: Value[] = [
  stringVal("10.1.0.0/16"),
  stringVal("2018-01-02T23:12:01Z"),
  stringVal("1h"),
  stringVal("a"),
  stringVal("plain.txt"),
  stringVal("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
  numberVal(2),
  numberVal(-1),
  boolVal(true),
  listVal([stringVal("a"), stringVal("b")]),
  mapVal({ a: stringVal("x") }),
  objectVal({ a: numberVal(1) }),
  setVal([numberVal(1), numberVal(2)]),
];

function paramOf(fn: HclFunction, i: number): HclFunction["params"][number] {
  return fn.params[i] ?? fn.varParam!;
}

function leaks(message: string): boolean {
  return SECRET_WORDS.some((w) => message.includes(w)) || message.includes("9.87654321");
}

// Functions whose purpose is to look at or remove the mark.
const MARK_READERS = new Set(["issensitive", "nonsensitive"]);
// Arguments whose marks reach the result only when they are the result: terraform's
// `lookup({a = "x"}, "a", sensitive("d"))` is "x", not sensitive.
const UNUSED_WHEN_FOUND = new Set(["lookup:2"]);

const functions = [...terraformFunctions({ baseDir, plan: false })].filter(([name]) => !["bcrypt", "timestamp", "uuid", "plantimestamp"].includes(name));

describe.each(functions.map(([name, fn]) => [name, fn] as const))("%s", (name, fn) => {
  it("never quotes a sensitive argument and keeps the mark on its result", () => {
    const arity = fn.params.length + (fn.varParam !== undefined ? 1 : 0);
    let errors = 0;
    let results = 0;
    for (let i = 0; i < arity; i++) {
      for (const secret of secrets) {
        let sensitiveArg: Value;
        try {
          sensitiveArg = convert(secret, paramOf(fn, i).type).mark(Mark.Sensitive);
        } catch {
          continue;
        }
        // The other arguments: every combination of up to two positions over the plain pool.
        const others = [...Array(arity).keys()].filter((j) => j !== i);
        const combos: Value[][] = [[]];
        for (const j of others) {
          const next: Value[][] = [];
          for (const c of combos) {
            for (const p of plain) {
              try {
                next.push([...c, convert(p, paramOf(fn, j).type)]);
              } catch {
                // not a value of this parameter's type
              }
            }
          }
          combos.splice(0, combos.length, ...next.slice(0, 200));
        }
        for (const c of combos) {
          const args = [...c];
          args.splice(i, 0, sensitiveArg);
          try {
            const r = callFunction(fn, args);
            results++;
            if (!MARK_READERS.has(name) && !UNUSED_WHEN_FOUND.has(`${name}:${i}`) && !r.containsMarked()) {
              throw new Error(`${name}(${args.map(String).join(", ")}) = ${String(r)} lost the sensitive mark`);
            }
          } catch (e) {
            if (!isFunctionError(e)) throw e;
            errors++;
            if (leaks(e.message)) throw new Error(`${name}(${args.map(String).join(", ")}) quotes a secret: ${e.message}`);
          }
        }
      }
    }
    expect(errors + results).toBeGreaterThan(0);
  });
});

describe("redacted messages", () => {
  const fns = terraformFunctions({ baseDir, plan: false });
  const secret = stringVal("s3cr3tQ").mark(Mark.Sensitive);
  const message = (name: string, args: Value[]): string => {
    try {
      callFunction(fns.get(name)!, args);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error(`${name} did not fail`);
  };

  it("reads as terraform's (sensitive value) where terraform redacts", () => {
    expect(message("base64decode", [secret])).toBe("failed to decode base64 data (sensitive value)");
    expect(message("lookup", [convert(mapVal({ a: stringVal("x") }), mapType(stringType)), secret])).toBe("lookup failed to find key (sensitive value)");
  });

  it("replaces the quotation in messages terraform leaks (cidrhost, parseint, timeadd, uuidv5)", () => {
    expect(message("cidrhost", [secret, numberVal(1)])).toBe("invalid CIDR expression: invalid CIDR address: (sensitive value)");
    expect(message("parseint", [secret, numberVal(10)])).toBe("cannot parse (sensitive value) as a base 10 integer");
    expect(message("timeadd", [secret, stringVal("1h")])).toBe("not a valid RFC3339 timestamp: cannot use (sensitive value) as year");
    expect(message("timeadd", [stringVal("2020-01-01T00:00:00Z"), secret])).toBe("time: invalid duration (sensitive value)");
    expect(message("uuidv5", [secret, stringVal("x")])).toBe("uuidv5() doesn't support namespace (sensitive value) (invalid UUID length: 7)");
  });

  it("leaves messages about other arguments alone", () => {
    expect(message("cidrhost", [stringVal("nope"), numberVal(1).mark(Mark.Sensitive)])).toBe("invalid CIDR expression: invalid CIDR address: nope");
  });
});

// Every function, called with many kinds of arguments (converted to the parameter types as
// the evaluator does), either returns a value of its declared result type or fails with a
// FunctionError/FunctionArgError — never another exception, never a hang.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  conforms,
  boolVal,
  convert,
  dynamicType,
  emptyObjectVal,
  emptyTupleVal,
  listType,
  listVal,
  mapType,
  mapVal,
  nullVal,
  numberType,
  numberVal,
  objectVal,
  setVal,
  stringType,
  stringVal,
  tupleVal,
  unknownVal,
  type Value,
} from "@magma/cty";
import { callFunction, functionReturnType } from "../call-function.js";
import { isFunctionError } from "../function.js";
import { terraformFunctions } from "./index.js";

const baseDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "testdata", "corpus");

const samples: Value[] = [
  stringVal("a,b"),
  stringVal(""),
  stringVal("10.0.0.0/8"),
  stringVal("2018-01-02T23:12:01Z"),
  stringVal('{"a": [1, "x"]}'),
  numberVal(2),
  numberVal("-1.5"),
  boolVal(true),
  nullVal(dynamicType),
  nullVal(stringType),
  unknownVal(stringType),
  unknownVal(numberType),
  unknownVal(dynamicType),
  unknownVal(listType(stringType)),
  listVal([stringVal("x"), unknownVal(stringType)]),
  tupleVal([numberVal(1), stringVal("y"), boolVal(false)]),
  emptyTupleVal,
  emptyObjectVal,
  setVal([stringVal("s"), stringVal("t")]),
  mapVal({ k: listVal([stringVal("v")]) }),
  objectVal({ a: numberVal(1), b: unknownVal(stringType) }),
  stringVal("secret").mark("sensitive"),
  tupleVal([stringVal("p").mark("sensitive"), stringVal("q")]),
  convert(tupleVal([numberVal(1)]), listType(numberType)),
  convert(objectVal({ x: stringVal("1") }), mapType(stringType)),
];

function argsFor(arity: number, seed: number): Value[] {
  const out: Value[] = [];
  let x = seed;
  for (let i = 0; i < arity; i++) {
    out.push(samples[x % samples.length]!);
    x = Math.floor(x / samples.length) + i * 7 + 3;
  }
  return out;
}

const functions = [...terraformFunctions({ baseDir, plan: true })];

describe.each(functions.map(([name, fn]) => [name, fn] as const))("%s", (_name, fn) => {
  it("returns a value or a function error for any arguments", () => {
    let calls = 0;
    const arities = new Set([fn.params.length, ...(fn.varParam !== undefined ? [fn.params.length + 1, fn.params.length + 2] : [])]);
    for (const arity of arities) {
      for (let seed = 0; seed < 400; seed++) {
        const raw = argsFor(arity, seed * 13 + arity);
        let args: Value[];
        try {
          args = raw.map((v, i) => convert(v, (fn.params[i] ?? fn.varParam!).type));
        } catch {
          continue; // the evaluator would report the conversion
        }
        calls++;
        try {
          const r = callFunction(fn, args);
          const want = functionReturnType(fn, args);
          if (!conforms(r.type, want)) throw new Error(`${_name}(${args.map(String).join(", ")}) returned ${String(r)}, not of its type`);
        } catch (e) {
          if (!isFunctionError(e)) throw new Error(`${_name}(${args.map(String).join(", ")}) threw ${String(e)}`, { cause: e });
        }
      }
    }
    expect(calls).toBeGreaterThan(fn.params.length === 0 && fn.varParam === undefined ? 0 : 10);
  });
});

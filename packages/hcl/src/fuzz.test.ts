import { listVal, objectVal, stringType, stringVal, unknownVal } from "@magma/cty";
import * as lib from "./index.js";
import type { EvalScope } from "./scope.js";

interface FuzzModule {
  rng(seed: number): () => number;
  input(rand: () => number): string;
  fuzzOne(l: typeof lib, text: string, scope: EvalScope): void;
}

// A few thousand cases of scripts/fuzz.mjs's generator (the script runs ≥100k by hand).
test("fuzzed inputs give diagnostics or values, never exceptions", async () => {
  const fuzz = (await import("../scripts/fuzz.mjs" as string)) as FuzzModule;
  const scope: EvalScope = {
    variables: { x: objectVal({ y: listVal([stringVal("s")]) }), var: objectVal({ v: unknownVal(stringType) }), a: stringVal("a").mark("sensitive") },
    functions: new Map(),
  };
  const rand = fuzz.rng(20261201);
  for (let i = 0; i < 3000; i++) fuzz.fuzzOne(lib, fuzz.input(rand), scope);
}, 300_000);

// Fixture: preloaded with NODE_OPTIONS=--import=<this file>; writes the V8 young generation's
// size (new_space's space_size, in bytes) when the process starts and when it exits, and
// whether V8 would still optimise a function with TurboFan at exit, as JSON
// {"start", "exit", "turbofan"}, to the file named by MAGMA_TEST_HEAP_OUT.
import { writeFileSync } from "node:fs";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? -1;
const start = newSpace();
// V8's test intrinsics: a small function asked to be optimised on its next call, and its
// status read back (bit 4: compiled by TurboFan). Parsed now, run at exit, after the bin set its flags.
setFlagsFromString("--allow-natives-syntax");
const optimisationStatus = new Function(`
  function f(a) { return a * 2 + 1; }
  %PrepareFunctionForOptimization(f);
  f(1);
  f(2);
  %OptimizeFunctionOnNextCall(f);
  f(3);
  return %GetOptimizationStatus(f);
`);
process.on("exit", () => {
  const turbofan = (optimisationStatus() & 16) !== 0;
  writeFileSync(process.env.MAGMA_TEST_HEAP_OUT, JSON.stringify({ start, exit: newSpace(), turbofan }));
});

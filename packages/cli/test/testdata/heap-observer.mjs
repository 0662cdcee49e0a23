// Fixture: preloaded with NODE_OPTIONS=--import=<this file>; writes the V8 young generation's
// size (new_space's space_size, in bytes) when the process starts and when it exits, as JSON
// {"start", "exit"}, to the file named by MAGMA_TEST_HEAP_OUT.
import { writeFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";

const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? -1;
const start = newSpace();
process.on("exit", () => {
  writeFileSync(process.env.MAGMA_TEST_HEAP_OUT, JSON.stringify({ start, exit: newSpace() }));
});

// A magma process for the pg crash-test hook test: opens the pg backend and writes one state
// (argv[3]) to workspace "default" (MAGMA_TEST_STATE_WRITE_PAUSE pauses it where the test
// kills it), then prints "written".
// Usage: node pg-write-child.mjs <conn_str> <text>
import { openPgBackend } from "../../dist/index.js";

const [connStr, text] = process.argv.slice(2);
const backend = await openPgBackend({ connStr, env: {} });
await backend.store("default").write(new TextEncoder().encode(text));
console.log("written");
await backend.close();

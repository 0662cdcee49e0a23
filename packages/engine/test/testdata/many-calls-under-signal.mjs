// Plans, applies and plans again 30 memory_item instances (parallelism 10) with a caller's
// AbortSignal, through the built engine; test/no-listener-warning.test.ts reads this process's
// stderr for node's MaxListenersExceededWarning. Argument: a directory holding the configuration.
import { loadConfig } from "@magma/config";
import { createMemoryProvider } from "@magma/provider-api/testing";
import { createEngine } from "../../dist/index.js";

const dir = process.argv[2];
const { config, diags } = loadConfig(dir);
if (diags.some((d) => d.severity === "error")) throw new Error(diags.map((d) => d.summary).join("\n"));
const items = new Map();
const providers = {
  async open() {
    const provider = createMemoryProvider({ items });
    return { provider, schema: await provider.getSchema(), stop: async () => "", close: async () => undefined };
  },
};
const engine = createEngine({ providers, cwd: dir });
const { signal } = new AbortController();
const planned = await engine.plan(config, null, { env: {}, signal });
const applied = await engine.apply(planned, { persist: async () => undefined, signal });
const again = await engine.plan(config, applied.state, { env: {}, signal });
await engine.close();
process.stdout.write(JSON.stringify({ planned: planned.plan.changes.length, state: applied.state.resources.length, again: again.plan.changes.length }) + "\n");

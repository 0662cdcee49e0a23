// Test helper (test/e2e-kill-resume.test.ts): plans a directory with the built engine and
// applies it into the directory's local state, one object at a time, each create delayed —
// so that the parent can SIGKILL this process in the middle of the apply.
// Arguments: <work dir> <item file> <stored-memory-provider module> <delay ms>.
import { createLocalBackend } from "@magma/state";
import { createEngine } from "../../dist/index.js";

const [work, store, providerModule, delay] = process.argv.slice(2);
process.env.MEMORY_PROVIDER_STORE = store;
const { createProvider } = await import(providerModule);

const engine = createEngine({
  cwd: work,
  providers: {
    async open() {
      const p = createProvider();
      const provider = {
        ...p,
        async applyResourceChange(...args) {
          await new Promise((r) => setTimeout(r, Number(delay)));
          return p.applyResourceChange(...args);
        },
      };
      return { provider, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  },
});
const planned = await engine.plan(work, null, { env: {} });
if (planned.hasErrors) {
  console.error(JSON.stringify(planned.diagnostics));
  process.exit(2);
}
console.log("applying");
const result = await engine.apply(planned, { store: createLocalBackend({ dir: work }).store("default"), parallelism: 1 });
await engine.close();
console.log(result.success ? "applied" : "failed");

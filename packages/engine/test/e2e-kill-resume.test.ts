/**
 * An apply killed in the middle (SIGKILL, no chance to clean up) and resumed: a child process
 * applies five objects with the built engine, one at a time, each create delayed; it is
 * killed once the state file holds two of them. The state file left behind must parse and
 * hold every object the provider created (nothing lost), and a fresh plan + apply in this
 * process must converge: exactly five objects in the provider's store, none created twice,
 * and a further plan with no changes.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Provider } from "@magma/provider-api";
import { createLocalBackend, loadState, readStateFile, type StateFile } from "@magma/state";
import { createEngine, type ProviderSource } from "../src/index.js";
import { storedMemoryProvider, tempDir } from "../../provider-server/test/support/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, "support/slow-apply-child.mjs");
const built = existsSync(join(here, "../dist/index.js"));
const d = built ? describe : describe.skip;

const MAIN = `
terraform {
  required_providers {
    memory = { source = "example.com/magma/memory" }
  }
}
resource "memory_item" "n" {
  count = 5
  name  = "n-\${count.index}"
}
`;

function source(store: string): ProviderSource {
  return {
    async open() {
      process.env["MEMORY_PROVIDER_STORE"] = store;
      const mod = (await import(storedMemoryProvider)) as { createProvider(): Provider };
      const p = mod.createProvider();
      return { provider: p, schema: await p.getSchema(), stop: async () => "", close: async () => undefined };
    },
  };
}

/** The ids of the current objects of a state. */
function idsOf(state: StateFile): string[] {
  return state.resources.flatMap((r) => r.instances.filter((i) => i.deposed === undefined).map((i) => (JSON.parse(i.attributesJson ?? "{}") as { id: string }).id)).sort();
}

/** The items the provider holds: id → name. */
function itemsOf(store: string): Map<string, string> {
  const saved = existsSync(store) ? (JSON.parse(readFileSync(store, "utf8")) as { items: Record<string, string> }) : { items: {} };
  return new Map(Object.entries(saved.items).map(([id, json]) => [id, (JSON.parse(json) as { name: string }).name]));
}

/** The state file's object count, or -1 while it is absent or (being replaced and) unreadable. */
function storedCount(path: string): number {
  try {
    const s = readStateFile(readFileSync(path));
    return s === undefined ? -1 : idsOf(s).length;
  } catch {
    return -1;
  }
}

d("an apply killed with SIGKILL resumes", () => {
  let tmp: { dir: string; cleanup(): void };
  afterAll(() => {
    delete process.env["MEMORY_PROVIDER_STORE"];
    tmp?.cleanup();
  });

  test("the state left behind is valid and complete; a fresh plan + apply converges without creating anything twice", async () => {
    tmp = tempDir("e2e-kill-");
    const work = join(tmp.dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "main.tf"), MAIN);
    const store = join(tmp.dir, "items.json");
    const statePath = join(work, "terraform.tfstate");

    // Each create waits 3 s: once two objects are in the state file, the third is waiting.
    const proc = spawn(process.execPath, [child, work, store, storedMemoryProvider, "3000"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    proc.stdout.on("data", (b: Buffer) => (out += b.toString()));
    proc.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<string>((res) => proc.on("exit", (code, signal) => res(signal ?? String(code))));
    const deadline = Date.now() + 120_000;
    while (storedCount(statePath) < 2 && proc.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    proc.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(out).not.toContain("applied");

    // What the killed apply left: a valid state holding every object the provider made.
    const backend = createLocalBackend({ dir: work }).store("default");
    const left = (await loadState(backend))!;
    const made = itemsOf(store);
    expect(idsOf(left).length).toBeGreaterThanOrEqual(2);
    expect(idsOf(left).length).toBeLessThan(5);
    expect(idsOf(left)).toEqual([...made.keys()].sort());

    // Resume: plan against it and apply; the rest is created, nothing twice.
    const engine = createEngine({ providers: source(store), cwd: work });
    try {
      const plan = await engine.plan(work, left, { env: {} });
      expect(plan.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      const creates = plan.plan.changes.filter((c) => c.action === "create").length;
      expect(creates).toBe(5 - idsOf(left).length);
      const applied = await engine.apply(plan, { store: backend });
      expect(applied.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
      expect(applied.success).toBe(true);
      const final = (await loadState(backend))!;
      const items = itemsOf(store);
      expect([...items.values()].sort()).toEqual(["n-0", "n-1", "n-2", "n-3", "n-4"]);
      expect(idsOf(final)).toEqual([...items.keys()].sort());
      expect(final.lineage).toBe(left.lineage);
      expect(final.serial).toBeGreaterThan(left.serial);
      const again = await engine.plan(work, final, { env: {} });
      expect(again.plan.changes.filter((c) => c.action !== "no-op")).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 180_000);
});
